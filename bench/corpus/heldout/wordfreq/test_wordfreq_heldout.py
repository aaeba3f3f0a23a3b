from wordfreq import counts, longest_word, top


def test_empty_text():
    assert counts('') == {}
    assert top('', 3) == []
    assert longest_word('') == ''


def test_case_folding():
    assert counts('Go go GO') == {'go': 3}


def test_top_more_than_available():
    assert top('x y', 5) == [('x', 1), ('y', 1)]


def test_quotes_stripped():
    assert counts('"quoted" (words)') == {'quoted': 1, 'words': 1}
