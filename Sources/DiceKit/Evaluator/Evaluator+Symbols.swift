/// Unique dice (`3d8u`) and the value of text and tally dice.
extension Evaluator {
    /// The value of a pool or group that has none (several text dice): an error, unless the
    /// pool is being bound or counted (`boundValue`), where only a use of its value fails.
    mutating func deferrable(_ error: DiceError) throws(DiceError) -> Value {
        guard recordsEveryDie else { throw error }
        if deferredValueError == nil { deferredValueError = error }
        return .integer(0)
    }

    /// `u` on more dice than the die has faces it can settle on is an error, not a hang
    /// (counted exactly for dice of at most 65,536 faces, `PoolPlan.uniqueFaces`; past that,
    /// the dice limit bounds the rerolls).
    func checkUnique(_ plan: PoolPlan, count: Int, at range: SourceRange) throws(DiceError) {
        if let faces = plan.uniqueFaces, count > faces {
            throw DiceError(.tooFewFacesForUnique(dice: count, faces: faces), at: range)
        }
    }

    /// `count` dice, each rolled again while it shows a face already shown (after its own
    /// rerolls, before its explosion); the faces it left are marked rerolled.
    mutating func rollUniqueDice<Sink: DieSink>(_ count: Int, _ plan: PoolPlan, into entries: inout Sink,
                                                at range: SourceRange) throws(DiceError) {
        // The faces shown so far: for a few dice a list searched in turn, past 32 a set.
        // Hashing each face into a set was half of `10d20u!cs=7kh5`'s rolls: 20,000 of them
        // took 267 M instructions with the set, 128 M with the list (callgrind, 2026-12-03).
        let few = count <= 32
        var shownList: [Int] = []
        var shownSet = Set<Int>()
        if few { shownList.reserveCapacity(count) }
        func isShown(_ face: Int) -> Bool { few ? shownList.contains(face) : shownSet.contains(face) }
        for _ in 0..<count {
            var (face, flags) = nextFace(plan)
            if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
            while isShown(face) {
                entries.append(face, flags.union(.rerolled))
                try spend(1, at: range)
                (face, flags) = nextFace(plan)
                if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
            }
            if few { shownList.append(face) } else { shownSet.insert(face) }
            try explode(plan, face, flags, into: &entries, at: range)
        }
    }

    /// The value of text or tally dice without counting: one die's face; tallies added;
    /// several texts have no sum (`SymbolSum`).
    mutating func symbolValue(_ dice: [Die], symbols: [Value], at range: SourceRange) throws(DiceError) -> Value {
        var faces: [Value] = []
        for die in dice where die.isCounted {
            faces.append(symbols.indices.contains(die.value) ? symbols[die.value] : .integer(die.value))
        }
        if faces.count == 1, let only = faces.first { return only }
        if faces.isEmpty { return SymbolSum.empty(symbols) }
        if let error = SymbolSum.error(symbols) { return try deferrable(DiceError(error, at: range)) }
        return try sum(faces, at: range)
    }
}
