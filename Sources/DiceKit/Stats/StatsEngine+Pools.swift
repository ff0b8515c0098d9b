/// Exact distributions of the pool forms of LANGUAGE.md §5b: unique dice (drawing without
/// replacement), text and tally dice, `count(E, cp)`, and pools bound by `let` and counted
/// several ways (a multinomial over the classes of faces the compare points tell apart).
extension StatsEngine {
    // MARK: - Unique dice

    /// `NdSu`, perhaps with rerolls and clamps before and one keep/drop step and counting
    /// after: each die is a fresh face of the single-die distribution `faces` (after its own
    /// rerolls), conditioned on the faces not shown yet.
    ///
    /// Equally likely faces: every N-subset is equally likely, and a pass over the faces in
    /// the order keep/drop takes them counts subsets by size and value. Otherwise a pass over
    /// the subsets of at most 16 faces, each with the probability of being drawn first.
    func uniqueDistribution(faces: Distribution, rules: PoolRules, counts: Distribution,
                            at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard rules.explosion == nil, rules.keeps.count <= 1 else {
            throw .tooExpensive("unique dice with explosions or several keep/drop steps")
        }
        var single = rules
        single.unique = false
        single.keeps = []
        single.counting = PoolRules.Counting()
        single.sortAscending = nil
        let die = try PoolModel(faces: faces, rules: single, largestCount: 1, explosionCutoff: meter.budget.explosionCutoff,
                                range: range, rerollRange: range, explosionRange: range).distribution(count: 1, meter: &meter)
        var weights: [(face: Number, p: Double)] = []
        die.forEachOutcome { face, p in weights.append((face, p)) }
        let total = weights.reduce(0) { $0 + $1.p }
        guard total > 0 else { return Distribution(storage: .sparse([])) }
        var result = ValueAccumulator()
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value else { return }
            guard n <= weights.count else {
                throw .dice(DiceError(.tooFewFacesForUnique(dice: n, faces: weights.count), at: range))
            }
            let part = try uniqueSubsets(weights.map { ($0.face, $0.p / total) }, dice: n, rules: rules, at: range)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    private func uniqueSubsets(_ faces: [(face: Number, p: Double)], dice: Int, rules: PoolRules,
                               at range: SourceRange) throws(StatsFailure) -> Distribution {
        // Faces in the order keep/drop takes them: the kept ones are the first `kept` drawn.
        var kept = dice
        var order = faces.sorted { $0.face < $1.face }
        if let step = rules.keeps.first {
            let keepsHighest = (step.keep && step.extreme == .highest) || (!step.keep && step.extreme == .lowest)
            if keepsHighest { order.reverse() }
            kept = step.keep ? Swift.min(step.count, dice) : Swift.max(0, dice - step.count)
        }
        func contribution(_ face: Number) throws(StatsFailure) -> Number {
            try arithmetic(at: range) { () throws(ArithmeticFault) in try rules.counting.contribution(of: face) }
        }
        let uniform = faces.allSatisfy { Swift.abs($0.p - faces[0].p) <= 1e-12 * faces[0].p }
        if uniform {
            // counts[k][v]: subsets of k faces so far, the first `kept` of them adding to v.
            try meter.charge(WorkMeter.product(WorkMeter.product(order.count, dice + 1), 16))
            var counts: [[Number: Double]] = Array(repeating: [:], count: dice + 1)
            counts[0][.integer(0)] = 1
            for (index, entry) in order.enumerated() {
                let adds = try contribution(entry.face)
                for k in stride(from: Swift.min(index + 1, dice), through: 1, by: -1) {
                    for (value, ways) in counts[k - 1] {
                        let next = k <= kept
                            ? try arithmetic(at: range) { () throws(ArithmeticFault) in try value.adding(adds) } : value
                        counts[k][next, default: 0] += ways
                    }
                }
                try meter.charge(counts.reduce(0) { $0 + $1.count })
            }
            let all = counts[dice].values.reduce(0, +)
            return Distribution(counts[dice].map { Distribution.Outcome($0.key, $0.value / all) })
        }
        guard order.count <= 16 else { throw .tooExpensive("unique dice of more than 16 faces not equally likely") }
        try meter.charge(WorkMeter.product(1 << order.count, order.count))
        var chance = [Double](repeating: 0, count: 1 << order.count)
        chance[0] = 1
        var result = DistributionAccumulator()
        for mask in 0..<(1 << order.count) where chance[mask] > 0 {
            let drawn = mask.nonzeroBitCount
            if drawn == dice {
                var value = Number.integer(0)
                var taken = 0
                for (index, entry) in order.enumerated() where mask & (1 << index) != 0 {
                    taken += 1
                    if taken <= kept {
                        let adds = try contribution(entry.face)
                        value = try arithmetic(at: range) { () throws(ArithmeticFault) in try value.adding(adds) }
                    }
                }
                result.add(value, chance[mask])
                continue
            }
            var left = 1.0
            for (index, entry) in order.enumerated() where mask & (1 << index) != 0 { left -= entry.p }
            guard left > 0 else { continue }
            for (index, entry) in order.enumerated() where mask & (1 << index) == 0 {
                chance[mask | (1 << index)] += chance[mask] * entry.p / left
            }
        }
        return result.build()
    }

    // MARK: - Text and tally dice

    /// Dice whose faces are texts or tallies: counted with a compare point, the numeric pool
    /// of their faces' positions; else one die's face, or tallies added.
    func symbolDiceDistribution(_ term: DiceTerm, at range: SourceRange) throws(StatsFailure) -> Distribution {
        let semantics = TermSemantics(term)
        if let conflict = semantics.conflict { throw .dice(conflict) }
        let symbols = semantics.symbols
        guard let faceList = term.sides.fixedFaces else { throw .dice(DiceError(.emptyFaces, at: range)) }
        let count = try term.count.map { (count) throws(StatsFailure) in try distribution(of: count, for: "a count") }
            ?? Distribution(constant: .integer(1))
        var inputs: [Number] = []
        for argument in PoolRules.arguments(of: semantics.stageOrder) {
            guard let value = try outcomes(of: argument).constantOutcome else {
                throw .tooExpensive("a compare point of text dice that is not fixed")
            }
            inputs.append(.integer(symbols.firstIndex(of: value) ?? -1))
        }
        let rules = try resolveRules(semantics.stageOrder) { $0 < inputs.count ? inputs[$0] : nil }
        let faces = Distribution(faces: faceList)
        if !rules.counting.isSum {
            // Counting: the pool of positions counts the same dice.
            if rules.unique { return try uniqueDistribution(faces: faces, rules: rules, counts: count, at: range) }
            let pool = try PoolModel(faces: faces, rules: rules, largestCount: 1 << 20,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range,
                                     rerollRange: range, explosionRange: range)
            var result = ValueAccumulator()
            try count.forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
                try mix(try pool.distribution(count: n, meter: &meter), times: p, into: &result)
            }
            return result.build()
        }
        guard !rules.unique else { throw .tooExpensive("the faces of unique text dice") }
        let one = try PoolModel(faces: faces, rules: rules, largestCount: 1, explosionCutoff: meter.budget.explosionCutoff,
                                range: range, rerollRange: range, explosionRange: range).distribution(count: 1, meter: &meter)
        let die = try mapValues(one, at: range) { (position) throws(ArithmeticFault) in
            guard let index = position.integerValue, symbols.indices.contains(index) else { return position }
            return symbols[index]
        }
        let allTallies = symbols.allSatisfy { if case .tally = $0 { return true } else { return false } }
        var result = ValueAccumulator()
        try count.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
            let part: Distribution
            switch n {
            case 0: part = Distribution(only: allTallies ? .tally(Tally()) : .integer(0))
            case 1: part = die
            default:
                guard allTallies else { throw .dice(DiceError(.textDiceOperation("a sum of several text dice"), at: range)) }
                part = try repeatedValueSum(die, copies: n, at: range)
            }
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    // MARK: - count

    /// `count(E, cp)`: of a name bound to a pool, the count its outcome fixed; of a pool,
    /// group or `repeat` written in place, the same with the counting modifier `cs` as its own.
    func countDistribution(_ target: Expr, _ point: ComparePoint, at range: SourceRange) throws(StatsFailure) -> Distribution {
        if case .name(let name) = target.kind, let parameter = frames.last?[name] {
            guard case .pool(let pool) = parameter else { throw .dice(DiceError(.countNeedsPool, at: target.range)) }
            guard let key = try countKey(point), let matches = pool.counts[key] else {
                throw .invariant("a count of a bound pool that was not worked out")
            }
            return Distribution(constant: .integer(matches))
        }
        var inner = target
        while case .annotated(let labelled, _) = inner.kind { inner = labelled }
        switch inner.kind {
        case .group(let members, let modifiers) where modifiers.isEmpty:
            var chances: [Double] = []
            for member in members { chances.append(try matchChance(member, point)) }
            return Distribution(StatsEngine.successes(chances))
        case .repeat(let count, let body, let modifiers) where modifiers.isEmpty:
            // Members alike and independent: a binomial for each number of members.
            let counts = try distribution(of: count, for: "the count of repeat")
            var result = ValueAccumulator()
            var chance: Double?
            try counts.forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value, n >= 0, n <= limits.maxDice else {
                    throw .dice(DiceError(.invalidRepeatCount(value), at: count.range))
                }
                let single: Double
                if let known = chance {
                    single = known
                } else {
                    single = try matchChance(body, point)
                    chance = single
                }
                try meter.charge(n + 1)
                try mix(Distribution(StatsEngine.successes([Double](repeating: single, count: n))), times: p, into: &result)
            }
            return try meter.checkSize(result.build())
        default:
            break
        }
        guard let counted = StatsEngine.counting(target, point) else {
            throw .dice(DiceError(.countNeedsPool, at: target.range))
        }
        return try distribution(of: counted)
    }

    /// The chance that `member` (one roll) matches `point`.
    private func matchChance(_ member: Expr, _ point: ComparePoint) throws(StatsFailure) -> Double {
        guard let key = try countKey(point) else { throw .tooExpensive("a count whose compare point is not fixed") }
        let outcomes = try self.outcomes(of: member)
        var chance = 0.0
        outcomes.forEachValue { value, p in if key.matches(value) { chance += p } }
        return chance / Swift.max(outcomes.totalProbability, .leastNormalMagnitude)
    }

    /// How many of independent events of `chances` happen: 0 to their number.
    static func successes(_ chances: [Double]) -> [Distribution.Outcome] {
        var counts = [1.0]
        for chance in chances {
            var next = [Double](repeating: 0, count: counts.count + 1)
            for (k, p) in counts.enumerated() {
                next[k] += p * (1 - chance)
                next[k + 1] += p * chance
            }
            counts = next
        }
        return counts.enumerated().map { Distribution.Outcome(.integer($0.offset), $0.element) }
    }

    /// `target` (a pool, group or `repeat`, perhaps annotated) counting its kept dice or
    /// members that match `point`, in place of its own counting.
    static func counting(_ target: Expr, _ point: ComparePoint) -> Expr? {
        func recount(_ modifiers: [DiceModifier]) -> [DiceModifier] {
            modifiers.filter { modifier in
                switch modifier.kind {
                case .countSuccesses, .countFailures, .subtractFailures: return false
                default: return true
                }
            } + [DiceModifier(.countSuccesses(point), point.value.range)]
        }
        switch target.kind {
        case .dice(let term):
            return Expr(.dice(DiceTerm(count: term.count, sides: term.sides, modifiers: recount(term.modifiers),
                                       spelling: term.spelling)), target.range)
        case .group(let members, let modifiers):
            return Expr(.group(members, recount(modifiers)), target.range)
        case .repeat(let count, let body, let modifiers):
            return Expr(.repeat(count: count, body: body, modifiers: recount(modifiers)), target.range)
        case .annotated(let inner, _):
            return counting(inner, point)
        default:
            return nil
        }
    }

    /// The fixed value of a compare point, as a count of a bound pool is filed under it.
    func countKey(_ point: ComparePoint) throws(StatsFailure) -> PointKey? {
        guard let value = try outcomes(of: point.value).constantOutcome else { return nil }
        return PointKey(op: point.op, value: value)
    }
}

/// A compare point with its value worked out: what a count of a bound pool is filed under.
struct PointKey: Hashable {
    var op: ComparisonOperator
    var value: Value

    /// Whether a die showing `face` matches.
    func matches(_ face: Value) -> Bool {
        switch op {
        case .equal: return face == value
        case .notEqual: return face != value
        default:
            guard case .number(let a) = face, case .number(let b) = value else { return false }
            return op.holds(a, b)
        }
    }
}

/// A pool bound by `let`, under one outcome of its dice: its value, and how many of its
/// dice match each compare point the body counts with.
struct BoundPoolOutcome {
    var value: Value
    var counts: [PointKey: Int]
    /// Its kept dice as the roller could show them: a face of each class, and how many.
    var dice: [(face: Value, count: Int)] = []
}
