from caesar import decrypt, encrypt, vigenere


def test_round_trip_all_shifts():
    text = 'The Quick Brown Fox, 42!'
    for shift in range(-30, 30):
        assert decrypt(encrypt(text, shift), shift) == text


def test_large_shift():
    assert encrypt('abc', 27) == 'bcd'


def test_vigenere_uppercase_key_and_text():
    assert vigenere('ATTACK', 'LEMON') == 'LXFOPV'


def test_vigenere_skips_spaces_in_key_position():
    assert vigenere('a a', 'bc') == 'b c'
