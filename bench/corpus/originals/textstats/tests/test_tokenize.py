from textstats.tokenize import sentences, words


def test_sentences_without_final_stop():
    assert sentences('One. Two') == ['One.', 'Two']


def test_words_keep_apostrophes():
    assert words("It's the cat's toy") == ["it's", 'the', "cat's", 'toy']
