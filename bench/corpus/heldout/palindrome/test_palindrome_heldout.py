from palindrome import is_palindrome, longest_palindrome


def test_empty_and_single():
    assert is_palindrome('')
    assert is_palindrome('x')
    assert longest_palindrome('') == ''
    assert longest_palindrome('q') == 'q'


def test_two_chars():
    assert is_palindrome('aa')
    assert not is_palindrome('ab')


def test_longest_at_end():
    assert longest_palindrome('abcdeffedcx') == 'cdeffedc'
