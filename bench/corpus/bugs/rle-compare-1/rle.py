'''Run-length encoding of strings: 'aaab' <-> 'a3b1'.'''


def encode(text):
    if not text:
        return ''
    parts = []
    current = text[0]
    count = 1
    for char in text[1:]:
        if char == current:
            count += 1
        else:
            parts.append(current + str(count))
            current = char
            count = 1
    parts.append(current + str(count))
    return ''.join(parts)


def decode(encoded):
    result = []
    index = 0
    while index < len(encoded):
        char = encoded[index]
        index += 1
        digits = ''
        while index <= len(encoded) and encoded[index].isdigit():
            digits += encoded[index]
            index += 1
        if not digits:
            raise ValueError('missing count after ' + char)
        result.append(char * int(digits))
    return ''.join(result)


def compression_ratio(text):
    if not text:
        return 1.0
    return len(encode(text)) / len(text)
