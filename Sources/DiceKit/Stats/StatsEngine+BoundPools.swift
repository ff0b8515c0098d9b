/// `let p = NdS in BODY` where BODY counts `p` with `count(p, cp)`: one roll, several results.
///
/// The dice are independent and alike, so what BODY sees of them is how many fall in each
/// class of faces that the compare points tell apart (each face its own class when BODY also
/// reads `p`'s value, or keep/drop or counting needs each die): multinomials over those
/// classes (`BoundPoolSplits`), not a walk over every roll. For
/// `let p = 20d6 in (hits: count(p, >=5), glitch: count(p, =1) > 10)` the classes are
/// {1}, {2, 3, 4} and {5, 6}: 231 outcomes of the counts. BODY is then worked out once for
/// each outcome that it can tell apart from the others. A count, sides or modifier argument
/// that is rolled (`(1d3)d6`) is worked out first: the pool for each of its outcomes, mixed.
extension StatsEngine {
    /// What working the body out once for one joint outcome of the counts costs besides its own
    /// charges: measured at about 60 µs for Shadowrun's `outcome` macro (a release build), as
    /// 16 macro uses.
    static let boundOutcomeCost = 16 * macroUseCost

    /// The distribution of the `let`, BODY counting the name with `points` (`collectCounts`),
    /// those of `local` read where the count is (`pointsReadingBody`).
    func boundPoolDistribution(_ name: String, _ value: Expr, _ body: Expr, points: [ComparePoint],
                               local: Set<ComparePoint>) throws(StatsFailure) -> Distribution {
        var pool = value
        while case .annotated(let inner, _) = pool.kind { pool = inner }
        guard case .dice(let term) = pool.kind else { throw .tooExpensive("counting a name bound to no pool") }
        return try pointingAtModifiers(of: term, at: pool.range) { () throws(StatsFailure) in
            try boundPoolDistribution(name, pool, term, points: points, local: local, body)
        }
    }

    /// `boundPoolDistribution(_:_:_:)` of the dice term `term` (the expression `pool`), counted by
    /// `points`. A count, sides or modifier argument that is rolled (`(1d2)d6`, `4d6kh(1d2)`) is
    /// rolled once, before the dice (`boundPoolParts`): the pool is worked out for each joint
    /// outcome of them, its outcomes weighted by that outcome's chance, and what BODY sees of
    /// them merged across the joint outcomes (`(1d3)d6` with one die and with two may both show
    /// one six), so that BODY is worked out once for each. `p` and its counts come from the
    /// same outcome of the same pool: one roll.
    private func boundPoolDistribution(_ name: String, _ pool: Expr, _ term: DiceTerm, points: [ComparePoint],
                                       local: Set<ComparePoint>, _ body: Expr) throws(StatsFailure) -> Distribution {
        let semantics = TermSemantics(term)
        if let rules = semantics.literalRules, !rules.keeps.isEmpty || !rules.counting.isSum,
           let counted = try countedInPlace(name, pool, points: points, local: local, body) {
            return counted
        }
        let choices = try boundPoolParts(pool, term, semantics)
        try checkCountOrderings(points, local: local, of: pool)
        let reading = try boundPoolReading(name, points: points, local: local, body)
        var views = BoundPoolViews()
        for (index, choice) in choices.enumerated() {
            try addBoundPool(name, pool, term, semantics, choice.parts, index: index, weight: choice.p, reading,
                             into: &views)
        }
        if let counted = reading.counted {
            return try countedBodyDistribution(counted, names: reading.countNames, views.counts)
        }
        return try bodyDistribution(body, binding: name, views.seen.list)
    }

    /// A body that reads the pool only through counts with one compare point (a number or
    /// text) sees what the term counted in place is, the term with `cs` (`count(10d10!>=8kh5,
    /// >=8)`), one roll as the name's; `nil` for any other body. Keep/drop and counting tell
    /// each face of each chain apart in splits: `let p = 10d10!>=8kh5 in count(p, >=8)` was
    /// too expensive, and `let p = 6d10!>=8kh3 in count(p, >=8)` simulated with no min or
    /// max, where in place each is exact at once.
    private func countedInPlace(_ name: String, _ pool: Expr, points: [ComparePoint], local: Set<ComparePoint>,
                                _ body: Expr) throws(StatsFailure) -> Distribution? {
        let reading = try boundPoolReading(name, points: points, local: local, body)
        guard let counted = reading.counted, reading.keys.count == 1, let point = points.first else { return nil }
        var outcomes: [(counts: [Int], p: Double)] = []
        try countDistribution(pool, point, at: pool.range).forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value else { throw .invariant("a count that is not a whole number") }
            outcomes.append(([n], p))
        }
        return try countedBodyDistribution(counted, names: reading.countNames, outcomes)
    }

    /// How BODY reads the pool bound to its name: the compare points it counts with (one key
    /// for each that differs), and whether it reads the pool's value or anything past them.
    private struct BoundPoolReading {
        var keys: [PointKey]
        /// The names BODY reads the counts of `keys` through, when it reads only them.
        var countNames: [String]
        /// BODY with its counts read through `countNames`: `nil` when it reads the pool otherwise.
        var counted: Expr?
        var readsValue: Bool
        /// Whether BODY may count the pool with a compare point that has no key: a macro's
        /// default that reads the pool (where the macro is used) or a point of several values
        /// (`countKeys`). Each split is then its own outcome, the pool's dice shown, so that any
        /// point counts them (`boundCount`).
        var countsAnyhow: Bool
        /// The keys whose matches tell the classes of faces apart: `keys`, then each value a
        /// rolled point may take; `nil` when each face is its own class, since a default or a
        /// point read at the count may count the pool with any point.
        var classKeys: [PointKey]?
    }

    private func boundPoolReading(_ name: String, points: [ComparePoint], local: Set<ComparePoint>,
                                  _ body: Expr) throws(StatsFailure) -> BoundPoolReading {
        let found = try countKeys(points, local: local)
        let (keys, places) = (found.keys, found.places)
        let names = places.mapValues { StatsEngine.countName(name, $0) }
        // A macro's default that reads the pool (worked out where the macro is used) may read
        // its value or count it anyhow: each face apart, the value worked out, the pool shown.
        var checked = Set<String>()
        let defaultsReadPool = defaultsRead(name, in: body, checked: &checked)
        let readsValue = StatsEngine.readsBeyondCounts(of: name, in: body) || defaultsReadPool
        let countsAnyhow = defaultsReadPool || points.contains { places[$0] == nil }
        // A body that reads the pool only through its counts reads them through names.
        let counted = readsValue || countsAnyhow ? nil : StatsEngine.replacingCounts(of: name, in: body, names: names)
        // `let p = 40d6 in count(p, =(1d4 + 10))` tells no face apart: one class, not six.
        let classKeys = defaultsReadPool ? nil : found.rolled.map { keys + $0 }
        return BoundPoolReading(keys: keys, countNames: keys.indices.map { StatsEngine.countName(name, $0) },
                                counted: counted, readsValue: readsValue, countsAnyhow: countsAnyhow,
                                classKeys: classKeys)
    }

    /// What BODY sees of a bound pool over the joint outcomes of its rolled parts, those alike
    /// merged, their chances added.
    private struct BoundPoolViews {
        /// The joint outcomes of the counts, when BODY reads the pool only through them.
        private(set) var counts: [(counts: [Int], p: Double)] = []
        private var slots: [[Int]: Int] = [:]
        /// The outcomes of the counts and the value, when BODY reads more.
        var seen = BoundPoolOutcome.SeenOutcomes()

        mutating func add(counts: [Int], _ p: Double) {
            if let slot = slots[counts] {
                self.counts[slot].p += p
            } else {
                slots[counts] = self.counts.count
                self.counts.append((counts, p))
            }
        }
    }

    /// Adds to `views` what BODY sees of the pool rolled with `parts` (the `index`-th joint
    /// outcome of its rolled parts), its chances times `weight`.
    private func addBoundPool(_ name: String, _ pool: Expr, _ term: DiceTerm, _ semantics: TermSemantics,
                              _ parts: BoundPoolParts, index: Int, weight: Double, _ reading: BoundPoolReading,
                              into views: inout BoundPoolViews) throws(StatsFailure) {
        let (dice, sides, rules, keys) = (parts.dice, parts.sides, parts.rules, reading.keys)
        let faces: Distribution
        if let sides {
            faces = Distribution(uniformSides: sides)
        } else if let fixed = term.sides.fixedFaces {
            faces = Distribution(faces: fixed)
        } else {
            throw .invariant("a bound pool without faces")
        }
        let symbols = semantics.symbols
        // Keep/drop (which sees each die of a chain) and counting need each face apart, in
        // increasing order, as reading the value does.
        let perFace = reading.readsValue || reading.classKeys == nil || !rules.keeps.isEmpty || !rules.counting.isSum
        let tableKey = BoundPoolTables.Key(pool: pool, dice: dice, sides: sides, inputs: parts.inputs, keys: keys)
        if reading.counted != nil, let table = boundPoolTables.table(tableKey) {
            if table.cut { noteExplosionCut(weight * table.cutMass) }
            try meter.charge(table.outcomes.count)
            for (counts, p) in table.outcomes { views.add(counts: counts, p * weight) }
            return
        }
        // One die, after its clamps and rerolls.
        var single = rules
        single.keeps = []
        single.counting = PoolRules.Counting()
        single.sortAscending = nil
        single.explosion = nil
        single.unique = false
        let model = try PoolModel(faces: faces, rules: single, largestCount: 1,
                                  explosionCutoff: meter.budget.explosionCutoff, range: pool.range)
        let die = try model.distribution(count: 1, meter: &meter)
        var rolled: [(position: Number, p: Double)] = []
        die.forEachOutcome { position, p in if p > 0 { rolled.append((position, p)) } }
        let total = rolled.reduce(0) { $0 + $1.p }
        guard total > 0 else { return }
        let settled = rolled.map { ($0.position, $0.p / total) }
        // Where a bare `!` explodes, as `PoolModel` has it (`1d6r6!` never explodes; bound, it
        // exploded on 5s, the highest face left after the reroll).
        let highest = model.highestFace
        if reading.readsValue && !reading.countsAnyhow && StatsEngine.sumsByClass(rules, symbols: symbols) {
            return try summedClassOutcomes(settled, dice: dice, highest: highest, rules: rules, keys: keys, weight: weight,
                                           into: &views.seen, at: pool.range)
        }
        let classKeys = reading.classKeys ?? keys
        let (classes, splits) = rules.unique
            ? try uniqueBoundPoolSplits(settled, highest: highest, rules: rules, dice: dice, symbols: symbols,
                                        keys: classKeys, perFace: perFace, at: pool.range)
            : try boundPoolSplits(settled, highest: highest, rules: rules, dice: dice, symbols: symbols, keys: classKeys,
                                  perFace: perFace, at: pool.range)
        // The tails cut, as the splits tell them; this pool is rolled at `weight`.
        let cutMass = splits.cutTail ? splits.cutMass : 0
        if splits.cutTail { noteExplosionCut(weight * cutMass) }
        if reading.counted != nil {
            let outcomes = try countOutcomes(splits, classes: classes, keys: keys, rules: rules)
            boundPoolTables.store(tableKey, BoundPoolTables.Table(outcomes: outcomes, cut: splits.cutTail,
                                                                  cutMass: cutMass))
            for (counts, p) in outcomes { views.add(counts: counts, p * weight) }
            return
        }
        // What BODY can tell apart: the counts of the kept dice, and the value when it is read.
        try meter.charge(WorkMeter.product(splits.splits.count, keys.count + 1))
        for (split, p) in zip(splits.splits, splits.chances) {
            let kept = rules.keeps.isEmpty ? split : StatsEngine.kept(split, rules.keeps)
            let value = reading.readsValue
                ? try poolValue(kept, classes, rules: rules, dice: dice, at: pool.range) : .integer(0)
            // BODY may count the pool anyhow: each split of the faces is its own outcome (of
            // these classes: those of another joint outcome of the parts may differ).
            let key = BoundPoolOutcome.Seen(counts: classes.counts(of: kept, keys: keys.count), value: value,
                                            split: reading.countsAnyhow ? kept : [],
                                            parts: reading.countsAnyhow ? index : 0)
            views.seen.add(key, p * weight, keys: keys) { classes.shown(kept) }
        }
    }

    /// The joint outcomes of the counts of `keys` over `splits` of the kept dice, in the order
    /// first met, and their chances.
    private func countOutcomes(_ splits: BoundPoolSplits, classes: FaceClasses, keys: [PointKey],
                               rules: PoolRules) throws(StatsFailure) -> [(counts: [Int], p: Double)] {
        var outcomes: [(counts: [Int], p: Double)] = []
        // Each split a list of counts made and looked up: about 440 ns a split of 200d6 counted
        // three ways (release, a loaded machine), where a step a count let it run unchecked.
        try meter.charge(WorkMeter.product(splits.splits.count, WorkMeter.sparsePairCost + keys.count))
        let largest = splits.splits.map { $0.reduce(0) { $0 &+ $1 } }.max() ?? 0
        var seen = CountsIndex(length: keys.count, largest: largest)
        for (split, p) in zip(splits.splits, splits.chances) {
            let kept = rules.keeps.isEmpty ? split : StatsEngine.kept(split, rules.keeps)
            let counts = classes.counts(of: kept, keys: keys.count)
            if let index = seen.slot(of: counts) {
                outcomes[index].p += p
            } else {
                seen.insert(counts, at: outcomes.count)
                outcomes.append((counts, p))
            }
        }
        return outcomes
    }

    /// The value of a bound pool whose dice fall `split[i]` in class `i` of `classes` (each face
    /// its own class, in increasing order): the kept dice added, or counted as `cs`/`cf`/`df`
    /// say (a text die by its face's position, as the roller counts it).
    private func poolValue(_ split: [Int], _ classes: FaceClasses, rules: PoolRules, dice: Int,
                           at range: SourceRange) throws(StatsFailure) -> Value {
        // Faces of texts or tallies summed: whether they add up is `SymbolSum`'s to say.
        let symbolic = rules.counting.isSum && classes.faces.contains { $0.number == nil }
        if symbolic, dice > 1, let error = SymbolSum.error(classes.faces) { throw .dice(DiceError(error, at: range)) }
        var total = symbolic ? SymbolSum.empty(classes.faces) : .integer(0)
        for (index, count) in split.enumerated() where count > 0 {
            guard classes.faces.indices.contains(index), classes.positions.indices.contains(index) else {
                throw .invariant("a split of more classes than faces")
            }
            var each = classes.faces[index]
            if !rules.counting.isSum {
                // Counting: each kept die adds 1 for a success, less 1 for a failure.
                let position = classes.positions[index]
                each = .number(try arithmetic(at: range) { () throws(ArithmeticFault) in
                    try rules.counting.contribution(of: position)
                })
            } else if case .text = each {
                return each
            }
            let times = Value.integer(count)
            total = try arithmetic(at: range) { () throws(ArithmeticFault) in
                try Value.apply(.add, total, try Value.apply(.multiply, each, times))
            }
        }
        return total
    }

    /// The dice kept of each face (`split`, faces in increasing order) after `steps`, in order.
    static func kept(_ split: [Int], _ steps: [KeepDropStep]) -> [Int] {
        var kept = split
        for step in steps {
            let total = kept.reduce(0, +)
            let n = Swift.min(step.count, total)
            // Keep the n highest (or lowest); drop the n highest (or lowest): keep the others.
            let fromTop = step.extreme == .highest
            let keepCount = step.keep ? n : total - n
            let keepsTop = step.keep ? fromTop : !fromTop
            var left = keepCount
            var next = [Int](repeating: 0, count: kept.count)
            let order = keepsTop ? Array(kept.indices.reversed()) : Array(kept.indices)
            for index in order where left > 0 {
                let taken = Swift.min(left, kept[index])
                next[index] = taken
                left -= taken
            }
            kept = next
        }
        return kept
    }

    /// Whether `expr` reads `name` other than as the pool of a `count(name, cp)` (a point that
    /// reads it reads it), not inside a `let` of the same name. Counting the uses against the
    /// points instead took `repeat(2, count(g, ="a"))` for a read of g's value (a repeat's body
    /// counts twice), which a pool of text dice has not: stats said "a sum of several text dice".
    static func readsBeyondCounts(of name: String, in expr: Expr) -> Bool {
        switch expr.kind {
        case .name(let read):
            return read == name
        case .count(let target, let point):
            if case .name(name) = target.kind { return readsBeyondCounts(of: name, in: point.value) }
        case .binding(let bound, let value, let body):
            return readsBeyondCounts(of: name, in: value) || (bound != name && readsBeyondCounts(of: name, in: body))
        default:
            break
        }
        var reads = false
        expr.forEachChild { if !reads { reads = readsBeyondCounts(of: name, in: $0) } }
        return reads
    }

    /// The compare points of every `count(name, cp)` in `expr`, not inside a `let` of the same name.
    static func collectCounts(of name: String, in expr: Expr, into points: inout [ComparePoint]) {
        switch expr.kind {
        case .count(let target, let point):
            if case .name(name) = target.kind { points.append(point) }
        case .binding(let bound, let value, let body):
            collectCounts(of: name, in: value, into: &points)
            if bound != name { collectCounts(of: name, in: body, into: &points) }
            return
        default:
            break
        }
        expr.forEachChild { collectCounts(of: name, in: $0, into: &points) }
    }
}
