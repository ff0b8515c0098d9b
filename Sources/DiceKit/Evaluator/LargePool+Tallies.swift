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
