extension Evaluator {
    /// How a pool of more dice than are listed is tallied without keeping every die, or `nil`
    /// when it must keep them (keep/drop over faces too many to count, or the reference path
    /// of `Limits.keepsEveryValue`).
    func largePoolTally(_ plan: PoolPlan, count: Int) -> LargePoolTally? {
        guard !limits.keepsEveryValue else { return nil }
        let (span, overflow) = plan.highestFace.subtractingReportingOverflow(plan.lowestFace)
        // A count per face when the faces are few against the dice: cheaper than a sum per die.
        if !overflow && span < count / 4 && plan.lowestFace > Int.min {
            return .byFace(base: plan.lowestFace - 1, span: span + 2)
        }
        // Without keep/drop a die's flags follow from its value alone: a running value will do.
        if plan.keeps.isEmpty { return .running }
        // One keep/drop step: the few dice it keeps or drops, by position, or else every value.
        if plan.keeps.count == 1, !plan.hasRerolls, plan.explosion == nil {
            return ExtremeDice.fits(plan.keeps[0], count: count) ? .extremes(plan.keeps[0]) : .allValues(plan.keeps[0])
        }
        return nil
    }

    /// A pool with modifiers whose dice outnumber those listed: the same dice in the same
    /// order as `rollModifiedPool`, the same value and the same dice listed, with the same
    /// flags, with memory for the listed dice and a count per value at most.
    ///
    /// Unsorted, the dice listed are the first ones rolled; sorted, the lowest (or highest)
    /// ones, earlier before later among equal values (the sort is stable), kept as they come
    /// by `PoolListing`. Keep/drop picks dice by value and, among equal values, by position
    /// (see `KeepDropStep.apply(to:)`), so the dice of one value still kept after each step
    /// are a run of consecutive occurrences of it: a listed die is kept when its occurrence
    /// falls in its value's run. Either way the dice listed of one value are its first
    /// occurrences, so counting them in the listing gives their occurrences.
    ///
    /// - Complexity: O(*n*) time for *n* dice rolled; memory O(*k* + *s*) for *k* dice
    ///   listed and *s* faces counted.
    mutating func rollLargePool(_ term: DiceTerm, count: Int, plan: PoolPlan, tally: LargePoolTally,
                                at range: SourceRange) throws(DiceError) -> Roll {
        switch tally {
        case .byFace(let base, let span):
            var listing = PoolListing(tally: FaceCountSink(counts: faceCounts, base: base, span: span),
                                      limit: recordLimit, ascending: plan.rules.sortAscending)
            faceCounts = []
            do {
                try rollDice(count, plan, into: &listing, at: range)
            } catch {
                faceCounts = listing.tally.counts
                throw error
            }
            return try finishLargePool(term, plan: plan, listing: &listing, at: range)
        case .running:
            var listing = PoolListing(tally: RunningTally(value: KeptRunsValue(plan)), limit: recordLimit,
                                      ascending: plan.rules.sortAscending)
            try rollDice(count, plan, into: &listing, at: range)
            return try finishLargePool(term, plan: plan, listing: &listing, at: range)
        case .extremes(let step):
            // Sorted, the dice listed are not the first rolled: the listing notes their positions.
            var listing = PoolListing(tally: ExtremeDice(step, count: count, plan: plan), limit: recordLimit,
                                      ascending: plan.rules.sortAscending, notesPositions: true)
            try rollDice(count, plan, into: &listing, at: range)
            return try finishLargePool(term, plan: plan, listing: &listing, at: range)
        case .allValues(let step):
            var listing = PoolListing(tally: AllValues(count: count), limit: recordLimit,
                                      ascending: plan.rules.sortAscending)
            try rollDice(count, plan, into: &listing, at: range)
            return try finishLargePool(term, plan: plan, step: step, listing: &listing, at: range)
        }
    }

    /// The dice of a pool with modifiers, every one (`.every`, for `rollModifiedPool` to
    /// finish), or, when rerolls or explosions make more of them than a bound, the pool
    /// finished as `rollLargePool` finishes it (`.bounded`): the same dice rolled, the same
    /// result either way. The dice are rolled into `scratch` (taken, left empty), so a
    /// session's pools reuse one array instead of allocating and growing one each.
    mutating func rollPoolEntries(_ term: DiceTerm, count: Int, plan: PoolPlan, reusing scratch: inout [Die],
                                  at range: SourceRange) throws(DiceError) -> PoolEntries {
        let threshold = Swift.max(limits.maxRecordedDice, limits.poolEntriesKept)
        // Faces counted only while they are fewer than the dice kept before spilling.
        let (faces, overflow) = threshold.multipliedReportingOverflow(by: 4)
        if plan.hasRerolls || plan.explosion != nil, let tally = largePoolTally(plan, count: overflow ? Int.max : faces) {
            let limit = recordLimit
            let ascending = plan.rules.sortAscending
            switch tally {
            case .byFace(let base, let span):
                var sink = SpillingSink<FaceCountSink>(count: count, threshold: threshold, limit: limit,
                                                       ascending: ascending, seed: (base, span), storage: &scratch)
                try rollDice(count, plan, into: &sink, at: range)
                guard var listing = sink.takeListing() else { return .every(sink.entries) }
                return .bounded(try finishLargePool(term, plan: plan, listing: &listing, at: range))
            case .running:
                var sink = SpillingSink<RunningTally>(count: count, threshold: threshold, limit: limit,
                                                      ascending: ascending, seed: KeptRunsValue(plan), storage: &scratch)
                try rollDice(count, plan, into: &sink, at: range)
                guard var listing = sink.takeListing() else { return .every(sink.entries) }
                return .bounded(try finishLargePool(term, plan: plan, listing: &listing, at: range))
            case .extremes, .allValues:
                break  // never: only pools without rerolls and explosions are tallied so
            }
        }
        // Every die kept (keep/drop over faces too many to count): room for them at once,
        // not twice that by doubling (`count` is within the dice limit, already spent).
        var entries: [Die] = []
        entries.reserveCapacity(count)
        try rollDice(count, plan, into: &entries, at: range)
        return .every(entries)
    }

    /// The pool of the dice in `listing`, counted by face: keep/drop over the face counts.
    private mutating func finishLargePool(_ term: DiceTerm, plan: PoolPlan, listing: inout PoolListing<FaceCountSink>,
                                          at range: SourceRange) throws(DiceError) -> Roll {
        // Take the counts out of the listing, so they are changed in place, not copied.
        var counts = FaceCountSink(counts: [], base: 0, span: 0)
        swap(&counts, &listing.tally)
        let total = counts.total
        var runs = KeptRuns(FaceRunCounts(consume counts), total: total)
        for step in plan.keeps { runs.apply(step) }
        var kept = KeptRunsValue(plan)
        for position in 0..<runs.counts.positions {
            let count = runs.counts.kept(at: position)
            if count > 0 { kept.add(runs.counts.value(at: position), kept: count) }
        }
        var dice = listing.finish()
        Self.markListed(&dice, plan) { _, value, occurrence in
            guard let position = runs.counts.position(of: value) else { return false }
            return runs.keeps(position, occurrence: occurrence)
        }
        // Kept for the next pool unless large: a session keeps no scratch of a huge statement.
        let released = runs.releaseCounts()
        faceCounts = released.count <= 1 << 16 ? released : []
        return try largePool(term, plan: plan, dice: dice, entries: listing.entries, value: kept.total(at: range),
                             at: range)
    }

    /// The pool of the dice in `listing`, without keep/drop: its value added up as rolled.
    private mutating func finishLargePool(_ term: DiceTerm, plan: PoolPlan, listing: inout PoolListing<RunningTally>,
                                          at range: SourceRange) throws(DiceError) -> Roll {
        var dice = listing.finish()
        Self.markListed(&dice, plan) { _, _, _ in true }
        return try largePool(term, plan: plan, dice: dice, entries: listing.entries,
                             value: listing.tally.value.total(at: range), at: range)
    }

    /// The pool of the dice in `listing` with one keep/drop step: the few dice it keeps or
    /// drops were followed by position (`ExtremeDice`), and the listing noted the position of
    /// each die it lists (unsorted, its index).
    private mutating func finishLargePool(_ term: DiceTerm, plan: PoolPlan, listing: inout PoolListing<ExtremeDice>,
                                          at range: SourceRange) throws(DiceError) -> Roll {
        let extremes = listing.tally
        var value = extremes.running
        // Kept few: their value; dropped few: the value of all less theirs.
        for die in extremes.dice.elements { value.add(die.value, kept: extremes.tracksKept ? 1 : -1) }
        var dice = listing.finish()
        let positions = listing.positions
        // Unsorted, only the first positions are listed.
        let picked = Set(extremes.dice.elements.lazy.map(\.position).filter { !positions.isEmpty || $0 < dice.count })
        Self.markListed(&dice, plan) { index, _, _ in
            picked.contains(positions.isEmpty ? index : positions[index]) == extremes.tracksKept
        }
        return try largePool(term, plan: plan, dice: dice, entries: listing.entries, value: value.total(at: range),
                             at: range)
    }

    /// The pool of the dice in `listing` with one keep/drop step keeping and dropping many:
    /// the value the last die dropped shows, selected among every value (8 bytes a die, not a
    /// `Die`'s 16, and no sort), then, as `KeepDropStep.apply(to:)` drops them, every die
    /// before it in value order and, of those showing it, as many as are left to drop, the
    /// later or the earlier first. The dice listed of a value are its first
    /// occurrences, sorted or not.
    private mutating func finishLargePool(_ term: DiceTerm, plan: PoolPlan, step: KeepDropStep,
                                          listing: inout PoolListing<AllValues>,
                                          at range: SourceRange) throws(DiceError) -> Roll {
        var values: [Int] = []
        swap(&values, &listing.tally.values)
        let candidates = values.count
        let dropCount = step.dropCount(of: candidates)
        let lowValueFirst = step.dropsLowFirst
        let boundary = dropCount > 0 && dropCount < candidates ? step.dropBoundary(&values, dropCount: dropCount) : 0
        func dropsWhole(_ value: Int) -> Bool {
            dropCount == candidates || dropCount > 0 && (lowValueFirst ? value < boundary : value > boundary)
        }
        var kept = KeptRunsValue(plan)
        var before = 0
        var atBoundary = 0
        for value in values {
            if dropsWhole(value) {
                before += 1
            } else if dropCount > 0 && value == boundary {
                atBoundary += 1
            } else {
                kept.add(value, kept: 1)
            }
        }
        values = []
        let left = dropCount - before
        kept.add(boundary, kept: atBoundary - left)
        var dice = listing.finish()
        Self.markListed(&dice, plan) { _, value, occurrence in
            if dropsWhole(value) { return false }
            guard dropCount > 0 && value == boundary else { return true }
            return step.dropsLaterFirst ? occurrence < atBoundary - left : occurrence >= left
        }
        return try largePool(term, plan: plan, dice: dice, entries: listing.entries, value: kept.total(at: range),
                             at: range)
    }

    private mutating func largePool(_ term: DiceTerm, plan: PoolPlan, dice: [Die], entries: Int, value: Int,
                                    at range: SourceRange) throws(DiceError) -> Roll {
        try pool(term, plan: plan, dice: dice[...], omitted: entries - dice.count, value: .integer(value), at: range)
    }


    /// Flags the listed dice as `rollModifiedPool` does: dropped unless `isKept(index, value,
    /// occurrence)` (the occurrence counted from 0 among the dice of that value that count),
    /// successes and failures among the kept.
    private static func markListed(_ dice: inout [Die], _ plan: PoolPlan, isKept: (Int, Int, Int) -> Bool) {
        var seen: [Int: Int] = [:]
        for index in dice.indices where dice[index].isCounted {
            let value = dice[index].value
            let occurrence = seen[value, default: 0]
            seen[value] = occurrence + 1
            guard isKept(index, value, occurrence) else {
                dice[index].flags.insert(.dropped)
                continue
            }
            if let counting = plan.counting, counting.matches(value) {
                dice[index].flags.insert(plan.rules.counting.countsFailures ? .failure : .success)
            }
            if let failures = plan.failures, failures.matches(value) { dice[index].flags.insert(.failure) }
        }
    }
}
