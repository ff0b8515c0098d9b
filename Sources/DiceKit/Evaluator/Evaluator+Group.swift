extension Evaluator {
    /// `{a, b, ...}` with keep/drop and counting over member values; `parenthesized`, written `(a, b, ...)`.
    mutating func group(_ members: [Expr], modifiers: [DiceModifier], parenthesized: Bool = false,
                        at range: SourceRange) throws(DiceError) -> Roll {
        guard recording else {
            var values: [Value] = []
            values.reserveCapacity(members.count)
            for member in members { values.append(try evaluate(member).value) }
            if modifiers.isEmpty { return Roll(.number, value: try sum(values, of: .group(members), at: range)) }
            let numbers = try memberNumbers(values, of: .group(members), at: range)
            return Roll(.number, value: .number(try groupOutcome(numbers, rules: try groupRules(modifiers), at: range).value))
        }
        var rolls: [GroupRoll.Member] = []
        rolls.reserveCapacity(members.count)
        for member in members { rolls.append(GroupRoll.Member(roll: try evaluate(member))) }
        var roll = try finishGroup(rolls, modifiers: modifiers, sources: .group(members), at: range)
        if parenthesized, case .group(var group) = roll.kind {
            group.parenthesized = true
            roll.kind = .group(group)
        }
        return roll
    }

    /// `repeat(n, e)`: the group of `n` independent evaluations of `e`.
    mutating func repeatGroup(count: Expr, body: Expr, modifiers: [DiceModifier],
                              at range: SourceRange) throws(DiceError) -> Roll {
        let (n, countRoll) = try repeatCount(count, at: range)
        guard recording else { return Roll(.number, value: try repeatValue(n, body: body, modifiers: modifiers, at: range)) }
        var roll = try repeatMembers(n, body: body, modifiers: modifiers, at: range)
        if let countRoll, case .group(var group) = roll.kind {
            group.rolledCount = GroupRoll.RolledCount(roll: countRoll, body: body)
            roll.kind = .group(group)
        }
        return roll
    }

    /// The group of `n` evaluations of `body`, its members listed up to the recording limit.
    private mutating func repeatMembers(_ n: Int, body: Expr, modifiers: [DiceModifier],
                                        at range: SourceRange) throws(DiceError) -> Roll {
        let sorts = modifiers.contains { modifier in
            if case .sort = modifier.kind { return true }
            return false
        }
        if n > limits.maxRecordedDice && !modifiers.isEmpty && !limits.keepsEveryValue {
            return try boundedRepeat(count: n, body: body, modifiers: modifiers, at: range)
        }
        if n > limits.maxRecordedDice && !sorts {
            return try listedRepeat(count: n, body: body, modifiers: modifiers, at: range)
        }
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(Swift.min(n, limits.maxRecordedDice))
        for index in 0..<n {
            try spend(1, at: range)
            // Past the recording limit keep only the value, so memory stays bounded.
            if index < limits.maxRecordedDice {
                members.append(GroupRoll.Member(roll: try evaluate(body)))
            } else {
                members.append(GroupRoll.Member(roll: Roll(.number, value: try value(of: body))))
            }
            // Keep/drop or counting needs numbers: a text or tally stops the repeat where it
            // comes, no more members rolled, as the value path and the bounded ones stop.
            if !modifiers.isEmpty, let last = members.last?.roll.value, last.number == nil {
                _ = try memberNumber(last, index, of: .repeatBody(body), at: range)
            }
        }
        return try finishGroup(members, modifiers: modifiers, sources: .repeatBody(body), at: range)
    }

    /// A repeat of more members than are listed, not sorted: the first `maxRecordedDice`
    /// members with their rolls, the others' values only, and those only for modifiers.
    private mutating func listedRepeat(count n: Int, body: Expr, modifiers: [DiceModifier],
                                       at range: SourceRange) throws(DiceError) -> Roll {
        let sources = MemberSources.repeatBody(body)
        let listed = limits.maxRecordedDice
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(listed)
        var values: [Number] = []
        if !modifiers.isEmpty { values.reserveCapacity(Swift.min(n, 1 << 16)) }
        var sum = MemberSum()
        for index in 0..<n {
            try spend(1, at: range)
            let member: Value
            if index < listed {
                let roll = try evaluate(body)
                members.append(GroupRoll.Member(roll: roll))
                member = roll.value
            } else {
                member = try value(of: body)
            }
            if modifiers.isEmpty {
                sum.add(member)
            } else {
                values.append(try memberNumber(member, 0, of: sources, at: range))
            }
        }
        guard !modifiers.isEmpty else {
            var group = GroupRoll(members: members, isRepeat: true, modifiers: modifiers, isCount: false)
            group.omitted = n - members.count
            return Roll(.group(group), value: try sum.total(of: sources, at: range))
        }
        let (rules, shown, argumentRolls) = try groupRulesAndShown(modifiers)
        let outcome = try groupOutcome(values, rules: rules, at: range)
        outcome.mark(&members)
        var group = GroupRoll(members: members, isRepeat: true, modifiers: shown, isCount: outcome.isCount)
        group.omitted = n - members.count
        group.argumentRolls = argumentRolls
        return Roll(.group(group), value: .number(outcome.value))
    }

    /// The member count of `repeat(count, …)`, checked against the dice limit before any is
    /// rolled, and the count's roll when it rolled dice (the `1d4` of `repeat(1d4, 1d6)`).
    private mutating func repeatCount(_ count: Expr, at range: SourceRange) throws(DiceError) -> (Int, Roll?) {
        let (value, roll) = try partValue(count, NumberNeeds.repeatCount)
        guard case .integer(let n) = value else { throw DiceError(.invalidRepeatCount(value), at: count.range) }
        guard n >= 0 else { throw DiceError(.invalidRepeatCount(.integer(n)), at: count.range) }
        guard n <= limits.maxDice else { throw DiceError(.tooManyDice(limit: limits.maxDice), at: range) }
        return (n, roll)
    }

    /// The group of `members` with `modifiers` applied, the members written as `sources`;
    /// `resolved`, when given, is `groupRulesAndShown(modifiers)` already done (its arguments
    /// rolled once, not again).
    mutating func finishGroup(_ members: [GroupRoll.Member], modifiers: [DiceModifier], sources: MemberSources,
                              resolved: GroupModifiers? = nil, at range: SourceRange) throws(DiceError) -> Roll {
        let isRepeat = sources.isRepeat
        var members = members
        if let index = members.firstIndex(where: { $0.roll.value.number == nil }) {
            // Texts or tallies: they add (tallies field by field), and nothing else.
            guard modifiers.isEmpty else { throw sources.keepError(members[index].roll.value, member: index, whole: range) }
            let group = GroupRoll(members: members, isRepeat: isRepeat, modifiers: [], isCount: false)
            let value: Value
            do {
                value = try sum(members.map(\.roll.value), of: sources, at: range)
            } catch {
                value = try deferrable(error)
            }
            return Roll(.group(group), value: value)
        }
        // The values are read in place: a copy of a huge repeat's would double its memory.
        let (rules, shown, argumentRolls) = if let resolved { resolved } else { try groupRulesAndShown(modifiers) }
        let outcome = try groupOutcome(members.lazy.map { $0.roll.value.number ?? .integer(0) }, rules: rules, at: range)
        outcome.mark(&members)
        if let ascending = outcome.sortAscending {
            members.sort { (a, b) in
                let x = a.roll.value.number ?? .integer(0), y = b.roll.value.number ?? .integer(0)
                return ascending ? x < y : x > y
            }
        }
        var group = GroupRoll(members: members, isRepeat: isRepeat, modifiers: shown, isCount: outcome.isCount)
        group.argumentRolls = argumentRolls
        return Roll(.group(group), value: .number(outcome.value))
    }

    /// A group's modifiers checked and their arguments evaluated, in the order they apply.
    mutating func groupRules(_ modifiers: [DiceModifier]) throws(DiceError) -> PoolRules {
        try groupRulesAndShown(modifiers).rules
    }

    /// `groupRules(modifiers)`, the modifiers as the breakdown shows them: computed
    /// arguments written as the values they took (`kh2`, not `kh(n)`; LANGUAGE.md §6), and
    /// the rolls of the arguments that rolled dice, with their ranges, as a pool keeps them
    /// (`GroupRoll.argumentRolls`: the breakdown shows each in place, `kh(1d2 (1))`).
    mutating func groupRulesAndShown(_ modifiers: [DiceModifier]) throws(DiceError) -> GroupModifiers {
        let ordered = DiceModifier.inStageOrder(modifiers)
        if let conflict = PoolRules.conflict(in: ordered, onGroup: true) { throw conflict }
        var argumentRolls: [ArgumentRoll] = []
        var argumentValues: [SourceRange: Number] = [:]
        let rules = try resolveRules(ordered, argumentRolls: &argumentRolls, values: &argumentValues)
        return (rules, argumentValues.isEmpty ? modifiers : modifiers.map { $0.replacingArguments(argumentValues) },
                argumentRolls)
    }

    /// A group's modifiers resolved: what `groupRulesAndShown` gives.
    typealias GroupModifiers = (rules: PoolRules, shown: [DiceModifier], argumentRolls: [ArgumentRoll])

    /// What a group's modifiers make of its member values: its value, and which members are
    /// kept (`nil`: all), counted as successes and as failures.
    func groupOutcome<Values: RandomAccessCollection<Number>>(
        _ values: Values, rules: PoolRules, at range: SourceRange
    ) throws(DiceError) -> GroupOutcome where Values.Index == Int {
        let counting = rules.counting.successes
        let failures = rules.counting.failures
        var outcome = GroupOutcome(isCount: counting != nil, sortAscending: rules.sortAscending)
        var kept = Array(values.indices)
        for step in rules.keeps {
            kept = step.apply(to: kept) { values[$0] }
        }
        if !rules.keeps.isEmpty { outcome.kept = kept }
        var value = Number.integer(0)
        if let counting {
            var count = 0
            for index in kept where counting.matches(values[index]) {
                if rules.counting.countsFailures { outcome.failures.append(index) } else { outcome.successes.append(index) }
                count += 1
            }
            value = .integer(count)
        } else {
            for index in kept {
                let memberValue = values[index]
                value = try arithmetic(range) { () throws(ArithmeticFault) in try value.adding(memberValue) }
            }
        }
        if let failures {
            for index in kept where failures.matches(values[index]) {
                outcome.failures.append(index)
                value = try arithmetic(range) { () throws(ArithmeticFault) in try value.subtracting(.integer(1)) }
            }
        }
        outcome.value = value
        return outcome
    }

    /// The value of `repeat(n, body)` without its breakdown: the same dice, value and errors
    /// as the repeat with it. Without modifiers the members are
    /// added as they come and none is kept; with them, only their values are kept.
    ///
    /// - Complexity: O(*n*) memory for *n* members with modifiers (a byte a member while
    ///   their values are few, see `MemberValues`), O(1) without.
    private mutating func repeatValue(_ n: Int, body: Expr, modifiers: [DiceModifier],
                                      at range: SourceRange) throws(DiceError) -> Value {
        let sources = MemberSources.repeatBody(body)
        if modifiers.isEmpty {
            var sum = MemberSum()
            for _ in 0..<n {
                try spend(1, at: range)
                sum.add(try value(of: body))
            }
            return try sum.total(of: sources, at: range)
        }
        // Few members (the usual `repeat(6, 4d6kh3)kh3`): their values as they are, no coding.
        guard n > limits.maxRecordedDice && !limits.keepsEveryValue else {
            var values: [Number] = []
            values.reserveCapacity(Swift.min(n, 1 << 16))
            for _ in 0..<n {
                try spend(1, at: range)
                values.append(try memberNumber(value(of: body), 0, of: sources, at: range))
            }
            return .number(try groupOutcome(values, rules: try groupRules(modifiers), at: range).value)
        }
        var values = MemberValues()
        for _ in 0..<n {
            try spend(1, at: range)
            values.append(try memberNumber(value(of: body), 0, of: sources, at: range))
        }
        let rules = try groupRules(modifiers)
        switch values.storage {
        case .narrow(let codes):
            return .number(try codedOutcome(codes, values.distinct, rules: rules, listed: 0, at: range).outcome.value)
        case .wide(let codes):
            return .number(try codedOutcome(codes, values.distinct, rules: rules, listed: 0, at: range).outcome.value)
        case .plain(let plain): return .number(try groupOutcome(plain, rules: rules, at: range).value)
        }
    }
}

/// What a group's modifiers make of its members' values.
struct GroupOutcome {
    var value = Number.integer(0)
    /// The members kept, in ascending order; `nil` when keep/drop left them all.
    var kept: [Int]?
    var successes: [Int] = []
    var failures: [Int] = []
    var isCount: Bool
    var sortAscending: Bool?

    /// Marks `members`, the first members of the group (all of them, or those listed), as
    /// kept or dropped, successes and failures.
    func mark(_ members: inout [GroupRoll.Member]) {
        if let kept {
            // Both in ascending order: one walk.
            var next = 0
            for index in members.indices {
                while next < kept.count && kept[next] < index { next += 1 }
                if next >= kept.count || kept[next] != index { members[index].kept = false }
            }
        }
        for index in successes where index < members.count { members[index].success = true }
        for index in failures where index < members.count { members[index].failure = true }
    }
}

extension Evaluator {
    /// Member `index`'s value where keep/drop or counting needs a number; a text or tally is
    /// an error where that member stands (`MemberSources.keepError`).
    func memberNumber(_ value: Value, _ index: Int, of sources: MemberSources,
                      at range: SourceRange) throws(DiceError) -> Number {
        if let number = value.number { return number }
        throw sources.keepError(value, member: index, whole: range)
    }

    /// Every member's number, or the error of the first that is none.
    func memberNumbers(_ values: [Value], of sources: MemberSources, at range: SourceRange) throws(DiceError) -> [Number] {
        var numbers: [Number] = []
        numbers.reserveCapacity(values.count)
        for (index, value) in values.enumerated() { numbers.append(try memberNumber(value, index, of: sources, at: range)) }
        return numbers
    }

    /// The members added: numbers, or tallies field by field.
    func sum(_ values: [Value], at range: SourceRange) throws(DiceError) -> Value {
        var total = MemberSum()
        for value in values { total.add(value) }
        return try total.total(at: range)
    }

    /// The sum of the values of a group's or repeat's members (`sources`), a text member's
    /// error at the member (`MemberSources.sumError`).
    func sum(_ values: [Value], of sources: MemberSources, at range: SourceRange) throws(DiceError) -> Value {
        var total = MemberSum()
        for value in values { total.add(value) }
        return try total.total(of: sources, at: range)
    }
}

extension GroupRoll.Member {
    /// A member as rolled: kept, neither success nor failure until the modifiers say so.
    init(roll: Roll) {
        self.init(roll: roll, kept: true, success: false, failure: false)
    }
}
