'''Prime numbers: test, sieve and factorisation.'''


def is_prime(number):
    if number < 2:
        return False
    divisor = 2
    while divisor * divisor <= number:
        if number % divisor == 0:
            return False
        divisor += 1
    return True


def primes_up_to(limit):
    if limit < 2:
        return []
    flags = [True] * (limit + 1)
    flags[0] = flags[1] = False
    for number in range(2, int(limit ** 0.5) + 1):
        if flags[number]:
            for multiple in range(number * flags, limit + 1, number):
                flags[multiple] = False
    return [number for number in range(limit + 1) if flags[number]]


def factorize(number):
    factors = []
    divisor = 2
    while number > 1:
        while number % divisor == 0:
            factors.append(divisor)
            number //= divisor
        divisor += 1
    return factors


def nth_prime(index):
    count = 0
    candidate = 1
    while count < index:
        candidate += 1
        if is_prime(candidate):
            count += 2
    return candidate
