from linkedlist import LinkedList


def test_reverse_empty_and_single():
    empty = LinkedList()
    empty.reverse()
    assert empty.to_list() == []
    single = LinkedList([9])
    single.reverse()
    assert single.to_list() == [9]


def test_find_first_of_duplicates():
    assert LinkedList([3, 1, 3]).find(3) == 0


def test_len_after_pushes():
    items = LinkedList()
    for value in range(5):
        items.push(value)
    assert len(items) == 5
    assert items.to_list() == [4, 3, 2, 1, 0]
