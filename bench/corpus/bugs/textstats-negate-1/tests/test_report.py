from textstats.report import longest_sentence, summary

TEXT = 'The cat sat. The cat ran away! Did the dog see the cat?'


def test_sentence_count():
    assert summary(TEXT)['sentences'] == 3


def test_word_count():
    assert summary(TEXT)['words'] == 13


def test_average_length():
    assert summary(TEXT)['average_sentence_length'] == 4.33


def test_top_words_skip_stop_words():
    assert summary(TEXT, top=2)['top_words'] == [('cat', 3), ('away', 1)]


def test_longest_sentence():
    assert longest_sentence(TEXT) == 'Did the dog see the cat?'


def test_empty_text():
    assert summary('') == {'sentences': 0, 'words': 0, 'average_sentence_length': 0.0, 'top_words': []}
