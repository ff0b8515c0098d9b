/// Collects weighted outcomes into a `Distribution`: a growing flat array while the
/// values are whole and close together, a dictionary for the rest.
struct DistributionAccumulator {
    /// The dense window holds `offset ..< offset + slots.count`.
    private var offset = 0
    private var slots: [Double] = []
    /// Outcomes outside the dense window (decimals, or whole numbers far away).
    private var scattered: [Number: Double] = [:]

    init() {}

    /// Values offered to the window so far (a dense distribution counts its slots).
    private var offered = 0
    /// A window this wide is always cheap enough; a wider one needs `denseSpread` slots per
    /// value offered, so a few far-apart values (`2^5d6`) do not fill megabytes of zeros.
    private static let cheapSpan = 1 << 10

    /// Makes the dense window cover `low...high`; false when that would be too wide
    /// (the caller then keeps the values aside, in `scattered`).
    private mutating func reserve(_ low: Int, _ high: Int) -> Bool {
        let widest = Swift.min(Distribution.maxDenseSpan - 1,
                               Swift.max(DistributionAccumulator.cheapSpan,
                                         WorkMeter.product(Distribution.denseSpread, offered)))
        if slots.isEmpty {
            let (span, overflow) = high.subtractingReportingOverflow(low)
            guard !overflow, span <= widest else { return false }
            offset = low
            slots = [Double](repeating: 0, count: span + 1)
            return true
        }
        let currentHigh = offset + (slots.count - 1)
        if low >= offset && high <= currentHigh { return true }
        var newLow = Swift.min(low, offset)
        var newHigh = Swift.max(high, currentHigh)
        let (span, overflow) = newHigh.subtractingReportingOverflow(newLow)
        guard !overflow, span <= widest else { return false }
        // Grow by half again, so the copies add up to a few times the final size; when the
        // bound leaves less room than that, keep these values aside until it allows more.
        let target = Swift.min(widest, span + Swift.max(16, (span + 1) / 2))
        guard target + 1 >= slots.count + slots.count / 2 else { return false }
        let margin = target - span
        if low < offset && high > currentHigh {
            let (lowered, o1) = newLow.subtractingReportingOverflow(margin / 2)
            let (raised, o2) = newHigh.addingReportingOverflow(margin - margin / 2)
            if !o1 && !o2 { newLow = lowered; newHigh = raised }
        } else if low < offset {
            let (lowered, o) = newLow.subtractingReportingOverflow(margin)
            newLow = o ? newLow : lowered
        } else {
            let (raised, o) = newHigh.addingReportingOverflow(margin)
            newHigh = o ? newHigh : raised
        }
        var grown = [Double](repeating: 0, count: newHigh - newLow + 1)
        let shift = offset - newLow
        for index in slots.indices { grown[index + shift] = slots[index] }
        slots = grown
        offset = newLow
        return true
    }

    /// Adds probability `p` to the whole number `value`.
    mutating func add(_ value: Int, _ p: Double) {
        guard p != 0 else { return }
        offered += 1
        if reserve(value, value) {
            slots[value - offset] += p
        } else {
            scattered[.integer(value), default: 0] += p
        }
    }

    /// Adds probability `p` to `value`.
    mutating func add(_ value: Number, _ p: Double) {
        if case .integer(let n) = value {
            add(n, p)
        } else if p != 0 {
            scattered[value, default: 0] += p
        }
    }

    /// Adds `distribution`, each value moved by `shift` and each probability times `weight`.
    ///
    /// - Complexity: O(*n*) for *n* outcomes.
    mutating func add(_ distribution: Distribution, shiftedBy shift: Int = 0,
                      times weight: Double = 1) throws(ArithmeticFault) {
        guard weight != 0 else { return }
        switch distribution.storage {
        case .dense(let start, let probabilities):
            guard !probabilities.isEmpty else { return }
            let (low, o1) = start.addingReportingOverflow(shift)
            let (high, o2) = low.addingReportingOverflow(probabilities.count - 1)
            guard !o1, !o2 else { throw .overflow }
            offered += probabilities.count
            if reserve(low, high) {
                let base = low - offset
                slots.withUnsafeMutableBufferPointer { target in
                    probabilities.withUnsafeBufferPointer { source in
                        for index in 0..<source.count { target[base + index] += source[index] * weight }
                    }
                }
            } else {
                for (index, p) in probabilities.enumerated() where p != 0 { add(low + index, p * weight) }
            }
        case .sparse(let outcomes):
            for outcome in outcomes {
                add(try outcome.value.adding(.integer(shift)), outcome.probability * weight)
            }
        }
    }

    /// Adds `distribution`, each value moved by `shift` (any number) and each probability times `weight`.
    mutating func add(_ distribution: Distribution, shiftedBy shift: Number,
                      times weight: Double = 1) throws(ArithmeticFault) {
        if case .integer(let n) = shift {
            try add(distribution, shiftedBy: n, times: weight)
            return
        }
        guard weight != 0 else { return }
        try distribution.forEachOutcome { (value, p) throws(ArithmeticFault) in
            add(try value.adding(shift), p * weight)
        }
    }

    /// The distribution collected so far.
    ///
    /// - Complexity: O(*n* log *n*) when outcomes are scattered, O(*n*) otherwise.
    func build() -> Distribution {
        if scattered.isEmpty { return Distribution.fromDense(offset: offset, probabilities: slots) }
        var merged = scattered
        for (index, p) in slots.enumerated() where p != 0 {
            merged[.integer(offset + index), default: 0] += p
        }
        let sorted = merged.filter { $0.value != 0 }.map { Distribution.Outcome($0.key, $0.value) }
            .sorted { $0.value < $1.value }
        return Distribution.fromSorted(sorted)
    }
}
