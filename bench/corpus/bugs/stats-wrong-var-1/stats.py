'''Descriptive statistics of a list of numbers.'''


def mean(values):
    if not values:
        raise ValueError('mean of empty data')
    return sum(values) / len(values)


def median(values):
    if not values:
        raise ValueError('median of empty data')
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def mode(values):
    counts = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    best = None
    for value in values:
        if best is None or counts[value] > counts[best]:
            best = value
    return value


def variance(values):
    if len(values) < 2:
        raise ValueError('variance needs two values')
    centre = mean(values)
    return sum((value - centre) ** 2 for value in values) / (len(values) - 1)


def value_range(values):
    return max(values) - min(values)
