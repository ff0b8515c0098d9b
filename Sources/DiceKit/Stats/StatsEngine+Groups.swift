/// Groups `{a, b, ...}` and `repeat(n, expr)`: independent members whose values are
/// summed, or kept, dropped and counted like dice.
extension StatsEngine {
    func groupDistribution(_ members: [Expr], _ modifiers: [DiceModifier],
                           at range: SourceRange) throws(StatsFailure) -> Distribution {
        var values: [Distribution] = []
        for member in members { values.append(try outcomes(of: member)) }
        if let index = values.firstIndex(where: { $0.symbolicOutcomes.first != nil }),
           let other = values[index].symbolicOutcomes.first {
            // Texts or tallies: members add (tallies field by field), and nothing else.
            guard modifiers.isEmpty else {
                throw .dice(MemberSources.group(members).keepError(other.value, member: index, whole: range))
            }
            var sum = Distribution(constant: .integer(0))
            for (index, value) in values.enumerated() {
                sum = try addingMember(index, of: .group(members), at: range) { () throws(StatsFailure) in
                    try addValues(sum, value, subtracting: false, at: range)
                }
            }
            return sum
        }
        // As the roller: the members, then the modifiers.
        try checkModifiers(modifiers, group: true)
        return try withResolvedModifiers(modifiers) { (rules) throws(StatsFailure) in
            try self.keptSum(of: values, rules: rules, at: range)
        }
    }

    /// `body`, which adds member `index` of `sources` (a group at `range`) to those before it,
    /// its error as the roller's: a text member's at the member (`MemberSources.sumError`).
    private func addingMember(_ index: Int, of sources: MemberSources, at range: SourceRange,
                              _ body: () throws(StatsFailure) -> Distribution) throws(StatsFailure) -> Distribution {
        do {
            return try body()
        } catch {
            guard case .dice(let failure) = error, failure.range == range else { throw error }
            throw .dice(sources.sumError(failure.kind, member: index, whole: range))
        }
    }

    func repeatDistribution(count: Expr, body: Expr, modifiers: [DiceModifier],
                            at range: SourceRange) throws(StatsFailure) -> Distribution {
        let counts = try distribution(of: count, for: NumberNeeds.repeatCount)
        var largestCount = 0, members = 0.0
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else {
                throw .dice(DiceError(.invalidRepeatCount(value), at: count.range))
            }
            guard n <= limits.maxDice else { throw .dice(DiceError(.tooManyDice(limit: limits.maxDice), at: range)) }
            largestCount = Swift.max(largestCount, n)
            members += Double(n) * p
        }
        guard largestCount > 0 else {
            try checkModifiers(modifiers, group: true)
            // No members, but the roller still works out the modifiers' arguments, and fails
            // where they fail: `repeat(0, 1)kl(x)` with no `x`.
            return try withResolvedModifiers(modifiers) { _ in
                Distribution(constant: .integer(0), probability: counts.totalProbability)
            }
        }
        let member = try outcomes(ofMember: body, copies: members)
        if let other = member.symbolicOutcomes.first {
            // Texts or tallies: members add (tallies field by field), and nothing else.
            guard modifiers.isEmpty else {
                throw .dice(MemberSources.repeatBody(body).keepError(other.value, member: 0, whole: range))
            }
            var result = ValueAccumulator()
            try counts.forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value else { return }
                let sum = try addingMember(0, of: .repeatBody(body), at: range) { () throws(StatsFailure) in
                    try repeatedValueSum(member, copies: n, at: range)
                }
                try mix(sum, times: p, into: &result)
            }
            return try meter.checkSize(result.build())
        }
        try checkModifiers(modifiers, group: true)
        return try withResolvedModifiers(modifiers) { (rules) throws(StatsFailure) in
            var result = DistributionAccumulator()
            var power = Distribution(constant: .integer(0))
            var powerCount = 0
            let single = try self.arithmetic(at: range) { () throws(ArithmeticFault) in
                try member.mapped { (value) throws(ArithmeticFault) in try rules.counting.contribution(of: value) }
            }
            // The counts were checked above: each is a whole number from 0 to the dice limit.
            try counts.forEachOutcome { (value, p) throws(StatsFailure) in
                guard case .integer(let n) = value else { return }
                let part: Distribution
                if rules.keeps.isEmpty {
                    if powerCount < n {
                        power = try PoolModel.repeatedSum(of: single, count: n, from: power, copies: powerCount,
                                                          meter: &self.meter, at: range)
                        powerCount = n
                    }
                    part = power
                } else {
                    part = try self.identicalKeptSum(member, copies: n, rules: rules, at: range)
                }
                try self.meter.charge(part.storageSize)
                try self.mix(part, times: p, into: &result)
            }
            return try self.meter.checkSize(result.build())
        }
    }

    /// `body` with the modifiers' rules, mixed over the outcomes of their arguments when random.
    private func withResolvedModifiers(
        _ modifiers: [DiceModifier], _ body: (PoolRules) throws(StatsFailure) -> Distribution
    ) throws(StatsFailure) -> Distribution {
        let ordered = DiceModifier.inStageOrder(modifiers)
        var inputs: [Distribution] = []
        for argument in PoolRules.arguments(of: ordered) { inputs.append(try distribution(of: argument, for: NumberNeeds.modifier)) }
        if inputs.allSatisfy({ $0.constantValue != nil && $0.totalProbability == 1 }) {
            return try body(resolveRules(ordered) { $0 < inputs.count ? inputs[$0].constantValue : nil })
        }
        var result = DistributionAccumulator()
        try forEachJointOutcome(of: inputs) { (values, weight) throws(StatsFailure) in
            let part = try body(resolveRules(ordered) { $0 < values.count ? values[$0].number : nil })
            try meter.charge(part.storageSize)
            try mix(part, times: weight, into: &result)
        }
        return try meter.checkSize(result.build())
    }

    /// The value of a group of independent members under `rules`' keep/drop and counting.
    func keptSum(of members: [Distribution], rules: PoolRules,
                 at range: SourceRange) throws(StatsFailure) -> Distribution {
        let total = members.count
        let kept = KeepDropStep.keptRange(rules.keeps, total: total)
        if kept == 0..<total {
            var result = Distribution(constant: .integer(0))
            for member in members {
                try meter.charge(WorkMeter.pairWork(result, member))
                let counted = try arithmetic(at: range) { () throws(ArithmeticFault) in
                    try member.mapped { (value) throws(ArithmeticFault) in try rules.counting.contribution(of: value) }
                }
                let sum = result
                result = try meter.checkSize(arithmetic(at: range) { () throws(ArithmeticFault) in
                    try sum.adding(counted)
                })
            }
            return result
        }
        if members.dropFirst().allSatisfy({ $0 == members[0] }) {
            return try identicalKeptSum(members[0], copies: total, rules: rules, at: range)
        }
        let mass = members.reduce(1.0) { $0 * $1.totalProbability }
        guard !kept.isEmpty else { return Distribution(constant: .integer(0), probability: mass) }
        var values = Set<Number>()
        for member in members { member.forEachOutcome { value, _ in values.insert(value) } }
        // Decimal members are summed only as kept (a window), never added then subtracted.
        let hasDecimals = values.contains { $0.integerValue == nil }
        // One pool size always has a form: the kept positions counted from the bottom.
        guard let (form, fromTop) = MultisetKeep.form(for: rules.keeps, sizes: total...total,
                                                      allowDrop: !hasDecimals) else {
            throw .invariant("no way to keep \(kept) of \(total) members")
        }
        let ascending = values.sorted()
        let ordered = fromTop ? Array(ascending.reversed()) : ascending
        var rank: [Number: Int] = [:]
        for (index, value) in ordered.enumerated() { rank[value] = index }
        /// The rank of a member's value (all of them are in `rank`).
        func ranked(_ value: Number) throws(StatsFailure) -> Int {
            guard let found = rank[value] else { throw .invariant("a member's value without a rank") }
            return found
        }
        var contributions: [Number] = []
        for value in ordered {
            contributions.append(try arithmetic(at: range) { () throws(ArithmeticFault) in
                try rules.counting.contribution(of: value)
            })
        }
        let keeper = try MultisetKeep(form: form, contributions: contributions)
        // Identical members are one item taken several times.
        var groups: [(member: Distribution, copies: Int)] = []
        for member in members {
            if let index = groups.firstIndex(where: { $0.member == member }) {
                groups[index].copies += 1
            } else {
                groups.append((member, 1))
            }
        }
        switch form {
        case .window:
            let items = try groups.map { (group) throws(StatsFailure) -> (outcomes: [Int: Double], copies: Int) in
                var outcomes: [Int: Double] = [:]
                try group.member.forEachOutcome { (value, p) throws(StatsFailure) in
                    outcomes[keeper.inserting(try ranked(value), into: 0), default: 0] += p
                }
                return (outcomes, group.copies)
            }
            return try keeper.windowSum(items, meter: &meter, at: range)
        case .drop:
            let items = try groups.map { (group) throws(StatsFailure) -> (outcomes: [Int: Distribution], copies: Int) in
                var outcomes: [Int: Distribution] = [:]
                try group.member.forEachOutcome { (value, p) throws(StatsFailure) in
                    let r = try ranked(value)
                    outcomes[keeper.inserting(r, into: 0)] = Distribution(constant: contributions[r], probability: p)
                }
                return (outcomes, group.copies)
            }
            return try keeper.dropSum(items, meter: &meter, at: range)
        }
    }

    /// Keep/drop and counting over `copies` independent copies of `member`.
    func identicalKeptSum(_ member: Distribution, copies: Int, rules: PoolRules,
                          at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard copies > 0 else { return Distribution(constant: .integer(0)) }
        let kept = KeepDropStep.keptRange(rules.keeps, total: copies)
        let mass = member.totalProbability
        if kept.isEmpty { return Distribution(constant: .integer(0), probability: Double.power(mass, copies)) }
        let sum = try KeepDP.keptSum(of: member, counting: rules.counting, dice: copies, kept: kept,
                                     meter: &meter, at: range)
        return sum.scaled(by: Double.power(mass, copies))
    }
}

extension Double {
    /// `base` to a whole power, by squaring.
    fileprivate static func power(_ base: Double, _ exponent: Int) -> Double {
        if base == 1 { return 1 }
        var result = 1.0, factor = base, rest = exponent
        while rest > 0 {
            if rest & 1 == 1 { result *= factor }
            factor *= factor
            rest >>= 1
        }
        return result
    }
}
