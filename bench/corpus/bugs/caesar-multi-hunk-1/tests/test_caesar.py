from caesar import decrypt, encrypt, shift_char, vigenere


def test_shift_lowercase():
    assert shift_char('a', 3) == 'd'


def test_shift_wraps_around():
    assert shift_char('y', 3) == 'b'


def test_shift_uppercase():
    assert shift_char('Z', 1) == 'A'


def test_punctuation_unchanged():
    assert encrypt('hi, you!', 1) == 'ij, zpv!'


def test_decrypt_reverses():
    assert decrypt('Khoor', 3) == 'Hello'


def test_vigenere():
    assert vigenere('attack at dawn', 'lemon') == 'lxfopv ef rnhr'
