/// A probability distribution over the values of the dice language: each outcome
/// (a `Number`: an integer or an exact fraction) with its probability.
///
/// Whole-number distributions over a compact range are stored as a flat array
/// indexed by offset; anything else as a sorted list. The total probability may
/// fall short of 1 by the mass cut from the infinite tail of an explosion.
///
/// ```swift
/// let twoD6 = try Session().stats("2d6").distribution
/// twoD6.probability(of: .integer(7)) // 1/6
/// twoD6.mean                          // 7.0
/// ```
public struct Distribution: Hashable, Sendable {
    /// One outcome and its probability.
    public struct Outcome: Hashable, Sendable {
        /// The value.
        public package(set) var value: Number
        /// Its probability, from 0 to 1.
        public package(set) var probability: Double

        /// `value` with `probability`.
        package init(_ value: Number, _ probability: Double) {
            self.value = value
            self.probability = probability
        }
    }

    enum Storage: Hashable, Sendable {
        /// Whole numbers `offset ..< offset + probabilities.count`; the first and
        /// last probabilities are nonzero, zeros may sit between them.
        case dense(offset: Int, probabilities: [Double])
        /// Strictly increasing values, every probability positive.
        case sparse([Outcome])
    }

    var storage: Storage
    /// The outcomes that are texts or tallies (`symbolic`), listed or packed.
    var symbolicOutcomes = SymbolicOutcomes()

    /// A dense range is kept while it is no wider than this many slots per outcome, plus `denseSlack`.
    static let denseSpread = 4
    static let denseSlack = 64
    /// The widest dense array, whatever the number of outcomes.
    static let maxDenseSpan = 1 << 24

    init(storage: Storage) { self.storage = storage }

    // MARK: - Construction

    /// The distribution that is `value` with probability `probability` (1 by default).
    ///
    /// - Complexity: O(1)
    init(constant value: Number, probability: Double = 1) {
        if probability == 0 {
            storage = .sparse([])
        } else if case .integer(let n) = value {
            storage = .dense(offset: n, probabilities: [Double](repeating: probability, count: 1))  // see `FlatArray`
        } else {
            storage = .sparse([Outcome(value, probability)])
        }
    }

    /// A die whose listed faces are equally likely; a face listed twice is twice as likely.
    ///
    /// - Complexity: O(*n* log *n*) for *n* faces.
    init(faces: [Int]) {
        guard !faces.isEmpty else {
            storage = .sparse([])
            return
        }
        var builder = DistributionAccumulator()
        let weight = 1 / Double(faces.count)
        for face in faces { builder.add(face, weight) }
        self = builder.build()
    }

    /// The faces of a die, equally likely (a face listed twice twice as likely).
    init(faces: DieFaces) {
        switch faces {
        case .range(let sides): self.init(uniformSides: sides)
        case .list(let list): self.init(faces: list)
        }
    }

    /// The faces `1...sides`, equally likely.
    ///
    /// - Complexity: O(*sides*)
    init(uniformSides sides: Int) {
        precondition(sides >= 1)
        storage = .dense(offset: 1, probabilities: [Double](repeating: 1 / Double(sides), count: sides))
    }

    /// Outcomes in any order; equal values are merged, zero probabilities dropped.
    ///
    /// - Complexity: O(*n* log *n*)
    init<S: Sequence>(_ outcomes: S) where S.Element == Outcome {
        var builder = DistributionAccumulator()
        for outcome in outcomes { builder.add(outcome.value, outcome.probability) }
        self = builder.build()
    }

    /// The canonical storage for dense probabilities: trimmed, and sparse when mostly empty.
    ///
    /// - Complexity: O(*n*); the nonzero slots are counted only until they show the range
    ///   is dense enough.
    static func fromDense(offset: Int, probabilities: [Double]) -> Distribution {
        var first = 0, last = probabilities.count - 1
        var dense = false
        probabilities.withUnsafeBufferPointer { slots in
            while first <= last && slots[first] == 0 { first += 1 }
            while last >= first && slots[last] == 0 { last -= 1 }
            guard first <= last else { return }
            let span = last - first + 1
            var nonzero = 0
            dense = span <= denseSlack
            var index = first
            while !dense && index <= last {
                if slots[index] != 0 {
                    nonzero += 1
                    dense = span <= denseSpread * nonzero + denseSlack
                }
                index += 1
            }
        }
        guard first <= last else { return Distribution(storage: .sparse([])) }
        let trimmed = first == 0 && last == probabilities.count - 1
            ? probabilities : FlatArray.copy(probabilities, first ..< last + 1)
        if dense {
            return Distribution(storage: .dense(offset: offset + first, probabilities: trimmed))
        }
        var outcomes: [Outcome] = []
        for (index, p) in trimmed.enumerated() where p != 0 {
            outcomes.append(Outcome(.integer(offset + first + index), p))
        }
        return Distribution(storage: .sparse(outcomes))
    }

    /// The canonical storage for sorted, merged, positive outcomes.
    static func fromSorted(_ outcomes: [Outcome]) -> Distribution {
        guard let low = outcomes.first?.value.integerValue, let high = outcomes.last?.value.integerValue,
              outcomes.allSatisfy({ $0.value.integerValue != nil }) else {
            return Distribution(storage: .sparse(outcomes))
        }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, span < maxDenseSpan, span + 1 <= denseSpread * outcomes.count + denseSlack else {
            return Distribution(storage: .sparse(outcomes))
        }
        var probabilities = [Double](repeating: 0, count: span + 1)
        for outcome in outcomes {
            if let value = outcome.value.integerValue { probabilities[value - low] = outcome.probability }
        }
        return Distribution(storage: .dense(offset: low, probabilities: probabilities))
    }

    // MARK: - Reading

    /// The outcomes with positive probability, in increasing order of value.
    ///
    /// - Complexity: O(*n*)
    public var outcomes: [Outcome] {
        switch storage {
        case .sparse(let outcomes):
            return outcomes
        case .dense(let offset, let probabilities):
            var result: [Outcome] = []
            result.reserveCapacity(probabilities.count)
            for (index, p) in probabilities.enumerated() where p != 0 {
                result.append(Outcome(.integer(offset + index), p))
            }
            return result
        }
    }

    /// Calls `body` with each outcome of positive probability, in increasing order.
    ///
    /// - Complexity: O(*n*)
    package func forEachOutcome<E: Error>(_ body: (Number, Double) throws(E) -> Void) throws(E) {
        switch storage {
        case .sparse(let outcomes):
            for outcome in outcomes { try body(outcome.value, outcome.probability) }
        case .dense(let offset, let probabilities):
            for index in probabilities.indices where probabilities[index] != 0 {
                try body(.integer(offset + index), probabilities[index])
            }
        }
    }

    /// Calls `body` with each whole-number outcome of positive probability, in increasing order
    /// (fractions are skipped).
    ///
    /// - Complexity: O(*n*)
    func forEachWholeOutcome<E: Error>(_ body: (Int, Double) throws(E) -> Void) throws(E) {
        try forEachOutcome { (value, p) throws(E) in
            if case .integer(let n) = value { try body(n, p) }
        }
    }

    /// How many outcomes have positive probability.
    ///
    /// - Complexity: O(*n*)
    package var count: Int {
        switch storage {
        case .sparse(let outcomes): return outcomes.count + symbolicOutcomes.count
        case .dense(_, let probabilities): return probabilities.reduce(symbolicOutcomes.count) { $1 != 0 ? $0 + 1 : $0 }
        }
    }

    /// How many slots the storage holds: the outcomes, or the width of the dense range.
    var storageSize: Int {
        switch storage {
        case .sparse(let outcomes): return outcomes.count + symbolicOutcomes.count
        case .dense(_, let probabilities): return probabilities.count + symbolicOutcomes.count
        }
    }

    /// Whether no outcome has positive probability.
    var isEmpty: Bool {
        guard symbolicOutcomes.isEmpty else { return false }
        switch storage {
        case .sparse(let outcomes): return outcomes.isEmpty
        case .dense(_, let probabilities): return probabilities.isEmpty
        }
    }

    /// The sum of the probabilities: 1, less any mass cut from explosion tails.
    ///
    /// - Complexity: O(*n*)
    package var totalProbability: Double {
        let others = symbolicOutcomes.totalProbability
        switch storage {
        case .sparse(let outcomes): return outcomes.reduce(others) { $0 + $1.probability }
        case .dense(_, let probabilities): return probabilities.reduce(others, +)
        }
    }

    /// The probability of exactly `value`.
    ///
    /// - Complexity: O(1) for a dense distribution, O(log *n*) otherwise.
    public func probability(of value: Number) -> Double {
        switch storage {
        case .dense(let offset, let probabilities):
            guard case .integer(let n) = value else { return 0 }
            let (index, overflow) = n.subtractingReportingOverflow(offset)
            return !overflow && index >= 0 && index < probabilities.count ? probabilities[index] : 0
        case .sparse(let outcomes):
            var low = 0, high = outcomes.count
            while low < high {
                let mid = (low + high) / 2
                if outcomes[mid].value < value { low = mid + 1 } else { high = mid }
            }
            return low < outcomes.count && outcomes[low].value == value ? outcomes[low].probability : 0
        }
    }

    /// The smallest outcome, or `nil` when empty.
    public var minimum: Number? {
        switch storage {
        case .sparse(let outcomes): return outcomes.first?.value
        case .dense(let offset, let probabilities): return probabilities.isEmpty ? nil : .integer(offset)
        }
    }

    /// The largest outcome, or `nil` when empty.
    public var maximum: Number? {
        switch storage {
        case .sparse(let outcomes): return outcomes.last?.value
        case .dense(let offset, let probabilities):
            return probabilities.isEmpty ? nil : .integer(offset + (probabilities.count - 1))
        }
    }

    /// The only outcome, when there is exactly one.
    var constantValue: Number? {
        switch storage {
        case .sparse(let outcomes): return outcomes.count == 1 ? outcomes[0].value : nil
        case .dense(let offset, let probabilities): return probabilities.count == 1 ? .integer(offset) : nil
        }
    }

    /// The probability that the outcome is at most `value` (the cumulative distribution).
    ///
    /// - Complexity: O(*n*)
    public func probability(atMost value: Number) -> Double {
        var total = 0.0
        forEachOutcome { v, p in if v <= value { total += p } }
        return total
    }

    /// The same distribution with every probability divided by `divisor` (to make them sum to 1).
    ///
    /// - Complexity: O(*n*)
    func dividingProbabilities(by divisor: Double) -> Distribution {
        var result: Distribution
        switch storage {
        case .dense(let offset, let probabilities):
            result = Distribution(storage: .dense(offset: offset,
                                                  probabilities: FlatArray.mapped(probabilities) { $0 / divisor }))
        case .sparse(let outcomes):
            result = Distribution(storage: .sparse(outcomes.map { Outcome($0.value, $0.probability / divisor) }))
        }
        result.symbolicOutcomes = symbolicOutcomes.mappingProbabilities { $0 / divisor }
        return result
    }

    /// The same distribution with every probability multiplied by `factor`.
    ///
    /// - Complexity: O(*n*)
    func scaled(by factor: Double) -> Distribution {
        if factor == 1 { return self }
        if factor == 0 { return Distribution(storage: .sparse([])) }
        var result: Distribution
        switch storage {
        case .dense(let offset, let probabilities):
            result = Distribution(storage: .dense(offset: offset,
                                                  probabilities: FlatArray.mapped(probabilities) { $0 * factor }))
        case .sparse(let outcomes):
            result = Distribution(storage: .sparse(outcomes.map { Outcome($0.value, $0.probability * factor) }))
        }
        result.symbolicOutcomes = symbolicOutcomes.mappingProbabilities { $0 * factor }
        return result
    }
}

extension Distribution {
    /// The storage read slot by slot, without building `outcomes` (whose array type costs
    /// a metadata instantiation on first use): a dense distribution's slots are its whole
    /// range, zeros included, which add nothing to any sum.
    struct Slots {
        private let isDense: Bool
        private let offset: Int
        private let probabilities: [Double]
        private let outcomes: [Outcome]
        /// How many slots there are.
        let count: Int

        init(_ distribution: Distribution) {
            switch distribution.storage {
            case .dense(let offset, let probabilities):
                (isDense, self.offset, self.probabilities, outcomes) = (true, offset, probabilities, [])
                count = probabilities.count
            case .sparse(let outcomes):
                (isDense, offset, probabilities, self.outcomes) = (false, 0, [], outcomes)
                count = outcomes.count
            }
        }

        /// The value of slot `index` (in `0..<count`).
        func value(_ index: Int) -> Number { isDense ? .integer(offset + index) : outcomes[index].value }

        /// The probability of slot `index` (in `0..<count`); 0 for a gap of a dense range.
        func probability(_ index: Int) -> Double { isDense ? probabilities[index] : outcomes[index].probability }
    }

    /// The storage read slot by slot.
    var slots: Slots { Slots(self) }
}

/// Arrays made on the first `stats` call of a process, built so that their type is found
/// cheaply.
///
/// `[T](repeating:count:)` gets the array's type from the standard library's own lookup,
/// while an array literal, `map`, `append` or `Array(collection)` compiled here looks it up
/// by its mangled name the first time: that pulls in the runtime's demangler, thousands of
/// instructions and tens of microseconds of code never run before. These helpers start
/// from `init(repeating:count:)` and fill in place.
enum FlatArray {
    /// `source[range]` as a new array.
    static func copy<T>(_ source: [T], _ range: Range<Int>) -> [T] {
        guard let first = range.first else { return [] }
        var result = [T](repeating: source[first], count: range.count)
        for index in range { result[index - first] = source[index] }
        return result
    }

    /// `source` in reverse order.
    static func reversed<T>(_ source: [T]) -> [T] {
        guard let first = source.first else { return [] }
        var result = [T](repeating: first, count: source.count)
        for index in source.indices { result[source.count - 1 - index] = source[index] }
        return result
    }

    /// `source.map(transform)`.
    static func mapped<T>(_ source: [T], _ transform: (T) -> T) -> [T] {
        guard let first = source.first else { return [] }
        var result = [T](repeating: first, count: source.count)
        for index in source.indices { result[index] = transform(source[index]) }
        return result
    }
}

extension Distribution: CustomStringConvertible {
    /// `{1: 0.5, 2: 0.5}`
    public var description: String {
        "{" + outcomes.map { "\($0.value): \($0.probability)" }.joined(separator: ", ") + "}"
    }
}
