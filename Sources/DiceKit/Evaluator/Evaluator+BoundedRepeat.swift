extension Evaluator {
    /// A repeat of more members than are listed, with modifiers: the first `maxRecordedDice`
    /// members with their rolls, every member's value coded in `MemberValues`, and the
    /// same value, marks and order as when every member's value is kept.
    ///
    /// Sorted, the members listed are the first `maxRecordedDice` in sorted order (values
    /// alone past the members rolled with breakdowns), then the other members with breakdowns,
    /// in sorted order too; the rest are `omitted`.
    mutating func boundedRepeat(count n: Int, body: Expr, modifiers: [DiceModifier],
                                at range: SourceRange) throws(DiceError) -> Roll {
        let sources = MemberSources.repeatBody(body)
        let listed = limits.maxRecordedDice
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(Swift.min(n, listed))
        var values = MemberValues()
        for index in 0..<n {
            try spend(1, at: range)
            if index < listed {
                let roll = try evaluate(body)
                members.append(GroupRoll.Member(roll: roll))
                values.append(try memberNumber(roll.value, 0, of: sources, at: range))
            } else {
                values.append(try memberNumber(value(of: body), 0, of: sources, at: range))
            }
        }
        let outcome: GroupOutcome
        let others: [GroupRoll.Member]
        let resolved = try groupRulesAndShown(modifiers)
        let (rules, shown, argumentRolls) = resolved
        switch values.storage {
        case .narrow(let codes):
            (outcome, others) = try codedOutcome(codes, values.distinct, rules: rules, listed: members.count, at: range)
        case .wide(let codes):
            (outcome, others) = try codedOutcome(codes, values.distinct, rules: rules, listed: members.count, at: range)
        case .plain(let plain):
            // Values too many to code: as the reference does, every value kept.
            if rules.sortAscending != nil {
                var all = members
                all.reserveCapacity(plain.count)
                for value in plain[members.count...] { all.append(GroupRoll.Member(roll: Roll(.number, value: .number(value)))) }
                // Its arguments already rolled: not rolled again (as the value alone rolls them once).
                return try finishGroup(all, modifiers: modifiers, sources: sources, resolved: resolved, at: range)
            }
            (outcome, others) = (try groupOutcome(plain, rules: rules, at: range), [])
        }
        outcome.mark(&members)
        if let ascending = outcome.sortAscending {
            members = Self.sortedListing(members, others, ascending: ascending, listed: listed)
        }
        var group = GroupRoll(members: members, isRepeat: true, modifiers: shown, isCount: outcome.isCount)
        group.omitted = n - members.count
        group.argumentRolls = argumentRolls
        return Roll(.group(group), value: .number(outcome.value))
    }

    /// The members of a sorted repeat shown: the first `listed` in the (stable) sorted order
    /// of `rolled` (the members rolled with breakdowns, in order) and `others` (members past
    /// them that sort among the first `listed`, in order), then the rest of `rolled`.
    private static func sortedListing(_ rolled: [GroupRoll.Member], _ others: [GroupRoll.Member], ascending: Bool,
                                      listed: Int) -> [GroupRoll.Member] {
        var all = rolled.map { (member: $0, rolled: true) } + others.map { (member: $0, rolled: false) }
        all.sort { (a, b) in
            let x = a.member.roll.value.number ?? .integer(0), y = b.member.roll.value.number ?? .integer(0)
            return ascending ? x < y : x > y
        }
        var members: [GroupRoll.Member] = []
        members.reserveCapacity(rolled.count)
        for (position, entry) in all.enumerated() where position < listed || entry.rolled {
            members.append(entry.member)
        }
        return members
    }

    /// What `rules` make of member values given as `codes` into `distinct`, exactly as
    /// `groupOutcome` works it out over the values themselves, in time O(*n*) for *n* members
    /// and memory O(*d* + `listed`) for *d* distinct values. Marks are for the first
    /// `listed` members; sorted, `others` are the members past them that sort among the first
    /// `listed` of all (values alone, marked), in order.
    ///
    /// Keep/drop keeps, of each value, a run of consecutive occurrences (see `KeptRuns`);
    /// the value is then added up over the members kept in order, as `groupOutcome` does.
    func codedOutcome<Codes: RandomAccessCollection>(
        _ codes: Codes, _ distinct: [Number], rules: PoolRules, listed: Int, at range: SourceRange
    ) throws(DiceError) -> (outcome: GroupOutcome, others: [GroupRoll.Member])
    where Codes.Element: FixedWidthInteger, Codes.Index == Int {
        let order = distinct.indices.sorted { distinct[$0] < distinct[$1] }
        var rank = [Int](repeating: 0, count: distinct.count)
        for (position, code) in order.enumerated() { rank[code] = position }
        let hasKeeps = !rules.keeps.isEmpty
        var runs = KeptRuns(RankCounts(kept: [Int](repeating: 0, count: distinct.count)), total: codes.count)
        if hasKeeps {
            var histogram = [Int](repeating: 0, count: distinct.count)
            for code in codes { histogram[rank[Int(code)]] += 1 }
            runs = KeptRuns(RankCounts(kept: histogram), total: codes.count)
            for step in rules.keeps { runs.apply(step) }
        }
        let counting = rules.counting.successes
        let failures = rules.counting.failures
        let succeeds = distinct.map { counting?.matches($0) ?? false }
        let fails = distinct.map { failures?.matches($0) ?? false }
        var outcome = GroupOutcome(isCount: counting != nil, sortAscending: rules.sortAscending)
        var kept: [Int] = []
        var seen = [Int](repeating: 0, count: distinct.count)
        var value = Number.integer(0)
        var successes = 0
        var failed = 0
        var others = SortedMembers(limit: rules.sortAscending == nil ? 0 : listed, ascending: rules.sortAscending ?? true)
        for index in codes.indices {
            let code = Int(codes[index])
            var isKept = true
            if hasKeeps {
                let position = rank[code]
                let occurrence = seen[position]
                seen[position] = occurrence + 1
                isKept = runs.keeps(position, occurrence: occurrence)
            }
            let success = isKept && succeeds[code]
            let failure = isKept && fails[code]
            // What the breakdown marks: a `cf` match is a failure.
            let markedSuccess = success && !rules.counting.countsFailures
            let markedFailure = failure || success && rules.counting.countsFailures
            if isKept {
                if counting != nil {
                    if success { successes += 1 }
                } else {
                    let member = distinct[code]
                    value = try arithmetic(range) { () throws(ArithmeticFault) in try value.adding(member) }
                }
                if failure { failed += 1 }
            }
            if index < listed {
                if isKept && hasKeeps { kept.append(index) }
                if markedSuccess { outcome.successes.append(index) }
                if markedFailure { outcome.failures.append(index) }
            } else if others.limit > 0 {
                others.offer(rank: rank[code], of: distinct.count) {
                    GroupRoll.Member(roll: Roll(.number, value: .number(distinct[code])), kept: isKept, success: markedSuccess,
                                     failure: markedFailure)
                }
            }
        }
        if hasKeeps { outcome.kept = kept }
        if counting != nil { value = .integer(successes) }
        // One at a time, as `groupOutcome` subtracts them.
        for _ in 0..<failed {
            value = try arithmetic(range) { () throws(ArithmeticFault) in try value.subtracting(.integer(1)) }
        }
        outcome.value = value
        return (outcome, others.finish())
    }
}

/// Counts by rank of a group's distinct member values.
struct RankCounts: KeptCounts {
    var kept: [Int]
    var positions: Int { kept.count }
    @inline(__always)
    func kept(at position: Int) -> Int { kept[position] }
    mutating func setKept(_ count: Int, at position: Int) { kept[position] = count }
}

/// The first `limit` members in the stable sort by value of those offered in order, kept as
/// they come: up to twice the limit, then cut to it (as `PoolListing` does for dice).
struct SortedMembers {
    let limit: Int
    let ascending: Bool
    private var members: [(key: Int, member: GroupRoll.Member)] = []
    /// After a cut: the key of the last member kept; later members need a key before it.
    private var bound: Int?
    private let capacity: Int

    init(limit: Int, ascending: Bool) {
        self.limit = Swift.max(0, limit)
        self.ascending = ascending
        let (twice, overflow) = self.limit.multipliedReportingOverflow(by: 2)
        capacity = overflow ? Int.max : twice
    }

    /// Offers the member of rank `rank` among `ranks` (ascending values), made by `member` only if kept.
    @inline(__always)
    mutating func offer(rank: Int, of ranks: Int, _ member: () -> GroupRoll.Member) {
        let key = ascending ? rank : ranks - 1 - rank
        if let bound, key >= bound { return }
        members.append((key, member()))
        if members.count >= capacity { cut() }
    }

    private mutating func cut() {
        members.sort { $0.key < $1.key }
        if members.count >= limit {
            members.removeSubrange(limit...)
            bound = members.last?.key
        }
    }

    /// The members kept, in sorted order.
    mutating func finish() -> [GroupRoll.Member] {
        cut()
        return members.map(\.member)
    }
}
