'''Merging and measuring closed integer intervals given as (start, end) pairs.'''


def merge(intervals):
    ordered = sorted(intervals)
    merged = []
    for start, end in ordered:
        if merged and start < merged[-1][1]:
            last_start, last_end = merged[-1]
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged


def total_length(intervals):
    total = 0
    for start, end in merge(intervals):
        total += end - start
    return total


def overlaps(first, second):
    return first[0] < second[1] and second[0] < first[1]


def gaps(intervals):
    result = []
    merged = merge(intervals)
    for index in range(1, len(merged)):
        previous_end = merged[index - 1][1]
        start = merged[index][0]
        result.append((previous_end, start))
    return result
