extension Evaluator {
    /// `{a, b, ...}` with keep/drop and counting over member values.
    mutating func group(_ members: [Expr], modifiers: [DiceModifier], at range: SourceRange) throws(DiceError) -> Roll {
        var rolls: [Roll] = []
        rolls.reserveCapacity(members.count)
        for member in members { rolls.append(try evaluate(member)) }
        return try finishGroup(rolls, modifiers: modifiers, isRepeat: false, at: range)
    }

    /// `repeat(n, e)`: the group of `n` independent evaluations of `e`.
    mutating func repeatGroup(count: Expr, body: Expr, modifiers: [DiceModifier],
                              at range: SourceRange) throws(DiceError) -> Roll {
        let n = try wholeNumber(count) { .invalidCount($0) }
        guard n >= 0 else { throw DiceError(.invalidCount(.integer(n)), at: count.range) }
        guard n <= limits.maxDice else { throw DiceError(.tooManyDice(limit: limits.maxDice), at: range) }
        var rolls: [Roll] = []
        rolls.reserveCapacity(Swift.min(n, limits.maxRecordedDice))
        for index in 0..<n {
            try spend(1, at: range)
            let roll = try evaluate(body)
            // Past the recording limit keep only the value, so memory stays bounded.
            rolls.append(index < limits.maxRecordedDice ? roll : Roll(.number, value: roll.value))
        }
        return try finishGroup(rolls, modifiers: modifiers, isRepeat: true, at: range)
    }

    private mutating func finishGroup(_ rolls: [Roll], modifiers: [DiceModifier], isRepeat: Bool,
                                      at range: SourceRange) throws(DiceError) -> Roll {
        var members = rolls.map { GroupRoll.Member(roll: $0, kept: true, success: false, failure: false) }
        let ordered = DiceModifier.inStageOrder(modifiers)
        if let conflict = PoolRules.conflict(in: ordered, onGroup: true) { throw conflict }
        var argumentRolls: [Roll] = []
        var argumentValues: [SourceRange: Number] = [:]
        let rules = try resolveRules(ordered, argumentRolls: &argumentRolls, values: &argumentValues)
        let counting = rules.counting.successes
        let failures = rules.counting.failures
        var kept = Array(members.indices)
        for step in rules.keeps {
            kept = step.apply(to: kept) { members[$0].roll.value }
        }
        if kept.count != members.count {
            let keptSet = Set(kept)
            for index in members.indices where !keptSet.contains(index) { members[index].kept = false }
        }
        var value = Number.integer(0)
        if let counting {
            var count = 0
            for index in kept where counting.matches(members[index].roll.value) {
                members[index].success = true
                count += 1
            }
            value = .integer(count)
        } else {
            for index in kept {
                let memberValue = members[index].roll.value
                value = try arithmetic(range) { () throws(ArithmeticFault) in try value.adding(memberValue) }
            }
        }
        if let failures {
            for index in kept where failures.matches(members[index].roll.value) {
                members[index].failure = true
                value = try arithmetic(range) { () throws(ArithmeticFault) in try value.subtracting(.integer(1)) }
            }
        }
        if let ascending = rules.sortAscending {
            members.sort { ascending ? $0.roll.value < $1.roll.value : $0.roll.value > $1.roll.value }
        }
        let group = GroupRoll(members: members, isRepeat: isRepeat, modifiers: modifiers, isCount: counting != nil)
        return Roll(.group(group), value: value)
    }
}
