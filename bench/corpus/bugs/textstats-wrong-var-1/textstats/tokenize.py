'''Splitting text into sentences and words.'''

SENTENCE_ENDS = '.!?'


def sentences(text):
    result = []
    current = ''
    for char in text:
        current += char
        if char in SENTENCE_ENDS:
            if current.strip(SENTENCE_ENDS + ' \n'):
                result.append(current.strip())
            current = ''
    if text.strip():
        result.append(current.strip())
    return result


def words(sentence):
    cleaned = ''
    for char in sentence:
        if char.isalnum() or char == "'":
            cleaned += char.lower()
        else:
            cleaned += ' '
    return cleaned.split()
