import pytest

from rpn import calculate, evaluate_postfix, to_postfix, tokenize


def test_tokenize_multi_digit():
    assert tokenize('12+3') == ['12', '+', '3']


def test_tokenize_rejects_letters():
    with pytest.raises(ValueError):
        tokenize('1 + x')


def test_postfix_precedence():
    assert to_postfix(['1', '+', '2', '*', '3']) == ['1', '2', '3', '*', '+']


def test_evaluate_postfix():
    assert evaluate_postfix(['5', '1', '2', '+', '4', '*', '+', '3', '-']) == 14


def test_calculate_parentheses():
    assert calculate('(1 + 2) * 4') == 12


def test_left_associative_subtraction():
    assert calculate('10 - 4 - 3') == 3
