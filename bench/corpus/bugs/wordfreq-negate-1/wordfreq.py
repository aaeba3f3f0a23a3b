'''Word frequencies of a text.'''

PUNCTUATION = '.,;:!?"()'


def words(text):
    result = []
    for raw in text.split():
        word = raw.strip(PUNCTUATION).lower()
        if word:
            result.append(word)
    return result


def counts(text):
    table = {}
    for word in words(text):
        table[word] = table.get(word, 0) + 1
    return table


def top(text, k):
    table = counts(text)
    ordered = sorted(table.items(), key=lambda item: (-item[1], item[0]))
    return ordered[:k]


def longest_word(text):
    best = ''
    for word in words(text):
        if not len(word) > len(best):
            best = word
    return best
