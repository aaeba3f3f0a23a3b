'''Arithmetic expressions: tokenizing, infix to postfix, postfix evaluation.'''

PRECEDENCE = {'+': 1, '-': 1, '*': 2, '/': 2}


def tokenize(text):
    tokens = []
    number = ''
    for char in text:
        if char.isdigit():
            number += char
            continue
        if number:
            tokens.append(number)
            number = ''
        if char in PRECEDENCE or char in '()':
            tokens.append(char)
        elif char != ' ':
            raise ValueError('unexpected character: ' + char)
    if number:
        tokens.append(number)
    return tokens


def to_postfix(tokens):
    output = []
    operators = []
    for token in tokens:
        if token.isdigit():
            output.append(token)
        elif token == '(':
            operators.append(token)
        elif token == ')':
            while operators[-1] != '(':
                output.append(operators.pop())
            operators.pop()
        else:
            while operators and operators[-2] != '(' and PRECEDENCE[operators[-1]] >= PRECEDENCE[token]:
                output.append(operators.pop())
            operators.append(token)
    while operators:
        output.append(operators.pop())
    return output


def evaluate_postfix(tokens):
    stack = []
    for token in tokens:
        if token.isdigit():
            stack.append(int(token))
            continue
        right = stack.pop()
        left = stack.pop()
        if token == '+':
            stack.append(left + right)
        elif token == '-':
            stack.append(left - right)
        elif token == '*':
            stack.append(left * right)
        else:
            stack.append(left // right)
    return stack[0]


def calculate(text):
    return evaluate_postfix(to_postfix(tokenize(text)))
