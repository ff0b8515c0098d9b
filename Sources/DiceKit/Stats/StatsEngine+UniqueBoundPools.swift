/// Bound pools of unique dice (`let p = 3d6u! in count(p, =6)`, LANGUAGE.md §5b): the first
/// dice settle on different faces, a draw without replacement (`forEachUniqueDraw`); then each
/// that explodes goes on as any die does, its extra dice free to show any face (as in
/// `ValueBounds+Unique.swift` and `StatsEngine+UniqueExplosions.swift`).
///
/// The extra dice of the first dice that explode are a pool alike for each number `E` of them,
/// split as a plain bound pool's (`BoundPoolSplits`): for `!`, `E` dice that stop and X ~
/// NegBin(E, q) that explode; for `!p` the same, each showing one less; for `xo`, `E` dice of
/// any face. For `!!` each exploding face drawn shows its total instead (`f` plus a compounded
/// die's). Each split of the first dice is joined to each split of their extra dice.
extension StatsEngine {
    /// The joint outcomes of `dice` unique dice, each settling on one of `rolled` (chances
    /// adding up to 1) not shown yet, exploding as `rules` say: its classes and splits.
    func uniqueBoundPoolSplits(_ rolled: [(position: Number, p: Double)], highest: Int, rules: PoolRules, dice: Int,
                               symbols: [Value], keys: [PointKey], perFace: Bool,
                               at range: SourceRange) throws(StatsFailure) -> (classes: FaceClasses, splits: BoundPoolSplits) {
        // An explosion on every face is the roller's error before too few faces for `u`.
        if let explosion = rules.explosion, symbols.isEmpty {
            _ = try explodingFaces(rolled, highest: highest, explosion: explosion, at: range)
        }
        guard dice <= rolled.count else {
            throw .dice(DiceError(.tooFewFacesForUnique(dice: dice, faces: rolled.count), at: range))
        }
        guard let explosion = rules.explosion else {
            let classes = try FaceClasses(rolled.map(\.position), symbols: symbols, keys: keys, perFace: perFace)
            var splits = BoundPoolSplits(classCount: classes.faces.count, largest: dice)
            let firsts = try firstDraws(rolled, dice: dice, classes: classes, shown: { _ in true }, key: { _ in [] })
            for (_, draws) in firsts { for (counts, p) in draws { splits.add(counts, chance: p) } }
            return (classes, splits)
        }
        guard symbols.isEmpty else { throw .tooExpensive("exploding text dice") }
        let (stop, boom, q) = try explodingFaces(rolled, highest: highest, explosion: explosion, at: range)
        let booms = Set(boom.map(\.position))
        let compound = explosion.kind == .compound
        // The faces extra dice show, and for `!!` a compounded die's totals.
        var extraParts: [[(position: Number, p: Double)]] = []
        var compounded: [(position: Number, p: Double)] = []
        // Whether a tail was cut, and its mass, told as such (as `boundPoolSplits` does).
        var cut = false, cutMass = 0.0, compoundCut = 0.0
        switch explosion.kind {
        case .explode: extraParts = [stop, boom]
        case .once: extraParts = [rolled]
        case .penetrate: extraParts = [try oneLess(stop, at: range), try oneLess(boom, at: range)]
        case .compound:
            (compounded, compoundCut) = try compoundedFaces(stop: stop, boom: boom, dice: dice, at: range)
            cut = compoundCut > 0
        }
        // `!!`: the total each exploding face shows, `f` plus a compounded die's (by index in `rolled`).
        var totals: [Int: [(position: Number, p: Double)]] = [:]
        for (index, face) in rolled.enumerated() where compound && booms.contains(face.position) {
            var shown: [(position: Number, p: Double)] = []
            for (total, p) in compounded {
                shown.append((try arithmetic(at: range) { () throws(ArithmeticFault) in try face.position.adding(total) }, p))
            }
            totals[index] = shown
        }
        let shownTotals = rolled.indices.flatMap { totals[$0] ?? [] }.map(\.position)
        let positions = rolled.map(\.position) + extraParts.joined().map(\.position) + shownTotals
        let classes = try FaceClasses(positions, symbols: symbols, keys: keys, perFace: perFace)
        // The first dice's splits by what their extra dice depend on: the number of them that
        // explode, or for `!!` which (whose faces are then shown by their totals instead).
        let explodes = rolled.map { booms.contains($0.position) }
        let firsts = try firstDraws(rolled, dice: dice, classes: classes,
                                    shown: { !compound || !explodes[$0] }, key: { (set) in
            let drawn = set.filter { explodes[$0] }
            return compound ? drawn : [drawn.count]
        })
        // The extra dice's splits for each, then each joined to each first split.
        let cutoff = meter.budget.explosionCutoff, limit = meter.budget.maxOutcomes
        var extras: [[(counts: [Int], p: Double)]] = []
        for (key, draws) in firsts {
            let zero = [Int](repeating: 0, count: classes.faces.count)
            if compound {
                var joint: [(counts: [Int], p: Double)] = [(zero, 1)]
                for index in key { joint = try adding(totals[index] ?? [], to: joint, classes: classes) }
                cutMass += draws.reduce(0) { $0 + $1.p } * PoolModel.someCut(of: key.count, each: compoundCut)
                extras.append(joint)
                continue
            }
            let count = key.first ?? 0
            guard count > 0 else {
                extras.append([(zero, 1)])
                continue
            }
            var sizes: [(totals: [Int], p: Double)] = [([count], 1)]
            if explosion.kind != .once {
                let weight = draws.reduce(0) { $0 + $1.p }
                // Cut so that the mass left out of this number's share stays below the cutoff.
                let more = BoundPoolSplits.negativeBinomial(count, q, cutoff: cutoff / Swift.max(weight, cutoff), limit: limit)
                cut = cut || more.cut
                cutMass += weight * more.tail
                sizes = more.chances.enumerated().map { ([count, $0.offset], $0.element) }
            }
            extras.append(try extraSplits(extraParts, sizes: sizes, classes: classes))
        }
        var pairs = 0
        for (index, (_, draws)) in firsts.enumerated() where extras.indices.contains(index) {
            let (sum, overflow) = pairs.addingReportingOverflow(WorkMeter.product(draws.count, extras[index].count))
            pairs = overflow ? Int.max : sum
        }
        guard pairs >= 0, pairs <= meter.budget.maxOutcomes else {
            throw .tooExpensive("a bound pool of unique exploding dice with too many outcomes")
        }
        // A unit a class for each pair joined, as `poolSplits` charges: a split is a count a class.
        try meter.charge(WorkMeter.product(pairs, 1 + StatsEngine.macroUseCost / 16 + classes.faces.count))
        let largest = dice + (extras.joined().map { $0.counts.reduce(0, +) }.max() ?? 0)
        var splits = BoundPoolSplits(classCount: classes.faces.count, largest: largest)
        for (index, (_, draws)) in firsts.enumerated() where extras.indices.contains(index) {
            for (first, p) in draws {
                for (more, r) in extras[index] {
                    var counts = first
                    for slot in counts.indices where more.indices.contains(slot) { counts[slot] += more[slot] }
                    splits.add(counts, chance: p * r)
                }
            }
        }
        if cut { splits.noteCut(cutMass) }
        return (classes, splits)
    }

    /// The splits of the first dice, each a draw of `dice` different faces of `rolled`
    /// (`forEachUniqueDraw`, indices into `rolled`) counting the faces `shown`, grouped by the
    /// `key` of the draw and merged, in the order first met.
    private func firstDraws(_ rolled: [(position: Number, p: Double)], dice: Int, classes: FaceClasses,
                            shown: (Int) -> Bool, key: ([Int]) -> [Int])
        throws(StatsFailure) -> [(key: [Int], draws: [(counts: [Int], p: Double)])] {
        var classOf: [Int] = []
        for (position, _) in rolled { classOf.append(try classes.index(of: position)) }
        var groups: [(key: [Int], draws: OrderedMass<[Int]>)] = []
        var groupOf: [[Int]: Int] = [:]
        let faces = rolled.map { (face: $0.position.integerValue ?? 0, p: $0.p) }
        try forEachUniqueDraw(faces, dice: dice) { (set, p) throws(StatsFailure) in
            var counts = [Int](repeating: 0, count: classes.faces.count)
            for index in set {
                guard classOf.indices.contains(index), counts.indices.contains(classOf[index]) else {
                    throw .invariant("a unique face without a class")
                }
                if shown(index) { counts[classOf[index]] += 1 }
            }
            let key = key(set)
            let group: Int
            if let known = groupOf[key] {
                group = known
            } else {
                group = groups.count
                groupOf[key] = group
                groups.append((key, OrderedMass()))
            }
            groups[group].draws.add(counts, p)
        }
        return groups.map { group in (group.key, group.draws.entries.map { ($0.key, $0.p) }) }
    }

    /// The splits of a pool of extra dice alike: `parts` of their faces, of `sizes` dice each.
    private func extraSplits(_ parts: [[(position: Number, p: Double)]], sizes: [(totals: [Int], p: Double)],
                             classes: FaceClasses) throws(StatsFailure) -> [(counts: [Int], p: Double)] {
        let splits = try poolSplits(parts, sizes: sizes, classes: classes)
        return Array(zip(splits.splits, splits.chances))
    }

    /// `joint` with one more die, showing each of `faces`.
    private func adding(_ faces: [(position: Number, p: Double)], to joint: [(counts: [Int], p: Double)],
                        classes: FaceClasses) throws(StatsFailure) -> [(counts: [Int], p: Double)] {
        // A unit a class for each split made: `!!` makes a class of each compounded total, and
        // `let p = 2d5!!!=3cf2u in count(p, =2)` (hundreds of totals, tens of thousands of
        // splits, each of hundreds of counts) grew past 6 GB at a unit a split.
        try meter.charge(WorkMeter.product(WorkMeter.product(joint.count, faces.count), 1 + classes.faces.count))
        guard WorkMeter.product(joint.count, faces.count) <= meter.budget.maxOutcomes else {
            throw .tooExpensive("a bound pool of unique exploding dice with too many outcomes")
        }
        var result = OrderedMass<[Int]>()
        for (counts, p) in joint {
            for (position, r) in faces {
                var next = counts
                let index = try classes.index(of: position)
                guard next.indices.contains(index) else { throw .invariant("a face without a class") }
                next[index] += 1
                result.add(next, p * r)
            }
        }
        return result.entries.map { ($0.key, $0.p) }
    }
}
