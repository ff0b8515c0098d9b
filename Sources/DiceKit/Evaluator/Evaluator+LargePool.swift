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
        try pool(term, plan: plan, dice: dice[...], omitted: entries - dice.count, value: value, at: range)
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

/// The dice of a pool as `rollPoolEntries` rolls them.
enum PoolEntries {
    /// Every die, in the order rolled.
    case every([Die])
    /// Too many to keep: the pool, finished as `rollLargePool` finishes it.
    case bounded(Roll)
}

/// Every die rolled, up to `threshold` of them; past it, the dice go to a `PoolListing` made
/// then, the dice so far first, so the listing sees every die in order.
///
/// The listing lives in a box: the sink stays small, so the many small pools that never spill
/// pay little for it.
struct SpillingSink<Tally: SpillTally>: DieSink {
    private(set) var entries: [Die] = []
    private var box: ListingBox<Tally>?
    private let threshold: Int
    private let limit: Int
    private let ascending: Bool?
    private let seed: Tally.Seed

    /// A sink for `count` original dice, listing `limit` dice (sorted if `ascending` is set) once
    /// spilled; its dice go into `storage`'s array (taken, left empty), with room for half as
    /// many again as `count` (rerolls and explosions roll more).
    init(count: Int, threshold: Int, limit: Int, ascending: Bool?, seed: Tally.Seed, storage: inout [Die]) {
        self.threshold = threshold
        self.limit = limit
        self.ascending = ascending
        self.seed = seed
        swap(&entries, &storage)
        if !entries.isEmpty { entries.removeAll(keepingCapacity: true) }
        entries.reserveCapacity(Swift.min(count + count / 2 + 4, 1 << 20))
    }

    /// The listing, once the dice spilled into it, taken out of the sink (not copied).
    mutating func takeListing() -> PoolListing<Tally>? {
        guard let box else { return nil }
        let listing = box.listing
        self.box = nil
        return listing
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if let box {
            box.listing.append(value, flags)
            return
        }
        entries.append(Die(value: value, flags: flags))
        if entries.count > threshold { spill() }
    }

    private mutating func spill() {
        var made = PoolListing(tally: Tally(seed), limit: limit, ascending: ascending)
        for die in entries { made.append(die.value, die.flags) }
        entries = []
        box = ListingBox(made)
    }
}

/// A `SpillingSink`'s listing, by reference.
final class ListingBox<Tally: DieSink> {
    @exclusivity(unchecked) var listing: PoolListing<Tally>

    init(_ listing: PoolListing<Tally>) {
        self.listing = listing
    }
}

/// A tally a `SpillingSink` makes when it spills, from what it was given before.
protocol SpillTally: DieSink {
    associatedtype Seed
    init(_ seed: Seed)
}

extension FaceCountSink: SpillTally {
    /// Counts for values from `base`, `span` of them.
    init(_ seed: (base: Int, span: Int)) {
        self.init(counts: [], base: seed.base, span: seed.span)
    }
}

extension RunningTally: SpillTally {
    init(_ seed: KeptRunsValue) {
        self.init(value: seed)
    }
}

/// What a large pool counts as it rolls, besides the dice it lists.
enum LargePoolTally {
    /// A count per value, for values in `base..<base + span` in a buffer (see `FaceCountSink`).
    case byFace(base: Int, span: Int)
    /// The value alone, die by die: for pools without keep/drop.
    case running
    /// One keep/drop step that keeps or drops at most `BoundedHeap.bound` of the dice: those,
    /// with their positions, and the value die by die (see `ExtremeDice`).
    case extremes(KeepDropStep)
    /// One keep/drop step that keeps and drops more: every value, for a selection.
    case allValues(KeepDropStep)
}

/// Every value rolled, in order, and nothing else of the dice.
struct AllValues: DieSink {
    var values: [Int] = []

    init(count: Int) {
        values.reserveCapacity(count)
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        values.append(value)
    }
}

/// The dice one keep/drop step picks out at an end of a pool, when they are few: the first
/// in the step's drop order (the dice it drops) or the last (the dice it keeps), whichever
/// are fewer, each with its position, and the value of every die as rolled. The drop order
/// is `KeepDropStep.apply(to:)`'s: by value, lowest first for `kh` and `dl`, highest first for
/// `kl` and `dh`; among equal values the later die first for `kh` and `kl`, the earlier for
/// `dh` and `dl`. Memory O(dice picked), not O(dice rolled).
struct ExtremeDice: DieSink {
    struct Entry {
        var value: Int
        var position: Int
    }

    /// In `step`'s drop order, the entries that leave a heap of the first ones (the dropped)
    /// or of the last ones (the kept) first.
    struct DropOrder: HeapOrder {
        let lowValueFirst: Bool
        let laterFirst: Bool
        let keepsLast: Bool

        /// Whether `a` comes before `b` in the drop order.
        @inline(__always)
        func before(_ a: Entry, _ b: Entry) -> Bool {
            if a.value != b.value { return lowValueFirst ? a.value < b.value : a.value > b.value }
            return laterFirst ? a.position > b.position : a.position < b.position
        }

        @inline(__always)
        func leaves(_ a: Entry, before b: Entry) -> Bool { keepsLast ? before(a, b) : before(b, a) }
    }

    /// The dice picked: kept ones if `tracksKept`, else dropped ones.
    private(set) var dice: BoundedHeap<DropOrder>
    let tracksKept: Bool
    /// The value of every die so far (kept or not).
    private(set) var running: KeptRunsValue
    private var position = 0

    /// Whether `step` over `count` dice keeps or drops few enough of them to follow this way.
    static func fits(_ step: KeepDropStep, count: Int) -> Bool {
        let dropCount = step.dropCount(of: count)
        return Swift.min(dropCount, count - dropCount) <= BoundedHeap<DropOrder>.bound
    }

    init(_ step: KeepDropStep, count: Int, plan: PoolPlan) {
        let dropCount = step.dropCount(of: count)
        tracksKept = count - dropCount < dropCount
        let order = DropOrder(lowValueFirst: step.dropsLowFirst, laterFirst: step.dropsLaterFirst, keepsLast: tracksKept)
        dice = BoundedHeap(capacity: tracksKept ? count - dropCount : dropCount, order: order)
        running = KeptRunsValue(plan)
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        if !tracksKept { running.add(value, kept: 1) }
        dice.offer(Entry(value: value, position: position))
        position += 1
    }
}

/// A pool's value added up die by die, rerolled dice left out: for pools without keep/drop.
struct RunningTally: DieSink {
    var value: KeptRunsValue

    @inline(__always)
    mutating func append(_ face: Int, _ flags: Die.Flags) {
        if !flags.contains(.rerolled) { value.add(face, kept: 1) }
    }
}

/// The dice a large pool lists, as they come, and a `tally` of every die.
///
/// Unsorted, the first `limit` dice; sorted (`ascending` set), the first `limit` dice of the
/// stable sort by value, rerolled dice included as in the full sort. For the sorted listing
/// the candidates are kept in sorted order up to twice the limit, then cut to the limit; past
/// a cut only a die of a value strictly before the last one kept can enter (a later die of an
/// equal value sorts after every one already listed).
///
/// Sorted, it can also note where each die listed was rolled (`positions`), for tallies that
/// pick dice by position.
struct PoolListing<Tally: DieSink>: DieSink {
    var tally: Tally
    let limit: Int
    let ascending: Bool?
    private var dice: [Die] = []
    /// Sorted with `notesPositions`: the position among the dice rolled of each die in `dice`;
    /// otherwise empty.
    private(set) var positions: [Int] = []
    private let notesPositions: Bool
    /// Dice rolled in all, rerolled ones included.
    private(set) var entries = 0
    /// Sorted, after a cut: the value of the last die listed.
    private var bound: Int?
    /// Sorted: the candidates held before a cut.
    private let capacity: Int

    init(tally: Tally, limit: Int, ascending: Bool?, notesPositions: Bool = false) {
        self.tally = tally
        self.limit = Swift.max(0, limit)
        self.ascending = ascending
        self.notesPositions = notesPositions && ascending != nil
        let (twice, overflow) = self.limit.multipliedReportingOverflow(by: 2)
        capacity = overflow ? Int.max : twice
        dice.reserveCapacity(Swift.min(self.limit, 1 << 16))
    }

    @inline(__always)
    mutating func append(_ value: Int, _ flags: Die.Flags) {
        entries += 1
        tally.append(value, flags)
        guard let ascending else {
            if dice.count < limit { dice.append(Die(value: value, flags: flags)) }
            return
        }
        guard limit > 0 else { return }
        if let bound, ascending ? value >= bound : value <= bound { return }
        dice.append(Die(value: value, flags: flags))
        if notesPositions { positions.append(entries - 1) }
        if dice.count >= capacity { cut() }
    }

    /// Sorts the candidates (stably: the earlier of equal values first) and keeps the first `limit`.
    private mutating func cut() {
        guard let ascending else { return }
        if notesPositions {
            // The candidates and their positions, sorted together (ties by position: stable).
            var order = Array(dice.indices)
            order.sort { a, b in
                let x = dice[a].value, y = dice[b].value
                return x != y ? (ascending ? x < y : x > y) : positions[a] < positions[b]
            }
            if order.count > limit { order.removeSubrange(limit...) }
            dice = order.map { dice[$0] }
            positions = order.map { positions[$0] }
        } else {
            dice.sort { ascending ? $0.value < $1.value : $0.value > $1.value }
            if dice.count > limit { dice.removeSubrange(limit...) }
        }
        if dice.count >= limit { bound = dice.last?.value }
    }

    /// The dice listed, in the order shown.
    mutating func finish() -> [Die] {
        cut()
        return dice
    }
}

/// Counts by position in ascending order of value (a pool's faces, a group's distinct
/// member values), changed in place by keep/drop into the counts still kept.
protocol KeptCounts {
    var positions: Int { get }
    func kept(at position: Int) -> Int
    mutating func setKept(_ kept: Int, at position: Int)
}

/// The members (dice) of each value still kept through keep/drop: those of the value at
/// `position` are its occurrences `lower..<lower + kept` (counted in order among those that
/// count, from 0).
///
/// Each step drops from one end of the value order, whole values first, so besides the kept
/// counts only the few values a step cut into from their first occurrence need a `lower`.
struct KeptRuns<Counts: KeptCounts> {
    private(set) var counts: Counts
    /// The first occurrence kept, by position, where it is not 0.
    private var lowers: [Int: Int] = [:]
    /// Kept in all.
    private var total: Int

    init(_ counts: Counts, total: Int) {
        self.counts = counts
        self.total = total
    }

    /// Drops what `step` drops: the same dice as `KeepDropStep.apply(to: inout [Die])` and
    /// members as `apply(to:value:)`, by value and occurrence.
    mutating func apply(_ step: KeepDropStep) {
        var toDrop = step.dropCount(of: total)
        // The drop order of `apply(to: inout [Die])`: by value, then later or earlier first.
        let lowValueFirst = step.dropsLowFirst
        let laterFirst = step.dropsLaterFirst
        let positions = counts.positions
        var position = lowValueFirst ? 0 : positions - 1
        while toDrop > 0 && position >= 0 && position < positions {
            let kept = counts.kept(at: position)
            if kept > 0 {
                let dropped = Swift.min(toDrop, kept)
                counts.setKept(kept - dropped, at: position)
                // Whole values dropped keep nothing: only a value cut into needs its first kept.
                if !laterFirst && dropped < kept { lowers[position, default: 0] += dropped }
                toDrop -= dropped
                total -= dropped
            }
            position += lowValueFirst ? 1 : -1
        }
    }

    /// The count buffer, for reuse (`FaceRunCounts`).
    mutating func releaseCounts() -> [Int] where Counts == FaceRunCounts {
        counts.releaseCounts()
    }

    /// Whether the occurrence `occurrence` of the value at `position` is still kept.
    @inline(__always)
    func keeps(_ position: Int, occurrence: Int) -> Bool {
        let lower = lowers.isEmpty ? 0 : lowers[position, default: 0]
        return occurrence >= lower && occurrence - lower < counts.kept(at: position)
    }
}

/// A pool's face counts by position: the values below the counted span (compounded totals
/// can be anywhere outside it), the span, the values above it.
struct FaceRunCounts: KeptCounts {
    /// The counts, then the kept counts, of the values in `base..<base + span`.
    private var counts: [Int]
    private let base: Int
    private let span: Int
    /// The other values, ascending, below `base` and above the span.
    private var below: [(value: Int, kept: Int)] = []
    private var above: [(value: Int, kept: Int)] = []

    init(_ sink: FaceCountSink) {
        counts = sink.counts
        base = sink.base
        span = sink.span
        for (value, count) in sink.others.sorted(by: { $0.key < $1.key }) {
            if value < base { below.append((value, count)) } else { above.append((value, count)) }
        }
    }

    /// The count buffer, for reuse.
    mutating func releaseCounts() -> [Int] {
        defer { counts = [] }
        return counts
    }

    var positions: Int { below.count + span + above.count }

    func value(at position: Int) -> Int {
        if position < below.count { return below[position].value }
        let slot = position - below.count
        return slot < span ? base + slot : above[slot - span].value
    }

    func kept(at position: Int) -> Int {
        if position < below.count { return below[position].kept }
        let slot = position - below.count
        return slot < span ? counts[slot] : above[slot - span].kept
    }

    mutating func setKept(_ kept: Int, at position: Int) {
        if position < below.count {
            below[position].kept = kept
            return
        }
        let slot = position - below.count
        if slot < span {
            counts[slot] = kept
        } else {
            above[slot - span].kept = kept
        }
    }

    /// The position of `value`, which was counted.
    func position(of value: Int) -> Int? {
        let slot = value &- base
        if UInt(bitPattern: slot) < UInt(bitPattern: span) { return below.count + slot }
        let others = value < base ? below : above
        var low = 0
        var high = others.count
        while low < high {
            let middle = (low + high) / 2
            if others[middle].value < value { low = middle + 1 } else { high = middle }
        }
        guard low < others.count, others[low].value == value else { return nil }
        return value < base ? low : below.count + span + low
    }
}
