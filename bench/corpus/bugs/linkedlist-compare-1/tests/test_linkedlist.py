import pytest

from linkedlist import LinkedList


def test_build_keeps_order():
    assert LinkedList([1, 2, 3]).to_list() == [1, 2, 3]


def test_push_front():
    items = LinkedList([2])
    items.push(1)
    assert items.to_list() == [1, 2]


def test_pop():
    items = LinkedList(['a', 'b'])
    assert items.pop() == 'a'
    assert items.to_list() == ['b']


def test_pop_empty():
    with pytest.raises(IndexError):
        LinkedList().pop()


def test_find():
    assert LinkedList([5, 6, 7]).find(7) == 2
    assert LinkedList([5, 6, 7]).find(8) == -1


def test_reverse():
    items = LinkedList([1, 2, 3, 4])
    items.reverse()
    assert items.to_list() == [4, 3, 2, 1]


def test_len():
    items = LinkedList([1, 2, 3])
    items.pop()
    assert len(items) == 2
