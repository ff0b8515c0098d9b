/// `let p = NdS in BODY` where BODY reads `p`'s value besides counting it, for a plain pool:
/// no keep/drop, counting, `u`, nor explosions but `!`, and number faces (`let p = 8d20 in
/// p + count(p, =20)`, a crit adding one).
///
/// BODY sees only the counts and the value. The dice split over the classes of faces that
/// the compare points tell apart, as counting alone does; within one split the value is the
/// sum of each class's dice, each showing the faces of its class in proportion: a
/// convolution for each split, not a split for each way the faces fall. `8d20` with its 20s
/// counted: 9 splits of at most 153 values, where splitting by face made C(27, 19) = 2.2
/// million splits, past the bound (simulated, 1.1 s; `10d20` was the error that a million
/// simulated rolls need 2 s).
///
/// With `!` each die of a chain is counted and added as a die of its own: the faces that
/// explode are a class apart, so that a class's faces are those of the rolled die in
/// proportion whether its dice stop a chain or go on (`boundPoolSplits` has the chains).
/// `let p = 5d10!>=8 in count(p, >=8) + p` was split face by face and simulated, with no
/// min or max; `12d10!>=8` was too expensive.
extension StatsEngine {
    /// Whether a pool of `rules` is summed face by face, so that its value within a split of
    /// its dice over classes is a convolution.
    static func sumsByClass(_ rules: PoolRules, symbols: [Value]) -> Bool {
        rules.keeps.isEmpty && rules.counting.isSum && (rules.explosion.map { $0.kind == .explode } ?? true)
            && !rules.unique && symbols.isEmpty
    }

    /// Adds to `outcomes` the joint outcomes of the counts of `keys` and the value of `dice`
    /// dice, each settling on `settled` (chances adding up to 1) and exploding as `rules` say
    /// (a bare `!` on `highest`), as the body sees them, their chances times `weight`.
    func summedClassOutcomes(_ settled: [(position: Number, p: Double)], dice: Int, highest: Int, rules: PoolRules,
                             keys: [PointKey], weight: Double, into outcomes: inout BoundPoolOutcome.SeenOutcomes,
                             at range: SourceRange) throws(StatsFailure) {
        let classes: FaceClasses, splits: BoundPoolSplits
        if let explosion = rules.explosion {
            let point = explosion.point(highest: highest)
            (classes, splits) = try boundPoolSplits(settled, highest: highest, rules: rules, dice: dice, symbols: [],
                                                    keys: keys + [PointKey(op: point.op, value: .number(point.value))],
                                                    perFace: false, at: range)
            // The mass the chains cut, as worked out (1 less their chances is rounding under a
            // finer cut: `1d2 given (let p = 1d6! in count(p, =6) + p) >= 90` was cut finer
            // and finer till it was too expensive).
            if splits.cutTail { noteExplosionCut(weight * splits.cutMass) }
        } else {
            classes = try FaceClasses(settled.map(\.position), symbols: [], keys: keys, perFace: false)
            splits = try poolSplits([settled], sizes: [([dice], 1)], classes: classes)
        }
        // Each class's faces, in proportion within the class.
        var within: [[Distribution.Outcome]] = Array(repeating: [], count: classes.faces.count)
        var mass = [Double](repeating: 0, count: classes.faces.count)
        for (position, p) in settled {
            let index = try classes.index(of: position)
            within[index].append(Distribution.Outcome(position, p))
            mass[index] += p
        }
        let faces = within.indices.map { index in
            Distribution(within[index].map { Distribution.Outcome($0.value, $0.probability / mass[index]) })
        }
        // sums[c][n]: the sum of n dice of class c, made as the splits ask for them.
        var sums: [[Distribution]] = faces.map { [Distribution(constant: .integer(0)), $0] }
        func sum(of n: Int, _ c: Int) throws(StatsFailure) -> Distribution {
            while sums[c].count <= n {
                let last = sums[c][sums[c].count - 1]
                try meter.charge(WorkMeter.pairWork(last, faces[c]))
                let next = try arithmetic(at: range) { () throws(ArithmeticFault) in try last.adding(faces[c]) }
                sums[c].append(try meter.checkSize(next))
            }
            return sums[c][n]
        }
        for (split, p) in zip(splits.splits, splits.chances) {
            var value = Distribution(constant: .integer(0))
            for (c, n) in split.enumerated() where n > 0 {
                let dice = try sum(of: n, c)
                try meter.charge(WorkMeter.pairWork(value, dice))
                value = try meter.checkSize(try arithmetic(at: range) { () throws(ArithmeticFault) in try value.adding(dice) })
            }
            let counts = classes.counts(of: split, keys: keys.count)
            let shown = classes.shown(split)
            try meter.charge(WorkMeter.product(value.storageSize, WorkMeter.sparsePairCost))
            value.forEachOutcome { (number, q) in
                outcomes.add(BoundPoolOutcome.Seen(counts: counts, value: .number(number)), p * q * weight, keys: keys) { shown }
            }
        }
    }
}
