#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The classes of a bound pool's faces, and the parts its dice fall in (`BoundPoolSplits`).
extension StatsEngine {
    /// The classes of the faces a bound pool shows: each face alone (in increasing order,
    /// what keep/drop needs), or faces alike to every compare point together.
    struct FaceClasses {
        /// The face each class shows (the first met, when faces are grouped).
        private(set) var faces: [Value] = []
        /// The position of the face each class shows (a text die's, its index in the symbols).
        private(set) var positions: [Number] = []
        /// For each class, whether its faces match each compare point.
        private var matches: [[Bool]] = []
        private var classOf: [Number: Int] = [:]

        /// The classes of the faces at `rolled` (a text die's faces by their index in `symbols`).
        init(_ rolled: [Number], symbols: [Value], keys: [PointKey], perFace: Bool) throws(StatsFailure) {
            var distinct: [Number] = []
            var met = Set<Number>()
            for position in rolled where met.insert(position).inserted { distinct.append(position) }
            if perFace { distinct.sort() }
            var byMatches: [[Bool]: Int] = [:]
            for position in distinct {
                let face: Value
                if symbols.isEmpty {
                    face = .number(position)
                } else {
                    guard let index = position.integerValue, symbols.indices.contains(index) else {
                        throw .invariant("a face position out of range")
                    }
                    face = symbols[index]
                }
                let match = keys.map { $0.matches(face) }
                if !perFace, let known = byMatches[match] {
                    classOf[position] = known
                    continue
                }
                byMatches[match] = faces.count
                classOf[position] = faces.count
                faces.append(face)
                positions.append(position)
                matches.append(match)
            }
        }

        /// How many of the dice that fall `split[i]` in class `i` match each of the `keys`
        /// compare points, in order.
        func counts(of split: [Int], keys: Int) -> [Int] {
            var counts: [Int] = []
            counts.reserveCapacity(keys)
            for position in 0..<keys {
                var count = 0
                for (index, dice) in split.enumerated() where matches[index][position] { count += dice }
                counts.append(count)
            }
            return counts
        }

        /// The dice of `split` as the roller could show them: a face of each class, and how many.
        func shown(_ split: [Int]) -> [(face: Value, count: Int)] {
            split.indices.compactMap { split[$0] > 0 ? (faces[$0], split[$0]) : nil }
        }

        /// The class of the face at `position`.
        func index(of position: Number) throws(StatsFailure) -> Int {
            guard let index = classOf[position] else { throw .invariant("a face without a class") }
            return index
        }

        /// One part of a pool: its faces' classes, chances added up and scaled to a total of 1.
        func part(_ faces: [(position: Number, p: Double)]) throws(StatsFailure) -> BoundPoolSplits.Part {
            let total = faces.reduce(0) { $0 + $1.p }
            var chances: [Int: Double] = [:]
            var order: [Int] = []
            for (position, p) in faces {
                let index = try index(of: position)
                if chances[index] == nil { order.append(index) }
                chances[index, default: 0] += p / total
            }
            return BoundPoolSplits.Part(classes: order.map { ($0, chances[$0] ?? 0) })
        }
    }

    /// The joint outcomes of `dice` dice, each rolling `rolled` (chances adding up to 1),
    /// exploding as `rules` say (a bare `!` on `highest`): its classes and splits.
    func boundPoolSplits(_ rolled: [(position: Number, p: Double)], highest: Int, rules: PoolRules, dice: Int, symbols: [Value],
                         keys: [PointKey], perFace: Bool,
                         at range: SourceRange) throws(StatsFailure) -> (classes: FaceClasses, splits: BoundPoolSplits) {
        // The faces of each part, and for each joint outcome of the parts' sizes its chance.
        var parts: [[(position: Number, p: Double)]] = [rolled]
        var sizes: [(totals: [Int], p: Double)] = [([dice], 1)]
        // Whether a tail was cut, and its mass, told as such: 1 less the splits' chances is
        // rounding beside it (`let p = 1d6! in count(p, =6) + p` cut finer for a rare `given`).
        var cut = false, cutMass = 0.0
        if let explosion = rules.explosion {
            guard symbols.isEmpty else { throw .tooExpensive("exploding text dice") }
            let (stop, boom, q) = try explodingFaces(rolled, highest: highest, explosion: explosion, at: range)
            let cutoff = meter.budget.explosionCutoff, limit = meter.budget.maxOutcomes
            switch explosion.kind {
            case .compound:
                let compounded = try compoundedFaces(stop: stop, boom: boom, dice: dice, at: range)
                parts = [compounded.faces]
                // A part's chances are scaled to 1 (`FaceClasses.part`): the chance that every
                // die ends within the totals kept goes to the size, so that the mass cut stays
                // out. Scaled, it was spread over the totals, and `let p = 1d4!! in
                // count(p, >1) + p` said nothing was cut where `1d4!!` did.
                let within = compounded.faces.reduce(0) { $0 + $1.p }
                sizes = [([dice], pow(within, Double(dice)))]
                cut = compounded.cut > 0
                cutMass = PoolModel.someCut(of: dice, each: compounded.cut)
            case .explode:
                parts = [stop, boom]
                let explosions = BoundPoolSplits.negativeBinomial(dice, q, cutoff: cutoff, limit: limit)
                sizes = explosions.chances.enumerated().map { ([dice, $0.offset], $0.element) }
                cut = explosions.cut
                cutMass = explosions.tail
            case .once:
                parts = [stop, boom, rolled]
                sizes = BoundPoolSplits.binomial(dice, q).enumerated().map { ([dice - $0.offset, $0.offset, $0.offset], $0.element) }
            case .penetrate:
                parts = [stop, boom, try oneLess(stop, at: range), try oneLess(boom, at: range)]
                sizes = []
                for (first, p) in BoundPoolSplits.binomial(dice, q).enumerated() where p > 0 {
                    let explosions = BoundPoolSplits.negativeBinomial(first, q, cutoff: cutoff / Swift.max(p, cutoff), limit: limit)
                    cut = cut || explosions.cut
                    cutMass += p * explosions.tail
                    for (extra, r) in explosions.chances.enumerated() {
                        sizes.append(([dice - first, first, first, extra], p * r))
                    }
                }
            }
        }
        let classes = try FaceClasses(parts.flatMap { $0.map(\.position) }, symbols: symbols, keys: keys, perFace: perFace)
        var splits = try poolSplits(parts, sizes: sizes, classes: classes)
        if cut { splits.noteCut(cutMass) }
        return (classes, splits)
    }

    /// The splits of a pool whose dice fall in `parts` of faces (of `classes`), `sizes` giving
    /// how many dice each part has, with its chance: each split's chance added up.
    func poolSplits(_ parts: [[(position: Number, p: Double)]], sizes: [(totals: [Int], p: Double)],
                    classes: FaceClasses) throws(StatsFailure) -> BoundPoolSplits {
        var built: [BoundPoolSplits.Part] = []
        for faces in parts { built.append(faces.isEmpty ? BoundPoolSplits.Part(classes: []) : try classes.part(faces)) }
        var ways = 0.0
        for size in sizes { ways += BoundPoolSplits.splitCount(built, size.totals) }
        guard ways <= Double(meter.budget.maxOutcomes) else { throw .tooExpensive("a bound pool with too many classes of faces") }
        // Each split a list of counts made, filed and kept: about 60 ns for the few thousand
        // of Shadowrun's `push`, but 200 to 400 ns each (allocation, page faults) for the 1.37
        // million of 200d6 counted three ways (281 MB; release, a loaded machine), which at 17
        // units a split ran past the 1 s bound before the engine gave up. And a unit for each
        // count a split holds, one a class: the thousands of classes of a compounding die's
        // totals (`let p = 2d6!!>1 in count(p, >=3) + p`) made 7 GB in 28 s at a flat rate.
        try meter.charge(WorkMeter.product(Int(ways) + sizes.count, 2 * WorkMeter.sparsePairCost + classes.faces.count))
        let largest = sizes.map { $0.totals.reduce(0) { $0 &+ Swift.max($1, 0) } }.max() ?? 0
        // Parts of classes of their own, and sizes each of their own totals: no split is met twice.
        var taken = Set<Int>()
        let disjoint = built.allSatisfy { part in part.classes.allSatisfy { taken.insert($0.index).inserted } }
        let unique = disjoint && Set(sizes.map(\.totals)).count == sizes.count
        var splits = BoundPoolSplits(classCount: classes.faces.count, largest: largest, unique: unique)
        for size in sizes { splits.add(built, size.totals, weight: size.p) }
        return splits
    }

    /// The faces of `rolled` that stop and that explode under `explosion` (at the highest
    /// face after clamps when no point is written), and the chance that a roll explodes. An
    /// explosion on every face, which would never end, is an error (`xo` stops after one).
    func explodingFaces(_ rolled: [(position: Number, p: Double)], highest: Int, explosion: PoolRules.Explosion,
                        at range: SourceRange) throws(StatsFailure)
        -> (stop: [(position: Number, p: Double)], boom: [(position: Number, p: Double)], q: Double) {
        let point = explosion.point(highest: highest)
        let stop = rolled.filter { !point.matches($0.position) }
        let boom = rolled.filter { point.matches($0.position) }
        if stop.isEmpty && explosion.kind != .once { throw .dice(DiceError(.explosionMatchesEveryFace, at: range)) }
        return (stop, boom, boom.reduce(0) { $0 + $1.p })
    }

    /// The faces a penetrating explosion's extra dice show (`!p`): one less than they roll;
    /// whether one explodes is read from the roll.
    func oneLess(_ faces: [(position: Number, p: Double)],
                 at range: SourceRange) throws(StatsFailure) -> [(position: Number, p: Double)] {
        var shown: [(position: Number, p: Double)] = []
        for (position, p) in faces {
            shown.append((try arithmetic(at: range) { () throws(ArithmeticFault) in try position.subtracting(.integer(1)) }, p))
        }
        return shown
    }

    /// The totals of one compounding die (`!!`) of `dice`: rolls added up until one does not
    /// explode, the tail cut where the mass left is below the cutoff shared among the dice,
    /// as `PoolModel` shares it. The totals' chances make 1 less the mass cut, `cut` (0 when
    /// nothing was), the chance of the rolls that go on past them, told as such.
    func compoundedFaces(stop: [(position: Number, p: Double)], boom: [(position: Number, p: Double)], dice: Int,
                         at range: SourceRange) throws(StatsFailure) -> (faces: [(position: Number, p: Double)], cut: Double) {
        let cutoff = meter.budget.explosionCutoff / Double(Swift.max(1, dice))
        var finished: [Number: Double] = [:]
        var pending: [Number: Double] = [.integer(0): 1]
        while !pending.isEmpty {
            try meter.charge(pending.count * (stop.count + boom.count))
            var next: [Number: Double] = [:]
            for sum in pending.keys.sorted() {
                let mass = pending[sum] ?? 0
                for (face, p) in stop {
                    finished[try arithmetic(at: range) { () throws(ArithmeticFault) in try sum.adding(face) }, default: 0] += mass * p
                }
                for (face, p) in boom {
                    next[try arithmetic(at: range) { () throws(ArithmeticFault) in try sum.adding(face) }, default: 0] += mass * p
                }
            }
            let left = next.values.reduce(0, +)
            if left < cutoff {
                return (finished.keys.sorted().map { ($0, finished[$0] ?? 0) }, left)
            }
            pending = next
        }
        return (finished.keys.sorted().map { ($0, finished[$0] ?? 0) }, 0)
    }
}
