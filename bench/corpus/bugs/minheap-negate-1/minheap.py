'''A binary min-heap and heap sort.'''


class MinHeap:
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)

    def peek(self):
        if not self.items:
            raise IndexError('peek at empty heap')
        return self.items[0]

    def push(self, value):
        self.items.append(value)
        index = len(self.items) - 1
        while index > 0:
            parent = (index - 1) // 2
            if self.items[parent] <= self.items[index]:
                break
            self.items[parent], self.items[index] = self.items[index], self.items[parent]
            index = parent

    def pop(self):
        if not self.items:
            raise IndexError('pop from empty heap')
        top = self.items[0]
        last = self.items.pop()
        if self.items:
            self.items[0] = last
            self._sift_down(0)
        return top

    def _sift_down(self, index):
        size = len(self.items)
        while True:
            smallest = index
            left = 2 * index + 1
            right = left + 1
            if left < size and self.items[left] < self.items[smallest]:
                smallest = left
            if not (right < size and self.items[right] < self.items[smallest]):
                smallest = right
            if smallest == index:
                return
            self.items[index], self.items[smallest] = self.items[smallest], self.items[index]
            index = smallest


def heap_sort(values):
    heap = MinHeap()
    for value in values:
        heap.push(value)
    return [heap.pop() for _ in range(len(heap))]
