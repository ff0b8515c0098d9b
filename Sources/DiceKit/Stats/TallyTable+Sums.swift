/// Sums of independent tally distributions on packed keys (`TallyTable`).
extension TallyTable {
    /// The constant tally `()` with probability `probability`: what the number 0 is to a sum of tallies.
    static func empty(probability: Double) -> TallyTable? {
        guard var table = TallyTable(names: [], lows: [], spans: []) else { return nil }
        if probability != 0 { table.append(0, probability) }
        return table
    }

    /// How a sum of `self` and `other` is laid out: its table (no outcomes yet), where each
    /// outcome of either side lands in it, and how the pairs are added up.
    struct SumPlan {
        var table: TallyTable
        var left: [Int]
        var right: [Int]
        var method: Method
        /// The work of the sum (`WorkMeter` steps) for `pairs` pairs.
        var work: Int
    }

    enum Method: Equatable {
        /// Each field varies on one side only, those of `self` first: the pairs land in
        /// increasing order without meeting, so they are the outcomes as they come.
        case inOrder
        /// The outcomes of `other` land within `width` keys of each other: the sums are
        /// made in a ring of that many slots that slides along the outcomes of `self`.
        case window(width: Int)
        /// In a flat array over the whole range, `size` slots.
        case dense(size: Int)
        /// In a dictionary of keys, then sorted.
        case hashed
    }

    /// The layout of `self + other` (or `self - other`): the fields of `self`, then those of
    /// `other` it lacks, as `Tally.combined` orders them. Nil when a range leaves `Int`.
    ///
    /// - Complexity: O((*n* + *m*)·*f*)
    func sumPlan(_ other: TallyTable, subtracting: Bool) -> SumPlan? {
        var names = self.names
        for name in other.names where !names.contains(name) { names.append(name) }
        // Where each field is on each side, -1 where it is absent (0 there).
        let mine = names.map { self.names.firstIndex(of: $0) ?? -1 }
        let theirs = names.map { other.names.firstIndex(of: $0) ?? -1 }
        var sumLows: [Int] = [], sumSpans: [Int] = []
        for index in names.indices {
            let (aLow, aSpan) = mine[index] >= 0 ? (lows[mine[index]], spans[mine[index]]) : (0, 1)
            let (bLow, bSpan) = theirs[index] >= 0 ? (other.lows[theirs[index]], other.spans[theirs[index]]) : (0, 1)
            // b's range is bLow ... bLow + bSpan - 1; subtracting, the low is aLow - (b's high).
            let (bHigh, o1) = bLow.addingReportingOverflow(bSpan - 1)
            let (low, o2) = subtracting ? aLow.subtractingReportingOverflow(bHigh) : aLow.addingReportingOverflow(bLow)
            let (span, o3) = aSpan.addingReportingOverflow(bSpan - 1)
            let (_, o4) = low.addingReportingOverflow(span - 1)
            guard !o1, !o2, !o3, !o4 else { return nil }
            sumLows.append(low)
            sumSpans.append(span)
        }
        guard let table = TallyTable(names: names, lows: sumLows, spans: sumSpans) else { return nil }
        // Each side's digit of a field moves the sum's digit by as much (subtracting, b's
        // digit d stands for bSpan - 1 - d).
        var leftCoefficients = [Int](repeating: 0, count: self.names.count)
        var rightCoefficients = [Int](repeating: 0, count: other.names.count)
        var rightBase = 0
        var lastLeft = -1, firstRight = names.count
        for index in names.indices {
            if mine[index] >= 0 {
                let at = mine[index]
                leftCoefficients[at] = table.strides[index]
                if spans[at] > 1 { lastLeft = index }
            }
            if theirs[index] >= 0 {
                let at = theirs[index]
                if subtracting {
                    rightCoefficients[at] = -table.strides[index]
                    rightBase += (other.spans[at] - 1) * table.strides[index]
                } else {
                    rightCoefficients[at] = table.strides[index]
                }
                if other.spans[at] > 1 { firstRight = Swift.min(firstRight, index) }
            }
        }
        let varyingBoth = names.indices.contains { index in
            mine[index] >= 0 && theirs[index] >= 0 && spans[mine[index]] > 1 && other.spans[theirs[index]] > 1
        }
        // `other`'s varying fields in its own order must keep that order in the sum's, and
        // increase with it (subtracting, they decrease).
        let rightPlaces = other.names.indices.filter { other.spans[$0] > 1 }.compactMap { names.firstIndex(of: other.names[$0]) }
        let rightInOrder = zip(rightPlaces, rightPlaces.dropFirst()).allSatisfy { $0 < $1 }
        let inOrder = !varyingBoth && rightInOrder && lastLeft < firstRight && (!subtracting || rightPlaces.isEmpty)
        let right = other.linearMap(base: rightBase, coefficients: rightCoefficients)
        let pairs = WorkMeter.product(count, other.count)
        let size = table.spans.reduce(1, WorkMeter.product)
        let width = (right.max() ?? 0) - (right.min() ?? 0) + 1
        let method: Method, slots: Int
        if inOrder {
            (method, slots) = (.inOrder, 0)
        } else if width <= TallyTable.maxWindow {
            // The ring is read once along the range of `self`, at most `width` slots an outcome.
            (method, slots) = (.window(width: width), Swift.min(size, WorkMeter.product(count, width)))
        } else if TallyTable.spreadsDensely(size, outcomes: pairs) {
            (method, slots) = (.dense(size: size), size)
        } else {
            (method, slots) = (.hashed, 0)
        }
        let pairCost = method == .hashed ? WorkMeter.hashedTallyPairCost : WorkMeter.packedTallyPairCost
        let (work, overflow) = WorkMeter.product(pairs, pairCost).addingReportingOverflow(slots)
        return SumPlan(table: table, left: linearMap(base: 0, coefficients: leftCoefficients), right: right,
                       method: method, work: overflow ? .max : work)
    }

    /// The most slots a sum spreads its outcomes over densely: a wider range goes through a
    /// dictionary of keys.
    static let maxDenseSlots = 1 << 22

    /// Whether `outcomes` pairs or keys are spread over `size` slots (a flat array) rather than
    /// hashed: while the slots are at most `maxDenseSlots`, and few beside the outcomes.
    static func spreadsDensely(_ size: Int, outcomes: Int) -> Bool {
        size <= Swift.min(maxDenseSlots, Swift.max(1 << 12, WorkMeter.product(4, outcomes)))
    }

    /// The widest ring a sum slides (512 KB).
    static let maxWindow = 1 << 16

    /// The distribution of `a + b` (or `a - b`) for independent `a` (self) and `b`, as `plan`
    /// lays it out.
    ///
    /// Each sum is added up over the outcomes of `self` in order, then those of `other`, as
    /// `StatsEngine.combineValues` adds them, so every probability is the same `Double`.
    ///
    /// Nil, and stopped early, when it would have more than `limit` outcomes.
    ///
    /// - Complexity: O(*n*·*m*), plus the slots read (`SumPlan.work`).
    func sum(_ other: TallyTable, plan: SumPlan, limit: Int = .max) -> TallyTable? {
        var result = plan.table
        let pairs = WorkMeter.product(keys.count, other.keys.count)
        switch plan.method {
        case .inOrder:
            // Every pair its own outcome, in increasing order: no sums, no sorting.
            result.reserve(Swift.min(pairs, limit))
            for (left, p) in zip(plan.left, probabilities) {
                guard result.count <= limit else { return nil }
                for (right, q) in zip(plan.right, other.probabilities) {
                    let pq = p * q
                    if pq != 0 { result.append(left + right, pq) }
                }
            }
        case .window(let width):
            guard slide(other, plan: plan, width: width, limit: limit, into: &result) else { return nil }
        case .dense(let size):
            var slots = [Double](repeating: 0, count: size)
            slots.withUnsafeMutableBufferPointer { slots in
                for (left, p) in zip(plan.left, probabilities) {
                    for (right, q) in zip(plan.right, other.probabilities) { slots[left + right] += p * q }
                }
            }
            result.append(slots: slots)
        case .hashed:
            var sums: [Int: Double] = [:]
            for (left, p) in zip(plan.left, probabilities) {
                guard sums.count <= limit else { return nil }
                for (right, q) in zip(plan.right, other.probabilities) {
                    let pq = p * q
                    if pq != 0 { sums[left + right, default: 0] += pq }
                }
            }
            result.append(sums: sums)
        }
        return result.count <= limit ? result : nil
    }

    /// The sums in a ring of slots: the keys of `self` increase, and each one's sums lie in
    /// `first ..< first + width` from its least, so the keys below the next one's least are done
    /// and are read off in order. It keeps Genesys's joint tally (a 1.2-million-slot range)
    /// out of a flat array of 9.6 MB, whose fresh pages the kernel maps and clears: `stats
    /// check(0, 5, 0, 5, 2, 2)` with `-t` from about 10.8 ms to 8.7 ms of CPU (release, best
    /// of 15 on a loaded machine, 2026-12-02).
    private func slide(_ other: TallyTable, plan: SumPlan, width: Int, limit: Int,
                       into result: inout TallyTable) -> Bool {
        guard let least = plan.right.min() else { return true }
        var size = 1
        while size < width { size <<= 1 }
        let mask = size - 1
        var ring = [Double](repeating: 0, count: size)
        var done = Int.min  // every key below it has been read off
        var within = 0      // and the keys that may be set lie below `done + within`
        var fits = true
        ring.withUnsafeMutableBufferPointer { ring in
            func readOff(below end: Int) {
                var key = done
                while key < end {
                    let p = ring[key & mask]
                    if p != 0 {
                        result.append(key, p)
                        ring[key & mask] = 0
                    }
                    key += 1
                }
            }
            for (left, p) in zip(plan.left, probabilities) {
                let start = left + least
                if done != .min { readOff(below: Swift.min(start, done + within)) }
                guard result.count <= limit else {
                    fits = false
                    return
                }
                done = start
                within = width
                for (right, q) in zip(plan.right, other.probabilities) { ring[(left + right) & mask] += p * q }
            }
            if done != .min { readOff(below: done + within) }
        }
        return fits
    }
}
