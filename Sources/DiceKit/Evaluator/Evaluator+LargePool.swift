extension Evaluator {
    /// A pool with modifiers whose dice outnumber those listed, of few faces, not sorted:
    /// the same dice in the same order as `rollModifiedPool`, the same value and the same
    /// flags on the dice listed, with memory for the listed dice and a count per value only.
    ///
    /// Keep/drop picks dice by value and, among equal values, by position (see
    /// `KeepDropStep.apply(to:)`), so the dice of one value still kept after each step are
    /// a run of consecutive occurrences of it: a listed die is kept when its occurrence
    /// falls in its value's run.
    mutating func rollLargePool(_ term: DiceTerm, count: Int, plan: PoolPlan, base: Int, span: Int,
                                at range: SourceRange) throws(DiceError) -> Roll {
        var sink = ListingFaceCountSink(counts: FaceCountSink(counts: faceCounts, base: base, span: span),
                                        limit: limits.maxRecordedDice)
        faceCounts = []
        defer { faceCounts = sink.counts.counts }
        for index in 0..<count {
            try rollDie(plan, into: &sink, at: range)
            if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
        // Each value, ascending, with the occurrences of it still kept: `lower..<upper`.
        var runs = sink.counts.runs().map { ValueRun(value: $0.value, lower: 0, upper: $0.count) }
        for step in plan.keeps { step.apply(to: &runs) }
        var kept = KeptRunsValue(plan)
        for run in runs where run.upper > run.lower { kept.add(run.value, kept: run.upper - run.lower) }
        let value = try kept.total(at: range)
        // Flags of the dice listed: their occurrence of their value against its run.
        var dice = sink.dice
        var runIndex: [Int: Int] = [:]
        for (index, run) in runs.enumerated() { runIndex[run.value] = index }
        var seen = [Int](repeating: 0, count: runs.count)
        for index in dice.indices where dice[index].isCounted {
            guard let position = runIndex[dice[index].value] else { continue }
            let occurrence = seen[position]
            seen[position] += 1
            let run = runs[position]
            guard occurrence >= run.lower && occurrence < run.upper else {
                dice[index].flags.insert(.dropped)
                continue
            }
            if let counting = plan.counting, counting.matches(dice[index].value) { dice[index].flags.insert(.success) }
            if let failures = plan.failures, failures.matches(dice[index].value) { dice[index].flags.insert(.failure) }
        }
        try hold(dice.count / 8, at: range)
        let pool = DicePool(term: term, dice: dice, omitted: sink.entries - dice.count,
                            lowestFace: plan.lowestFace, highestFace: plan.highestFace,
                            isCount: plan.counting != nil, value: .integer(value))
        return Roll(.pool(pool), value: .integer(value))
    }
}

/// One value of a pool and the occurrences of it (counted in rolled order, from 0) still kept.
struct ValueRun {
    var value: Int
    var lower: Int
    var upper: Int
}

extension KeepDropStep {
    /// Drops what this step drops from `runs` (ascending by value): the same dice as
    /// `apply(to: inout [Die])` would, named by value and occurrence.
    func apply(to runs: inout [ValueRun]) {
        var candidates = 0
        for run in runs { candidates += run.upper - run.lower }
        let n = Swift.min(count, candidates)
        var toDrop = keep ? candidates - n : n
        guard toDrop > 0 else { return }
        // The drop order of `apply(to: inout [Die])`: by value, then later or earlier first.
        let lowValueFirst = keep == (extreme == .highest)
        let laterFirst = keep
        let order: [Int] = lowValueFirst ? Array(runs.indices) : runs.indices.reversed()
        for index in order where toDrop > 0 {
            let dropped = Swift.min(toDrop, runs[index].upper - runs[index].lower)
            if laterFirst { runs[index].upper -= dropped } else { runs[index].lower += dropped }
            toDrop -= dropped
        }
    }
}

/// A `FaceCountSink` that also lists the first `limit` dice as rolled, rerolled ones included.
struct ListingFaceCountSink: DieSink {
    var counts: FaceCountSink
    let limit: Int
    var dice: [Die] = []
    /// Dice rolled in all, rerolled ones included.
    var entries = 0

    init(counts: FaceCountSink, limit: Int) {
        self.counts = counts
        self.limit = limit
        dice.reserveCapacity(Swift.min(limit, 1 << 16))
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if entries < limit { dice.append(Die(value: value, flags: flags)) }
        entries += 1
        counts.append(value, flags)
    }
}
