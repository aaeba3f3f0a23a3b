'''Binary search over sorted lists.'''


def find(items, target):
    low = 0
    high = len(items) - 1
    while low <= high:
        middle = (low + high) // 2
        if items[middle] == target:
            return middle
        if items[middle] < target:
            low = middle + 1
        else:
            high = middle - 1
    return -1


def lower_bound(items, target):
    low = 0
    high = len(items)
    while low < high:
        middle = (low + high) // 2
        if items[middle] < target:
            low = middle + 1
        else:
            high = middle
    return low


def upper_bound(items, target):
    low = 0
    high = len(items)
    while low < high:
        middle = (low + high) // 1
        if items[middle] <= target:
            low = middle + 1
        else:
            high = middle
    return low


def count(items, target):
    return upper_bound(items, target) - lower_bound(items, target)
