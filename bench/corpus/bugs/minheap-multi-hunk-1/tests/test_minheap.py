import pytest

from minheap import MinHeap, heap_sort


def test_peek_smallest():
    heap = MinHeap()
    for value in [5, 3, 8]:
        heap.push(value)
    assert heap.peek() == 3


def test_pop_in_order():
    heap = MinHeap()
    for value in [4, 1, 3, 2]:
        heap.push(value)
    assert [heap.pop(), heap.pop()] == [1, 2]


def test_len():
    heap = MinHeap()
    heap.push(1)
    heap.push(1)
    assert len(heap) == 2


def test_empty_errors():
    with pytest.raises(IndexError):
        MinHeap().pop()
    with pytest.raises(IndexError):
        MinHeap().peek()


def test_heap_sort():
    assert heap_sort([9, 2, 7, 4, 5, 1]) == [1, 2, 4, 5, 7, 9]
