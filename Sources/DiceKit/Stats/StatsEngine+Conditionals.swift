/// `if C then A else B` and `let name = E in BODY`.
///
/// Dice terms are independent rolls, so C's dice are independent of A's and B's: the
/// result is the mixture of the branches weighted by P(C ≠ 0) and P(C = 0), and a branch
/// of probability 0 is never evaluated (its errors never happen). A bound name is one
/// roll however often it is used: BODY is evaluated for each outcome of E with the name
/// fixed to it, unless the name is used at most once, when E's distribution stands in.
/// Outcomes may be numbers, texts or tallies throughout.
extension StatsEngine {
    func conditionalDistribution(_ condition: Expr, _ then: Expr,
                                 _ otherwise: Expr) throws(StatsFailure) -> Distribution {
        let test = try distribution(of: condition, for: "'if'")
        try meter.charge(test.storageSize)
        var taken = 0.0, notTaken = 0.0
        test.forEachValue { value, p in
            if value.isZero { notTaken += p } else { taken += p }
        }
        var result = ValueAccumulator()
        if taken > 0 {
            let branch = try scalingCuts(by: taken) { () throws(StatsFailure) in try outcomes(of: then) }
            try meter.charge(branch.storageSize)
            try mix(branch, times: taken, into: &result)
        }
        if notTaken > 0 {
            let branch = try scalingCuts(by: notTaken) { () throws(StatsFailure) in try outcomes(of: otherwise) }
            try meter.charge(branch.storageSize)
            try mix(branch, times: notTaken, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// The mass of a `let`'s value that its body never reads. The roller rolls the dice but adds
    /// them up only where the body reads them: `let g = 2d{"a", "b"} in 0` is 0 when rolled,
    /// where stats said "a sum of several text dice". Text and tally dice do not explode, so
    /// nothing of such a pool is cut. Keep/drop on them fails all the same, when rolled
    /// (`let r = 6d{"a", "b"}dh in "a"`).
    private func unreadMass(of value: Expr) throws(StatsFailure) -> Double {
        do {
            return try outcomes(of: value).totalProbability
        } catch {
            var pool = value
            while case .annotated(let inner, _) = pool.kind { pool = inner }
            guard case .dice = pool.kind, case .dice(let diceError) = error, diceError.range == pool.range,
                  case .textDiceOperation(let operation) = diceError.kind, operation.hasPrefix("a sum of several")
            else { throw error }
            return 1
        }
    }

    func bindingDistribution(_ name: String, _ value: Expr, _ body: Expr) throws(StatsFailure) -> Distribution {
        var points: [ComparePoint] = []
        StatsEngine.collectCounts(of: name, in: body, into: &points)
        if !points.isEmpty {
            // A point that reads a name of the body is worked out, and checked, at the count.
            let local = pointsReadingBody(of: name, in: body)
            if let counted = try boundGroupDistribution(name, value, body, points: points, local: local) {
                return counted
            }
            return try boundPoolDistribution(name, value, body, points: points, local: local)
        }
        var uses: [String: Int] = [:]
        StatsEngine.countUses(in: body, of: [name], weight: 1, into: &uses)
        if uses[name] == 1 && !StatsEngine.namesFixedByGiven(in: body, of: [name], topIsUnit: false).isEmpty {
            uses[name] = 2
        }
        // A macro's default that reads the name is worked out where the macro is used, with the
        // name's one value there: with `def lim(t = x) = t`, `let x = 1d4 in lim` was 0 (the name
        // seemed unused) and `lim + x` two rolls of 1d4, where the roller has x and 2x.
        var checked = Set<String>()
        if defaultsRead(name, in: body, checked: &checked) { uses[name] = Swift.max(uses[name, default: 0], 2) }
        if uses[name, default: 0] == 0 {
            // E is rolled all the same: its mass (less than 1 when a tail was cut) carries over.
            return try withBinding(name, .value(.integer(0))) { () throws(StatsFailure) in
                try outcomes(of: body)
            }.scaled(by: try unreadMass(of: value))
        }
        let bound = try outcomes(of: value)
        switch uses[name, default: 0] {
        case 1:
            return try withBinding(name, .distribution(bound)) { () throws(StatsFailure) in
                try outcomes(of: body)
            }
        default:
            if let mapped = try packedTallyBody(name, bound, body) { return mapped }
            try meter.charge(bound.count)
            var values: [(value: Value, p: Double)] = []
            bound.forEachValue { value, p in values.append((value, p)) }
            return try mixture(of: body, binding: [name], cases: values.count, chance: { values[$0].p },
                               value: { index, _ in values[index].value })
        }
    }

    /// `body` with `name` bound to `parameter` on top of the innermost frame's names.
    func withBinding(_ name: String, _ parameter: Parameter,
                     _ body: () throws(StatsFailure) -> Distribution) throws(StatsFailure) -> Distribution {
        frames.pushBinding(name, parameter)
        defer { frames.removeLast() }
        return try body()
    }

    /// Adds `part`, its probabilities times `weight`, to a mixture of values of any kind.
    func mix(_ part: Distribution, times weight: Double, into result: inout ValueAccumulator) throws(StatsFailure) {
        do {
            try result.add(part, times: weight)
        } catch {
            throw .invariant("an unshifted mixture failed: \(error.kind.message)")
        }
    }
}
