/// `value` when whole, else 0 (a die's faces are whole).
private func wholeOrZero(_ value: Number) -> Int { value.integerValue ?? 0 }

/// `let p = NdS in BODY` where BODY counts `p` with `count(p, cp)`: one roll, several results.
///
/// The dice are independent and alike, so what BODY sees of them is how many fall in each
/// class of faces that the compare points tell apart (each face its own class when BODY also
/// reads `p`'s value): a multinomial over those classes, not a walk over every roll. For
/// `let p = 20d6 in (hits: count(p, >=5), glitch: count(p, =1) > 10)` the classes are
/// {1}, {2, 3, 4} and {5, 6}: 231 outcomes of the counts.
extension StatsEngine {
    /// What working the body out once for one joint outcome of the counts costs besides its own
    /// charges: measured at about 60 µs for Shadowrun's `outcome` macro (a release build), as
    /// 16 macro uses.
    static let boundOutcomeCost = 16 * macroUseCost

    /// The distribution of the `let`, or `nil` when BODY does not count the name.
    func boundPoolDistribution(_ name: String, _ value: Expr, _ body: Expr) throws(StatsFailure) -> Distribution? {
        var points: [ComparePoint] = []
        StatsEngine.collectCounts(of: name, in: body, into: &points)
        guard !points.isEmpty else { return nil }
        var pool = value
        while case .annotated(let inner, _) = pool.kind { pool = inner }
        guard case .dice(let term) = pool.kind else { throw .tooExpensive("counting a name bound to no pool") }
        let semantics = TermSemantics(term)
        if let conflict = semantics.conflict { throw .dice(conflict) }
        guard let dice = try distribution(of: term.count ?? Expr(.number(.integer(1)), pool.range), for: "a count")
            .constantValue?.integerValue else { throw .tooExpensive("a bound pool of a random number of dice") }
        guard dice >= 0 else { throw .dice(DiceError(.invalidCount(.integer(dice)), at: term.count?.range ?? pool.range)) }
        let faces: Distribution
        if let fixed = term.sides.fixedFaces {
            faces = Distribution(faces: fixed)
        } else if case .number(let sides) = term.sides,
                  let n = try distribution(of: sides, for: "the number of sides").constantValue?.integerValue, n >= 1,
                  n <= meter.budget.maxOutcomes {
            faces = Distribution(uniformSides: n)
        } else {
            throw .tooExpensive("a bound pool whose sides are not fixed")
        }
        let symbols = semantics.symbols
        var inputs: [Number] = []
        for argument in PoolRules.arguments(of: semantics.stageOrder) {
            guard let fixed = try outcomes(of: argument).constantOutcome else {
                throw .tooExpensive("a bound pool whose modifiers are not fixed")
            }
            if symbols.isEmpty {
                guard case .number(let number) = fixed else {
                    throw .dice(DiceError(.notANumber(fixed, needed: "a modifier"), at: argument.range))
                }
                inputs.append(number)
            } else {
                inputs.append(.integer(symbols.firstIndex(of: fixed) ?? -1))
            }
        }
        let rules = try resolveRules(semantics.stageOrder) { $0 < inputs.count ? inputs[$0] : nil }
        guard !rules.unique, rules.explosion == nil || (rules.keeps.isEmpty && rules.counting.isSum) else {
            throw .tooExpensive("a bound pool of unique dice, or of exploding dice kept, dropped or counted")
        }
        // One die, after its clamps and rerolls.
        var single = rules
        single.keeps = []
        single.counting = PoolRules.Counting()
        single.sortAscending = nil
        single.explosion = nil
        let die = try PoolModel(faces: faces, rules: single, largestCount: 1, explosionCutoff: meter.budget.explosionCutoff,
                                range: pool.range, rerollRange: pool.range, explosionRange: pool.range)
            .distribution(count: 1, meter: &meter)
        var keys: [PointKey] = []
        for point in points {
            guard let key = try countKey(point) else { throw .tooExpensive("a count whose compare point is not fixed") }
            if !keys.contains(key) { keys.append(key) }
        }
        var uses: [String: Int] = [:]
        StatsEngine.countUses(in: body, of: [name], weight: 1, into: &uses)
        let readsValue = uses[name, default: 0] > points.count
        if let explosion = rules.explosion {
            guard symbols.isEmpty else { throw .tooExpensive("exploding text dice") }
            let highest = faces.valueOutcomes.compactMap { $0.value.number.map { rules.clamp(wholeOrZero($0)) } }.max() ?? 0
            let point = explosion.point ?? ResolvedPoint(op: .equal, value: .integer(highest))
            let chain = try explosionChain(die, kind: explosion.kind, point: point, keys: keys, readsValue: readsValue,
                                           at: pool.range)
            let all = try repeatedSum(chain, copies: dice)
            var result = ValueAccumulator()
            try meter.charge(all.count)
            for (vector, p) in all where p > 0 {
                var counts: [PointKey: Int] = [:]
                for (index, key) in keys.enumerated() { counts[key] = vector[index] }
                let value = Value.integer(vector[keys.count])
                // Each outcome works the body out afresh: priced like macro uses, so that
                // pools of many joint outcomes (Shadowrun's push(10, 4)) keep to the time bound.
                try meter.charge(StatsEngine.boundOutcomeCost)
                let part = try withBinding(name, .pool(BoundPoolOutcome(value: value, counts: counts))) {
                    () throws(StatsFailure) in try outcomes(of: body)
                }
                try meter.charge(part.storageSize)
                try mix(part, times: p, into: &result)
            }
            return try meter.checkSize(result.build())
        }
        // Keep/drop and counting need each face apart (in increasing order), as reading the value does.
        let perFace = readsValue || !rules.keeps.isEmpty || !rules.counting.isSum
        // The classes: faces alike to every compare point (each face alone when the value is read).
        var classes: [(p: Double, face: Value, matches: [Bool])] = []
        try die.forEachOutcome { (position, p) throws(StatsFailure) in
            let face: Value
            if symbols.isEmpty {
                face = .number(position)
            } else {
                guard let index = position.integerValue, symbols.indices.contains(index) else {
                    throw .invariant("a face position out of range")
                }
                face = symbols[index]
            }
            let matches = keys.map { $0.matches(face) }
            if !perFace, let index = classes.firstIndex(where: { $0.matches == matches }) {
                classes[index].p += p
            } else {
                classes.append((p, face, matches))
            }
        }
        let total = classes.reduce(0) { $0 + $1.p }
        guard total > 0 else { return Distribution(storage: .sparse([])) }
        // Each way of splitting the dice among the classes: C(dice + k - 1, k - 1) of them.
        var ways = 1.0
        for index in 0..<Swift.max(0, classes.count - 1) { ways = ways * Double(dice + index + 1) / Double(index + 1) }
        guard ways <= Double(meter.budget.maxOutcomes) else { throw .tooExpensive("a bound pool with too many classes of faces") }
        try meter.charge(WorkMeter.product(Int(ways), 1 + StatsEngine.macroUseCost / 16))
        let powers = classes.map { entry in
            var row = [Double](repeating: 1, count: dice + 1)
            for j in stride(from: 1, through: dice, by: 1) { row[j] = row[j - 1] * entry.p / total }
            return row
        }
        var result = ValueAccumulator()
        var split = [Int](repeating: 0, count: classes.count)
        func visit(_ index: Int, _ left: Int, _ coefficient: Double) throws(StatsFailure) {
            if index == classes.count - 1 {
                split[index] = left
                var probability = coefficient
                for (position, count) in split.enumerated() { probability *= powers[position][count] }
                guard probability > 0 else { return }
                // The dice kept of each face, after keep/drop in written order.
                let kept = rules.keeps.isEmpty ? split : StatsEngine.kept(split, rules.keeps)
                var counts: [PointKey: Int] = [:]
                for (position, key) in keys.enumerated() {
                    counts[key] = kept.indices.reduce(0) { classes[$1].matches[position] ? $0 + kept[$1] : $0 }
                }
                let value = readsValue
                    ? try poolValue(kept, classes.map(\.face), rules: rules, dice: dice, at: pool.range) : .integer(0)
                try meter.charge(StatsEngine.boundOutcomeCost)
                let part = try withBinding(name, .pool(BoundPoolOutcome(value: value, counts: counts))) {
                    () throws(StatsFailure) in try outcomes(of: body)
                }
                try meter.charge(part.storageSize)
                try mix(part, times: probability, into: &result)
                return
            }
            // coefficient · C(left, k): the ways to pick which of the dice left fall here.
            var choose = 1.0
            for k in 0...left {
                split[index] = k
                try visit(index + 1, left - k, coefficient * choose)
                choose = choose * Double(left - k) / Double(k + 1)
            }
        }
        try visit(0, dice, 1)
        return try meter.checkSize(result.build())
    }

    /// What one exploding die gives a bound pool: for each compare point the dice of its chain
    /// that match, then its chain's total (what the pool's value adds), with their
    /// probabilities. The chain follows the roller: `!` and `!p` add dice (`!p` one less
    /// each), `xo` explodes once, `!!` adds into the die; its tail is cut below the explosion
    /// cutoff, like a pool's. Plain arrays, not tallies: the convolution of many dice works
    /// on them (Shadowrun's `push(6, 3)`: 17 s with tallies in a debug build).
    private func explosionChain(_ die: Distribution, kind: DiceModifier.Explosion, point: ResolvedPoint,
                                keys: [PointKey], readsValue: Bool, at range: SourceRange) throws(StatsFailure) -> [[Int]: Double] {
        var faces: [(face: Int, p: Double)] = []
        die.forEachOutcome { value, p in if let face = value.integerValue { faces.append((face, p)) } }
        let total = faces.reduce(0) { $0 + $1.p }
        guard total > 0 else { return [:] }
        if faces.allSatisfy({ point.matches($0.face) }) && kind != .once {
            throw .dice(DiceError(.explosionMatchesEveryFace, at: range))
        }
        let width = keys.count + 1
        // Chains still exploding, by what they have counted so far (and the compounded total).
        var pending: [[Int]: Double] = [Array(repeating: 0, count: width): 1]
        var finished: [[Int]: Double] = [:]
        var extra = false
        var cut = 0.0
        while !pending.isEmpty {
            try meter.charge(pending.count * faces.count)
            var next: [[Int]: Double] = [:]
            for (state, mass) in pending {
                for (face, p) in faces {
                    let q = mass * p / total
                    let explodes = !(extra && kind == .once) && point.matches(face)
                    var counts = state
                    let shown = extra && kind == .penetrate ? face &- 1 : face
                    counts[keys.count] = counts[keys.count] &+ (kind == .compound ? face : shown)
                    if kind != .compound {
                        for (index, key) in keys.enumerated() where key.matches(.integer(shown)) { counts[index] += 1 }
                    }
                    if explodes {
                        next[counts, default: 0] += q
                        continue
                    }
                    if kind == .compound {
                        // One die: its value is the compounded total.
                        for (index, key) in keys.enumerated() where key.matches(.integer(counts[keys.count])) { counts[index] = 1 }
                    }
                    if !readsValue { counts[keys.count] = 0 }
                    finished[counts, default: 0] += q
                }
            }
            // The tail: chains whose mass left is below the cutoff are dropped, and said so.
            let left = next.values.reduce(0, +)
            if left < meter.budget.explosionCutoff {
                cut += left
                next = [:]
            }
            pending = next
            extra = true
        }
        if cut > 0 { cutExplosionTails = true }
        return finished
    }

    /// The sum, field by field, of `copies` independent copies of `one`, by repeated squaring.
    private func repeatedSum(_ one: [[Int]: Double], copies: Int) throws(StatsFailure) -> [[Int]: Double] {
        func add(_ a: [[Int]: Double], _ b: [[Int]: Double]) throws(StatsFailure) -> [[Int]: Double] {
            // Each pair hashes an array: priced as a sparse pair, so the time bound holds.
            try meter.charge(WorkMeter.product(WorkMeter.product(a.count, b.count), WorkMeter.sparsePairCost))
            var sum: [[Int]: Double] = [:]
            for (x, p) in a {
                for (y, q) in b {
                    var z = x
                    for index in z.indices { z[index] = z[index] &+ y[index] }
                    sum[z, default: 0] += p * q
                }
            }
            return sum
        }
        guard let width = one.keys.first?.count else { return [:] }
        var result: [[Int]: Double] = [Array(repeating: 0, count: width): 1]
        var power = one
        var remaining = copies
        while remaining > 0 {
            if remaining & 1 == 1 { result = try add(result, power) }
            remaining >>= 1
            if remaining > 0 { power = try add(power, power) }
        }
        return result
    }

    /// The value of a bound pool whose dice fall `split[i]` on face `faces[i]`.
    private func poolValue(_ split: [Int], _ faces: [Value], rules: PoolRules, dice: Int,
                           at range: SourceRange) throws(StatsFailure) -> Value {
        var total = Value.integer(0)
        for (count, face) in zip(split, faces) where count > 0 {
            if case .text = face {
                guard dice == 1 else { throw .dice(DiceError(.textDiceOperation("a sum of several text dice"), at: range)) }
                return face
            }
            var each = face
            if case .number(let number) = face, !rules.counting.isSum {
                // Counting: each kept die adds 1 for a success, less 1 for a failure.
                each = .number(try arithmetic(at: range) { () throws(ArithmeticFault) in try rules.counting.contribution(of: number) })
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
        for child in expr.children { collectCounts(of: name, in: child, into: &points) }
    }
}
