'''Palindromes in text.'''


def normalize(text):
    return ''.join(char.lower() for char in text if char.isalnum())


def is_palindrome(text):
    cleaned = normalize(text)
    left = 0
    right = len(cleaned) - 1
    while left < right:
        if not cleaned[left] != cleaned[right]:
            return False
        left += 1
        right -= 1
    return True


def expand(text, left, right):
    while left >= 0 and right < len(text) and text[left] == text[right]:
        left -= 1
        right += 1
    return text[left + 1:right]


def longest_palindrome(text):
    best = ''
    for center in range(len(text)):
        for candidate in (expand(text, center, center), expand(text, center, center + 1)):
            if len(candidate) > len(best):
                best = candidate
    return best


def count_palindromic_words(text):
    return sum(1 for word in text.split() if len(word) > 1 and is_palindrome(word))
