from rpn import calculate, tokenize


def test_division_is_integer():
    assert calculate('7 / 2') == 3


def test_nested_parentheses():
    assert calculate('2 * (3 + (4 - 1)) / 3') == 4


def test_left_associative_division():
    assert calculate('100 / 10 / 5') == 2


def test_tokenize_spaces():
    assert tokenize(' 1 +  22 ') == ['1', '+', '22']
