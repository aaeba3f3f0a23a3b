import pytest

from rle import compression_ratio, decode, encode


def test_encode_runs():
    assert encode('aaabbc') == 'a3b2c1'


def test_encode_empty():
    assert encode('') == ''


def test_encode_single_char():
    assert encode('z') == 'z1'


def test_decode_runs():
    assert decode('a3b2c1') == 'aaabbc'


def test_decode_multi_digit_count():
    assert decode('x12') == 'x' * 12


def test_decode_rejects_missing_count():
    with pytest.raises(ValueError):
        decode('ab2')


def test_ratio_of_repetitive_text():
    assert compression_ratio('aaaaaaaaaa') == 0.3
