from primes import factorize, is_prime, nth_prime, primes_up_to


def test_small_primes():
    assert is_prime(2)
    assert is_prime(13)


def test_non_primes():
    assert not is_prime(1)
    assert not is_prime(15)


def test_square_of_prime():
    assert not is_prime(49)


def test_sieve():
    assert primes_up_to(20) == [2, 3, 5, 7, 11, 13, 17, 19]


def test_factorize():
    assert factorize(360) == [2, 2, 2, 3, 3, 5]


def test_nth_prime():
    assert nth_prime(1) == 2
    assert nth_prime(6) == 13
