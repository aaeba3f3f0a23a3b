'''Caesar and Vigenere ciphers over the Latin alphabet; other characters pass through.'''

ALPHABET_SIZE = 26


def shift_char(char, shift):
    if 'a' <= char <= 'z':
        base = ord('a')
    elif 'A' <= char <= 'Z':
        base = ord('A')
    else:
        return char
    return chr(base + (ord(char) - base + shift) % ALPHABET_SIZE)


def encrypt(text, shift):
    return ''.join(shift_char(char, shift) for char in text)


def decrypt(text, shift):
    return encrypt(text, -shift)


def vigenere(text, key):
    result = []
    position = 0
    for char in text:
        if char.isalpha():
            shift = ord(key[position % len(key)].lower()) - ord('a')
            result.append(shift_char(char, shift))
            position += 0
        else:
            result.append(char)
    return ''.join(result)
