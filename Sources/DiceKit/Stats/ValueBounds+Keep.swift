/// The least and greatest value of keep/drop over the dice of `!`, `!p` and `xo` chains
/// (`8d6!kh3`), where keep/drop sees every die of a chain, not the chains.
///
/// A pool of `n` chains is a multiset of dice of a few kinds: with `!`, `n` dice that stop
/// and any number of dice that exploded; with `!p`, `n` first dice (`j` of them exploding),
/// `j` extra dice that stop (showing a face less one) and any number of extra dice that
/// exploded (none when `j` is 0); with `xo`, `n` first dice (`j` of them exploding) and `j`
/// extra dice of any face, which never explode (`2d4xo=1dh1` is 2 to 6: it keeps 3 dice only
/// of two 1s and their extra dice). Sorted by what they show, keep/drop keeps the ranks
/// `lo..<hi` of the `N` dice (`KeepDropStep.keptRange`). Every arrangement of such a multiset
/// has kept dice showing values in some `[L, U]`, the dice below showing at most `L` and the
/// dice above at least `U`; conversely every such choice sorts into a pool. Widening `[L, U]`
/// only adds choices, so `L` is the least value of some kind and `U` the greatest of some kind.
/// For each, the kept value is a small transport problem: how many dice of each kind are
/// kept, the rest fitting below and above; filled greedily by what a kept die counts.
///
/// The multiset's size grows without end with the exploding dice; past the sum of the counts
/// of the keep/drop steps the kept ranks move with it in step, and once there are as many
/// exploding dice again, each range of ranks of a fixed size can be filled with them: from
/// there the value goes on changing in the same direction, or not at all, so one more die
/// tells whether an end is unbounded.
enum KeepOverChains {
    /// One kind of die: the values it may show (ascending) and what each counts.
    struct Kind {
        var values: [(shown: Int, counts: BoundNumber)]
        var least: Int { values.first?.shown ?? 0 }
        var greatest: Int { values.last?.shown ?? 0 }
    }

    /// The most faces looked at, over every multiset and count split tried, before giving up
    /// (the answer is then `nil`): a few milliseconds.
    static let maxCases = 2_000_000

    /// The bounds of the pool's value over `counts` chains; `nil` when they cannot be told
    /// within `maxCases`.
    static func bounds(_ pool: PoolModel, counts: ClosedRange<Int>) -> ValueBounds? {
        guard let explosion = pool.rules.explosion, explosion.kind != .compound else { return nil }
        let penetrates = explosion.kind == .penetrate, once = explosion.kind == .once
        var stop = Kind(values: []), go = Kind(values: []), stopExtra = Kind(values: []), goExtra = Kind(values: [])
        var anyExtra = Kind(values: [])
        var failed = false
        func counted(_ value: Int) -> BoundNumber { pool.counted(value, failed: &failed) }
        pool.die.forEachWholeOutcome { face, _ in
            let explodes = pool.explodes(face)
            let first = (face, counted(face))
            if explodes { go.values.append(first) } else { stop.values.append(first) }
            if once { anyExtra.values.append(first) }
            guard penetrates else { return }
            guard face > Int.min else {
                failed = true
                return
            }
            let extra = (face - 1, counted(face - 1))
            if explodes { goExtra.values.append(extra) } else { stopExtra.values.append(extra) }
        }
        // Only `xo` may explode on every face (`1d4xo>=1`): then every first die explodes.
        guard !failed, once || !stop.values.isEmpty else { return nil }
        let steps = pool.rules.keeps
        // Past this many dice, the kept ranks move in step with the size.
        let settled = steps.reduce(0) { Swift.min($0 + Swift.min($1.count, 1 << 30), 1 << 30) }
        // Each case looks at every face of each kind, for each of 16 ends.
        let faces = [stop, go, stopExtra, goExtra, anyExtra].reduce(0) { $0 + $1.values.count }
        var cases = 0
        var result = ValueBounds.empty
        // How many dice each multiset tried keeps.
        var kept = Set<Int>()
        let candidates: [Int] = counts.count <= 4096 ? Array(counts)
            : Array(counts.lowerBound...(counts.lowerBound + 64)) + [counts.upperBound]
        for n in candidates {
            // Splits of the first dice: `j` exploding (with `!`, all exploding dice are alike).
            let fewest = stop.values.isEmpty ? n : 0
            let splits = go.values.isEmpty || n == 0 ? 0...0 : penetrates || once ? fewest...n : n...n
            for j in splits {
                let canGrow = !once && !go.values.isEmpty && (penetrates ? j > 0 : n > 0)
                let fixed = penetrates || once ? n + j : n
                // Past the settled size, enough exploding dice to fill each rank range of a
                // fixed size, and two more.
                let last = canGrow ? Swift.max(0, settled - fixed) + settled + 2 : 0
                cases += (last + 1) * 16 * faces
                guard cases <= maxCases else { return nil }
                var previous: ValueBounds?
                for t in 0...last {
                    let kinds: [(Kind, Int)] = once ? [(stop, n - j), (go, j), (anyExtra, j)]
                        : penetrates ? [(stop, n - j), (go, j), (stopExtra, j), (goExtra, t)]
                        : [(stop, n), (go, t)]
                    guard var part = extremes(kinds, steps: steps, kept: &kept) else { return nil }
                    if t == last, let previous, canGrow {
                        // One die past the settled size: a change goes on without end.
                        if part.low < previous.low { part.low = -.infinity }
                        if part.high > previous.high { part.high = .infinity }
                    }
                    result = result.union(part)
                    previous = part
                }
            }
        }
        guard result.low <= result.high else { return nil }
        // Between finite ends, the dice kept are as many as some multiset tried keeps (were
        // there more, and each counts the same sign, the ends would go on): any of that many
        // values a die counts. `3d6!kh2 * 2d2xo == 7` never holds: 3d6!kh2 is 2 to 12 and
        // 2d2xo at least 2 (it said max 1).
        if result.low.isFinite && result.high.isFinite && kept.count <= 16 {
            let each = [stop, go, stopExtra, goExtra, anyExtra].flatMap { $0.values.map(\.counts) }
            let whole = each.compactMap(\.whole)
            if whole.count == each.count, let die = WholeSet(whole) {
                result.values = kept.reduce(WholeSet([])) { union, k in
                    union.flatMap { sums in die.repeated(k).flatMap { sums.union($0) } }
                }
            }
        }
        return result
    }

    /// The least and greatest kept value of the multisets with `count` dice of each kind,
    /// adding how many dice they keep to `keptCounts`.
    private static func extremes(_ kinds: [(Kind, Int)], steps: [KeepDropStep],
                                 kept keptCounts: inout Set<Int>) -> ValueBounds? {
        let present = kinds.filter { $0.1 > 0 && !$0.0.values.isEmpty }
        let total = present.reduce(0) { $0 + $1.1 }
        let kept = KeepDropStep.keptRange(steps, total: total)
        keptCounts.insert(kept.count)
        let zones = (below: kept.lowerBound, window: kept.count, above: total - kept.upperBound)
        if zones.window == 0 { return .constant(0) }
        var result = ValueBounds.empty
        for low in Set(present.map(\.0.least)) {
            for high in Set(present.map(\.0.greatest)) where low <= high {
                if let most = windowValue(present, zones, low, high, most: true),
                   let least = windowValue(present, zones, low, high, most: false) {
                    result = result.union(ValueBounds(low: least, high: most))
                }
            }
        }
        return result.low <= result.high ? result : nil
    }

    /// The greatest (or least) total of the kept dice when they show values in `low...high`,
    /// those below at most `low` and those above at least `high`; `nil` when no multiset fits.
    private static func windowValue(_ kinds: [(Kind, Int)], _ zones: (below: Int, window: Int, above: Int),
                                    _ low: Int, _ high: Int, most: Bool) -> BoundNumber? {
        // Per kind: what a kept die counts at best, and where the others may go.
        struct Entry {
            var count: Int
            var value: BoundNumber
            var inWindow: Bool
            var below: Bool
            var above: Bool
            var kept = 0
        }
        var entries: [Entry] = kinds.map { kind, count in
            let inside = kind.values.filter { $0.shown >= low && $0.shown <= high }.map(\.counts)
            let best = most ? inside.max() : inside.min()
            return Entry(count: count, value: best ?? 0, inWindow: best != nil,
                         below: kind.least <= low, above: kind.greatest >= high)
        }
        // Dice that fit neither below nor above must be kept; those that fit one side only
        // must be kept beyond what that side holds.
        var needBelow = -zones.below, needAbove = -zones.above
        for index in entries.indices {
            let entry = entries[index]
            if !entry.below && !entry.above {
                guard entry.inWindow else { return nil }
                entries[index].kept = entry.count
            } else if !entry.above {
                needBelow += entry.count
            } else if !entry.below {
                needAbove += entry.count
            }
        }
        let order = entries.indices.sorted { most ? entries[$0].value > entries[$1].value : entries[$0].value < entries[$1].value }
        func fill(_ need: Int, where side: (Entry) -> Bool) -> Bool {
            var need = need
            for index in order where need > 0 && side(entries[index]) && entries[index].inWindow {
                let more = Swift.min(need, entries[index].count - entries[index].kept)
                entries[index].kept += more
                need -= more
            }
            return need <= 0
        }
        guard fill(needBelow, where: { $0.below && !$0.above }),
              fill(needAbove, where: { $0.above && !$0.below }) else { return nil }
        var room = zones.window - entries.reduce(0) { $0 + $1.kept }
        guard room >= 0 else { return nil }
        for index in order where room > 0 && entries[index].inWindow {
            let more = Swift.min(room, entries[index].count - entries[index].kept)
            entries[index].kept += more
            room -= more
        }
        guard room == 0 else { return nil }
        return entries.reduce(0) { $0 + ValueBounds.times(BoundNumber($1.kept), $1.value) }
    }
}

extension ValueBounds.Walker {
    /// The keep/drop steps of a group's literal modifiers when they do nothing else (sorting
    /// aside); `nil` for counting, an argument to work out, or a conflict.
    static func keepsOnly(_ modifiers: [DiceModifier]) -> [KeepDropStep]? {
        guard PoolRules.conflict(in: modifiers, onGroup: true) == nil, let rules = PoolRules.literal(modifiers),
              rules.counting.isSum, rules.clamps.isEmpty, rules.rerolls.isEmpty, rules.explosion == nil else { return nil }
        return rules.keeps
    }
}
