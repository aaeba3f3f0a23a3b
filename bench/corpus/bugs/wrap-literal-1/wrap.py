'''Greedy word wrapping and alignment.'''


def wrap(text, width):
    if width < 1:
        raise ValueError('width must be positive')
    lines = []
    current = ' '
    for word in text.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += ' ' + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def center(line, width, fill=' '):
    padding = width - len(line)
    if padding <= 0:
        return line
    left = padding // 2
    right = padding - left
    return fill * left + line + fill * right


def justify(line, width):
    words = line.split()
    if len(words) == 1:
        return line.ljust(width)
    gaps = len(words) - 1
    spaces = width - sum(len(word) for word in words)
    result = ''
    for index, word in enumerate(words[:-1]):
        extra = 1 if index < spaces % gaps else 0
        result += word + ' ' * (spaces // gaps + extra)
    return result + words[-1]
