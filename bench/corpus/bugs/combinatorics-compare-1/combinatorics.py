'''Recursive enumeration and counting.'''


def permutations(items):
    if len(items) <= 1:
        return [list(items)]
    result = []
    for index in range(len(items)):
        rest = items[:index] + items[index + 1:]
        for tail in permutations(rest):
            result.append([items[index]] + tail)
    return result


def subsets(items):
    if not items:
        return [[]]
    smaller = subsets(items[1:])
    return smaller + [[items[0]] + subset for subset in smaller]


def choose(n, k):
    if k <= 0 or k > n:
        return 0
    if k == 0 or k == n:
        return 1
    return choose(n - 1, k - 1) + choose(n - 1, k)


def stair_ways(steps, memo=None):
    '''Ways to climb `steps` stairs taking one or two at a time.'''
    if memo is None:
        memo = {}
    if steps <= 1:
        return 1
    if steps not in memo:
        memo[steps] = stair_ways(steps - 1, memo) + stair_ways(steps - 2, memo)
    return memo[steps]
