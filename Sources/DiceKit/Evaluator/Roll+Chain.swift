extension Roll {
    /// The rolls of `a + b - c`: the first operand's roll, then each operator with its
    /// operand's roll. The steps live in one allocation with the first roll, made once at
    /// the size the expression gives.
    public struct Chain: Hashable, @unchecked Sendable {
        /// The first roll and the number of steps after it.
        struct Header {
            var first: Roll
            var count: Int
            /// Room for this many steps (at least: the allocation may hold more).
            var capacity: Int
        }

        /// The header and `header.count` steps; changed only while one chain holds it
        /// (as it is built), so it is `Sendable` as a value is.
        final class Storage: ManagedBuffer<Header, Step> {
            static func make(first: Roll, capacity: Int) -> Storage {
                unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in Header(first: first, count: 0, capacity: capacity) },
                               to: Storage.self)
            }

            /// Reads or changes the header in place, without the exclusivity check of `header`.
            @inline(__always)
            func fields<T>(_ body: (UnsafeMutablePointer<Header>) -> T) -> T {
                withUnsafeMutablePointerToHeader(body)
            }

            /// Room for this many steps.
            var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

            deinit {
                _ = withUnsafeMutablePointers { header, steps in steps.deinitialize(count: header.pointee.count) }
            }
        }

        private(set) var storage: Storage

        /// The roll of the first operand.
        public var first: Roll { storage.fields { $0.pointee.first } }

        /// The operator of the first step, read in place.
        var firstOperator: BinaryOperator? {
            storage.withUnsafeMutablePointers { header, steps in header.pointee.count > 0 ? steps[0].op : nil }
        }

        /// Calls `body` with the header (the first roll) and the steps, read in place.
        func withParts<Result>(_ body: (UnsafeMutablePointer<Header>, UnsafeBufferPointer<Step>) -> Result) -> Result {
            storage.withUnsafeMutablePointers { header, steps in
                body(header, UnsafeBufferPointer(start: steps, count: header.pointee.count))
            }
        }

        /// Each operator after the first operand, with its operand's roll.
        public var steps: Steps { Steps(storage: storage) }

        /// A chain of `first` with room for `capacity` steps, in `reused` when it has the
        /// room (a cleared storage no one else holds).
        init(first: Roll, capacity: Int, reusing reused: Storage? = nil) {
            if let reused, reused.room >= capacity {
                reused.withUnsafeMutablePointerToHeader { $0.pointee.first = first }
                storage = reused
            } else {
                storage = Storage.make(first: first, capacity: capacity)
            }
        }

        /// Whether no other chain holds the storage (`RollRecycler` may take it apart).
        mutating func isUniquelyHeld() -> Bool { isKnownUniquelyReferenced(&storage) }

        /// Moves each step's roll out to `body`, from the last; the chain is left with none.
        /// Only for a chain whose storage no other holds.
        mutating func takeSteps(_ body: (inout Roll) -> Void) {
            storage.withUnsafeMutablePointers { header, steps in
                let count = header.pointee.count
                header.pointee.count = 0
                for index in (0..<count).reversed() {
                    var step = (steps + index).move()
                    body(&step.operand)
                }
            }
        }

        /// The first roll, moved out; a number is left in its place. Only for a chain whose
        /// storage no other holds.
        mutating func takeFirst() -> Roll {
            storage.fields { header in
                let first = header.pointee.first
                header.pointee.first = Roll(.number, value: .integer(0))
                return first
            }
        }

        /// Adds a step after the last.
        mutating func append(_ step: Step) {
            let (count, capacity) = storage.fields { ($0.pointee.count, $0.pointee.capacity) }
            if !isKnownUniquelyReferenced(&storage) || count >= capacity {
                let grown = Storage.make(first: first, capacity: Swift.max(count * 2, count + 1))
                storage.withUnsafeMutablePointerToElements { old in
                    grown.withUnsafeMutablePointerToElements { new in new.initialize(from: old, count: count) }
                }
                grown.fields { $0.pointee.count = count }
                storage = grown
            }
            storage.withUnsafeMutablePointers { header, steps in
                (steps + count).initialize(to: step)
                header.pointee.count = count + 1
            }
        }

        /// Chains are equal when their first rolls and their steps are.
        public static func == (a: Chain, b: Chain) -> Bool {
            a.storage === b.storage || (a.first == b.first && a.steps.elementsEqual(b.steps))
        }

        /// Hashes the first roll and the steps.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(first)
            hasher.combine(steps.count)
            for step in steps { hasher.combine(step) }
        }

        /// The steps of a chain, in order, read in place.
        public struct Steps: RandomAccessCollection, @unchecked Sendable {
            fileprivate let storage: Storage

            /// Zero.
            public var startIndex: Int { 0 }
            /// The number of steps.
            public var endIndex: Int { storage.fields { $0.pointee.count } }

            /// The step at `position`, which must be a valid index.
            public subscript(position: Int) -> Step {
                precondition(position >= 0 && position < endIndex, "step index out of range")
                return storage.withUnsafeMutablePointerToElements { $0[position] }
            }
        }
    }
}
