/// Unique dice (`3d8u`, LANGUAGE.md §5b), exact: each die settles (clamps, rerolls) on a face
/// not shown yet, in proportion to the settled die, so the first faces are a draw without
/// replacement; then each first face explodes on its own, its extra dice free to repeat faces.
///
/// The first faces are a set `S`. Without explosions keep/drop sees `S` in order, so one pass
/// over the faces counts the sets by size and kept value. With explosions each face of `S` is
/// a fixed die and each that explodes adds an independent tail of extra dice: summed, only
/// which exploding faces were drawn matters besides the others' sum; kept or dropped, each
/// set is an `ExplodingKeep` of its faces (groups of one value) and the tails' dice.
extension StatsEngine {
    /// One settled face of a unique die and its probability.
    typealias UniqueFace = (face: Int, p: Double)

    /// `NdSu` with any of the pool's other modifiers, for each count of `counts`.
    func uniqueDistribution(faces: Distribution, rules: PoolRules, counts: Distribution,
                            at range: SourceRange) throws(StatsFailure) -> Distribution {
        let (model, weights) = try settledUniqueDie(faces, rules: rules, counts: counts, at: range)
        guard !weights.isEmpty else { return Distribution(storage: .sparse([])) }
        var result = ValueAccumulator()
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
            guard n <= weights.count else {
                throw .dice(DiceError(.tooFewFacesForUnique(dice: n, faces: weights.count), at: range))
            }
            let part: Distribution
            if rules.explosion == nil {
                part = try uniqueSubsets(weights, dice: n, rules: rules, at: range)
            } else {
                // Each notes the mass it cuts, a share `p` of the statement's.
                part = try scalingCuts(by: p) { () throws(StatsFailure) in
                    rules.keeps.isEmpty
                        ? try uniqueExplodingSum(weights, dice: n, rules: rules, model: model, at: range)
                        : try uniqueExplodingKeep(weights, dice: n, rules: rules, model: model, at: range)
                }
            }
            try mix(part, times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// The sum of unique text or tally dice (positions into `symbols`): one die's face, or
    /// the tallies of a set of faces added; several texts have no sum.
    func uniqueSymbolSum(faces: Distribution, rules: PoolRules, symbols: [Value], counts: Distribution,
                         at range: SourceRange) throws(StatsFailure) -> Distribution {
        let (_, weights) = try settledUniqueDie(faces, rules: rules, counts: counts, at: range)
        var result = ValueAccumulator()
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else { throw .dice(DiceError(.invalidCount(value), at: range)) }
            guard n <= weights.count else {
                throw .dice(DiceError(.tooFewFacesForUnique(dice: n, faces: weights.count), at: range))
            }
            if n > 1, let error = SymbolSum.error(symbols) { throw .dice(DiceError(error, at: range)) }
            var part = ValueAccumulator()
            try forEachUniqueDraw(weights, dice: n) { (set, q) throws(StatsFailure) in
                var sum = SymbolSum.empty(symbols)
                for index in set {
                    let position = weights[index].face
                    guard symbols.indices.contains(position) else { throw .invariant("a face position out of range") }
                    let face = symbols[position]
                    sum = n == 1 ? face : try arithmetic(at: range) { () throws(ArithmeticFault) in
                        try Value.apply(.add, sum, face)
                    }
                }
                part.add(sum, q)
            }
            try mix(part.build(), times: p, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// The die of a unique pool after its clamps and rerolls (the model also knows its
    /// explosion), and its faces ascending, their probabilities summing to 1.
    private func settledUniqueDie(_ faces: Distribution, rules: PoolRules, counts: Distribution,
                                  at range: SourceRange) throws(StatsFailure) -> (PoolModel, [UniqueFace]) {
        var largest = 1
        counts.forEachWholeOutcome { n, _ in largest = Swift.max(largest, n) }
        var settling = rules
        settling.unique = false
        settling.keeps = []
        settling.counting = PoolRules.Counting()
        settling.sortAscending = nil
        let model = try PoolModel(faces: faces, rules: settling, largestCount: largest,
                                  explosionCutoff: meter.budget.explosionCutoff, range: range)
        var weights: [UniqueFace] = []
        model.die.forEachWholeOutcome { face, p in weights.append((face, p)) }
        let total = weights.reduce(0) { $0 + $1.p }
        guard total > 0 else { return (model, []) }
        return (model, weights.map { ($0.face, $0.p / total) }.sorted { $0.face < $1.face })
    }

    /// Whether the faces are equally likely, so that every set of them is.
    private static func isUniform(_ faces: [UniqueFace]) -> Bool {
        faces.allSatisfy { Swift.abs($0.p - faces[0].p) <= 1e-12 * faces[0].p }
    }

    /// Calls `body` with each set of `dice` of `faces` (ascending indices into `faces`) that
    /// unique dice may settle on, and its probability: equally likely sets one by one, or,
    /// for faces not equally likely, each set with the chance that the dice draw it, face by
    /// face in proportion to the faces left.
    func forEachUniqueDraw(_ faces: [UniqueFace], dice: Int,
                           _ body: ([Int], Double) throws(StatsFailure) -> Void) throws(StatsFailure) {
        let n = faces.count
        guard dice >= 0, dice <= n else { return }
        if StatsEngine.isUniform(faces) {
            var sets = 1.0
            for i in stride(from: 0, to: dice, by: 1) { sets = sets * Double(n - i) / Double(i + 1) }
            // Each set is a list made and a dictionary or two updated: a sparse pair a face.
            let perSet = WorkMeter.sparsePairCost * (dice + 2)
            try meter.ensureAffordable(sets * Double(perSet) < 9e18 ? Int(sets * Double(perSet)) : Int.max)
            var chosen = Array(0..<dice)
            while true {
                try meter.charge(perSet)
                try body(chosen, 1 / sets)
                // The next set in lexicographic order: raise the last index that can rise.
                var i = dice - 1
                while i >= 0 && chosen[i] == n - dice + i { i -= 1 }
                guard i >= 0 else { return }
                chosen[i] += 1
                for j in stride(from: i + 1, to: dice, by: 1) { chosen[j] = chosen[j - 1] + 1 }
            }
        }
        try forEachWeightedDraw(faces, dice: dice, body)
    }

    /// `forEachUniqueDraw` for faces not equally likely: the chance of each set of faces
    /// drawn so far, a set of one more face at a time (only sets of at most `dice` faces, so
    /// `2d20uma18`, 18 faces one of which is likelier, takes 172 sets; all 2^18 of them were
    /// declined past 16 faces). A set is its indices ascending, so a die of any number of
    /// faces is drawn from: `1d%uma74` (74 faces, the last likelier) was given up past 64
    /// faces and simulated, where it is the die itself. The sets of a size come out in
    /// increasing order of their bits (`precedes`), so the sums come out the same each run.
    private func forEachWeightedDraw(_ faces: [UniqueFace], dice: Int,
                                     _ body: ([Int], Double) throws(StatsFailure) -> Void) throws(StatsFailure) {
        let n = faces.count
        // Each set drawn makes one more of each face left: a hashed update each.
        var steps = 0.0, sets = 1.0
        for size in stride(from: 0, to: dice, by: 1) {
            steps += sets * Double(n - size)
            sets = sets * Double(n - size) / Double(size + 1)
        }
        let work = (steps + sets) * Double(WorkMeter.sparsePairCost + dice)
        try meter.ensureAffordable(work < 9e18 ? Int(work) : Int.max)
        var level: [(set: [Int], chance: Double)] = [([], 1)]
        for size in stride(from: 0, to: dice, by: 1) {
            var next: [[Int]: Double] = [:]
            // A hashed update of a set one face larger, made by copying this one's `size`.
            try meter.charge(WorkMeter.product(WorkMeter.product(level.count, n), WorkMeter.sparsePairCost + size + 1))
            for (set, chance) in level {
                let left = set.reduce(1.0) { $0 - faces[$1].p }
                guard left > 0 else { continue }
                // The faces not in `set`, each inserted where it keeps the set ascending.
                var position = 0
                for index in 0..<n {
                    if position < set.count && set[position] == index { position += 1; continue }
                    var grown = set
                    grown.insert(index, at: position)
                    next[grown, default: 0] += chance * faces[index].p / left
                }
            }
            level = next.sorted { Self.precedes($0.key, $1.key) }.map { ($0.key, $0.value) }
        }
        for (set, chance) in level where chance > 0 { try body(set, chance) }
    }

    /// Whether the set of ascending indices `a` comes before `b` of the same size, as the
    /// numbers with those bits set do: the greater highest index, and so on down, is greater.
    private static func precedes(_ a: [Int], _ b: [Int]) -> Bool {
        for (x, y) in zip(a.reversed(), b.reversed()) where x != y { return x < y }
        return false
    }

    // MARK: - Without explosions

    /// The sets of `dice` faces, keep/drop taking the ranks `KeepDropStep.keptRange` gives
    /// (both ends too: `dl1dh1`), counting after.
    private func uniqueSubsets(_ faces: [UniqueFace], dice: Int, rules: PoolRules,
                               at range: SourceRange) throws(StatsFailure) -> Distribution {
        let kept = KeepDropStep.keptRange(rules.keeps, total: dice)
        var contributions: [Number] = []
        for entry in faces {
            contributions.append(try arithmetic(at: range) { () throws(ArithmeticFault) in
                try rules.counting.contribution(of: .integer(entry.face))
            })
        }
        guard StatsEngine.isUniform(faces) else {
            var result = DistributionAccumulator()
            try forEachUniqueDraw(faces, dice: dice) { (set, p) throws(StatsFailure) in
                var value = Number.integer(0)
                for (rank, index) in set.enumerated() where kept.contains(rank) {
                    let adds = contributions[index]
                    value = try arithmetic(at: range) { () throws(ArithmeticFault) in try value.adding(adds) }
                }
                result.add(value, p)
            }
            return result.build()
        }
        // counts[k][v]: sets of k of the faces so far (ascending), the kept ranks adding to v.
        try meter.charge(WorkMeter.product(WorkMeter.product(faces.count, dice + 1), 16))
        var counts: [[Number: Double]] = Array(repeating: [:], count: dice + 1)
        counts[0][.integer(0)] = 1
        for index in faces.indices {
            let adds = contributions[index]
            // Charged before the pass, each entry a hashed update (`sparsePairCost`): charged
            // after it, one entry a step, `stats 100d1000u` ran 6 s of its 1 s before it gave up.
            let entries = counts[0..<Swift.min(index + 1, dice)].reduce(0) { $0 + $1.count }
            try meter.charge(WorkMeter.product(entries, WorkMeter.sparsePairCost))
            for k in stride(from: Swift.min(index + 1, dice), through: 1, by: -1) {
                for (value, ways) in counts[k - 1] {
                    let next = kept.contains(k - 1)
                        ? try arithmetic(at: range) { () throws(ArithmeticFault) in try value.adding(adds) } : value
                    counts[k][next, default: 0] += ways
                }
            }
        }
        let all = counts[dice].values.reduce(0, +)
        return Distribution(counts[dice].map { Distribution.Outcome($0.key, $0.value / all) })
    }
}
