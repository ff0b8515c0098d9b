extension Evaluator {
    /// The value of dice term `term` with `count` dice and `sides` (the value of its sides
    /// expression, if it has one): the dice `rollPool` would roll, in the same order,
    /// keeping only the values that count. Pools that only keep or drop sum a window of
    /// ranks found by selection; others go through `rollDie`.
    mutating func poolValue(_ term: DiceTerm, count: Int, sides: Number?, at range: SourceRange) throws(DiceError) -> Int {
        let faces = try dieFaces(term, sides: sides, at: range)
        if let rules = term.literalRules, rules.keepsOnly, case .range(let sides) = faces {
            try spend(count, at: range)
            if rules.keeps.isEmpty { return try sum(count: count, sides: sides, at: range) }
            return try keptSum(count: count, sides: sides, ranks: KeepDropStep.keptRange(rules.keeps, total: count),
                               at: range)
        }
        var arguments = ResolvedArguments()
        let plan = try plan(for: term, faces: faces, arguments: &arguments, at: range)
        try spend(count, at: range)
        return try modifiedPoolValue(count: count, plan: plan, at: range)
    }

    /// The value of a term whose count, sides and keep/drop are literals (`4d6kh3`, `1d20`),
    /// with its offset (`+ 2`) added and its comparison (`>= 15`) made.
    @inline(__always)
    mutating func value(of pool: PoolStep) throws(DiceError) -> Int {
        var total = try sum(of: pool)
        if pool.offset != 0 || pool.subtractsOffset {
            let (result, overflow) = pool.subtractsOffset ? total.subtractingReportingOverflow(pool.offset)
                                                          : total.addingReportingOverflow(pool.offset)
            guard !overflow else { throw DiceError(.overflow, at: pool.offsetRange) }
            total = result
        }
        if let comparison = pool.comparison { return comparison.holds(total, pool.comparedWith) ? 1 : 0 }
        return total
    }

    /// The sum of the dice `pool` keeps. A handful of dice whose sum cannot overflow are
    /// summed as they are rolled, less the lowest or highest when that one is dropped.
    @inline(__always)
    private mutating func sum(of pool: PoolStep) throws(DiceError) -> Int {
        let count = pool.count, sides = pool.sides
        try spend(count, at: pool.range)
        if count <= 8 && pool.cannotOverflow && pool.shape != .window {
            // The generator in a local, so that its state stays in registers.
            var generator = source
            defer { source = generator }
            var total = 0
            switch pool.shape {
            case .all:
                for _ in 0..<count { total &+= generator.roll(sides: sides) }
            case .dropLowest:
                var lowest = Int.max
                for _ in 0..<count {
                    let face = generator.roll(sides: sides)
                    total &+= face
                    lowest = Swift.min(lowest, face)
                }
                total &-= lowest
            case .dropHighest:
                var highest = Int.min
                for _ in 0..<count {
                    let face = generator.roll(sides: sides)
                    total &+= face
                    highest = Swift.max(highest, face)
                }
                total &-= highest
            case .window:
                break
            }
            return total
        }
        if pool.shape == .all { return try sum(count: count, sides: sides, at: pool.range) }
        return try keptSum(count: count, sides: sides, ranks: pool.kept, at: pool.range)
    }

    /// The sum of the dice of ascending ranks `ranks` among `count` dice of `sides`, the dice
    /// already counted against the limit: keep/drop on values alone. A handful of dice are
    /// sorted on the machine stack; many dice of few sides are counted by face (memory
    /// O(*sides*), not O(*count*)); others are kept and two selections find the window.
    @inline(never)
    mutating func keptSum(count: Int, sides: Int, ranks: Range<Int>, at range: SourceRange) throws(DiceError) -> Int {
        if count <= 8 {
            let (total, overflow) = withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { values -> (Int, Bool) in
                for index in 0..<count { values[index] = source.roll(sides: sides) }
                Selection.insertionSort(values, 0..<count)
                // Faces are positive: the sum overflows in any order or in none.
                var total = 0
                var overflow = false
                var index = Swift.max(ranks.lowerBound, 0)
                while index < Swift.min(ranks.upperBound, count) {
                    let (next, wrapped) = total.addingReportingOverflow(values[index])
                    total = next
                    overflow = overflow || wrapped
                    index += 1
                }
                return (total, overflow)
            }
            guard !overflow else { throw DiceError(.overflow, at: range) }
            return total
        }
        if sides <= count / 4 {
            return try keptSumByFace(count: count, sides: sides, ranks: ranks, at: range)
        }
        let low = ranks.lowerBound, high = ranks.upperBound
        if count > ExtremeValues.bound, let total = try keptSumByExtremes(count: count, sides: sides, low: low,
                                                                          high: high, at: range) {
            return total
        }
        if scratch.count < count { scratch = [Int](repeating: 0, count: Swift.max(count, 2 * scratch.count)) }
        var generator = source  // in a local while the loop runs (see `sum(count:sides:at:)`)
        defer { source = generator }
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(DiceError) in
            let values = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            for index in 0..<count {
                values[index] = generator.roll(sides: sides)
                if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
            }
            Selection.partition(values, around: low, in: 0..<count)
            Selection.partition(values, around: high, in: low..<count)
        }
        var total = 0
        let cannotOverflow = !count.multipliedReportingOverflow(by: sides).overflow
        for index in low..<high {
            if cannotOverflow {
                total &+= scratch[index]
            } else {
                let (next, overflow) = total.addingReportingOverflow(scratch[index])
                guard !overflow else { throw DiceError(.overflow, at: range) }
                total = next
            }
        }
        return total
    }

    /// `keptSum` keeping only the dice at the ends of the order: when few are dropped (`dl3`
    /// of millions), the total less the lowest and highest dropped; when few are kept at one
    /// end (`kh1`), those. The same dice in the same order, the same sum (faces are positive,
    /// so it overflows whatever the order or not at all); memory O(dice at the ends), not
    /// O(*count*). `nil`, rolling nothing, when neither end is small (`kh5000000` of ten
    /// million: the window needs every die).
    private mutating func keptSumByExtremes(count: Int, sides: Int, low: Int, high: Int,
                                            at range: SourceRange) throws(DiceError) -> Int? {
        let droppedAbove = count - high
        let keptFew = high - low <= ExtremeValues.bound && (low == 0 || droppedAbove == 0)
        guard low + droppedAbove <= ExtremeValues.bound || keptFew else { return nil }
        // Either the dropped ends (subtracted from the total), or the kept end itself.
        var lowest = ExtremeValues(capacity: keptFew ? (low == 0 ? high : 0) : low, keepsLowest: true)
        var highest = ExtremeValues(capacity: keptFew ? (low == 0 ? 0 : high - low) : droppedAbove, keepsLowest: false)
        var sum = WideSum()
        var generator = source  // in a local while the loop runs (see `sum(count:sides:at:)`)
        defer { source = generator }
        for index in 0..<count {
            let face = generator.roll(sides: sides)
            if !keptFew { sum.add(face, times: 1) }
            lowest.offer(face)
            highest.offer(face)
            if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
        let sign = keptFew ? 1 : -1
        for value in lowest.values { sum.add(value, times: sign) }
        for value in highest.values { sum.add(value, times: sign) }
        guard let total = sum.total else { throw DiceError(.overflow, at: range) }
        return total
    }

    /// `keptSum` by a count of each face: the same dice rolled in the same order, the same
    /// sum (faces are positive, so the sum overflows whatever the order or not at all).
    private mutating func keptSumByFace(count: Int, sides: Int, ranks: Range<Int>,
                                        at range: SourceRange) throws(DiceError) -> Int {
        if faceCounts.count < sides + 1 { faceCounts = [Int](repeating: 0, count: sides + 1) }
        var generator = source  // in a local while the loop runs (see `sum(count:sides:at:)`)
        defer { source = generator }
        try faceCounts.withUnsafeMutableBufferPointer { (counts) throws(DiceError) in
            for face in 0...sides { counts[face] = 0 }
            let limit = UInt(bitPattern: sides)
            for index in 0..<count {
                let face = generator.roll(sides: sides)
                // A source outside `1...sides` is clamped, as the full path clamps it.
                let slot = UInt(bitPattern: face &- 1) < limit ? face : Swift.min(Swift.max(face, 1), sides)
                counts[slot] &+= 1
                if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
            }
        }
        var sum = WideSum()
        var rank = 0
        for face in 1...sides where rank < ranks.upperBound {
            let next = rank + faceCounts[face]
            let taken = Swift.min(next, ranks.upperBound) - Swift.max(rank, ranks.lowerBound)
            if taken > 0 { sum.add(face, times: taken) }
            rank = next
        }
        guard let total = sum.total else { throw DiceError(.overflow, at: range) }
        return total
    }

    /// The value of `count` dice rolled by `plan`, keeping only the values that count;
    /// keep/drop selects the window of ranks it keeps.
    private mutating func modifiedPoolValue(count: Int, plan: PoolPlan, at range: SourceRange) throws(DiceError) -> Int {
        // Penetration shows a face less one: the values lie in `lowestFace - 1 ... highestFace`
        // but for compounded totals.
        let (span, overflow) = plan.highestFace.subtractingReportingOverflow(plan.lowestFace)
        if count > 8, !overflow, span < count / 4 {
            return try modifiedPoolValueByFace(count: count, plan: plan, base: plan.lowestFace - 1,
                                               span: span + 2, at: range)
        }
        // The buffer leaves `self` while dice go in, and comes back for the next roll.
        var sink = ValueSink(values: scratch)
        scratch = []
        defer { scratch = sink.values }
        sink.values.removeAll(keepingCapacity: true)
        try rollDice(count, plan, into: &sink, at: range)
        var low = 0
        var high = sink.values.count
        if !plan.keeps.isEmpty {
            // The window of ascending ranks kept depends on the counts alone; then only the
            // values in it are needed, in any order: two selections, not a sort.
            for step in plan.keeps { (low, high) = step.window(low, high) }
            sink.values.withUnsafeMutableBufferPointer { values in
                Selection.partition(values, around: low, in: 0..<values.count)
                Selection.partition(values, around: high, in: low..<values.count)
            }
        }
        var total = 0
        if let counting = plan.counting {
            for index in low..<high where counting.matches(sink.values[index]) { total += 1 }
        } else {
            var sum = CheckedSum()
            for index in low..<high { sum.add(sink.values[index]) }
            guard let whole = sum.total else { throw DiceError(.overflow, at: range) }
            total = whole
        }
        if let failures = plan.failures {
            var failed = 0
            for index in low..<high where failures.matches(sink.values[index]) { failed += 1 }
            let (less, overflow) = total.subtractingReportingOverflow(failed)
            guard !overflow else { throw DiceError(.overflow, at: range) }
            total = less
        }
        return total
    }

    /// `modifiedPoolValue` for many dice of few faces: the same dice in the same order,
    /// counted by value (memory O(*span*) and the distinct compounded totals).
    private mutating func modifiedPoolValueByFace(count: Int, plan: PoolPlan, base: Int, span: Int,
                                                  at range: SourceRange) throws(DiceError) -> Int {
        // The counts leave `self` while dice go in, and come back for the next roll.
        var sink = FaceCountSink(counts: faceCounts, base: base, span: span)
        faceCounts = []
        defer { faceCounts = sink.counts }
        for index in 0..<count {
            try rollDie(plan, into: &sink, at: range)
            if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
        var low = 0
        var high = sink.total
        for step in plan.keeps { (low, high) = step.window(low, high) }
        var kept = KeptRunsValue(plan)
        var rank = 0
        for run in sink.runs() where rank < high {
            let next = rank + run.count
            let taken = Swift.min(next, high) - Swift.max(rank, low)
            rank = next
            if taken > 0 { kept.add(run.value, kept: taken) }
        }
        return try kept.total(at: range)
    }

    /// The sum of `count` dice of `sides`, recording nothing.
    @inline(never)
    mutating func sum(count: Int, sides: Int, at range: SourceRange) throws(DiceError) -> Int {
        var total = 0
        var rolled = 0
        // The generator's state in a local while the loop runs: kept in `self`, each roll
        // stored it and loaded it back, a chain through memory.
        var generator = source
        defer { source = generator }
        let cannotOverflow = !count.multipliedReportingOverflow(by: sides).overflow
        while rolled < count {
            let chunkEnd = Swift.min(count, rolled + 65_536)
            if cannotOverflow {
                while rolled < chunkEnd {
                    total &+= generator.roll(sides: sides)
                    rolled += 1
                }
            } else {
                while rolled < chunkEnd {
                    let (next, overflow) = total.addingReportingOverflow(Swift.min(Swift.max(generator.roll(sides: sides), 1), sides))
                    guard !overflow else { throw DiceError(.overflow, at: range) }
                    total = next
                    rolled += 1
                }
            }
            if rolled < count, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
        return total
    }
}

