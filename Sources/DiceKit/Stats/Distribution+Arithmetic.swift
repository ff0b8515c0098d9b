/// Operations between independent random values, and on one value.
///
/// An arithmetic fault (overflow, division by zero, a non-finite result) on any pair
/// of outcomes with positive probability is thrown: the roll could fail that way.
extension Distribution {
    // MARK: - Sums

    /// The distribution of `a + b` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n*·*m*); a flat convolution when both are whole numbers close together.
    func adding(_ other: Distribution) throws(ArithmeticFault) -> Distribution {
        if case .dense(let a, let pa) = storage, case .dense(let b, let pb) = other.storage,
           !pa.isEmpty, !pb.isEmpty {
            let (low, o1) = a.addingReportingOverflow(b)
            let (_, o2) = (a + (pa.count - 1)).addingReportingOverflow(b + (pb.count - 1))
            guard !o1, !o2 else { throw .overflow }
            return Distribution.fromDense(offset: low, probabilities: Distribution.convolve(pa, pb))
        }
        return try combined(with: other) { (x, y) throws(ArithmeticFault) in try x.adding(y) }
    }

    /// The distribution of `a - b` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n*·*m*)
    func subtracting(_ other: Distribution) throws(ArithmeticFault) -> Distribution {
        if case .dense(let a, let pa) = storage, case .dense(let b, let pb) = other.storage,
           !pa.isEmpty, !pb.isEmpty {
            let (low, o1) = a.subtractingReportingOverflow(b + (pb.count - 1))
            let (_, o2) = (a + (pa.count - 1)).subtractingReportingOverflow(b)
            guard !o1, !o2 else { throw .overflow }
            return Distribution.fromDense(offset: low, probabilities: Distribution.convolve(pa, pb.reversed()))
        }
        return try combined(with: other) { (x, y) throws(ArithmeticFault) in try x.subtracting(y) }
    }

    /// The sum of `copies` independent copies (0 copies: the constant 0).
    ///
    /// - Complexity: O(*copies*² · *n*²) for *n* outcomes.
    func sum(ofCopies copies: Int) throws(ArithmeticFault) -> Distribution {
        precondition(copies >= 0)
        guard copies > 0 else { return Distribution(constant: .integer(0)) }
        var result = self
        for _ in 1..<copies { result = try result.adding(self) }
        return result
    }

    /// The flat convolution of two nonempty probability arrays.
    ///
    /// - Complexity: O(*n*·*m*); the inner loop runs over the longer array, without
    ///   overflow checks (the indices stay below the result's count), so it vectorizes.
    static func convolve(_ a: [Double], _ b: [Double]) -> [Double] {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard !short.isEmpty else { return [] }
        var out = [Double](repeating: 0, count: a.count + b.count - 1)
        out.withUnsafeMutableBufferPointer { target in
            short.withUnsafeBufferPointer { s in
                long.withUnsafeBufferPointer { l in
                    let width = l.count
                    for i in 0..<s.count {
                        let x = s[i]
                        if x == 0 { continue }
                        // Row `i` of the sum: target[i ..< i + width] += x * l.
                        let row = UnsafeMutableBufferPointer(rebasing: target[i ..< i &+ width])
                        for j in 0..<width { row[j] += x * l[j] }
                    }
                }
            }
        }
        return out
    }

    // MARK: - Any operation

    /// The distribution of `operation(a, b)` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n*·*m*) calls of `operation`, plus sorting the results.
    func combined(
        with other: Distribution,
        by operation: (Number, Number) throws(ArithmeticFault) -> Number
    ) throws(ArithmeticFault) -> Distribution {
        var builder = DistributionAccumulator()
        try forEachOutcome { (x, p) throws(ArithmeticFault) in
            try other.forEachOutcome { (y, q) throws(ArithmeticFault) in
                builder.add(try operation(x, y), p * q)
            }
        }
        return builder.build()
    }

    /// The distribution of `transform(a)`.
    ///
    /// - Complexity: O(*n*) calls of `transform`, plus sorting the results.
    func mapped(_ transform: (Number) throws(ArithmeticFault) -> Number) throws(ArithmeticFault) -> Distribution {
        var builder = DistributionAccumulator()
        try forEachOutcome { (x, p) throws(ArithmeticFault) in builder.add(try transform(x), p) }
        return builder.build()
    }

    /// The distribution of `-a`.
    ///
    /// - Complexity: O(*n*)
    func negated() throws(ArithmeticFault) -> Distribution {
        if case .dense(let a, let pa) = storage, !pa.isEmpty {
            let (low, o) = 0.subtractingReportingOverflow(a + (pa.count - 1))
            guard !o, a != Int.min else { throw .overflow }
            return Distribution(storage: .dense(offset: low, probabilities: pa.reversed()))
        }
        return try mapped { (x) throws(ArithmeticFault) in try x.negated() }
    }

    /// The same distribution with every value moved by `shift`.
    ///
    /// - Complexity: O(1) when dense, O(*n*) otherwise.
    func shifted(by shift: Number) throws(ArithmeticFault) -> Distribution {
        if case .integer(let n) = shift, case .dense(let a, let pa) = storage, !pa.isEmpty {
            let (low, o1) = a.addingReportingOverflow(n)
            let (_, o2) = (a + (pa.count - 1)).addingReportingOverflow(n)
            guard !o1, !o2 else { throw .overflow }
            return Distribution(storage: .dense(offset: low, probabilities: pa))
        }
        return try mapped { (x) throws(ArithmeticFault) in try x.adding(shift) }
    }

    /// A weighted mixture: each part's probabilities times its weight, added up.
    ///
    /// - Complexity: O(total outcomes), plus sorting when not dense.
    static func mixture(_ parts: [(weight: Double, distribution: Distribution)]) -> Distribution {
        var builder = DistributionAccumulator()
        for part in parts {
            // Shifting by 0 cannot overflow.
            try? builder.add(part.distribution, shiftedBy: 0, times: part.weight)
        }
        return builder.build()
    }

    // MARK: - Order

    /// The distribution of `max(a, b)` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n* + *m*)
    func maximum(with other: Distribution) -> Distribution {
        // P(max = x) = P(a = x) P(b <= x) + P(a < x) P(b = x)
        mergeSweep(other) { pa, pb, aBelow, bBelow, _, _ in pa * (bBelow + pb) + aBelow * pb }
    }

    /// The distribution of `min(a, b)` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n* + *m*)
    func minimum(with other: Distribution) -> Distribution {
        // P(min = x) = P(a = x) P(b >= x) + P(a > x) P(b = x)
        mergeSweep(other) { pa, pb, _, _, aAbove, bAbove in pa * (bAbove + pb) + aAbove * pb }
    }

    /// Walks the union of both supports in order, giving for each value x: P(a = x),
    /// P(b = x), P(a < x), P(b < x), P(a > x), P(b > x); `rule` makes P(result = x).
    ///
    /// The slots of a dense range include its gaps: there `rule` gets zeros and adds nothing.
    private func mergeSweep(
        _ other: Distribution,
        rule: (Double, Double, Double, Double, Double, Double) -> Double
    ) -> Distribution {
        let a = slots, b = other.slots
        let totalA = totalProbability, totalB = other.totalProbability
        var builder = DistributionAccumulator()
        var i = 0, j = 0
        var belowA = 0.0, belowB = 0.0
        while i < a.count || j < b.count {
            let x: Number
            if i < a.count && (j >= b.count || a.value(i) <= b.value(j)) { x = a.value(i) } else { x = b.value(j) }
            let pa = i < a.count && a.value(i) == x ? a.probability(i) : 0
            let pb = j < b.count && b.value(j) == x ? b.probability(j) : 0
            let aboveA = Swift.max(0, totalA - belowA - pa), aboveB = Swift.max(0, totalB - belowB - pb)
            builder.add(x, rule(pa, pb, belowA, belowB, aboveA, aboveB))
            if i < a.count && a.value(i) == x { i += 1 }
            if j < b.count && b.value(j) == x { j += 1 }
            belowA += pa
            belowB += pb
        }
        return builder.build()
    }

    /// The 0/1 distribution of `a op b` for independent `a` (this) and `b`: P(1) is the probability it holds.
    ///
    /// - Complexity: O(*n* + *m*)
    func comparing(_ op: ComparisonOperator, to other: Distribution) -> Distribution {
        // The slots of a dense `other` include its gaps, which add 0 to the running sums.
        let b = other.slots
        var cumulative = [Double](repeating: 0, count: b.count + 1)
        for index in 0..<b.count { cumulative[index + 1] = cumulative[index] + b.probability(index) }
        let totalB = cumulative[b.count]
        var yes = 0.0, no = 0.0
        var lower = 0, upper = 0
        forEachOutcome { value, probability in
            while lower < b.count && b.value(lower) < value { lower += 1 }
            if upper < lower { upper = lower }
            while upper < b.count && b.value(upper) <= value { upper += 1 }
            let below = cumulative[lower]
            let equal = cumulative[upper] - cumulative[lower]
            let above = totalB - cumulative[upper]
            let holds: Double, fails: Double
            switch op {
            case .equal: (holds, fails) = (equal, below + above)
            case .notEqual: (holds, fails) = (below + above, equal)
            case .less: (holds, fails) = (above, below + equal)
            case .lessEqual: (holds, fails) = (equal + above, below)
            case .greater: (holds, fails) = (below, equal + above)
            case .greaterEqual: (holds, fails) = (below + equal, above)
            }
            yes += probability * holds
            no += probability * fails
        }
        var builder = DistributionAccumulator()
        builder.add(0, no)
        builder.add(1, yes)
        return builder.build()
    }
}
