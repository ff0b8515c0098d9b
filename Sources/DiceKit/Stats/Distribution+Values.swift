/// Distributions over every kind of value: numbers (the `Distribution`'s own storage and
/// algorithms) and texts and tallies (`symbolic`), for the forms of LANGUAGE.md §5b.
extension Distribution {
    /// The distribution that is `value` with probability `probability`.
    init(only value: Value, probability: Double = 1) {
        switch value {
        case .number(let number): self.init(constant: number, probability: probability)
        default:
            self.init(storage: .sparse([]))
            if probability != 0 { symbolic = [ValueOutcome(value, probability)] }
        }
    }

    /// Whether some outcome is a text or a tally.
    var hasSymbolic: Bool { !symbolicOutcomes.isEmpty }

    /// Every outcome of positive probability: numbers ascending, then texts in the order they
    /// first appeared, then tallies by their fields.
    ///
    /// - Complexity: O(*n*)
    public var valueOutcomes: [ValueOutcome] {
        outcomes.map { ValueOutcome(.number($0.value), $0.probability) } + symbolic
    }

    /// Calls `body` with each outcome of positive probability, numbers first, as `valueOutcomes`.
    func forEachValue<E: Error>(_ body: (Value, Double) throws(E) -> Void) throws(E) {
        try forEachOutcome { (number, p) throws(E) in try body(.number(number), p) }
        for outcome in symbolic { try body(outcome.value, outcome.probability) }
    }

    /// The only outcome, when there is one (with any probability).
    var constantOutcome: Value? {
        if symbolicOutcomes.isEmpty { return constantValue.map(Value.number) }
        return isNumericEmpty && symbolicOutcomes.count == 1 ? symbolicOutcomes.first?.value : nil
    }

    /// Whether no number has positive probability.
    var isNumericEmpty: Bool {
        var empty = true
        forEachOutcome { _, _ in empty = false }
        return empty
    }

    /// The probability of exactly `value`.
    public func probability(ofValue value: Value) -> Double {
        if case .number(let number) = value { return probability(of: number) }
        return symbolic.first { $0.value == value }?.probability ?? 0
    }

    /// The numbers alone (texts and tallies left out).
    var numbersOnly: Distribution { Distribution(storage: storage) }
}

/// One outcome of any kind and its probability.
public struct ValueOutcome: Hashable, Sendable {
    /// The value: a number, a text or a tally.
    public package(set) var value: Value
    /// Its probability, from 0 to 1.
    public package(set) var probability: Double

    /// `value` with `probability`.
    package init(_ value: Value, _ probability: Double) {
        self.value = value
        self.probability = probability
    }
}

/// Collects weighted outcomes of any kind: numbers through a `DistributionAccumulator`,
/// texts and tallies in the order they come, merged.
struct ValueAccumulator {
    private var numbers = DistributionAccumulator()
    private var index: [Value: Int] = [:]
    private var others: [ValueOutcome] = []
    /// Packed tallies added first, with their weight: kept packed while nothing else comes
    /// (a `repeat` of tally dice with one count mixes one part).
    private var pending: (table: TallyTable, weight: Double)?
    private var isEmpty = true

    init() {}

    /// Adds probability `p` to `value`.
    mutating func add(_ value: Value, _ p: Double) {
        guard p != 0 else { return }
        flushPending()
        isEmpty = false
        if case .number(let number) = value { return numbers.add(number, p) }
        if let at = index[value] {
            others[at].probability += p
        } else {
            index[value] = others.count
            others.append(ValueOutcome(value, p))
        }
    }

    /// Adds `distribution`, each probability times `weight`.
    mutating func add(_ distribution: Distribution, times weight: Double = 1) throws(ArithmeticFault) {
        guard weight != 0 else { return }
        if isEmpty, let table = distribution.tallyTable, distribution.isNumericEmpty {
            pending = (table, weight)
            isEmpty = false
            return
        }
        flushPending()
        isEmpty = false
        try numbers.add(distribution.numbersOnly, shiftedBy: 0, times: weight)
        for outcome in distribution.symbolic { add(outcome.value, outcome.probability * weight) }
    }

    /// The distribution collected so far, its texts and tallies in `ValueOrder`.
    func build() -> Distribution {
        if let pending {
            // The probabilities `add(_:_:)` would have made: each times the weight.
            return Distribution(tallies: pending.table.mappingProbabilities(droppingZeros: true) { $0 * pending.weight })
        }
        var result = numbers.build()
        result.symbolic = ValueOrder.sorted(others)
        return result
    }
}

extension ValueAccumulator {
    /// Adds the packed tallies kept aside one by one, now that more comes.
    private mutating func flushPending() {
        guard let (table, weight) = pending else { return }
        pending = nil
        for outcome in table.valueOutcomes { add(outcome.value, outcome.probability * weight) }
    }
}
