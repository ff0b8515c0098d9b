/// Exact distributions of the pool forms of LANGUAGE.md §5b: unique dice (drawing without
/// replacement), text and tally dice, `count(E, cp)`, and pools bound by `let` and counted
/// several ways (a multinomial over the classes of faces the compare points tell apart).
extension StatsEngine {
    // MARK: - Text and tally dice

    /// Dice whose faces are texts or tallies: counted with a compare point, the numeric pool
    /// of their faces' positions; else one die's face, or tallies added.
    func symbolDiceDistribution(_ term: DiceTerm, at range: SourceRange) throws(StatsFailure) -> Distribution {
        let semantics = TermSemantics(term)
        if let conflict = semantics.conflict { throw .dice(conflict) }
        let symbols = semantics.symbols
        guard let faceList = term.sides.fixedFaces else { throw .dice(DiceError(.emptyFaces, at: range)) }
        let count = try term.count.map { (count) throws(StatsFailure) in try distribution(of: count, for: NumberNeeds.diceCount) }
            ?? Distribution(constant: .integer(1))
        var arguments: [Distribution] = []
        for argument in PoolRules.arguments(of: semantics.stageOrder) { arguments.append(try outcomes(of: argument)) }
        let faces = Distribution(faces: faceList)
        // An argument is a face, read as its position (`cs="hit"`). One that is rolled is rolled
        // once for the pool: the pool for each joint outcome of them, mixed, where
        // `count(4d{"hit", "miss"}, =(d{"hit", "miss"}))` was simulated, its ends the sample's.
        let fixed = arguments.compactMap(\.constantOutcome)
        if fixed.count == arguments.count {
            return try symbolDice(faces, symbols, semantics, positions: fixed, counts: count, at: range)
        }
        var result = ValueAccumulator()
        try forEachJointOutcome(of: arguments) { (values, p) throws(StatsFailure) in
            let part = try symbolDice(faces, symbols, semantics, positions: values, counts: count, at: range)
            try meter.charge(part.storageSize)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// `symbolDiceDistribution` of dice of `faces` (the positions of `symbols`), `counts` of
    /// them, its modifiers' arguments `values` (each face read as its position).
    private func symbolDice(_ faces: Distribution, _ symbols: [Value], _ semantics: TermSemantics, positions values: [Value],
                            counts count: Distribution, at range: SourceRange) throws(StatsFailure) -> Distribution {
        let inputs = values.map { Number.integer(symbols.firstIndex(of: $0) ?? -1) }
        let rules = try resolveRules(semantics.stageOrder) { $0 < inputs.count ? inputs[$0] : nil }
        if !rules.counting.isSum {
            // Counting: the pool of positions counts the same dice.
            if rules.unique { return try uniqueDistribution(faces: faces, rules: rules, counts: count, at: range) }
            let pool = try PoolModel(faces: faces, rules: rules, largestCount: 1 << 20,
                                     explosionCutoff: meter.budget.explosionCutoff, range: range)
            var result = ValueAccumulator()
            try count.forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
                try mix(try pool.distribution(count: n, meter: &meter), times: p, into: &result)
            }
            return result.build()
        }
        if rules.unique {
            return try uniqueSymbolSum(faces: faces, rules: rules, symbols: symbols, counts: count, at: range)
        }
        let one = try PoolModel(faces: faces, rules: rules, largestCount: 1, explosionCutoff: meter.budget.explosionCutoff,
                                range: range).distribution(count: 1, meter: &meter)
        let die = try mapValues(one, at: range) { (position) throws(ArithmeticFault) in
            guard let index = position.integerValue, symbols.indices.contains(index) else { return position }
            return symbols[index]
        }
        var result = ValueAccumulator()
        try count.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
            let part: Distribution
            switch n {
            case 0: part = Distribution(only: SymbolSum.empty(symbols))
            case 1: part = die
            default:
                if let error = SymbolSum.error(symbols) { throw .dice(DiceError(error, at: range)) }
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
            return try boundCount(pool, point)
        }
        var inner = target
        while case .annotated(let labelled, _) = inner.kind { inner = labelled }
        let possible = try possibleMembers(inner)
        switch inner.kind {
        case .group(let members, let modifiers, _) where modifiers.isEmpty:
            var rolled: [Distribution] = []
            for member in members { rolled.append(try outcomes(of: member)) }
            return try forEachPointValue(point, members: possible) { (key) throws(StatsFailure) in
                try meter.charge(rolled.reduce(0) { $0 &+ $1.count })
                return Distribution(StatsEngine.successes(rolled.map { StatsEngine.chance(of: key, in: $0) }))
            }
        case .repeat(let count, let body, let modifiers) where modifiers.isEmpty:
            // Members alike and independent: a binomial for each number of members.
            var sizes: [(n: Int, p: Double)] = []
            try distribution(of: count, for: NumberNeeds.repeatCount).forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value, n >= 0, n <= limits.maxDice else {
                    throw .dice(DiceError(.invalidRepeatCount(value), at: count.range))
                }
                sizes.append((n, p))
            }
            // A member is worked out only when some count is not 0 (the roller rolls none then);
            // what it cuts, once for each member there may be.
            let members = sizes.reduce(0) { $0 + Double($1.n) * $1.p }
            let one = try sizes.contains { $0.n > 0 } ? outcomes(ofMember: body, copies: members) : Distribution(constant: .integer(0))
            return try forEachPointValue(point, members: possible) { (key) throws(StatsFailure) in
                let single = StatsEngine.chance(of: key, in: one)
                var result = ValueAccumulator()
                for (n, p) in sizes {
                    try meter.charge(n &+ 1)
                    try mix(Distribution(StatsEngine.successes([MatchChance](repeating: single, count: n))), times: p,
                            into: &result)
                }
                return try meter.checkSize(result.build())
            }
        default:
            break
        }
        guard let counted = StatsEngine.counting(target, point) else {
            throw .dice(DiceError(.countNeedsPool, at: target.range))
        }
        try checkReplacedCounting(inner)
        do {
            try checkCountOrdering(point, members: possible)
            return try distribution(of: counted)
        } catch .dice(let error) {
            // The roller rolls the pool, then the point: an error of the pool's comes first,
            // where its own counting works out the point with its other arguments
            // (`count(2d(1d2 - 1), =(1/(1d2 - 1)))` fails on its sides when the first d2 is 1).
            let (place, within) = (point.value.range, error.range)
            guard place.lowerBound <= within.lowerBound, within.upperBound <= place.upperBound,
                  let plain = StatsEngine.counting(target, ComparePoint(.equal, Expr(.number(.integer(0)), place))) else {
                throw .dice(error)
            }
            _ = try distribution(of: plain)
            throw .dice(error)
        }
    }

    /// The roller rolls `count`'s pool as written before it counts, so the pool's own
    /// counting, which `counting` replaces, fails here as it fails there: modifiers that
    /// conflict (`df>=10` on tally dice) and a text argument on numbered dice (`df="x"`).
    /// `target` is the pool, group or repeat without its annotations.
    private func checkReplacedCounting(_ target: Expr) throws(StatsFailure) {
        switch target.kind {
        case .dice(let term):
            let semantics = TermSemantics(term)
            if let conflict = semantics.conflict { throw .dice(conflict) }
            try checkCountingArguments(term.modifiers, numbered: semantics.symbols.isEmpty)
        case .group(_, let modifiers, _), .repeat(_, _, let modifiers):
            // `count({d8}cs<>"a", >=11)` fails rolled, as the group's own `cs` is resolved.
            try checkModifiers(modifiers, group: true)
            try checkCountingArguments(modifiers)
        default:
            break
        }
    }

    /// The arguments of counting among `modifiers` fail as the roller fails resolving them:
    /// an error in one (`cs=(1/0)`, on text dice too), or a text on `numbered` dice (`cs="x"`
    /// on numbers).
    private func checkCountingArguments(_ modifiers: [DiceModifier], numbered: Bool = true) throws(StatsFailure) {
        for modifier in modifiers {
            switch modifier.kind {
            case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point):
                let values = try outcomes(of: point.value)
                if numbered, let other = values.symbolicOutcomes.first {
                    throw .dice(DiceError(.notANumber(other.value, needed: NumberNeeds.modifier), at: point.value.range))
                }
            default:
                break
            }
        }
    }

    /// The values each die or member of a pool, group or `repeat` may show, in order, for
    /// `checkCountOrdering` (a numbered die as 0; none when there may be no dice). Worked
    /// out only to see the values, so what it cuts is no cut of the distribution: noted, it
    /// doubled the cut stated for `count({1d4!!, 1d4!}, >1)`.
    func possibleMembers(_ target: Expr) throws(StatsFailure) -> [[Value]] {
        try scalingCuts(by: 0) { () throws(StatsFailure) in try membersValues(target) }
    }

    private func membersValues(_ target: Expr) throws(StatsFailure) -> [[Value]] {
        func mayHaveSome(_ count: Expr?, _ needs: String) throws(StatsFailure) -> Bool {
            guard let count else { return true }
            var some = false
            try distribution(of: count, for: needs).forEachOutcome { value, _ in if value > .integer(0) { some = true } }
            return some
        }
        switch target.kind {
        case .dice(let term):
            guard try mayHaveSome(term.count, NumberNeeds.diceCount) else { return [] }
            let symbols = term.sides.symbols
            return [symbols.isEmpty ? [.integer(0)] : symbols]
        case .group(let members, _, _):
            var result: [[Value]] = []
            for member in members { result.append(try outcomes(of: member).valueOutcomes.map(\.value)) }
            return result
        case .repeat(let count, let body, _):
            guard try mayHaveSome(count, NumberNeeds.repeatCount) else { return [] }
            return [try outcomes(of: body).valueOutcomes.map(\.value)]
        case .annotated(let inner, _):
            return try membersValues(inner)
        default:
            return []
        }
    }

    /// The roller's error for a count with an ordering compare point (`>=5`) where a member
    /// or the point is not a number: the first member that may show a text or tally is
    /// named (its first such face), else the point's value; at the point, as the roller.
    func checkCountOrdering(_ point: ComparePoint, members: [[Value]]) throws(StatsFailure) {
        guard point.op != .equal, point.op != .notEqual, members.contains(where: { !$0.isEmpty }) else { return }
        try checkCountOrdering(point, members: members, against: try outcomes(of: point.value))
    }

    /// `checkCountOrdering(_:members:)` with the point's outcomes `against`.
    func checkCountOrdering(_ point: ComparePoint, members: [[Value]], against: Distribution) throws(StatsFailure) {
        guard point.op != .equal, point.op != .notEqual else { return }
        let text = against.symbolicOutcomes.first?.value
        for member in members where !member.isEmpty {
            if let culprit = member.first(where: { $0.number == nil }) ?? text {
                throw .dice(ComparePoint.orderingError(culprit, at: point.value.range))
            }
        }
    }

    /// The chances that one roll matches a compare point and that it does not: less than 1
    /// together by what was cut from its explosion tails.
    struct MatchChance {
        var match: Double
        var miss: Double
    }

    /// The chances that a member of `outcomes` (one roll) matches `key` and that it does not.
    /// Divided by the member's total, they made 1, and the mass cut from an exploding member's
    /// tails was spread over the counts: `count({1d4!!, 1d4!}, >1)` said nothing was cut.
    private static func chance(of key: PointKey, in outcomes: Distribution) -> MatchChance {
        var chance = 0.0
        outcomes.forEachValue { value, p in if key.matches(value) { chance += p } }
        return MatchChance(match: chance, miss: Swift.max(0, outcomes.totalProbability - chance))
    }

    /// `count` of a group or `repeat` written in place, `count(key)` for each value of its
    /// compare point, mixed. The roller rolls the point once, after the members, and compares
    /// every member with that one value: `count({1d3}, !=(1d3))` is 0 a third of the time.
    /// Each value apart, those counts are exact, where one rolled point used to send the whole
    /// statement to a simulation that stated its sample's ends as the min and max.
    /// `members`: what each member may show (`possibleMembers`), for `checkCountOrdering`.
    private func forEachPointValue(_ point: ComparePoint, members: [[Value]],
                                   _ count: (PointKey) throws(StatsFailure) -> Distribution) throws(StatsFailure) -> Distribution {
        let against = try outcomes(of: point.value)
        try checkCountOrdering(point, members: members, against: against)
        if let value = against.constantOutcome { return try count(PointKey(op: point.op, value: value)) }
        try meter.charge(against.count)
        var result = ValueAccumulator()
        try against.forEachValue { (value, p) throws(StatsFailure) in
            let part = try count(PointKey(op: point.op, value: value))
            try meter.charge(part.storageSize)
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// How many of independent events of `chances` happen: 0 to their number.
    static func successes(_ chances: [MatchChance]) -> [Distribution.Outcome] {
        var counts = [1.0]
        for chance in chances {
            var next = [Double](repeating: 0, count: counts.count + 1)
            for (k, p) in counts.enumerated() {
                next[k] += p * chance.miss
                next[k + 1] += p * chance.match
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
        case .group(let members, let modifiers, let parenthesized):
            return Expr(.group(members, recount(modifiers), parenthesized: parenthesized), target.range)
        case .repeat(let count, let body, let modifiers):
            return Expr(.repeat(count: count, body: body, modifiers: recount(modifiers)), target.range)
        case .annotated(let inner, _):
            return counting(inner, point)
        default:
            return nil
        }
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
    /// Its kept dice as the roller could show them: a face of each class, and how many;
    /// `nil` when the outcome has no dice to show (a bound group's or repeat's members).
    var dice: [(face: Value, count: Int)]? = nil
}
