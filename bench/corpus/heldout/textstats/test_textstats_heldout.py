from textstats.counter import Counter
from textstats.report import summary
from textstats.tokenize import sentences, words


def test_sentences_over_lines():
    assert sentences('Hi!  Bye.\nOk?') == ['Hi!', 'Bye.', 'Ok?']
    assert sentences('...') == []


def test_counter_share():
    counter = Counter()
    counter.update(['a', 'b', 'a', 'a'])
    assert counter.share('a') == 0.75
    assert counter.share('z') == 0.0
    assert Counter().share('a') == 0.0


def test_words_split_on_punctuation():
    assert words('x,y;z') == ['x', 'y', 'z']


def test_ties_alphabetical():
    assert summary('zeta beta alpha.')['top_words'] == [('alpha', 1), ('beta', 1), ('zeta', 1)]


def test_single_sentence_average():
    assert summary('one two three four')['average_sentence_length'] == 4.0
