#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One kind of die with its modifiers, ready to give the distribution of a pool of any size.
///
/// Per die: roll, clamp, reroll (`r` until no recursive point matches; `ro` once), then
/// explode while the face matches. The die after rerolls is `die`; an explosion's chain is
/// cut after `depth` extra dice, where the mass left is below the cutoff.
///
/// The die is kept as a `Distribution` rather than arrays of faces and of probabilities:
/// each new array element type costs a metadata instantiation on its first use, a good
/// part of the time of a small pool's first distribution.
final class PoolModel {
    let rules: PoolRules
    /// The faces after clamps and rerolls, probabilities summing to 1.
    let die: Distribution
    /// The die's highest face after its clamps, before rerolls: where a bare `!` explodes.
    let highestFace: Int
    /// The point a face explodes on; `nil` when the die never explodes.
    private let explosionPoint: ResolvedPoint?
    /// Whether some face of `die` explodes.
    let someFaceExplodes: Bool
    /// Extra dice per chain at most; 0 when the die never explodes.
    let depth: Int
    /// The chance that one die explodes (0 when it never does).
    private let explosionChance: Double
    private let range: SourceRange
    /// One die's value, once worked out.
    private var cachedUnit: Distribution?
    /// The sum of `powerCount` units' contributions (pools without keep/drop), and one unit's.
    private var power = Distribution(constant: .integer(0))
    private var powerCount = 0
    private var single: Distribution?

    /// - Parameters:
    ///   - faces: the raw faces of one die.
    ///   - largestCount: the most dice the pool may have, to set the explosion cut.
    ///   - explosionCutoff: the budget's: the mass left where a pool's explosion tails are cut.
    ///   - range: the term's, where its errors point (the caller points those about a modifier
    ///     at it: `StatsEngine.pointingAtModifiers`).
    init(faces rawFaces: Distribution, rules: PoolRules, largestCount: Int, explosionCutoff: Double,
         range: SourceRange) throws(StatsFailure) {
        self.rules = rules
        self.range = range

        // Clamps, in written order, on every face.
        var clamped = rawFaces
        if !rules.clamps.isEmpty {
            var builder = DistributionAccumulator()
            rawFaces.forEachWholeOutcome { face, p in
                builder.add(rules.clamp(face), p)
            }
            clamped = builder.build()
        }
        var lowestFace: Int?, highestFace: Int?
        clamped.forEachWholeOutcome { face, _ in
            lowestFace = lowestFace ?? face
            highestFace = face
        }
        guard let lowest = lowestFace, let highest = highestFace else { throw .dice(DiceError(.emptyFaces, at: range)) }
        self.highestFace = highest

        // Rerolls: the faces left are scaled to sum to 1, then those rerolled once share
        // their mass out in proportion.
        let lowestPoint = ResolvedPoint(op: .equal, value: .integer(lowest))
        func rerolled(_ face: Int, once: Bool) -> Bool {
            !rules.rerolls.isEmpty && rules.rerolls.contains { $0.once == once && ($0.point ?? lowestPoint).matches(face) }
        }
        var survivorMass = 0.0, survivors = false
        clamped.forEachWholeOutcome { face, p in
            guard !rerolled(face, once: false) else { return }
            survivorMass += p
            survivors = true
        }
        guard survivors else { throw .dice(DiceError(.rerollMatchesEveryFace, at: range)) }
        if rules.rerolls.isEmpty {
            die = clamped.dividingProbabilities(by: survivorMass)
        } else {
            var rerolledOnce = 0.0
            clamped.forEachWholeOutcome { face, p in
                if !rerolled(face, once: false) && rerolled(face, once: true) { rerolledOnce += p / survivorMass }
            }
            var builder = DistributionAccumulator()
            clamped.forEachWholeOutcome { face, p in
                guard !rerolled(face, once: false) else { return }
                let settled = p / survivorMass
                builder.add(face, (rerolled(face, once: true) ? 0 : settled) + rerolledOnce * settled)
            }
            die = builder.build()
        }

        // Explosions.
        if let explosion = rules.explosion {
            let point = explosion.point(highest: highest)
            explosionPoint = point
            var mass = 0.0, stops = false, explodes = false
            die.forEachWholeOutcome { face, p in
                if point.matches(face) {
                    mass += p
                    explodes = true
                } else {
                    stops = true
                }
            }
            // `xo` ends after one extra die, which never explodes: every face may match.
            let once = explosion.kind == .once
            guard stops || once else { throw .dice(DiceError(.explosionMatchesEveryFace, at: range)) }
            someFaceExplodes = explodes
            explosionChance = mass
            if once {
                depth = mass > 0 ? 1 : 0
            } else if mass > 0 {
                let cutoff = explosionCutoff / Double(Swift.max(1, largestCount))
                let levels = (log(cutoff) / log(mass)).rounded(.up) - 1
                guard levels < 1_000_000 else {
                    throw .tooExpensive("the explosion's tail would need \(Int(levels)) extra dice")
                }
                var k = Swift.max(0, Int(levels))
                while k > 0 && pow(mass, Double(k)) <= cutoff { k -= 1 }
                while pow(mass, Double(k + 1)) > cutoff { k += 1 }
                depth = k
            } else {
                depth = 0
            }
        } else {
            explosionPoint = nil
            someFaceExplodes = false
            explosionChance = 0
            depth = 0
        }
    }

    /// Runs an arithmetic step, reporting its fault at the pool's range.
    private func arithmetic<T>(_ body: () throws(ArithmeticFault) -> T) throws(StatsFailure) -> T {
        try StatsFailure.arithmetic(at: range, body)
    }

    /// Whether `face` explodes.
    func explodes(_ face: Int) -> Bool { explosionPoint?.matches(face) ?? false }

    private func contribution(_ value: Int) throws(ArithmeticFault) -> Number {
        try rules.counting.contribution(of: .integer(value))
    }

    /// The value an extra die of a chain shows for `face` (one less when penetrating).
    private func extraValue(_ face: Int) throws(ArithmeticFault) -> Int {
        guard rules.explosion?.kind == .penetrate else { return face }
        let (value, overflow) = face.subtractingReportingOverflow(1)
        guard !overflow else { throw .overflow }
        return value
    }

    private var isChain: Bool {
        rules.explosion?.kind == .explode || rules.explosion?.kind == .penetrate || explodesOnce
    }

    /// `xo`: the extra die of a chain never explodes, so the chain is exact at depth 1.
    private var explodesOnce: Bool { rules.explosion?.kind == .once }

    /// Whether a face explodes at `level` of a chain (0: the first die).
    private func explodes(_ face: Int, level: Int) -> Bool { !(explodesOnce && level > 0) && explodes(face) }

    // MARK: - Pools

    /// Whether a pool of one or more dice has its explosion tails cut: not with `xo`, whose
    /// chain ends after one extra die (`2d4xo=1dh1` was reported as cut, so its header took
    /// the loose ends 1 and 12 of `ValueBounds` over its true ones, 2 and 6).
    var cutsExplosionTails: Bool { someFaceExplodes && !explodesOnce }

    /// The mass cut from `distribution`, this pool's with `count` dice: the chance that some
    /// chain goes on past `depth` extra dice, 1 - (1 - q^(depth+1))^count for a die that
    /// explodes with chance q, worked out as such rather than as 1 minus the distribution's
    /// total, which rounding swamps: `1d10000!!` cuts 1e-12, and its total, 10,000 terms
    /// near 1e-4, came to 1 or more, so no cut was reported. Keep/drop on exploding dice
    /// leaves out more (`ExplodingKeep`'s negligible latents): what its total lacks, if more.
    func cutMass(count: Int, of distribution: Distribution) -> Double {
        guard count > 0, cutsExplosionTails else { return 0 }
        let cut = PoolModel.someCut(of: count, each: pow(explosionChance, Double(depth + 1)))
        return rules.keeps.isEmpty ? cut : Swift.max(cut, 1 - distribution.totalProbability)
    }

    /// The mass cut from `chains` chains whose first die exploded: the chance that one of
    /// them goes on past `depth` extra dice, each exploding with the die's chance q, q^depth.
    func cutMass(explodedChains chains: Int) -> Double {
        guard chains > 0, cutsExplosionTails else { return 0 }
        return PoolModel.someCut(of: chains, each: pow(explosionChance, Double(depth)))
    }

    /// The chance that at least one of `count` independent chains is cut, each with chance
    /// `each`: 1 - (1 - each)^count, kept apart from 1 when tiny (`1d10000!!` cuts 1e-16).
    static func someCut(of count: Int, each: Double) -> Double {
        guard count > 0, each > 0 else { return 0 }
        return -expm1(Double(count) * log1p(-Swift.min(each, 1)))
    }

    /// The distribution of the pool's value with `count` dice.
    func distribution(count: Int, meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        guard count > 0 else { return Distribution(constant: .integer(0)) }
        if isChain {
            guard !rules.keeps.isEmpty else { return try additive(count: count, meter: &meter) }
            let oneSided = MultisetKeep.form(for: rules.keeps, sizes: count...(count * (depth + 1)))
            if case .drop(0)? = oneSided?.form { return try additive(count: count, meter: &meter) }
            if explodesOnce {
                // The chains' lists know each die's level; the exploding groups do not.
                guard let (form, fromTop) = oneSided else {
                    throw .tooExpensive("keep/drop of this form on dice that explode once")
                }
                return try chainKeep(count: count, form: form, fromTop: fromTop, meter: &meter)
            }
            // The dice that stop and those that explode in groups of their own: order statistics.
            let groups = try ExplodingKeep.make(die: die, explodes: explodes, penetrates: rules.explosion?.kind == .penetrate,
                                                depth: depth, count: count, counting: rules.counting,
                                                keeps: rules.keeps, cutoff: meter.budget.explosionCutoff,
                                                range: range, meter: &meter)
            // Groups whose values interleave, past the budget: the packed lists of one end may do.
            if !groups.separable, let (form, fromTop) = oneSided {
                let left = meter.budget.maxWork - meter.work
                let estimate = groups.interleavedEstimate(ExplodingKeep.ValueTable(groups.groups),
                                                          maxOutcomes: meter.budget.maxOutcomes, limit: left)
                if estimate > left {
                    return try chainKeep(count: count, form: form, fromTop: fromTop, meter: &meter)
                }
            }
            return try groups.keptSum(meter: &meter)
        }
        let kept = KeepDropStep.keptRange(rules.keeps, total: count)
        if kept == 0..<count { return try additive(count: count, meter: &meter) }
        let unit = try self.unit(meter: &meter)
        let keptSum = try KeepDP.keptSum(of: unit, counting: rules.counting, dice: count, kept: kept,
                                         meter: &meter, at: range)
        return keptSum.scaled(by: pow(unit.totalProbability, Double(count)))
    }

    /// One die's value: the die itself, or for `!!` the sum of its chain.
    private func unit(meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        if let cachedUnit { return cachedUnit }
        var result = die
        if rules.explosion?.kind == .compound {
            let (stop, go) = try parts { face, _ throws(ArithmeticFault) in .integer(face) }
            result = try chainSum(first: (stop, go), extra: (stop, go), meter: &meter)
        }
        cachedUnit = try meter.checkSize(result)
        return result
    }

    /// The faces that end a chain and those that go on, each mapped by `value`.
    private func parts(level: Int = 0, _ value: (Int, Bool) throws(ArithmeticFault) -> Number)
        throws(StatsFailure) -> (stop: Distribution, go: Distribution) {
        var stop = DistributionAccumulator(), go = DistributionAccumulator()
        try die.forEachWholeOutcome { (face, p) throws(StatsFailure) in
            let explodes = explodes(face, level: level)
            let mapped = try arithmetic { () throws(ArithmeticFault) in try value(face, explodes) }
            if explodes { go.add(mapped, p) } else { stop.add(mapped, p) }
        }
        return (stop.build(), go.build())
    }

    /// The sum over a chain: the first die, then up to `depth` extra dice while the faces match.
    private func chainSum(first: (stop: Distribution, go: Distribution),
                          extra: (stop: Distribution, go: Distribution),
                          meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        var result = DistributionAccumulator()
        try arithmetic { () throws(ArithmeticFault) in try result.add(first.stop) }
        var running = first.go
        var level = 0
        while level < depth && !running.isEmpty {
            level += 1
            try meter.charge(WorkMeter.product(running.storageSize, extra.stop.storageSize + extra.go.storageSize))
            let current = running
            let ended = try arithmetic { () throws(ArithmeticFault) in try current.adding(extra.stop) }
            try arithmetic { () throws(ArithmeticFault) in try result.add(ended) }
            running = try meter.checkSize(arithmetic { () throws(ArithmeticFault) in
                try current.adding(extra.go)
            })
        }
        return try meter.checkSize(result.build())
    }

    /// The sum of `count` independent units' contributions (no keep/drop).
    ///
    /// The sums are built one unit at a time and the last is kept, so asking for the
    /// counts of a pool in increasing order (as `StatsEngine` does) builds each once.
    private func additive(count: Int, meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        let single: Distribution
        if let known = self.single {
            single = known
        } else if isChain {
            let first = try parts { face, _ throws(ArithmeticFault) in try self.contribution(face) }
            let extra = try parts(level: 1) { face, _ throws(ArithmeticFault) in
                try self.contribution(try self.extraValue(face))
            }
            single = try chainSum(first: first, extra: extra, meter: &meter)
        } else {
            let unit = try self.unit(meter: &meter)
            try meter.charge(unit.storageSize)
            // A plain sum counts each value as itself: the map would give `unit` back.
            single = rules.counting.isSum ? unit : try arithmetic { () throws(ArithmeticFault) in
                try unit.mapped { (value) throws(ArithmeticFault) in try self.rules.counting.contribution(of: value) }
            }
        }
        self.single = single
        if count == 1 { return single }
        if powerCount > count || powerCount == 0 {
            power = single
            powerCount = 1
        }
        power = try PoolModel.repeatedSum(of: single, count: count, from: power, copies: powerCount, meter: &meter,
                                          at: range)
        powerCount = count
        return power
    }

    // MARK: - Keep/drop on exploding pools

    /// Keep/drop over `count` chains, each a die and its extra dice as separate values.
    private func chainKeep(count: Int, form: MultisetKeep.Form, fromTop: Bool,
                           meter: inout WorkMeter) throws(StatsFailure) -> Distribution {
        // Every value a die of the pool can show, ranked from the anchored end.
        var values = Set<Int>()
        var faceCount = 0
        try die.forEachWholeOutcome { (face, _) throws(StatsFailure) in
            values.insert(face)
            values.insert(try arithmetic { () throws(ArithmeticFault) in try extraValue(face) })
            faceCount += 1
        }
        let ascending = values.sorted()
        let ordered = fromTop ? Array(ascending.reversed()) : ascending
        var rank: [Int: Int] = [:]
        for (index, value) in ordered.enumerated() { rank[value] = index }
        /// The rank of a value the pool can show (all of them are in `rank`).
        func ranked(_ value: Int) throws(StatsFailure) -> Int {
            guard let found = rank[value] else { throw .invariant("a value without a rank") }
            return found
        }
        var contributions: [Number] = []
        for value in ordered {
            contributions.append(try arithmetic { () throws(ArithmeticFault) in try contribution(value) })
        }
        let keeper = try MultisetKeep(form: form, contributions: contributions)
        // The chain phase's work, estimated before it starts, from the values exploding dice show.
        var goValues = Set<Int>()
        var spread = 0.0
        if let low = contributions.map(\.doubleValue).min(), let high = contributions.map(\.doubleValue).max() {
            spread = high - low
        }
        try die.forEachWholeOutcome { (face, _) throws(StatsFailure) in
            guard explodes(face) else { return }
            goValues.insert(face)
            goValues.insert(try arithmetic { () throws(ArithmeticFault) in try extraValue(face) })
        }
        try meter.ensureAffordable(PoolModel.chainPhaseEstimate(goValues: goValues.count, faces: faceCount, depth: depth,
                                                                form: form, spread: spread))

        switch form {
        case .window:
            var open: [Int: Double] = [0: 1]
            var closed: [Int: Double] = [:]
            for level in 0...depth {
                var next: [Int: Double] = [:]
                try meter.charge(WorkMeter.product(open.count, faceCount * (form.length + 1 + MultisetKeep.pairCost)))
                for (key, p) in open {
                    try die.forEachWholeOutcome { (face, weight) throws(StatsFailure) in
                        let value = level == 0 ? face
                            : try arithmetic { () throws(ArithmeticFault) in try extraValue(face) }
                        let list = keeper.inserting(try ranked(value), into: key)
                        if !explodes(face, level: level) {
                            closed[list, default: 0] += p * weight
                        } else if level < depth {
                            next[list, default: 0] += p * weight
                        }
                    }
                }
                open = next
                if open.isEmpty { break }
            }
            try meter.ensureAffordable(PoolModel.sumPhaseEstimate(items: closed.count, width: 1, count: count,
                                                                 lists: ordered.count, form: form))
            return try keeper.windowSum([(closed, count)], meter: &meter, at: range)
        case .drop:
            var open: [Int: Distribution] = [0: Distribution(constant: .integer(0))]
            var closed: [Int: DistributionAccumulator] = [:]
            for level in 0...depth {
                var next: [Int: DistributionAccumulator] = [:]
                for (key, totals) in open {
                    // Each face also inserts into a list and merges into an accumulator: charge it.
                    try meter.charge(WorkMeter.product(MultisetKeep.dropPairWork(totals, Distribution(constant: .integer(0))),
                                                       faceCount))
                    try die.forEachWholeOutcome { (face, weight) throws(StatsFailure) in
                        let value = level == 0 ? face
                            : try arithmetic { () throws(ArithmeticFault) in try extraValue(face) }
                        let valueRank = try ranked(value)
                        let list = keeper.inserting(valueRank, into: key)
                        let shift = contributions[valueRank]
                        if !explodes(face, level: level) {
                            try arithmetic { () throws(ArithmeticFault) in
                                try closed[list, default: DistributionAccumulator()].add(totals, shiftedBy: shift,
                                                                                       times: weight)
                            }
                        } else if level < depth {
                            try arithmetic { () throws(ArithmeticFault) in
                                try next[list, default: DistributionAccumulator()].add(totals, shiftedBy: shift,
                                                                                     times: weight)
                            }
                        }
                    }
                }
                open = try MultisetKeep.build(next, meter: &meter)
                if open.isEmpty { break }
            }
            let item = try MultisetKeep.build(closed, meter: &meter)
            let widest = item.values.map(\.storageSize).max() ?? 1
            try meter.ensureAffordable(PoolModel.sumPhaseEstimate(items: item.count, width: widest, count: count,
                                                                 lists: ordered.count, form: form))
            return try keeper.dropSum([(item, count)], meter: &meter, at: range)
        }
    }
}
