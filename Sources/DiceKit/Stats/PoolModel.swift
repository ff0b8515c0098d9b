#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A compare point with its value resolved: `>=5`.
struct StatsPoint: Hashable {
    var op: ComparisonOperator
    var value: Number

    func matches(_ value: Int) -> Bool { op.holds(.integer(value), self.value) }
    func matches(_ value: Number) -> Bool { op.holds(value, self.value) }
}

/// What a pool's value counts, after keep/drop: the sum, or the matches of `cs`/`cf`;
/// minus one for each `df` match.
struct PoolCounting {
    var successes: [StatsPoint] = []
    var failures: [StatsPoint] = []
    var countsSuccesses = false

    var isSum: Bool { !countsSuccesses && failures.isEmpty }

    /// What one kept die (or group member) showing `value` adds to the pool's value.
    func contribution(of value: Number) throws(ArithmeticFault) -> Number {
        var result = value
        if countsSuccesses { result = .integer(successes.contains { $0.matches(value) } ? 1 : 0) }
        if failures.contains(where: { $0.matches(value) }) { result = try result.subtracting(.integer(1)) }
        return result
    }
}

/// A dice term's modifiers with their arguments resolved to numbers.
struct PoolSpec {
    struct Reroll {
        var once: Bool
        /// `nil`: the lowest face.
        var point: StatsPoint?
    }

    var clamps: [(minimum: Bool, value: Int)] = []
    var rerolls: [Reroll] = []
    var explosion: DiceModifier.Explosion?
    /// `nil`: the highest face.
    var explosionPoint: StatsPoint?
    var keeps: [KeepStep] = []
    var counting = PoolCounting()
}

/// A face of a die and its probability.
struct WeightedFace {
    var face: Int
    var probability: Double
}

/// One kind of die with its modifiers, ready to give the distribution of a pool of any size.
///
/// Per die: roll, clamp, reroll (`r` until no recursive point matches; `ro` once), then
/// explode while the face matches. The die after rerolls is `die`; an explosion's chain is
/// cut after `depth` extra dice, where the mass left is below the cutoff.
final class PoolModel {
    let spec: PoolSpec
    /// The faces after clamps and rerolls, ascending, probabilities summing to 1.
    let die: [WeightedFace]
    /// Whether each face of `die` explodes.
    let explodes: [Bool]
    /// Extra dice per chain at most; 0 when the die never explodes.
    let depth: Int
    private unowned let engine: StatsEngine
    private let range: SourceRange
    /// `powers[n]`: the sum of `n` units' contributions (pools without keep/drop).
    private var powers: [Distribution] = []
    private var cachedUnit: Distribution?

    /// - Parameters:
    ///   - faces: the raw faces of one die.
    ///   - largestCount: the most dice the pool may have, to set the explosion cut.
    ///   - rerollRange, explosionRange: where those errors point.
    init(faces: Distribution, spec: PoolSpec, largestCount: Int, engine: StatsEngine, range: SourceRange,
         rerollRange: SourceRange, explosionRange: SourceRange) throws {
        self.spec = spec
        self.engine = engine
        self.range = range

        // Clamps, in written order, on every face.
        var clamped = DistributionAccumulator()
        for outcome in faces.outcomes {
            guard var face = outcome.value.integerValue else { continue }
            for clamp in spec.clamps { face = clamp.minimum ? Swift.max(face, clamp.value) : Swift.min(face, clamp.value) }
            clamped.add(face, outcome.probability)
        }
        var clampedFaces: [WeightedFace] = []
        for outcome in clamped.build().outcomes {
            if let face = outcome.value.integerValue {
                clampedFaces.append(WeightedFace(face: face, probability: outcome.probability))
            }
        }
        guard let lowest = clampedFaces.first?.face, let highest = clampedFaces.last?.face else {
            throw DiceError(.emptyFaces, at: range)
        }

        // Rerolls.
        let recursive = spec.rerolls.filter { !$0.once }.map { $0.point ?? StatsPoint(op: .equal, value: .integer(lowest)) }
        let once = spec.rerolls.filter { $0.once }.map { $0.point ?? StatsPoint(op: .equal, value: .integer(lowest)) }
        let survivors = clampedFaces.filter { entry in !recursive.contains { $0.matches(entry.face) } }
        guard !survivors.isEmpty else { throw DiceError(.rerollMatchesEveryFace, at: rerollRange) }
        let survivorMass = survivors.reduce(0) { $0 + $1.probability }
        let settled = survivors.map { WeightedFace(face: $0.face, probability: $0.probability / survivorMass) }
        let rerolledOnce = settled.reduce(0) { total, entry in
            once.contains { $0.matches(entry.face) } ? total + entry.probability : total
        }
        die = settled.map { entry in
            let kept = once.contains { $0.matches(entry.face) } ? 0 : entry.probability
            return WeightedFace(face: entry.face, probability: kept + rerolledOnce * entry.probability)
        }.filter { $0.probability > 0 }

        // Explosions.
        if spec.explosion != nil {
            let point = spec.explosionPoint ?? StatsPoint(op: .equal, value: .integer(highest))
            explodes = die.map { point.matches($0.face) }
            guard explodes.contains(false) else { throw DiceError(.explosionMatchesEveryFace, at: explosionRange) }
            let mass = zip(die, explodes).reduce(0.0) { $1.1 ? $0 + $1.0.probability : $0 }
            if mass > 0 {
                let cutoff = engine.budget.explosionCutoff / Double(Swift.max(1, largestCount))
                let levels = (log(cutoff) / log(mass)).rounded(.up) - 1
                guard levels < 1_000_000 else {
                    throw StatsError.tooExpensive("the explosion's tail would need \(Int(levels)) extra dice")
                }
                var k = Swift.max(0, Int(levels))
                while k > 0 && pow(mass, Double(k)) <= cutoff { k -= 1 }
                while pow(mass, Double(k + 1)) > cutoff { k += 1 }
                depth = k
            } else {
                depth = 0
            }
        } else {
            explodes = die.map { _ in false }
            depth = 0
        }
    }

    private func contribution(_ value: Int) throws(ArithmeticFault) -> Number {
        try spec.counting.contribution(of: .integer(value))
    }

    /// The value an extra die of a chain shows for `face` (one less when penetrating).
    private func extraValue(_ face: Int) throws(ArithmeticFault) -> Int {
        guard spec.explosion == .penetrate else { return face }
        let (value, overflow) = face.subtractingReportingOverflow(1)
        guard !overflow else { throw .overflow }
        return value
    }

    private var isChain: Bool { spec.explosion == .explode || spec.explosion == .penetrate }

    // MARK: - Pools

    /// The distribution of the pool's value with `count` dice.
    func distribution(count: Int) throws -> Distribution {
        guard count > 0 else { return Distribution(constant: .integer(0)) }
        if depth > 0 || explodes.contains(true) { engine.cutExplosionTails = true }
        if isChain {
            guard !spec.keeps.isEmpty,
                  let (form, fromTop) = MultisetKeep.form(for: spec.keeps, sizes: count...(count * (depth + 1))) else {
                if spec.keeps.isEmpty { return try additive(count: count) }
                throw StatsError.tooExpensive("keeping and dropping from both ends of an exploding pool")
            }
            if case .drop(0) = form { return try additive(count: count) }
            return try chainKeep(count: count, form: form, fromTop: fromTop)
        }
        let kept = KeepStep.keptRange(spec.keeps, total: count)
        if kept == 0..<count { return try additive(count: count) }
        let unit = try self.unit()
        let mass = unit.totalProbability
        let outcomes = unit.outcomes
        var contributions: [Number] = []
        for outcome in outcomes {
            contributions.append(try engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                try spec.counting.contribution(of: outcome.value)
            })
        }
        let keptSum = try engine.faults(at: range) {
            try KeepDP.keptSum(probabilities: outcomes.map { $0.probability / mass }, contributions: contributions,
                               dice: count, kept: kept, engine: engine)
        }
        return keptSum.scaled(by: pow(mass, Double(count)))
    }

    /// One die's value: the die itself, or for `!!` the sum of its chain.
    private func unit() throws -> Distribution {
        if let cachedUnit { return cachedUnit }
        var builder = DistributionAccumulator()
        for entry in die { builder.add(entry.face, entry.probability) }
        var result = builder.build()
        if spec.explosion == .compound {
            let (stop, go) = try parts { face, _ throws(ArithmeticFault) in .integer(face) }
            result = try chainSum(first: (stop, go), extra: (stop, go))
        }
        cachedUnit = try engine.checkSize(result)
        return result
    }

    /// The faces that end a chain and those that go on, each mapped by `value`.
    private func parts(_ value: (Int, Bool) throws(ArithmeticFault) -> Number) throws -> (stop: Distribution, go: Distribution) {
        var stop = DistributionAccumulator(), go = DistributionAccumulator()
        for (index, entry) in die.enumerated() {
            let mapped = try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try value(entry.face, explodes[index]) }
            if explodes[index] { go.add(mapped, entry.probability) } else { stop.add(mapped, entry.probability) }
        }
        return (stop.build(), go.build())
    }

    /// The sum over a chain: the first die, then up to `depth` extra dice while the faces match.
    private func chainSum(first: (stop: Distribution, go: Distribution),
                          extra: (stop: Distribution, go: Distribution)) throws -> Distribution {
        var result = DistributionAccumulator()
        try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try result.add(first.stop) }
        var running = first.go
        var level = 0
        while level < depth && !running.isEmpty {
            level += 1
            try engine.charge(StatsEngine.product(running.storageSize, extra.stop.storageSize + extra.go.storageSize))
            let current = running
            let ended = try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try current.adding(extra.stop) }
            try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try result.add(ended) }
            running = try engine.checkSize(engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                try current.adding(extra.go)
            })
        }
        return try engine.checkSize(result.build())
    }

    /// The sum of `count` independent units' contributions (no keep/drop).
    private func additive(count: Int) throws -> Distribution {
        if powers.isEmpty {
            let single: Distribution
            if isChain {
                let first = try parts { face, _ throws(ArithmeticFault) in try self.contribution(face) }
                let extra = try parts { face, _ throws(ArithmeticFault) in try self.contribution(try self.extraValue(face)) }
                single = try chainSum(first: first, extra: extra)
            } else {
                let unit = try self.unit()
                try engine.charge(unit.storageSize)
                single = try engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                    try unit.mapped { (value) throws(ArithmeticFault) in try self.spec.counting.contribution(of: value) }
                }
            }
            powers = [Distribution(constant: .integer(0)), single]
        }
        let unitSize = Double(powers[1].storageSize)
        let estimate = Double(count) * Double(count - 1) * unitSize * unitSize / 2
        try engine.ensureAffordable(estimate < 9e18 ? Int(estimate) : Int.max)
        while powers.count <= count {
            let last = powers[powers.count - 1], single = powers[1]
            try engine.charge(StatsEngine.pairWork(last, single))
            powers.append(try engine.checkSize(engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                try last.adding(single)
            }))
        }
        return powers[count]
    }

    // MARK: - Keep/drop on exploding pools

    /// Keep/drop over `count` chains, each a die and its extra dice as separate values.
    private func chainKeep(count: Int, form: MultisetKeep.Form, fromTop: Bool) throws -> Distribution {
        // Every value a die of the pool can show, ranked from the anchored end.
        var values = Set(die.map { $0.face })
        for entry in die {
            values.insert(try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try extraValue(entry.face) })
        }
        let ascending = values.sorted()
        let ordered = fromTop ? Array(ascending.reversed()) : ascending
        var rank: [Int: Int] = [:]
        for (index, value) in ordered.enumerated() { rank[value] = index }
        var contributions: [Number] = []
        for value in ordered {
            contributions.append(try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try contribution(value) })
        }
        let keeper = try MultisetKeep(form: form, contributions: contributions)

        switch form {
        case .window:
            var open: [Int: Double] = [0: 1]
            var closed: [Int: Double] = [:]
            for level in 0...depth {
                var next: [Int: Double] = [:]
                try engine.charge(StatsEngine.product(open.count, die.count * (form.length + 1 + MultisetKeep.pairCost)))
                for (key, p) in open {
                    for (index, entry) in die.enumerated() {
                        let value = level == 0 ? entry.face
                            : try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try extraValue(entry.face) }
                        let list = keeper.inserting(rank[value]!, into: key)
                        if !explodes[index] {
                            closed[list, default: 0] += p * entry.probability
                        } else if level < depth {
                            next[list, default: 0] += p * entry.probability
                        }
                    }
                }
                open = next
                if open.isEmpty { break }
            }
            return try engine.faults(at: range) { try keeper.windowSum([(closed, count)], engine: engine) }
        case .drop:
            var open: [Int: Distribution] = [0: Distribution(constant: .integer(0))]
            var closed: [Int: DistributionAccumulator] = [:]
            for level in 0...depth {
                var next: [Int: DistributionAccumulator] = [:]
                for (key, totals) in open {
                    // Each face also inserts into a list and merges into an accumulator: charge it.
                    try engine.charge(StatsEngine.product(MultisetKeep.dropPairWork(totals, Distribution(constant: .integer(0))),
                                                          die.count))
                    for (index, entry) in die.enumerated() {
                        let value = level == 0 ? entry.face
                            : try engine.arithmetic(at: range) { () throws(ArithmeticFault) in try extraValue(entry.face) }
                        let list = keeper.inserting(rank[value]!, into: key)
                        let shift = contributions[rank[value]!]
                        if !explodes[index] {
                            try engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                                try closed[list, default: DistributionAccumulator()].add(totals, shiftedBy: shift,
                                                                                       times: entry.probability)
                            }
                        } else if level < depth {
                            try engine.arithmetic(at: range) { () throws(ArithmeticFault) in
                                try next[list, default: DistributionAccumulator()].add(totals, shiftedBy: shift,
                                                                                     times: entry.probability)
                            }
                        }
                    }
                }
                open = [:]
                var held = 0
                for (key, accumulator) in next {
                    let built = try engine.checkSize(accumulator.build())
                    held += built.storageSize
                    try MultisetKeep.checkHeld(held, engine: engine)
                    open[key] = built
                }
                if open.isEmpty { break }
            }
            var item: [Int: Distribution] = [:]
            var held = 0
            for (key, accumulator) in closed {
                let built = try engine.checkSize(accumulator.build())
                held += built.storageSize
                try MultisetKeep.checkHeld(held, engine: engine)
                item[key] = built
            }
            return try engine.faults(at: range) { try keeper.dropSum([(item, count)], engine: engine) }
        }
    }
}
