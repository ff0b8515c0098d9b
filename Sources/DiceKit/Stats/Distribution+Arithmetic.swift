/// Operations between independent random values, and on one value.
///
/// An arithmetic fault (overflow, division by zero, a non-finite result) on any pair
/// of outcomes with positive probability is thrown: the roll could fail that way.
extension Distribution {
    // MARK: - Sums

    /// The distribution of `a + b` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n*·*m*); a flat convolution when both are whole numbers close together.
    public func adding(_ other: Distribution) throws(ArithmeticFault) -> Distribution {
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
    public func subtracting(_ other: Distribution) throws(ArithmeticFault) -> Distribution {
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
    public func sum(ofCopies copies: Int) throws(ArithmeticFault) -> Distribution {
        precondition(copies >= 0)
        guard copies > 0 else { return Distribution(constant: .integer(0)) }
        var result = self
        for _ in 1..<copies { result = try result.adding(self) }
        return result
    }

    /// The flat convolution of two probability arrays.
    static func convolve(_ a: [Double], _ b: [Double]) -> [Double] {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        var out = [Double](repeating: 0, count: a.count + b.count - 1)
        out.withUnsafeMutableBufferPointer { target in
            short.withUnsafeBufferPointer { s in
                long.withUnsafeBufferPointer { l in
                    for i in 0..<s.count {
                        let x = s[i]
                        if x == 0 { continue }
                        for j in 0..<l.count { target[i + j] += x * l[j] }
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
    public func combined(
        with other: Distribution,
        by operation: (Number, Number) throws(ArithmeticFault) -> Number
    ) throws(ArithmeticFault) -> Distribution {
        var builder = DistributionAccumulator()
        let right = other.outcomes
        try forEachOutcome { (x, p) throws(ArithmeticFault) in
            for outcome in right {
                builder.add(try operation(x, outcome.value), p * outcome.probability)
            }
        }
        return builder.build()
    }

    /// The distribution of `transform(a)`.
    ///
    /// - Complexity: O(*n*) calls of `transform`, plus sorting the results.
    public func mapped(_ transform: (Number) throws(ArithmeticFault) -> Number) throws(ArithmeticFault) -> Distribution {
        var builder = DistributionAccumulator()
        try forEachOutcome { (x, p) throws(ArithmeticFault) in builder.add(try transform(x), p) }
        return builder.build()
    }

    /// The distribution of `-a`.
    ///
    /// - Complexity: O(*n*)
    public func negated() throws(ArithmeticFault) -> Distribution {
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
    public func shifted(by shift: Number) throws(ArithmeticFault) -> Distribution {
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
    public static func mixture(_ parts: [(weight: Double, distribution: Distribution)]) -> Distribution {
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
    public func maximum(with other: Distribution) -> Distribution {
        // P(max = x) = P(a = x) P(b <= x) + P(a < x) P(b = x)
        mergeSweep(other) { pa, pb, aBelow, bBelow, _, _ in pa * (bBelow + pb) + aBelow * pb }
    }

    /// The distribution of `min(a, b)` for independent `a` (this) and `b`.
    ///
    /// - Complexity: O(*n* + *m*)
    public func minimum(with other: Distribution) -> Distribution {
        // P(min = x) = P(a = x) P(b >= x) + P(a > x) P(b = x)
        mergeSweep(other) { pa, pb, _, _, aAbove, bAbove in pa * (bAbove + pb) + aAbove * pb }
    }

    /// Walks the union of both supports in order, giving for each value x: P(a = x),
    /// P(b = x), P(a < x), P(b < x), P(a > x), P(b > x); `rule` makes P(result = x).
    private func mergeSweep(
        _ other: Distribution,
        rule: (Double, Double, Double, Double, Double, Double) -> Double
    ) -> Distribution {
        let a = outcomes, b = other.outcomes
        let totalA = a.reduce(0) { $0 + $1.probability }, totalB = b.reduce(0) { $0 + $1.probability }
        var builder = DistributionAccumulator()
        var i = 0, j = 0
        var belowA = 0.0, belowB = 0.0
        while i < a.count || j < b.count {
            let x: Number
            if i < a.count && (j >= b.count || a[i].value <= b[j].value) { x = a[i].value } else { x = b[j].value }
            let pa = i < a.count && a[i].value == x ? a[i].probability : 0
            let pb = j < b.count && b[j].value == x ? b[j].probability : 0
            let aboveA = Swift.max(0, totalA - belowA - pa), aboveB = Swift.max(0, totalB - belowB - pb)
            builder.add(x, rule(pa, pb, belowA, belowB, aboveA, aboveB))
            if i < a.count && a[i].value == x { i += 1 }
            if j < b.count && b[j].value == x { j += 1 }
            belowA += pa
            belowB += pb
        }
        return builder.build()
    }

    /// The 0/1 distribution of `a op b` for independent `a` (this) and `b`: P(1) is the probability it holds.
    ///
    /// - Complexity: O(*n* + *m*)
    public func comparing(_ op: ComparisonOperator, to other: Distribution) -> Distribution {
        let a = outcomes, b = other.outcomes
        var cumulative = [0.0]
        cumulative.reserveCapacity(b.count + 1)
        for outcome in b { cumulative.append(cumulative[cumulative.count - 1] + outcome.probability) }
        let totalB = cumulative[b.count]
        var yes = 0.0, no = 0.0
        var lower = 0, upper = 0
        for outcome in a {
            while lower < b.count && b[lower].value < outcome.value { lower += 1 }
            if upper < lower { upper = lower }
            while upper < b.count && b[upper].value <= outcome.value { upper += 1 }
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
            yes += outcome.probability * holds
            no += outcome.probability * fails
        }
        var builder = DistributionAccumulator()
        builder.add(0, no)
        builder.add(1, yes)
        return builder.build()
    }
}
