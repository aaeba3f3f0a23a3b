import random

from minheap import MinHeap, heap_sort


def test_heap_sort_random():
    rng = random.Random(3)
    for size in range(0, 40):
        values = [rng.randint(-20, 20) for _ in range(size)]
        assert heap_sort(values) == sorted(values)


def test_pop_last_item_empties():
    heap = MinHeap()
    heap.push(7)
    assert heap.pop() == 7
    assert len(heap) == 0


def test_interleaved_push_pop():
    heap = MinHeap()
    heap.push(5)
    heap.push(2)
    assert heap.pop() == 2
    heap.push(1)
    heap.push(9)
    assert [heap.pop(), heap.pop(), heap.pop()] == [1, 5, 9]
