extension Evaluator {
    /// The value alone, without building a breakdown: the fast path of `--total`
    /// and of simulations. Rolls exactly the dice `evaluate(_:)` would, in the same order.
    public mutating func value(of expr: Expr) throws(DiceError) -> Number {
        guard depth < Evaluator.maxDepth else { throw DiceError(.evaluationTooDeep, at: expr.range) }
        depth += 1
        defer { depth -= 1 }
        switch expr.kind {
        case .number(let number):
            return number
        case .name(let name):
            if let frame = frames.last, let value = frame[name] { return value }
            if case .variable(let value) = environment[name] { return value }
            return try evaluate(expr).value
        case .unary(let op, let operand):
            let value = try self.value(of: operand)
            guard op == .negate else { return value }
            return try arithmetic(expr.range) { () throws(ArithmeticFault) in try value.negated() }
        case .chain(let first, let rest):
            var value = try self.value(of: first)
            for operation in rest {
                let operand = try self.value(of: operation.operand)
                value = try apply(operation.op, value, operand, at: operation.operatorRange)
            }
            return value
        case .power(let base, let exponent):
            let b = try value(of: base)
            let e = try value(of: exponent)
            return try arithmetic(expr.range) { () throws(ArithmeticFault) in try b.power(e) }
        case .comparison(let op, let lhs, let rhs):
            let l = try value(of: lhs)
            let r = try value(of: rhs)
            return .integer(op.holds(l, r) ? 1 : 0)
        case .function(let function, let arguments):
            var values: [Number] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try value(of: argument)) }
            return try arithmetic(expr.range) { () throws(ArithmeticFault) in try Functions.apply(function, values) }
        case .annotated(let inner, _):
            return try value(of: inner)
        case .dice(let term):
            return try poolValue(term, at: expr.range)
        case .call, .group, .repeat:
            return try evaluate(expr).value
        }
    }

    /// A pool's value. Plain pools and pools with only keep/drop of literal counts
    /// are summed without recording dice; anything else goes through `modifiedPoolValue`.
    private mutating func poolValue(_ term: DiceTerm, at range: SourceRange) throws(DiceError) -> Number {
        guard case .number(let sidesExpr) = term.sides, let keeps = term.literalKeeps else {
            return try modifiedPoolValue(term, at: range)
        }
        var count = 1
        if let countExpr = term.count {
            let value = try value(of: countExpr)
            guard case .integer(let whole) = value, whole >= 0 else { throw DiceError(.invalidCount(value), at: countExpr.range) }
            count = whole
        }
        let sidesValue = try value(of: sidesExpr)
        guard case .integer(let sides) = sidesValue, sides >= 1 else {
            throw DiceError(.invalidSides(sidesValue), at: sidesExpr.range)
        }
        try spend(count, at: range)
        if keeps.isEmpty {
            return .integer(try sum(count: count, sides: sides, at: range))
        }
        let ranks = KeepDropStep.keptRanks(keeps, count: count)
        return .integer(try keptSum(count: count, sides: sides, ranks: ranks, at: range))
    }

    /// The sum of the dice of ascending ranks `ranks` among `count` dice of `sides`, the dice
    /// already counted against the limit: keep/drop on values alone, by two selections.
    mutating func keptSum(count: Int, sides: Int, ranks: Range<Int>, at range: SourceRange) throws(DiceError) -> Int {
        let low = ranks.lowerBound, high = ranks.upperBound
        if scratch.count < count { scratch = [Int](repeating: 0, count: Swift.max(count, 2 * scratch.count)) }
        try scratch.withUnsafeMutableBufferPointer { (buffer) throws(DiceError) in
            let values = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            for index in 0..<count {
                values[index] = source.roll(sides: sides)
                if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
            }
            if count <= 8 {
                // A handful of dice: sorting them is quicker than two selections.
                Selection.insertionSort(values, 0..<count)
            } else {
                Selection.partition(values, around: low, in: 0..<count)
                Selection.partition(values, around: high, in: low..<count)
            }
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

    /// Any pool's value: the dice `rollPool` would roll, in the same order, keeping only
    /// the values that count; keep/drop selects the window of ranks it keeps.
    private mutating func modifiedPoolValue(_ term: DiceTerm, at range: SourceRange) throws(DiceError) -> Number {
        var count = 1
        if let countExpr = term.count {
            let value = try value(of: countExpr)
            guard case .integer(let whole) = value, whole >= 0 else { throw DiceError(.invalidCount(value), at: countExpr.range) }
            count = whole
        }
        var sides: Number?
        if case .number(let sidesExpr) = term.sides { sides = try value(of: sidesExpr) }
        let faces = try dieFaces(term, sides: sides, at: range)
        let plan = try plan(for: term, faces: faces, at: range)
        try spend(count, at: range)
        // The buffer leaves `self` while dice go in, and comes back for the next roll.
        var sink = ValueSink(values: scratch)
        scratch = []
        defer { scratch = sink.values }
        sink.values.removeAll(keepingCapacity: true)
        for index in 0..<count {
            try rollDie(plan, into: &sink, at: range)
            if index & 0xFFFF == 0xFFFF, let shouldStop, shouldStop() { throw DiceError(.interrupted, at: range) }
        }
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
        return .integer(total)
    }

    /// The sum of `count` dice of `sides`, recording nothing.
    mutating func sum(count: Int, sides: Int, at range: SourceRange) throws(DiceError) -> Int {
        var total = 0
        var rolled = 0
        let cannotOverflow = !count.multipliedReportingOverflow(by: sides).overflow
        while rolled < count {
            let chunkEnd = Swift.min(count, rolled + 65_536)
            if cannotOverflow {
                while rolled < chunkEnd {
                    total &+= source.roll(sides: sides)
                    rolled += 1
                }
            } else {
                while rolled < chunkEnd {
                    let (next, overflow) = total.addingReportingOverflow(Swift.min(Swift.max(source.roll(sides: sides), 1), sides))
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
