import pytest

from wrap import center, justify, wrap


def test_wrap():
    assert wrap('the quick brown fox jumps', 10) == ['the quick', 'brown fox', 'jumps']


def test_wrap_exact_fit():
    assert wrap('aaaa bbbb', 9) == ['aaaa bbbb']


def test_long_word_alone():
    assert wrap('a verylongword b', 5) == ['a', 'verylongword', 'b']


def test_bad_width():
    with pytest.raises(ValueError):
        wrap('x', 0)


def test_center():
    assert center('ab', 7, '*') == '**ab***'


def test_justify():
    assert justify('a bb c', 10) == 'a   bb   c'
