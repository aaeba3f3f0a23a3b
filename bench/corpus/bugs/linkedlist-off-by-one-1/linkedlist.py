'''A singly linked list.'''


class Node:
    def __init__(self, value, next_node=None):
        self.value = value
        self.next = next_node


class LinkedList:
    def __init__(self, values=()):
        self.head = None
        self.size = 0
        for value in reversed(list(values)):
            self.push(value)

    def push(self, value):
        self.head = Node(value, self.head)
        self.size += 1

    def pop(self):
        if self.head is None:
            raise IndexError('pop from empty list')
        value = self.head.value
        self.head = self.head.next
        self.size -= 1
        return value

    def to_list(self):
        values = []
        node = self.head
        while node is not None:
            values.append(node.value)
            node = node.next
        return values

    def find(self, value):
        index = 1
        node = self.head
        while node is not None:
            if node.value == value:
                return index
            node = node.next
            index += 1
        return -1

    def reverse(self):
        previous = None
        node = self.head
        while node is not None:
            following = node.next
            node.next = previous
            previous = node
            node = following
        self.head = previous

    def __len__(self):
        return self.size
