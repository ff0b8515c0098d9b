/// Texts, tables, tallies, logic and `given` (LANGUAGE.md §5b and §7), exactly: each form
/// conditions on the outcomes of its parts, which are independent rolls (a name bound by
/// `let` or a parameter is one fixed outcome while its body is worked out).
extension StatsEngine {
    func outcomeDistribution(_ expr: Expr) throws(StatsFailure) -> Distribution {
        switch expr.kind {
        case .text(let text):
            return Distribution(only: .text(text))
        case .match(let subject, let entries, let otherwise):
            return try matchDistribution(subject, entries, otherwise)
        case .tally(let fields):
            var result = Distribution(only: .tally(Tally()))
            for field in fields {
                let value = try distribution(of: field.value, for: "a tally's field")
                result = try combineValues(result, value, at: field.value.range) { (tally, number) throws(ArithmeticFault) in
                    guard case .tally(var fields) = tally, case .number(let count) = number else { return tally }
                    fields[field.name] = count
                    return .tally(fields)
                }
            }
            return result
        case .field(let base, let name):
            let tallies = try outcomes(of: base)
            if let packed = try packedField(tallies, name) { return packed }
            return try mapValues(tallies, at: expr.range) { (value) throws(ArithmeticFault) in .number(try value.field(name)) }
        case .logical(let op, let lhs, let rhs):
            let left = try distribution(of: lhs, for: "'\(op.rawValue)'")
            let zero = left.probability(of: .integer(0))
            let nonzero = Swift.max(0, left.totalProbability - zero)
            // `and` needs the right side only when the left is not 0, `or` only when it is.
            let needsRight = op == .and ? nonzero : zero
            var ones = op == .and ? 0 : nonzero
            var zeros = op == .and ? zero : 0
            if needsRight > 0 {
                let right = try distribution(of: rhs, for: "'\(op.rawValue)'")
                let rightZero = right.probability(of: .integer(0))
                let rightNonzero = Swift.max(0, right.totalProbability - rightZero)
                ones += needsRight * rightNonzero
                zeros += needsRight * rightZero
            }
            var result = ValueAccumulator()
            result.add(.integer(1), ones)
            result.add(.integer(0), zeros)
            return result.build()
        case .not(let operand):
            let value = try distribution(of: operand, for: "'not'")
            let zero = value.probability(of: .integer(0))
            var result = ValueAccumulator()
            result.add(.integer(1), zero)
            result.add(.integer(0), Swift.max(0, value.totalProbability - zero))
            return result.build()
        case .count(let target, let point):
            return try countDistribution(target, point, at: expr.range)
        case .given(let value, let condition):
            // Independent parts (shared names are fixed here): the mass of E where C holds.
            // The statement's distribution is divided by its total at the end (`Stats`).
            // E first, as the roller rolls it: an error there is one, even where C never
            // holds (`let r = 1d2 in 1 / (r - 1) given r == 2` fails to roll when r is 1).
            let cutBefore = explosionCutBound
            let body = try outcomes(of: value)
            let bodyCut = explosionCutBound - cutBefore
            let test = try distribution(of: condition, for: "'given'")
            var holds = 0.0
            test.forEachValue { outcome, p in if !outcome.isZero { holds += p } }
            // E's explosion cuts count where C holds (`1d6! given 1d2 == 1` cuts half what 1d6!
            // does); C's all, as if C held wherever it was cut.
            explosionCutBound -= bodyCut * (1 - holds)
            conditioned = true
            givenConditions.note(givenMacroUse ?? GivenConditions.Place(range: condition.range), held: holds > 0)
            guard holds > 0 else { return Distribution(storage: .sparse([])) }
            return body.scaled(by: holds)
        default:
            throw .invariant("\(expr.text) is no outcome form")
        }
    }

    // MARK: - Tables

    private func matchDistribution(_ subject: Expr, _ entries: [MatchEntry],
                                   _ otherwise: Expr?) throws(StatsFailure) -> Distribution {
        let values = try outcomes(of: subject)
        var boundParts: [Distribution] = []
        for entry in entries {
            for part in entry.patternParts { boundParts.append(try outcomes(of: part)) }
        }
        var weights = [Double](repeating: 0, count: entries.count + 1)
        try meter.charge(values.count)
        // The bounds are independent of the subject: condition on each joint outcome of them
        // (one, when they are written as numbers).
        try forEachJointOutcome(of: boundParts) { (bounds, weight) throws(StatsFailure) in
            var cursor = 0
            var perEntry: [ArraySlice<Value>] = []
            for entry in entries {
                perEntry.append(bounds[cursor..<cursor + entry.partCount])
                cursor += entry.partCount
            }
            try values.forEachValue { (value, p) throws(StatsFailure) in
                var chosen = entries.count
                for (index, entry) in entries.enumerated() {
                    let holds: Bool
                    do throws(DiceError) {
                        holds = try entry.holds(perEntry[index], for: value, subject: subject.range)
                    } catch {
                        throw .dice(error)
                    }
                    if holds {
                        chosen = index
                        break
                    }
                }
                if chosen == entries.count && otherwise == nil {
                    throw .dice(DiceError(.noMatchingEntry(value), at: subject.range))
                }
                weights[chosen] += p * weight
            }
        }
        var result = ValueAccumulator()
        for (index, weight) in weights.enumerated() where weight > 0 {
            guard let result1 = index < entries.count ? entries[index].result : otherwise else { continue }
            let part = try scalingCuts(by: weight) { () throws(StatsFailure) in try outcomes(of: result1) }
            try meter.charge(part.storageSize)
            try mix(part, times: weight, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    // MARK: - Values of any kind

    /// `transform` of each outcome, merged.
    func mapValues(_ distribution: Distribution, at range: SourceRange,
                   _ transform: (Value) throws(ArithmeticFault) -> Value) throws(StatsFailure) -> Distribution {
        try meter.charge(distribution.storageSize)
        var result = ValueAccumulator()
        try distribution.forEachValue { (value, p) throws(StatsFailure) in
            result.add(try arithmetic(at: range) { () throws(ArithmeticFault) in try transform(value) }, p)
        }
        return try meter.checkSize(result.build())
    }

    /// `operation` over every pair of outcomes of independent `lhs` and `rhs`.
    func combineValues(_ lhs: Distribution, _ rhs: Distribution, at range: SourceRange,
                       _ operation: (Value, Value) throws(ArithmeticFault) -> Value) throws(StatsFailure) -> Distribution {
        let pairCost = lhs.holdsTallies || rhs.holdsTallies ? WorkMeter.tallyPairCost : WorkMeter.sparsePairCost
        try meter.charge(WorkMeter.product(WorkMeter.product(lhs.count, rhs.count), pairCost))
        let right = rhs.valueOutcomes
        var result = ValueAccumulator()
        try lhs.forEachValue { (a, p) throws(StatsFailure) in
            for outcome in right {
                let value = try arithmetic(at: range) { () throws(ArithmeticFault) in try operation(a, outcome.value) }
                result.add(value, p * outcome.probability)
            }
        }
        return try meter.checkSize(result.build())
    }

    /// The sum of `copies` independent copies of `member` (tallies add field by field),
    /// by repeated squaring.
    func repeatedValueSum(_ member: Distribution, copies: Int, at range: SourceRange) throws(StatsFailure) -> Distribution {
        var result = Distribution(constant: .integer(0))
        var power = member
        var remaining = copies
        while remaining > 0 {
            if remaining & 1 == 1 { result = try addValues(result, power, subtracting: false, at: range) }
            remaining >>= 1
            if remaining > 0 { power = try addValues(power, power, subtracting: false, at: range) }
        }
        return result
    }
}
