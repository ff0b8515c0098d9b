/// What a `BoundedHeap` keeps: an order in which its elements leave it.
protocol HeapOrder {
    associatedtype Element
    /// Whether `a` leaves the heap before `b` when something better comes.
    func leaves(_ a: Element, before b: Element) -> Bool
}

/// The `capacity` elements offered so far that leave last, in a binary heap whose root is
/// the one to leave first: O(log *capacity*) for an element that gets in, O(1) for one that
/// does not; memory O(*capacity*), however many are offered.
struct BoundedHeap<Order: HeapOrder> {
    /// Keep/drop ends at most this long are kept this way (512 KB of integers).
    static var bound: Int { 65_536 }

    /// What the heap holds, in heap order.
    private(set) var elements: [Order.Element] = []
    let capacity: Int
    let order: Order

    init(capacity: Int, order: Order) {
        self.capacity = Swift.max(0, capacity)
        self.order = order
        elements.reserveCapacity(Swift.min(self.capacity, Self.bound))
    }

    @inline(__always)
    mutating func offer(_ element: Order.Element) {
        guard capacity > 0 else { return }
        if elements.count < capacity {
            elements.append(element)
            var child = elements.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard order.leaves(elements[child], before: elements[parent]) else { break }
                elements.swapAt(child, parent)
                child = parent
            }
        } else if order.leaves(elements[0], before: element) {
            elements[0] = element
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < elements.count else { break }
                var first = left
                if left + 1 < elements.count, order.leaves(elements[left + 1], before: elements[left]) { first = left + 1 }
                guard order.leaves(elements[first], before: elements[parent]) else { break }
                elements.swapAt(first, parent)
                parent = first
            }
        }
    }
}
