/// What a pool's exact work will cost, estimated before it starts, and sums of many copies.
extension PoolModel {
    /// The work of `chainKeep`'s chain phase, as it charges it, estimated before it starts:
    /// at level ℓ the open lists are multisets of min(ℓ, length) of the `goValues` values
    /// exploding dice show (at most that many), each tried with every one of `faces`; a drop
    /// form's totals widen by `spread` a level.
    static func chainPhaseEstimate(goValues: Int, faces: Int, depth: Int, form: MultisetKeep.Form,
                                   spread: Double) -> Int {
        var total = 0.0
        for level in 0...Swift.max(0, depth) {
            let size = Swift.min(level, form.length)
            var open = 1.0
            for i in stride(from: 1, through: size, by: 1) { open = open * Double(goValues + i - 1) / Double(i) }
            let perPair: Double
            switch form {
            case .window:
                perPair = Double(form.length + 1 + MultisetKeep.pairCost)
            case .drop:
                perPair = Double(MultisetKeep.pairCost)
                    + Double(MultisetKeep.perOutcomeCost + 1) * (Double(level) * spread + 1)
            }
            total += open * Double(faces) * perPair
            if total > 9e18 { return Int.max }
        }
        return Int(total)
    }

    /// The work of `MultisetKeep`'s sums over `count` chains of `items` outcomes each (totals
    /// `width` wide for a drop form), estimated before they start: after `c` chains the states
    /// are at most the lists of `length` of the `lists` values, or `items^c`.
    static func sumPhaseEstimate(items: Int, width: Int, count: Int, lists: Int, form: MultisetKeep.Form) -> Int {
        var allLists = 1.0
        for i in stride(from: 1, through: form.length, by: 1) { allLists = allLists * Double(lists + i) / Double(i) }
        var total = 0.0, states = 1.0
        for copy in 0..<count {
            switch form {
            case .window:
                total += states * Double(items) * Double(form.length + 1)
            case .drop:
                // The totals so far are about `copy` items wide.
                total += states * Double(items) * (Double(width) * Double(copy * width + 1) + Double(MultisetKeep.pairCost))
            }
            states = Swift.min(allLists, states * Double(items))
            if total > 9e18 { return Int.max }
        }
        return Int(total)
    }

    /// The sum of `count` independent copies of `single`, from `sum`, that of `copies` of
    /// them (`0 <= copies <= count`; no copies: the constant 0), one copy added at a time.
    ///
    /// - Complexity: O((*count*² − *copies*²) · *n*²) for *n* outcomes of `single`; throws at
    ///   once when that passes the budget.
    /// Past a few million steps, whole numbers in a flat array are summed by squaring instead
    /// (`LargeSum`): O(log *count*) products, the far tails cut below the budget's `sumTailCutoff`.
    static func repeatedSum(of single: Distribution, count: Int, from sum: Distribution, copies: Int,
                            meter: inout WorkMeter, at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard count > copies else { return sum }
        if LargeSum.prefersSquaring(single, count: count, copies: copies), let unit = LargeSum.Flat(single) {
            let base = copies == 0 ? nil : LargeSum.Flat(sum)
            if copies == 0 || base != nil {
                let total = try LargeSum.sum(of: unit, count: count - copies, adding: base,
                                             tailCutoff: meter.budget.sumTailCutoff, meter: &meter, at: range)
                return try meter.checkSize(total.distribution)
            }
        }
        // Adding copy k costs about k × size² steps, for k from `copies` to `count - 1`.
        // From none or one copy (`sum` is then `single`): all of them on the lattice.
        if copies <= 1, let lattice = LargeSum.Lattice(single, maxSlots: meter.budget.maxOutcomes),
           LargeSum.prefersSquaring(lattice.flat.distribution, count: count, copies: 0) {
            return try meter.checkSize(lattice.sum(count: count, tailCutoff: meter.budget.sumTailCutoff,
                                                   meter: &meter, at: range))
        }
        let size = Double(single.storageSize)
        let pairs = Double(count) * Double(count - 1) - Double(copies) * Double(Swift.max(copies - 1, 0))
        let estimate = pairs * size * size / 2
        try meter.ensureAffordable(estimate < 9e18 ? Int(estimate) : Int.max)
        var result = sum
        for _ in copies..<Swift.max(copies, count) {
            let last = result
            try meter.charge(WorkMeter.pairWork(last, single))
            result = try meter.checkSize(StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                try last.adding(single)
            })
        }
        return result
    }
}
