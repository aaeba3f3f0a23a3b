'''A summary of a text built from the tokenizer and the counter.'''

from textstats.counter import Counter
from textstats.tokenize import sentences, words

STOP_WORDS = {'the', 'a', 'an', 'and', 'of', 'to', 'is'}


def summary(text, top=3):
    parts = sentences(text)
    counter = Counter()
    lengths = []
    for sentence in parts:
        tokens = words(sentence)
        lengths.append(len(tokens))
        counter.update(token for token in tokens if token not in STOP_WORDS)
    average = sum(lengths) / len(lengths) if lengths else 0.0
    return {
        'sentences': len(parts),
        'words': sum(lengths),
        'average_sentence_length': round(average, 2),
        'top_words': counter.most_common(top),
    }


def longest_sentence(text):
    best = ''
    for sentence in sentences(text):
        if len(words(sentence)) > len(words(best)):
            best = sentence
    return best
