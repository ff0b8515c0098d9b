extension KeepDropStep {
    /// The positions of `candidates` still kept after this step; `candidates` in
    /// ascending order and the result too. Ties go to the earlier position.
    func apply<T: Comparable>(to candidates: [Int], value: (Int) -> T) -> [Int] {
        let n = Swift.min(count, candidates.count)
        if keep && n == candidates.count || !keep && n == 0 { return candidates }
        let highestFirst = extreme == .highest
        let ordered = candidates.sorted { a, b in
            let va = value(a), vb = value(b)
            if va != vb { return highestFirst ? va > vb : va < vb }
            return a < b
        }
        let chosen = keep ? ordered.prefix(n) : ordered.dropFirst(n)
        return chosen.sorted()
    }
}

extension KeepDropStep {
    /// How many of `candidates` dice this step drops.
    func dropCount(of candidates: Int) -> Int {
        let n = Swift.max(0, Swift.min(count, candidates))
        return keep ? candidates - n : n
    }

    /// Whether the drop order (see `apply(to:)`) takes lower values first (`kh`, `dl`).
    var dropsLowFirst: Bool { keep == (extreme == .highest) }
    /// Whether, among equal values, the drop order takes the later die first (`kh`, `kl`).
    var dropsLaterFirst: Bool { keep }

    /// The value the last die dropped shows, selected (not sorted) among `values`, those of
    /// the dice that count, which it reorders; `dropCount` of them are dropped, at least one
    /// and not all.
    ///
    /// - Complexity: O(*n*) expected.
    func dropBoundary(_ values: inout [Int], dropCount: Int) -> Int {
        let rank = dropsLowFirst ? dropCount - 1 : values.count - dropCount
        values.withUnsafeMutableBufferPointer { Selection.partition($0, around: rank, in: 0..<$0.count) }
        // `partition` leaves a rank at the end of the range alone.
        return rank == 0 ? values.min() ?? 0 : values[rank]
    }

    /// Marks `.dropped` the dice this step leaves out, among those still counted; the
    /// same dice as `apply(to:value:)` picks, without building index lists for small picks.
    ///
    /// The dice dropped are the first ones in an order set by the step: for `kh`, lowest
    /// value first and, among equal values, the later die first (the earlier one is kept);
    /// `kl` highest first, later first; `dh` highest first, earlier first; `dl` lowest
    /// first, earlier first.
    ///
    /// - Complexity: O(*n*·*k*) for *n* dice when *k* ≤ 8 are dropped or kept; otherwise
    ///   O(*n*) expected.
    func apply(to dice: inout [Die]) {
        var candidates = 0
        for die in dice where die.isCounted { candidates += 1 }
        let dropCount = dropCount(of: candidates)
        let keepCount = candidates - dropCount
        guard dropCount > 0 else { return }
        let lowValueFirst = dropsLowFirst
        let laterFirst = dropsLaterFirst
        /// Whether die `a` comes before die `b` in the drop order.
        func before(_ a: Int, _ b: Int) -> Bool {
            let va = dice[a].value, vb = dice[b].value
            if va != vb { return lowValueFirst ? va < vb : va > vb }
            return laterFirst ? a > b : a < b
        }
        if dropCount <= 8 {
            // Pick the first of the drop order, `dropCount` times.
            for _ in 0..<dropCount {
                var first = -1
                for index in dice.indices where dice[index].isCounted && (first < 0 || before(index, first)) {
                    first = index
                }
                if first >= 0 { dice[first].flags.insert(.dropped) }
            }
        } else if keepCount <= 8 {
            // Pick the last of the drop order, `keepCount` times; drop the rest.
            for _ in 0..<keepCount {
                var last = -1
                for index in dice.indices where dice[index].isCounted && !dice[index].flags.contains(.chosen)
                    && (last < 0 || before(last, index)) {
                    last = index
                }
                if last >= 0 { dice[last].flags.insert(.chosen) }
            }
            for index in dice.indices where dice[index].isCounted {
                if dice[index].flags.contains(.chosen) {
                    dice[index].flags.remove(.chosen)
                } else {
                    dice[index].flags.insert(.dropped)
                }
            }
        } else {
            // The value the last die dropped shows (a selection, not a sort), then: every die
            // before it in value order dropped, and of those showing it as many as are left to
            // drop, later or earlier ones first.
            var values: [Int] = []
            values.reserveCapacity(candidates)
            for die in dice where die.isCounted { values.append(die.value) }
            let boundary = dropBoundary(&values, dropCount: dropCount)
            values = []
            var left = dropCount
            for index in dice.indices where dice[index].isCounted {
                let value = dice[index].value
                if lowValueFirst ? value < boundary : value > boundary {
                    dice[index].flags.insert(.dropped)
                    left -= 1
                }
            }
            for offset in dice.indices where left > 0 {
                let index = laterFirst ? dice.count - 1 - offset : offset
                if dice[index].isCounted && dice[index].value == boundary {
                    dice[index].flags.insert(.dropped)
                    left -= 1
                }
            }
        }
    }
}

/// Everything a pool needs to roll: its faces, its rules, and what follows from both
/// (the faces a die can show after clamping, the points of bare rerolls and explosions).
///
/// Made once and never changed, and shared rather than copied: a roll passes one
/// reference down to each die, however many rules the plan holds.
final class PoolPlan: Sendable {
    let faces: DieFaces
    let rules: PoolRules
    /// Recursive rerolls' points, a bare `r` on the lowest face.
    let rerollAlways: [ResolvedPoint]
    /// `ro` points, a bare `ro` on the lowest face.
    let rerollOnce: [ResolvedPoint]
    let explosion: (kind: DiceModifier.Explosion, point: ResolvedPoint)?
    let lowestFace: Int
    let highestFace: Int
    /// With `u`: how many different faces a die can settle on (clamped, not rerolled for good);
    /// `nil` without `u`, or past 65,536 faces, where the dice limit bounds the rerolls.
    let uniqueFaces: Int?

    var hasRerolls: Bool { !rerollAlways.isEmpty || !rerollOnce.isEmpty }
    var keeps: [KeepDropStep] { rules.keeps }
    /// `cs` (or `cf`): the value becomes the count of kept dice matching.
    var counting: ResolvedPoint? { rules.counting.successes }
    /// `df`: subtract one per kept die matching.
    var failures: ResolvedPoint? { rules.counting.failures }

    /// The plan of a pool of `faces` under `rules`; a reroll or explosion that would never
    /// let go of a die is an error at `range`.
    init(faces: DieFaces, rules: PoolRules, at range: SourceRange) throws(DiceError) {
        self.faces = faces
        self.rules = rules
        switch faces {
        case .range(let sides):
            lowestFace = rules.clamp(1)
            highestFace = rules.clamp(sides)
        case .list(let list):
            let clamped = list.map { rules.clamp($0) }
            lowestFace = clamped.min() ?? 0
            highestFace = clamped.max() ?? 0
        }
        var always: [ResolvedPoint] = [], once: [ResolvedPoint] = []
        for reroll in rules.rerolls {
            let point = reroll.point ?? ResolvedPoint(op: .equal, value: .integer(lowestFace))
            if reroll.once { once.append(point) } else { always.append(point) }
        }
        rerollAlways = always
        rerollOnce = once
        if let rule = rules.explosion {
            explosion = (rule.kind, rule.point ?? ResolvedPoint(op: .equal, value: .integer(highestFace)))
        } else {
            explosion = nil
        }
        uniqueFaces = rules.unique ? PoolPlan.settledFaceCount(faces, rules: rules, rerollAlways: always) : nil
        // Conditions that would never let go of a die are errors, not hangs.
        if !always.isEmpty, !someFace(near: always, where: { face in !always.contains { $0.matches(face) } }) {
            throw DiceError(.rerollMatchesEveryFace, at: range)
        }
        if let explosion, explosion.kind != .once {
            let survives = someFace(near: always, and: explosion.point) { face in
                !always.contains { $0.matches(face) } && !explosion.point.matches(face)
            }
            if !survives { throw DiceError(.explosionMatchesEveryFace, at: range) }
        }
    }

    /// The different faces a die settles on, once for the plan: a roll of `u` dice checks its
    /// count against it (worked out for every roll, it was a third of `10d20u!cs=7kh5`'s
    /// simulation: callgrind, 2026-12-03).
    private static func settledFaceCount(_ faces: DieFaces, rules: PoolRules, rerollAlways: [ResolvedPoint]) -> Int? {
        let listed: [Int]
        switch faces {
        case .list(let list): listed = list
        case .range(let sides):
            guard sides <= 1 << 16 else { return nil }
            listed = Array(1...sides)
        }
        var settled = Set<Int>()
        for face in listed {
            let shown = rules.clamp(face)
            if !rerollAlways.contains(where: { $0.matches(shown) }) { settled.insert(shown) }
        }
        return settled.count
    }

    @inline(__always)
    func clamp(_ face: Int) -> Int { rules.clamp(face) }

    /// Whether some face the die can show (after clamping) satisfies `predicate`.
    /// For `1...S` only the ends and the faces next to `points` need checking.
    func someFace(near points: [ResolvedPoint], and extra: ResolvedPoint? = nil,
                  where predicate: (Int) -> Bool) -> Bool {
        switch faces {
        case .list(let list):
            return list.contains { predicate(rules.clamp($0)) }
        case .range:
            let lowestFace = lowestFace, highestFace = highestFace
            return withoutActuallyEscaping(predicate) { predicate in
                let candidate = { (face: Int) in face >= lowestFace && face <= highestFace && predicate(face) }
                if candidate(lowestFace) || candidate(highestFace) { return true }
                if points.contains(where: { $0.someBoundary(where: candidate) }) { return true }
                return extra?.someBoundary(where: candidate) ?? false
            }
        }
    }
}

/// The plans of a few dice terms with literal arguments (`4d6kh3`, `1d4ro1`), so rolling the
/// same term again (`-n`, a simulation, a macro body) skips working out its modifiers.
///
/// A term is found by identity (`DiceTerm.isIdentical(to:)`), and each entry keeps its
/// term alive, so an entry can never be mistaken for a new term. Eight entries, replaced in turn.
struct PlanCache {
    private struct Entry {
        var term: DiceTerm
        var faces: Int
        var plan: PoolPlan
    }

    private var entries: [Entry] = []
    private var next = 0
    private static let capacity = 8

    /// The plan made for `term` with `faces` faces, if there is one.
    @inline(__always)
    func plan(for term: DiceTerm, faces: Int) -> PoolPlan? {
        for entry in entries where entry.faces == faces && entry.term.isIdentical(to: term) { return entry.plan }
        return nil
    }

    mutating func store(_ plan: PoolPlan, for term: DiceTerm, faces: Int) {
        if entries.count < PlanCache.capacity {
            entries.append(Entry(term: term, faces: faces, plan: plan))
        } else {
            entries[next] = Entry(term: term, faces: faces, plan: plan)
            next = (next + 1) % PlanCache.capacity
        }
    }
}
