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
    /// (counted exactly for dice of at most 65,536 faces; past that, the dice limit bounds
    /// the rerolls).
    func checkUnique(_ plan: PoolPlan, count: Int, at range: SourceRange) throws(DiceError) {
        let faces: [Int]
        switch plan.faces {
        case .list(let list): faces = list
        case .range(let sides):
            guard sides <= 1 << 16 else { return }
            faces = Array(1...sides)
        }
        var settled = Set<Int>()
        for face in faces {
            let shown = plan.clamp(face)
            if !plan.rerollAlways.contains(where: { $0.matches(shown) }) { settled.insert(shown) }
        }
        guard count <= settled.count else {
            throw DiceError(.tooFewFacesForUnique(dice: count, faces: settled.count), at: range)
        }
    }

    /// `count` dice, each rolled again while it shows a face already shown (after its own
    /// rerolls, before its explosion); the faces it left are marked rerolled.
    mutating func rollUniqueDice<Sink: DieSink>(_ count: Int, _ plan: PoolPlan, into entries: inout Sink,
                                                at range: SourceRange) throws(DiceError) {
        var shown = Set<Int>()
        for _ in 0..<count {
            var (face, flags) = nextFace(plan)
            if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
            while shown.contains(face) {
                entries.append(face, flags.union(.rerolled))
                try spend(1, at: range)
                (face, flags) = nextFace(plan)
                if plan.hasRerolls { try settle(plan, &face, &flags, into: &entries, at: range) }
            }
            shown.insert(face)
            try explode(plan, face, flags, into: &entries, at: range)
        }
    }

    /// The value of text or tally dice without counting: one die's face; tallies added;
    /// several texts have no sum.
    mutating func symbolValue(_ dice: [Die], symbols: [Value], at range: SourceRange) throws(DiceError) -> Value {
        var faces: [Value] = []
        for die in dice where die.isCounted {
            faces.append(symbols.indices.contains(die.value) ? symbols[die.value] : .integer(die.value))
        }
        if faces.count == 1, let only = faces.first { return only }
        if faces.isEmpty {
            return symbols.allSatisfy({ if case .tally = $0 { return true } else { return false } })
                ? .tally(Tally()) : .integer(0)
        }
        guard faces.allSatisfy({ if case .tally = $0 { return true } else { return false } }) else {
            return try deferrable(DiceError(.textDiceOperation("a sum of several text dice"), at: range))
        }
        return try sum(faces, at: range)
    }
}
