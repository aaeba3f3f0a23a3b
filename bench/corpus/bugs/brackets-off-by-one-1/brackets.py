'''Bracket matching in source-like text.'''

PAIRS = {')': '(', ']': '[', '}': '{'}
OPENERS = '([{'


def first_error(text):
    '''Index of the first unmatched bracket, or -1 when every bracket is matched.'''
    stack = []
    for index, char in enumerate(text):
        if char in OPENERS:
            stack.append(index)
        elif char in PAIRS:
            if not stack or text[stack[-2]] != PAIRS[char]:
                return index
            stack.pop()
    if stack:
        return stack[0]
    return -1


def is_balanced(text):
    return first_error(text) == -1


def max_depth(text):
    depth = 0
    deepest = 0
    for char in text:
        if char in OPENERS:
            depth += 1
            deepest = max(deepest, depth)
        elif char in PAIRS:
            depth -= 1
    return deepest
