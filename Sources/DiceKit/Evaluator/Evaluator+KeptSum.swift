/// The value alone of a few dice only kept or dropped: the fast path of the value walk
/// (`smallPoolValue`), which rolls the same dice as `rollPool`.
extension Evaluator {
    /// `keptSum`, then the part its pool holds (`holdPool`, after the sum), so the value
    /// fails as the breakdown does.
    @inline(__always)
    mutating func keptValue(count: Int, sides: Int, ranks: Range<Int>, whole: Bool,
                            at range: SourceRange) throws(DiceError) -> Int {
        let sum = try keptSum(count: count, sides: sides, ranks: ranks, whole: whole, at: range)
        try holdPool(ofDice: count, at: range)
        return sum
    }

    /// The value alone of at most 8 dice of `1...sides` that are only kept or dropped (`4d6kh3`):
    /// the same dice in the same order, summed as they come, less the lowest or highest when
    /// that one alone is dropped and no sum can overflow, else sorted on the machine stack and
    /// the window of ranks kept summed (faces are positive, so the sum overflows in any order or
    /// in none). This path is for bench A1 (`dice -t -n 1000000 -e 4d6kh3+2`, whose floor is 4×
    /// rolldice): the general one marks each die in an array; callgrind, the whole `-t` loop,
    /// 1,513 → 837 instructions a roll (with the semantics read by one reference).
    ///
    /// A sum that overflows fails where the breakdown fails: after every die of a pool with
    /// modifiers (`whole`), at the die that overflows in a plain one.
    ///
    /// The sorted case is a function of its own: its buffer on the stack gave the common case a
    /// frame with a stack guard and spilled registers (bench A1: 665 -> 637 instructions a roll).
    mutating func keptSum(count: Int, sides: Int, ranks: Range<Int>, whole: Bool,
                          at range: SourceRange) throws(DiceError) -> Int {
        guard ranks.count >= count - 1, !count.multipliedReportingOverflow(by: sides).overflow else {
            return try sortedKeptSum(count: count, sides: sides, ranks: ranks, whole: whole, at: range)
        }
        var generator = source
        defer { source = generator }
        var total = 0
        var lowest = Int.max
        var highest = Int.min
        for _ in 0..<count {
            // Clamped only when outside `1...sides` (never, from a source that keeps `DieSource`'s
            // promise): `min(max(face, 1), sides)` compiled to a branch on a face of 1, wrong
            // one die in six (bench A1: a fifth of this function's time).
            var face = generator.roll(sides: sides)
            if UInt(bitPattern: face &- 1) >= UInt(bitPattern: sides) { face = Swift.min(Swift.max(face, 1), sides) }
            total &+= face
            lowest = Swift.min(lowest, face)
            highest = Swift.max(highest, face)
        }
        if ranks.count < count { total &-= ranks.lowerBound == 1 ? lowest : highest }
        return total
    }

    /// `keptSum` of dice sorted on the machine stack, the window of ranks kept summed.
    @inline(never)
    fileprivate mutating func sortedKeptSum(count: Int, sides: Int, ranks: Range<Int>, whole: Bool,
                                        at range: SourceRange) throws(DiceError) -> Int {
        var generator = source
        defer { source = generator }
        if ranks.count == count && !whole {
            // A plain pool: summed as rolled, stopping at the die whose sum overflows, as its
            // breakdown stops, so both leave the generator at the same place.
            var sum = 0
            for _ in 0..<count {
                let (next, carry) = sum.addingReportingOverflow(Swift.min(Swift.max(generator.roll(sides: sides), 1), sides))
                guard !carry else { throw DiceError(.overflow, at: range) }
                sum = next
            }
            return sum
        }
        // A pool with modifiers is rolled whole before the sum, even when it overflows, as its
        // breakdown rolls it whole before it keeps (`4d(2^62)kh4`).
        let (total, overflow) = withUnsafeTemporaryAllocation(of: Int.self, capacity: 8) { values -> (Int, Bool) in
            for index in 0..<count { values[index] = Swift.min(Swift.max(generator.roll(sides: sides), 1), sides) }
            Selection.insertionSort(values, 0..<count)
            var sum = 0
            var wrapped = false
            for index in ranks {
                let (next, carry) = sum.addingReportingOverflow(values[index])
                sum = next
                wrapped = wrapped || carry
            }
            return (sum, wrapped)
        }
        guard !overflow else { throw DiceError(.overflow, at: range) }
        return total
    }
}
