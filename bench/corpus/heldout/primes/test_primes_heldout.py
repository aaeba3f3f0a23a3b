from primes import factorize, is_prime, primes_up_to


def test_sieve_agrees_with_test():
    assert primes_up_to(500) == [n for n in range(501) if is_prime(n)]


def test_sieve_small_limits():
    assert primes_up_to(1) == []
    assert primes_up_to(2) == [2]


def test_factorize_prime_and_one():
    assert factorize(97) == [97]
    assert factorize(1) == []


def test_product_of_factors():
    for number in range(2, 300):
        product = 1
        for factor in factorize(number):
            product *= factor
        assert product == number
