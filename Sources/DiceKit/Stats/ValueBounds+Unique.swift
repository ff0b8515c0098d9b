/// The least and greatest value of a pool of unique dice (`3d6u!`, LANGUAGE.md §5b): its
/// first dice settle (clamps, rerolls) on different faces, then each explodes on its own,
/// its extra dice free to show any face. A pool of `n` dice of `m` faces, `n` at most `m`.
///
/// - Without explosions, keep/drop keeps the ranks `lo..<hi` of the `n` faces sorted: the
///   kept faces are any `hi - lo` faces with at least `lo` faces below them and `n - hi`
///   above, so any of the die's faces sorted but the `lo` lowest and the `n - hi` highest.
///   The least value keeps those of them that count least, the greatest those that count
///   most (`3d6ukh1`: 3 to 6; `4d6ucs=3kl2`: 0 to 1).
/// - Exploding without keep/drop, the dice add up, and a die's ends depend on its first face
///   alone (`PoolModel.firstFaceBounds`): the least is the sum of the `n` least of the
///   faces' least ends (`3d6u!`: 1 + 2 + 3), the greatest alike (`2d6uxo`: 6 + 6 and 5).
/// - Keep/drop over exploding dice (the dice of chains, `xo`'s extra dice, `!!`'s sums):
///   when what a die counts only rises (or only falls) with what it shows, the kept dice
///   count most when each die shows the most it can, since sorted values only rise with
///   one of them. So for each split of the first dice into faces that explode and faces that
///   stop, and each number of extra dice, the pool showing the highest faces of each kind
///   and the pool showing the lowest give the ends (`3d6u!kh2`: 2 and 3 kept of 1, 2, 3).
///   The extra dice that explode may grow without end: past the size where the kept ranks
///   move in step with the size (as in `KeepOverChains`), the value changes alike with each
///   more die, so one more tells whether an end is unbounded. Counting that goes both ways
///   with the value shown (`3d6u!cs=3kh2`) takes every pool of those kinds instead
///   (`keptExtremes`); with `!!` (`3d6u!!cs=3kh2`) it is not worked out (`nil`).
enum UniqueBounds {
    /// One die of a pool: the value keep/drop sorts it by, and what it counts when kept.
    typealias Die = (shown: BoundNumber, counts: BoundNumber)

    /// The most dice sorted, over every pool tried, before giving up (the answer is then `nil`).
    static let maxCases = 2_000_000

    /// The bounds of the pool's value over `counts` unique dice; `nil` when they cannot be told.
    static func bounds(_ pool: PoolModel, counts: ClosedRange<Int>) -> ValueBounds? {
        var faces: [Int] = []
        pool.die.forEachWholeOutcome { face, _ in faces.append(face) }
        faces.sort()
        // More dice than faces fail as rolls.
        let most = Swift.min(counts.upperBound, faces.count)
        guard counts.lowerBound <= most, most - counts.lowerBound < 4096 else { return nil }
        let sizes = counts.lowerBound...most
        let rules = pool.rules
        guard let explosion = rules.explosion, pool.someFaceExplodes else {
            return plain(faces, rules, sizes)
        }
        guard !rules.keeps.isEmpty else { return summed(pool, sizes) }
        if explosion.kind == .compound { return compoundKept(pool, faces, sizes) }
        return chainsKept(pool, faces, sizes)
    }

    /// What a die showing `shown` counts; an unbounded sum counts past every literal point.
    private static func counted(_ shown: BoundNumber, _ counting: PoolRules.Counting) -> BoundNumber? {
        if shown.isNaN { return nil }
        if !shown.isFinite {
            // `df` alone takes at most one from an unbounded sum.
            if counting.successes == nil { return shown }
            return (try? counting.contribution(of: .integer(shown > 0 ? Int.max : Int.min))).map(BoundNumber.init)
        }
        guard let whole = shown.whole else { return nil }
        return (try? counting.contribution(of: .integer(whole))).map(BoundNumber.init)
    }

    /// Without explosions: the faces that may be kept, those that count least and most.
    private static func plain(_ faces: [Int], _ rules: PoolRules, _ sizes: ClosedRange<Int>) -> ValueBounds? {
        var values: [BoundNumber] = []
        for face in faces {
            guard let value = counted(BoundNumber(face), rules.counting) else { return nil }
            values.append(value)
        }
        var result = ValueBounds.empty
        var cases = 0
        for n in sizes {
            let kept = KeepDropStep.keptRange(rules.keeps, total: n)
            let above = n - kept.upperBound
            cases += faces.count
            guard cases <= maxCases else { return nil }
            let candidates = values[kept.lowerBound..<(faces.count - above)].sorted()
            result = result.union(ValueBounds(low: candidates.prefix(kept.count).reduce(0, +),
                                              high: candidates.suffix(kept.count).reduce(0, +)))
        }
        return result.low <= result.high ? result : nil
    }

    /// Exploding without keep/drop: the `n` faces whose dice add least, and most.
    private static func summed(_ pool: PoolModel, _ sizes: ClosedRange<Int>) -> ValueBounds? {
        guard let each = pool.firstFaceBounds else { return nil }
        let lows = each.map(\.low).sorted(), highs = each.map(\.high).sorted(by: >)
        var result = ValueBounds.empty
        for n in sizes {
            result = result.union(ValueBounds(low: lows.prefix(n).reduce(0, +), high: highs.prefix(n).reduce(0, +)))
        }
        guard !result.low.isNaN, !result.high.isNaN, result.low <= result.high else { return nil }
        return result
    }

    /// `!!` with keep/drop, which sorts the dice by their sums: the `n` dice of the least
    /// sums, each at its least, and of the greatest, each at its greatest.
    private static func compoundKept(_ pool: PoolModel, _ faces: [Int], _ sizes: ClosedRange<Int>) -> ValueBounds? {
        let rules = pool.rules
        let extras = pool.chain { BoundNumber($0) }
        var lows: [Die] = [], highs: [Die] = [], shown: [Die] = []
        for face in faces {
            let first = BoundNumber(face)
            let sums = pool.explodes(face) ? ValueBounds(low: first + extras.low, high: first + extras.high)
                : .constant(first)
            guard let least = counted(sums.low, rules.counting), let most = counted(sums.high, rules.counting) else {
                return nil
            }
            lows.append((sums.low, least))
            highs.append((sums.high, most))
            guard !rules.counting.isSum else { continue }
            // Every sum the die may show, for whether counting goes one way.
            var totals: Set<Int> = [face]
            if pool.explodes(face) {
                guard let reached = pool.compoundSums(first: face) else { return nil }
                totals = reached
            }
            for total in totals {
                guard let value = counted(BoundNumber(total), rules.counting) else { return nil }
                shown.append((BoundNumber(total), value))
            }
            shown += [(sums.low, least), (sums.high, most)]
        }
        guard rules.counting.isSum || isMonotone(shown) else { return nil }
        lows.sort { $0.shown < $1.shown }
        highs.sort { $0.shown > $1.shown }
        var result = ValueBounds.empty
        for n in sizes {
            for pool in [Array(lows.prefix(n)), Array(highs.prefix(n))] {
                result = result.union(.constant(keptValue(pool, rules.keeps)))
            }
        }
        guard !result.low.isNaN, !result.high.isNaN, result.low <= result.high else { return nil }
        return result
    }

    /// `!`, `!p` and `xo` with keep/drop over every die of the chains: for each count of first
    /// faces that explode and of extra dice that explode, the pools of the highest and of the
    /// lowest faces of each kind.
    private static func chainsKept(_ pool: PoolModel, _ faces: [Int], _ sizes: ClosedRange<Int>) -> ValueBounds? {
        guard let kind = pool.rules.explosion?.kind else { return nil }
        let counting = pool.rules.counting, steps = pool.rules.keeps
        func dice(_ values: [Int]) -> [Die]? {
            var result: [Die] = []
            for value in values {
                guard let counts = counted(BoundNumber(value), counting) else { return nil }
                result.append((BoundNumber(value), counts))
            }
            return result
        }
        // The first faces that stop and that explode, and the extra dice that end a chain
        // and that go on (`xo`: any face, ending it), ascending.
        let shift = kind == .penetrate ? 1 : 0
        guard shift == 0 || faces.first.map({ $0 > Int.min }) ?? false,
              let stops = dice(faces.filter { !pool.explodes($0) }), let goes = dice(faces.filter(pool.explodes)),
              let extraStops = dice(kind == .once ? faces : faces.filter { !pool.explodes($0) }.map { $0 - shift }),
              let extraGoes = dice(kind == .once ? [] : faces.filter(pool.explodes).map { $0 - shift }),
              let lowestStop = extraStops.first, let highestStop = extraStops.last else { return nil }
        let monotone = isMonotone(stops + goes + extraStops + extraGoes)
        // Past this many dice, the kept ranks move in step with the size.
        let settled = steps.reduce(0) { Swift.min($0 + Swift.min($1.count, 1 << 30), 1 << 30) }
        var cases = 0
        var result = ValueBounds.empty
        for n in sizes {
            for exploding in 0...Swift.min(n, goes.count) where n - exploding <= stops.count {
                // Each first face that explodes adds a die that ends its chain.
                let high = Array(stops.suffix(n - exploding) + goes.suffix(exploding))
                    + Array(repeating: highestStop, count: exploding)
                let low = Array(stops.prefix(n - exploding) + goes.prefix(exploding))
                    + Array(repeating: lowestStop, count: exploding)
                let canGrow = exploding > 0 && !extraGoes.isEmpty
                let last = canGrow ? Swift.max(0, settled - high.count) + settled + 2 : 0
                var previous: (high: BoundNumber, low: BoundNumber)?
                for extra in 0...last {
                    let highValue: BoundNumber, lowValue: BoundNumber
                    if monotone {
                        cases += 2 * (high.count + extra)
                        guard cases <= maxCases else { return nil }
                        highValue = keptValue(high + Array(repeating: extraGoes.last ?? highestStop, count: extra), steps)
                        lowValue = keptValue(low + Array(repeating: extraGoes.first ?? lowestStop, count: extra), steps)
                    } else {
                        let kinds = [(stops, n - exploding, true), (goes, exploding, true),
                                     (extraStops, exploding, false), (extraGoes, extra, false)]
                        guard let ends = keptExtremes(kinds, steps, cases: &cases) else { return nil }
                        (highValue, lowValue) = (ends.high, ends.low)
                    }
                    var part = ValueBounds(low: Swift.min(highValue, lowValue), high: Swift.max(highValue, lowValue))
                    if extra == last, canGrow, let previous {
                        // One die past the settled size: a change goes on without end.
                        for (now, before) in [(highValue, previous.high), (lowValue, previous.low)] {
                            if now < before { part.low = -.infinity }
                            if now > before { part.high = .infinity }
                        }
                    }
                    result = result.union(part)
                    previous = (highValue, lowValue)
                }
            }
        }
        guard !result.low.isNaN, !result.high.isNaN, result.low <= result.high else { return nil }
        return result
    }

    /// What the dice keep/drop keeps count.
    private static func keptValue(_ dice: [Die], _ steps: [KeepDropStep]) -> BoundNumber {
        let sorted = dice.sorted { $0.shown < $1.shown }
        return sorted[KeepDropStep.keptRange(steps, total: sorted.count)].reduce(0) { $0 + $1.counts }
    }

    /// The least and greatest kept value of the pools of `count` dice of each kind, each die
    /// showing any of its kind's values (`distinct`: each value at most once); `nil` past
    /// `maxCases`. A walk up the values shown places the dice one at a time, a state being
    /// how many of each kind are placed, which gives the rank of the next die (dice showing
    /// one value count alike, whatever their order among them).
    private static func keptExtremes(_ kinds: [(values: [Die], count: Int, distinct: Bool)], _ steps: [KeepDropStep],
                                     cases: inout Int) -> ValueBounds? {
        var strides: [Int] = [], states = 1
        for kind in kinds {
            strides.append(states)
            let (next, overflow) = states.multipliedReportingOverflow(by: kind.count + 1)
            guard !overflow, next <= maxCases else { return nil }
            states = next
        }
        let shown = Set(kinds.flatMap { $0.values.map(\.shown) }).sorted()
        let work = WorkMeter.product(WorkMeter.product(shown.count, kinds.count), states)
        guard work <= maxCases - cases else { return nil }
        cases += work
        func placed(_ state: Int, _ kind: Int) -> Int { state / strides[kind] % (kinds[kind].count + 1) }
        let ranks = (0..<states).map { state in kinds.indices.reduce(0) { $0 + placed(state, $1) } }
        let kept = KeepDropStep.keptRange(steps, total: kinds.reduce(0) { $0 + $1.count })
        var least = [BoundNumber](repeating: .infinity, count: states)
        var most = [BoundNumber](repeating: -.infinity, count: states)
        var reached = [Bool](repeating: false, count: states)
        (least[0], most[0], reached[0]) = (0, 0, true)
        for value in shown {
            for (index, kind) in kinds.enumerated() {
                guard let die = kind.values.first(where: { $0.shown == value }) else { continue }
                // A value shown once per kind of different faces: downwards, each state takes one.
                let order = kind.distinct ? Array((0..<states).reversed()) : Array(0..<states)
                for state in order where reached[state] && placed(state, index) < kind.count {
                    let next = state + strides[index]
                    let adds = kept.contains(ranks[state]) ? die.counts : 0
                    least[next] = Swift.min(least[next], least[state] + adds)
                    most[next] = Swift.max(most[next], most[state] + adds)
                    reached[next] = true
                }
            }
        }
        guard reached[states - 1] else { return nil }
        return ValueBounds(low: least[states - 1], high: most[states - 1])
    }

    /// Whether what the dice count only rises, or only falls, with what they show.
    private static func isMonotone(_ dice: [Die]) -> Bool {
        let sorted = dice.sorted { $0.shown < $1.shown }
        let pairs = zip(sorted, sorted.dropFirst())
        return pairs.allSatisfy { $0.counts <= $1.counts } || pairs.allSatisfy { $0.counts >= $1.counts }
    }
}
