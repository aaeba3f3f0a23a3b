from palindrome import count_palindromic_words, is_palindrome, longest_palindrome, normalize


def test_normalize():
    assert normalize('A man, a plan!') == 'amanaplan'


def test_sentence_palindrome():
    assert is_palindrome('A man, a plan, a canal: Panama')


def test_not_palindrome():
    assert not is_palindrome('palindrome')


def test_longest_odd():
    assert longest_palindrome('xabacabay') == 'abacaba'


def test_longest_even():
    assert longest_palindrome('cbbd') == 'bb'


def test_count_words():
    assert count_palindromic_words('level noon a kayak test') == 3
