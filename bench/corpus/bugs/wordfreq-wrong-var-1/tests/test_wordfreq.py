from wordfreq import counts, longest_word, top, words


def test_words_lowercase_and_strip():
    assert words('Hello, World!') == ['hello', 'world']


def test_words_drop_bare_punctuation():
    assert words('a - b') == ['a', '-', 'b']
    assert words('yes ! no') == ['yes', 'no']


def test_counts():
    assert counts('the cat and the hat') == {'the': 2, 'cat': 1, 'and': 1, 'hat': 1}


def test_top_orders_by_count():
    assert top('b a b c b a', 2) == [('b', 3), ('a', 2)]


def test_top_breaks_ties_alphabetically():
    assert top('pear apple fig', 2) == [('apple', 1), ('fig', 1)]


def test_longest_word_keeps_first():
    assert longest_word('aa bb ccc dd eee') == 'ccc'
