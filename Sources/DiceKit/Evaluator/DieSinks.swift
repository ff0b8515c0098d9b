/// Where `rollDie` puts each die it rolls: the whole record, or only the values that count.
protocol DieSink {
    mutating func append(_ value: Int, _ flags: Die.Flags)
}

extension Array: DieSink where Element == Die {
    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) { append(Die(value: value, flags: flags)) }
}

/// A sum of integers that fails only when the total does not fit, whatever the order
/// of the terms: the value path adds kept dice sorted, the full path in rolled order.
struct CheckedSum {
    private var partial = 0
    /// Times the partial sum wrapped upward (positive) or downward (negative).
    private var wraps = 0

    @inline(__always)
    mutating func add(_ term: Int) {
        let (next, overflow) = partial.addingReportingOverflow(term)
        if overflow { wraps += term > 0 ? 1 : -1 }
        partial = next
    }

    /// The total, or `nil` when it is outside `Int`.
    var total: Int? { wraps == 0 ? partial : nil }
}

/// An exact sum of integers and of integers repeated (`value × times`), in 128 bits:
/// it fails only when the total does not fit in `Int`.
/// A pool's value from its kept dice given as runs of equal values (face counts): the sum,
/// or the count of `cs` matches, less one per `df` match, as `rollModifiedPool` works it out.
struct KeptRunsValue {
    private let counting: ResolvedPoint?
    private let failures: ResolvedPoint?
    private var sum = WideSum()
    private var successes = 0
    private var failed = 0

    init(_ plan: PoolPlan) {
        counting = plan.counting
        failures = plan.failures
    }

    /// `kept` dice showing `value`.
    mutating func add(_ value: Int, kept: Int) {
        if let counting {
            if counting.matches(value) { successes += kept }
        } else {
            sum.add(value, times: kept)
        }
        if let failures, failures.matches(value) { failed += kept }
    }

    /// The value, or an overflow error at `range`.
    func total(at range: SourceRange) throws(DiceError) -> Int {
        var value = successes
        if counting == nil {
            guard let whole = sum.total else { throw DiceError(.overflow, at: range) }
            value = whole
        }
        let (less, overflow) = value.subtractingReportingOverflow(failed)
        guard !overflow else { throw DiceError(.overflow, at: range) }
        return less
    }
}

struct WideSum {
    private var high = 0
    private var low: UInt = 0

    @inline(__always)
    mutating func add(_ value: Int, times: Int) {
        let product = value.multipliedFullWidth(by: times)
        let (sum, carry) = low.addingReportingOverflow(product.low)
        low = sum
        high = high &+ product.high &+ (carry ? 1 : 0)
    }

    /// The total, or `nil` when it is outside `Int`.
    var total: Int? {
        let result = Int(bitPattern: low)
        return high == (result < 0 ? -1 : 0) ? result : nil
    }
}

/// The values of the dice that count, counted by value: those in `base..<base + span`
/// in an array, any others (compounded totals) in a dictionary.
struct FaceCountSink: DieSink {
    var counts: [Int]
    let base: Int
    let span: Int
    var others: [Int: Int] = [:]
    /// Dice counted in all.
    var total = 0

    /// Counts in `counts` (its first `span` slots, set to zero) for values from `base`.
    init(counts: [Int], base: Int, span: Int) {
        self.counts = counts
        if self.counts.count < span { self.counts = [Int](repeating: 0, count: span) }
        for index in 0..<span { self.counts[index] = 0 }
        self.base = base
        self.span = span
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if flags.contains(.rerolled) { return }
        total += 1
        let slot = value &- base
        if UInt(bitPattern: slot) < UInt(bitPattern: span) {
            counts[slot] &+= 1
        } else {
            others[value, default: 0] += 1
        }
    }

    /// Each value counted, with how many times, in ascending order of value.
    func runs() -> [(value: Int, count: Int)] {
        var result: [(value: Int, count: Int)] = others.map { ($0.key, $0.value) }
        for slot in 0..<span where counts[slot] > 0 { result.append((base + slot, counts[slot])) }
        result.sort { $0.value < $1.value }
        return result
    }
}

/// What a pool's computed modifier arguments (`kh(n)`, `r<(1d3)`) came to: the rolls of
/// those that rolled dice, for the result tree, and the values of all of them, by range,
/// for the notation shown.
struct ResolvedArguments {
    var rolls: [ArgumentRoll] = []
    var values: [SourceRange: Number] = [:]
}
