/// Keep/drop over independent items that each put one or more values into the pool:
/// a group member puts one, an exploding die its whole chain (the die and its extra dice).
///
/// Values are ranked from the end the kept positions are counted from (rank 0 is the
/// highest value when counting from the top). The state after some items is the sorted
/// list of the `length` best-ranked values seen so far, packed into one integer:
///
/// - `window(skip:width:)` keeps positions `skip ..< width` from that end (`kh3` is
///   `window(0, 3)` from the top): the list decides the kept sum.
/// - `drop(count:)` keeps all but the first `count` (`dl1` from the bottom): the state
///   also carries the distribution of the total over all values, and the kept sum is that
///   total less the list's values.
struct MultisetKeep {
    enum Form: Hashable {
        case window(skip: Int, width: Int)
        case drop(count: Int)

        /// How many values the state remembers.
        var length: Int {
            switch self {
            case .window(_, let width): return width
            case .drop(let count): return count
            }
        }
    }

    let form: Form
    /// What each rank adds to the kept sum.
    let contributions: [Number]
    private let base: Int

    /// Fails with `.tooExpensive` when the lists cannot be packed into an integer.
    init(form: Form, contributions: [Number]) throws(StatsFailure) {
        self.form = form
        self.contributions = contributions
        base = contributions.count + 1
        var capacity = 1
        for _ in 0..<form.length {
            let (next, overflow) = capacity.multipliedReportingOverflow(by: base)
            guard !overflow, next < (1 << 62) else {
                throw .tooExpensive("too many ways to keep \(form.length) of \(contributions.count) values")
            }
            capacity = next
        }
    }

    // MARK: - Packed lists

    func decode(_ key: Int) -> [Int] {
        var ranks: [Int] = []
        var rest = key
        while rest > 0 {
            ranks.append(rest % base - 1)
            rest /= base
        }
        return ranks
    }

    func encode<C: Collection>(_ ranks: C) -> Int where C.Element == Int {
        var key = 0, scale = 1
        for rank in ranks {
            key += (rank + 1) * scale
            scale *= base
        }
        return key
    }

    /// The best `length` ranks of both lists, merged digit by digit without unpacking.
    func merge(_ a: Int, _ b: Int) -> Int {
        if b == 0 { return a }
        if a == 0 { return b }
        var x = a, y = b, key = 0, scale = 1, placed = 0
        while placed < form.length {
            let dx = x % base, dy = y % base
            if dx == 0 && dy == 0 { break }
            if dy == 0 || (dx != 0 && dx <= dy) {
                key += dx * scale
                x /= base
            } else {
                key += dy * scale
                y /= base
            }
            scale *= base
            placed += 1
        }
        return key
    }

    /// The list with `rank` added.
    func inserting(_ rank: Int, into key: Int) -> Int {
        guard form.length > 0 else { return 0 }
        var ranks = decode(key)
        let position = ranks.firstIndex(where: { $0 > rank }) ?? ranks.count
        guard position < form.length else { return key }
        ranks.insert(rank, at: position)
        if ranks.count > form.length { ranks.removeLast() }
        return encode(ranks)
    }

    /// The sum of the contributions of `ranks`.
    func sum<C: Collection>(_ ranks: C) throws(ArithmeticFault) -> Number where C.Element == Int {
        var total = Number.integer(0)
        for rank in ranks { total = try total.adding(contributions[rank]) }
        return total
    }

    // MARK: - Window

    /// The kept sum over `items`, each given as its lists with probabilities, taken `copies`
    /// times; arithmetic faults are reported at `range`.
    ///
    /// - Complexity: O(*items* · *states* · *outcomes* · *length*).
    func windowSum(_ items: [(outcomes: [Int: Double], copies: Int)], meter: inout WorkMeter,
                   at range: SourceRange) throws(StatsFailure) -> Distribution {
        var states: [Int: Double] = [0: 1]
        for item in items {
            for _ in 0..<item.copies {
                try meter.charge(WorkMeter.product(WorkMeter.product(states.count, item.outcomes.count),
                                                   form.length + 1))
                var next: [Int: Double] = [:]
                for (state, p) in states {
                    for (outcome, q) in item.outcomes { next[merge(state, outcome), default: 0] += p * q }
                }
                states = next
                if states.count > meter.budget.maxOutcomes {
                    throw .tooExpensive("too many ways to keep \(form.length) values")
                }
            }
        }
        guard case .window(let skip, let width) = form else { throw .invariant("a window sum without a window") }
        var result = DistributionAccumulator()
        for (state, p) in states {
            let ranks = decode(state)
            let kept = ranks.count > skip ? ranks[skip..<Swift.min(width, ranks.count)] : []
            result.add(try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in try sum(kept) }, p)
        }
        return try meter.checkSize(result.build())
    }

    // MARK: - Drop

    /// The work charged for each (state, item outcome) pair of `dropSum` besides adding totals:
    /// a pair allocates a distribution, hashes a state and merges into an accumulator.
    static let pairCost = 160
    /// The work charged per outcome of a pair's totals (trimming, copying, merging) on top
    /// of the convolution: measured with `DiceBench budget`, several times a multiply-add.
    static let perOutcomeCost = 6

    /// The work of combining `totals` with `item` in `dropSum`.
    static func dropPairWork(_ totals: Distribution, _ item: Distribution) -> Int {
        let linear = WorkMeter.product(totals.storageSize + item.storageSize, perOutcomeCost)
        return WorkMeter.pairWork(totals, item) + linear + pairCost
    }

    /// The distributions of `accumulators`, each within `maxOutcomes`; throws when together
    /// they would hold more than a few times that (each within the bound is not enough).
    static func build(_ accumulators: [Int: DistributionAccumulator],
                      meter: inout WorkMeter) throws(StatsFailure) -> [Int: Distribution] {
        var built: [Int: Distribution] = [:]
        var held = 0
        for (key, accumulator) in accumulators {
            let distribution = try meter.checkSize(accumulator.build())
            held += distribution.storageSize
            if held > WorkMeter.product(meter.budget.maxOutcomes, 4) {
                throw .tooExpensive("the kept sums would hold more than \(meter.budget.maxOutcomes * 4) outcomes")
            }
            built[key] = distribution
        }
        return built
    }

    /// The kept sum over `items`, each given as its lists with the distribution of its total;
    /// arithmetic faults are reported at `range`.
    ///
    /// - Complexity: O(*items* · *states* · *outcomes* · *W*²) for totals of width *W*.
    func dropSum(_ items: [(outcomes: [Int: Distribution], copies: Int)], meter: inout WorkMeter,
                 at range: SourceRange) throws(StatsFailure) -> Distribution {
        var states: [Int: Distribution] = [0: Distribution(constant: .integer(0))]
        for item in items {
            for _ in 0..<item.copies {
                var next: [Int: DistributionAccumulator] = [:]
                for (state, totals) in states {
                    for (outcome, itemTotals) in item.outcomes {
                        try meter.charge(MultisetKeep.dropPairWork(totals, itemTotals))
                        let key = merge(state, outcome)
                        try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try next[key, default: DistributionAccumulator()].add(totals.adding(itemTotals))
                        }
                    }
                }
                states = try MultisetKeep.build(next, meter: &meter)
            }
        }
        var result = DistributionAccumulator()
        for (state, totals) in states {
            let ranks = decode(state)
            try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try result.add(totals, shiftedBy: try Number.integer(0).subtracting(sum(ranks)))
            }
        }
        return try meter.checkSize(result.build())
    }
}
