/// The classes of a bound pool's faces, and the parts its dice fall in (`BoundPoolSplits`).
extension StatsEngine {
    /// The classes of the faces a bound pool shows: each face alone (in increasing order,
    /// what keep/drop needs), or faces alike to every compare point together.
    struct FaceClasses {
        /// The face each class shows (the first met, when faces are grouped).
        private(set) var faces: [Value] = []
        /// For each class, whether its faces match each compare point.
        private(set) var matches: [[Bool]] = []
        private var classOf: [Number: Int] = [:]

        /// The classes of the faces at `positions` (a text die's faces by their index in `symbols`).
        init(_ positions: [Number], symbols: [Value], keys: [PointKey], perFace: Bool) throws(StatsFailure) {
            var distinct: [Number] = []
            var met = Set<Number>()
            for position in positions where met.insert(position).inserted { distinct.append(position) }
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
                matches.append(match)
            }
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
    /// exploding as `rules` say: its classes and splits.
    func boundPoolSplits(_ rolled: [(position: Number, p: Double)], rules: PoolRules, dice: Int, symbols: [Value],
                         keys: [PointKey], perFace: Bool,
                         at range: SourceRange) throws(StatsFailure) -> (classes: FaceClasses, splits: BoundPoolSplits) {
        // The faces of each part, and for each joint outcome of the parts' sizes its chance.
        var parts: [[(position: Number, p: Double)]] = [rolled]
        var sizes: [(totals: [Int], p: Double)] = [([dice], 1)]
        var cut = false
        if let explosion = rules.explosion {
            guard symbols.isEmpty else { throw .tooExpensive("exploding text dice") }
            let highest = rolled.map { rules.clamp($0.position.integerValue ?? 0) }.max() ?? 0
            let point = explosion.point ?? ResolvedPoint(op: .equal, value: .integer(highest))
            let stop = rolled.filter { !point.matches($0.position) }
            let boom = rolled.filter { point.matches($0.position) }
            if stop.isEmpty && explosion.kind != .once { throw .dice(DiceError(.explosionMatchesEveryFace, at: range)) }
            let q = boom.reduce(0) { $0 + $1.p }
            let cutoff = meter.budget.explosionCutoff, limit = meter.budget.maxOutcomes
            switch explosion.kind {
            case .compound:
                let compounded = try compoundedFaces(stop: stop, boom: boom, at: range)
                parts = [compounded.faces]
                cut = compounded.cut
            case .explode:
                parts = [stop, boom]
                let explosions = BoundPoolSplits.negativeBinomial(dice, q, cutoff: cutoff, limit: limit)
                sizes = explosions.chances.enumerated().map { ([dice, $0.offset], $0.element) }
                cut = explosions.cut
            case .once:
                parts = [stop, boom, rolled]
                sizes = BoundPoolSplits.binomial(dice, q).enumerated().map { ([dice - $0.offset, $0.offset, $0.offset], $0.element) }
            case .penetrate:
                // Each extra die shows one less than it rolls; whether it explodes is read from the roll.
                let less = { (faces: [(position: Number, p: Double)]) throws(StatsFailure) -> [(position: Number, p: Double)] in
                    var shown: [(position: Number, p: Double)] = []
                    for (position, p) in faces {
                        shown.append((try self.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try position.subtracting(.integer(1))
                        }, p))
                    }
                    return shown
                }
                parts = [stop, boom, try less(stop), try less(boom)]
                sizes = []
                for (first, p) in BoundPoolSplits.binomial(dice, q).enumerated() where p > 0 {
                    let explosions = BoundPoolSplits.negativeBinomial(first, q, cutoff: cutoff / Swift.max(p, cutoff), limit: limit)
                    cut = cut || explosions.cut
                    for (extra, r) in explosions.chances.enumerated() {
                        sizes.append(([dice - first, first, first, extra], p * r))
                    }
                }
            }
        }
        let classes = try FaceClasses(parts.flatMap { $0.map(\.position) }, symbols: symbols, keys: keys, perFace: perFace)
        var built: [BoundPoolSplits.Part] = []
        for faces in parts { built.append(faces.isEmpty ? BoundPoolSplits.Part(classes: []) : try classes.part(faces)) }
        var ways = 0.0
        for size in sizes { ways += BoundPoolSplits.splitCount(built, size.totals) }
        guard ways <= Double(meter.budget.maxOutcomes) else { throw .tooExpensive("a bound pool with too many classes of faces") }
        // About 60 ns a split (a release build), as 17 units.
        try meter.charge(WorkMeter.product(Int(ways) + sizes.count, 1 + StatsEngine.macroUseCost / 16))
        let largest = sizes.map { $0.totals.reduce(0) { $0 &+ Swift.max($1, 0) } }.max() ?? 0
        // Parts of classes of their own, and sizes each of their own totals: no split is met twice.
        var taken = Set<Int>()
        let disjoint = built.allSatisfy { part in part.classes.allSatisfy { taken.insert($0.index).inserted } }
        let unique = disjoint && Set(sizes.map(\.totals)).count == sizes.count
        var splits = BoundPoolSplits(classCount: classes.faces.count, largest: largest, unique: unique)
        for size in sizes { splits.add(built, size.totals, weight: size.p) }
        if cut { splits.noteCut() }
        return (classes, splits)
    }

    /// The joint outcomes of `dice` unique dice (`let p = 3d6u in ...`), each settling on one of
    /// `rolled` (chances adding up to 1) not shown yet: a split for each set of faces they can
    /// draw, without replacement (`forEachUniqueDraw`). Explosions, which may repeat faces, are
    /// not among them.
    func uniqueBoundPoolSplits(_ rolled: [(position: Number, p: Double)], rules: PoolRules, dice: Int,
                               symbols: [Value], keys: [PointKey], perFace: Bool,
                               at range: SourceRange) throws(StatsFailure) -> (classes: FaceClasses, splits: BoundPoolSplits) {
        guard rules.explosion == nil else { throw .tooExpensive("a bound pool of unique exploding dice") }
        guard dice <= rolled.count else {
            throw .dice(DiceError(.tooFewFacesForUnique(dice: dice, faces: rolled.count), at: range))
        }
        let classes = try FaceClasses(rolled.map(\.position), symbols: symbols, keys: keys, perFace: perFace)
        var indices: [Int] = []
        for (position, _) in rolled { indices.append(try classes.index(of: position)) }
        var splits = BoundPoolSplits(classCount: classes.faces.count, largest: dice)
        let faces = rolled.map { (face: $0.position.integerValue ?? 0, p: $0.p) }
        try forEachUniqueDraw(faces, dice: dice) { (set, p) throws(StatsFailure) in
            var counts = [Int](repeating: 0, count: classes.faces.count)
            for face in set {
                guard indices.indices.contains(face), counts.indices.contains(indices[face]) else {
                    throw .invariant("a unique face without a class")
                }
                counts[indices[face]] += 1
            }
            splits.add(counts, chance: p)
        }
        return (classes, splits)
    }

    /// The totals of one compounding die (`!!`): rolls added up until one does not explode,
    /// the tail cut where the mass left is below the cutoff.
    private func compoundedFaces(stop: [(position: Number, p: Double)], boom: [(position: Number, p: Double)],
                                 at range: SourceRange) throws(StatsFailure) -> (faces: [(position: Number, p: Double)], cut: Bool) {
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
            if left < meter.budget.explosionCutoff {
                return (finished.keys.sorted().map { ($0, finished[$0] ?? 0) }, left > 0)
            }
            pending = next
        }
        return (finished.keys.sorted().map { ($0, finished[$0] ?? 0) }, false)
    }
}
