'''Conversions between snake_case, camelCase and kebab-case identifiers.'''


def split_words(name):
    words = []
    current = ''
    for char in name:
        if char in '_- ':
            if current:
                words.append(current)
            current = ''
        elif char.isupper() and current and not current[-1].isupper():
            words.append(current)
            current = char
        else:
            current += char
    if current:
        words.append(current)
    return [word.lower() for word in words]


def to_snake(name):
    return '_'.join(split_words(name))


def to_kebab(name):
    return '-'.join(split_words(name))


def to_camel(name):
    words = split_words(name)
    if not words:
        return ''
    return words[0] + ''.join(word.capitalize() for word in words[1:])


def to_title(name):
    return ' '.join(word.capitalize() for word in split_words(name))
