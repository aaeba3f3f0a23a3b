from rle import compression_ratio, decode, encode


def test_round_trip():
    for text in ['', 'a', 'ab', 'aabbbcccc', 'zzzzzzzzzzzzzzy', 'abcabc']:
        assert decode(encode(text)) == text


def test_long_run_encodes_count():
    assert encode('q' * 15) == 'q15'


def test_alternating_text_grows():
    assert compression_ratio('abab') == 2.0


def test_empty_ratio():
    assert compression_ratio('') == 1.0
