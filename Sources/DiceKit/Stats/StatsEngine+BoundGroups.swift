/// `let p = {a, b, ...} in BODY` and `let p = repeat(n, e) in BODY` where BODY counts `p`
/// with `count(p, cp)`: one roll of the group, several results (LANGUAGE.md §4 and §5b).
///
/// As the roller has it, `count(p, cp)` is the number of the group's kept members whose
/// value matches `cp`, and `p` is the group's value (its kept members added, or counted by
/// `cs`/`cf`/`df`). The members are independent, so what BODY sees is worked out member by
/// member: for each joint outcome of (per compare point: how many members match, and the
/// value when BODY reads it), its probability. With keep/drop, which members are kept
/// depends on all their values, so the state is then how many members show each value.
/// The members of a `repeat` are alike: a multinomial over the classes of their outcomes
/// (those the compare points tell apart, or each value under keep/drop), not a walk over
/// every roll. BODY is worked out once for each joint outcome.
extension StatsEngine {
    /// The distribution of the `let`, or `nil` when `value` is not a group or `repeat`; `local`:
    /// the points worked out at the count (`pointsReadingBody`).
    func boundGroupDistribution(_ name: String, _ value: Expr, _ body: Expr, points: [ComparePoint],
                                local: Set<ComparePoint>) throws(StatsFailure) -> Distribution? {
        var inner = value
        while case .annotated(let labelled, _) = inner.kind { inner = labelled }
        let range = inner.range
        let readsValue = StatsEngine.readsBeyondCounts(of: name, in: body)
        let finals: OrderedMass<GroupState>
        let counted: GroupCounting?
        switch inner.kind {
        case .group(let members, let modifiers, _):
            // As the roller: the members, then the modifiers, then the compare points.
            var values: [Distribution] = []
            for member in members { values.append(try outcomes(of: member)) }
            let countings = try groupCountings(values, of: .group(members), bound: inner, modifiers, points, local: local,
                                               readsValue: readsValue, at: range)
            var mixed = OrderedMass<GroupState>()
            for (counting, weight) in countings {
                var states = OrderedMass<GroupState>()
                states.add(counting.empty, 1)
                for (index, member) in values.enumerated() {
                    states = try convolve(states, try counting.increments(of: member), counting,
                                          adding: index, of: .group(members))
                }
                for (state, p) in try finish(states, counting).entries { mixed.add(state, p * weight) }
            }
            finals = mixed
            counted = countings.first?.counting
        case .repeat(let count, let member, let modifiers):
            (finals, counted) = try repeatStates(inner, count, member, modifiers, points, local: local,
                                                 readsValue: readsValue, at: range)
        default:
            return nil
        }
        let outcomes = finals.entries.map { (state, p) in
            var counts: [PointKey: Int] = [:]
            for (index, key) in (counted?.keys ?? []).enumerated() { counts[key] = state.counts[index] }
            // The kept members by value, for a compare point worked out at the count (`boundCount`).
            let dice = counted.flatMap { $0.members.isEmpty ? nil : $0.members }.map { values in
                zip(values, state.members).compactMap { $1 > 0 ? (face: $0, count: $1) : nil }
            }
            return (outcome: BoundPoolOutcome(value: state.value, counts: counts, dice: dice), p: p)
        }
        return try bodyDistribution(body, binding: name, outcomes)
    }

    // MARK: - Repeats

    /// The joint outcomes of `repeat(count, member)` with `modifiers` (the expression `bound`),
    /// mixed over its counts.
    private func repeatStates(_ bound: Expr, _ count: Expr, _ member: Expr, _ modifiers: [DiceModifier],
                              _ points: [ComparePoint], local: Set<ComparePoint>, readsValue: Bool, at range: SourceRange)
        throws(StatsFailure) -> (OrderedMass<GroupState>, GroupCounting?) {
        let counts = try distribution(of: count, for: NumberNeeds.repeatCount)
        var sizes: [(n: Int, p: Double)] = []
        try counts.forEachOutcome { (value, p) throws(StatsFailure) in
            guard case .integer(let n) = value, n >= 0 else {
                throw .dice(DiceError(.invalidRepeatCount(value), at: count.range))
            }
            guard n <= limits.maxDice else { throw .dice(DiceError(.tooManyDice(limit: limits.maxDice), at: range)) }
            sizes.append((n, p))
        }
        // A member is worked out only when some count is not 0 (the roller rolls none then).
        let largest = sizes.reduce(0) { Swift.max($0, $1.n) }
        let one = try largest > 0 ? outcomes(ofMember: member, copies: sizes.reduce(0) { $0 + Double($1.n) * $1.p }) : Distribution(constant: .integer(0))
        let countings = try groupCountings([one], of: .repeatBody(member), bound: bound, modifiers, points, local: local,
                                           readsValue: readsValue, at: range)
        var finals = OrderedMass<GroupState>()
        for (counting, weight) in countings {
            try addRepeatStates(one, of: member, sizes: sizes, counting, weight: weight, readsValue: readsValue,
                                into: &finals)
        }
        return (finals, countings.first?.counting)
    }

    /// Adds to `finals` the joint outcomes of `repeat(n, member)` (each member `one`) for each
    /// count `n` of `sizes`, counted by `counting`, their chances times `weight`.
    private func addRepeatStates(_ one: Distribution, of member: Expr, sizes: [(n: Int, p: Double)],
                                 _ counting: GroupCounting, weight: Double, readsValue: Bool,
                                 into finals: inout OrderedMass<GroupState>) throws(StatsFailure) {
        let increments = try counting.increments(of: one)
        for (n, p) in sizes {
            let states: OrderedMass<GroupState>
            if readsValue && counting.ranks == nil {
                // Each value its own class would be too many: member by member, alike states merged.
                var sum = OrderedMass<GroupState>()
                sum.add(counting.empty, 1)
                for _ in 0..<n { sum = try convolve(sum, increments, counting, adding: 0, of: .repeatBody(member)) }
                states = sum
            } else {
                states = try multinomial(increments, copies: n, counting)
            }
            for (state, q) in try finish(states, counting).entries { finals.add(state, p * q * weight) }
        }
    }

    /// Every way `copies` alike members fall among the classes of `increments`: the sum of
    /// their increments, with its multinomial probability (C(copies + k - 1, k - 1) ways).
    private func multinomial(_ increments: OrderedMass<GroupState>, copies: Int,
                             _ counting: GroupCounting) throws(StatsFailure) -> OrderedMass<GroupState> {
        let classes = increments.entries
        var states = OrderedMass<GroupState>()
        guard !classes.isEmpty else {
            if copies == 0 { states.add(counting.empty, 1) }
            return states
        }
        var ways = 1.0
        for index in 0..<(classes.count - 1) { ways = ways * Double(copies + index + 1) / Double(index + 1) }
        guard ways <= Double(meter.budget.maxOutcomes) else {
            throw .tooExpensive("a bound repeat with too many classes of outcomes")
        }
        try meter.charge(WorkMeter.product(Int(ways), classes.count + 1))
        let powers = classes.map { entry in
            var row = [Double](repeating: 1, count: copies + 1)
            for j in stride(from: 1, through: copies, by: 1) { row[j] = row[j - 1] * entry.p }
            return row
        }
        var split = [Int](repeating: 0, count: classes.count)
        func visit(_ index: Int, _ left: Int, _ coefficient: Double) {
            if index == classes.count - 1 {
                split[index] = left
                var probability = coefficient
                for (position, count) in split.enumerated() { probability *= powers[position][count] }
                guard probability > 0 else { return }
                var state = counting.empty
                for (position, count) in split.enumerated() where count > 0 {
                    let increment = classes[position].key
                    for slot in state.counts.indices { state.counts[slot] += count * increment.counts[slot] }
                    for slot in state.members.indices { state.members[slot] += count * increment.members[slot] }
                }
                states.add(state, probability)
                return
            }
            // coefficient · C(left, k): the ways to pick which of the members left fall here.
            var choose = 1.0
            for k in 0...left {
                split[index] = k
                visit(index + 1, left - k, coefficient * choose)
                choose = choose * Double(left - k) / Double(k + 1)
            }
        }
        visit(0, copies, 1)
        return states
    }

    // MARK: - Member by member

    /// What the members so far (`states`) and one more (`increments`), member `index` of
    /// `sources`, may add up to; a text member is an error at the member, as rolled.
    private func convolve(_ states: OrderedMass<GroupState>, _ increments: OrderedMass<GroupState>,
                          _ counting: GroupCounting, adding index: Int,
                          of sources: MemberSources) throws(StatsFailure) -> OrderedMass<GroupState> {
        // Each pair hashes an array: priced as a sparse pair, so the time bound holds.
        try meter.charge(WorkMeter.product(WorkMeter.product(states.entries.count, increments.entries.count),
                                           WorkMeter.sparsePairCost))
        var next = OrderedMass<GroupState>()
        for (state, p) in states.entries {
            for (increment, q) in increments.entries {
                var sum = state
                for slot in sum.counts.indices { sum.counts[slot] += increment.counts[slot] }
                for slot in sum.members.indices { sum.members[slot] += increment.members[slot] }
                if counting.readsValue && counting.ranks == nil {
                    let (a, b) = (state.value, increment.value)
                    do {
                        sum.value = try Value.apply(.add, a, b)
                    } catch {
                        throw .dice(sources.sumError(error.kind, member: index, whole: counting.range))
                    }
                }
                next.add(sum, p * q)
            }
        }
        guard next.entries.count <= meter.budget.maxOutcomes else {
            throw .tooExpensive("a bound group with too many joint outcomes")
        }
        return next
    }

    /// The joint outcomes BODY sees: under keep/drop, each count of members by value made
    /// into the counts of the kept members matching each compare point, and their value.
    private func finish(_ states: OrderedMass<GroupState>,
                        _ counting: GroupCounting) throws(StatsFailure) -> OrderedMass<GroupState> {
        guard let ranks = counting.ranks else { return states }
        try meter.charge(WorkMeter.product(states.entries.count, ranks.count + counting.matches.count))
        var finals = OrderedMass<GroupState>()
        for (state, p) in states.entries {
            let kept = StatsEngine.kept(state.counts, counting.rules.keeps)
            var result = GroupState(counts: counting.matches.map { row in
                kept.indices.reduce(0) { row[$1] ? $0 + kept[$1] : $0 }
            }, value: .integer(0), members: counting.members.isEmpty ? [] : kept)
            if counting.readsValue {
                var total = Number.integer(0)
                for (rank, times) in kept.enumerated() where times > 0 {
                    let (each, sofar) = (counting.contributions[rank], total)
                    total = try arithmetic(at: counting.range) { () throws(ArithmeticFault) in
                        try sofar.adding(try each.multiplying(by: .integer(times)))
                    }
                }
                result.value = .number(total)
            }
            finals.add(result, p)
        }
        return finals
    }

    // MARK: - What is counted

    /// The rules of a group's `modifiers` over members that may show `members`' values (of the
    /// group or repeat `bound`), with the compare points' keys: what a member adds to a state,
    /// for each joint outcome of the modifiers' arguments (each rolled once, `kh(1d2)`), with
    /// its chance.
    private func groupCountings(_ members: [Distribution], of sources: MemberSources, bound: Expr,
                                _ modifiers: [DiceModifier], _ points: [ComparePoint], local: Set<ComparePoint>,
                                readsValue: Bool,
                                at range: SourceRange) throws(StatsFailure) -> [(counting: GroupCounting, p: Double)] {
        if !modifiers.isEmpty, let index = members.firstIndex(where: { $0.symbolic.first != nil }),
           let other = members[index].symbolic.first {
            // Texts or tallies: members add (tallies field by field), and nothing else.
            throw .dice(sources.keepError(other.value, member: index, whole: range))
        }
        try checkModifiers(modifiers, group: true)
        let ordered = DiceModifier.inStageOrder(modifiers)
        var arguments: [Distribution] = []
        for argument in PoolRules.arguments(of: ordered) {
            arguments.append(try distribution(of: argument, for: NumberNeeds.modifier))
        }
        var choices: [(rules: PoolRules, p: Double)] = []
        try forEachJointOutcome(of: arguments) { (values, p) throws(StatsFailure) in
            let inputs = values.compactMap(\.number)
            choices.append((try resolveRules(ordered) { $0 < inputs.count ? inputs[$0] : nil }, p))
        }
        try checkCountOrderings(points, local: local, of: bound)
        let found = try countKeys(points, local: local)
        let (keys, places) = (found.keys, found.places)
        let countsAnyhow = points.contains { places[$0] == nil }
        var countings: [(counting: GroupCounting, p: Double)] = []
        for (rules, p) in choices {
            countings.append((try groupCounting(members, rules: rules, keys: keys, countsAnyhow: countsAnyhow,
                                                rolled: found.rolled, readsValue: readsValue, at: range), p))
        }
        return countings
    }

    /// What a member adds to a state under `rules`, counting `keys`, and the values of the
    /// members apart when BODY `countsAnyhow` (with a compare point that has no key): those
    /// alike to `keys` and to each key of `rolled` (`CountKeys.rolled`) as one, each apart
    /// when `rolled` is `nil`.
    private func groupCounting(_ members: [Distribution], rules: PoolRules, keys: [PointKey], countsAnyhow: Bool,
                               rolled: [PointKey]?, readsValue: Bool,
                               at range: SourceRange) throws(StatsFailure) -> GroupCounting {
        var counting = GroupCounting(rules: rules, keys: keys, readsValue: readsValue, range: range)
        if countsAnyhow && rules.keeps.isEmpty {
            // `let p = repeat(6, 4d6kh3) in count(p, >=(1d6 + 12))` sees 3 to 12 alike (none is
            // 13 or more): seven classes of members, not sixteen.
            let telling = rolled.map { keys + $0 }
            var byMatches: [[Bool]: Int] = [:]
            for member in members {
                member.forEachValue { value, _ in
                    guard counting.memberClass[value] == nil else { return }
                    let match = telling?.map { $0.matches(value) }
                    if let match, let known = byMatches[match] {
                        counting.memberClass[value] = known
                        return
                    }
                    if let match { byMatches[match] = counting.members.count }
                    counting.memberClass[value] = counting.members.count
                    counting.members.append(value)
                }
            }
        }
        if !rules.keeps.isEmpty {
            var values = Set<Number>()
            for member in members { member.forEachOutcome { value, _ in values.insert(value) } }
            let ascending = values.sorted()
            counting.ranks = Dictionary(uniqueKeysWithValues: ascending.enumerated().map { ($0.element, $0.offset) })
            if countsAnyhow { counting.members = ascending.map(Value.number) }
            counting.matches = keys.map { key in ascending.map { key.matches(.number($0)) } }
            for value in ascending {
                counting.contributions.append(try arithmetic(at: range) { () throws(ArithmeticFault) in
                    try rules.counting.contribution(of: value)
                })
            }
        }
        return counting
    }
}

/// How a bound group's members are counted: its rules, the compare points BODY counts
/// with, and under keep/drop the rank of each value a member may show.
private struct GroupCounting {
    var rules: PoolRules
    var keys: [PointKey]
    /// Whether BODY reads the group's value, not only its counts.
    var readsValue: Bool
    var range: SourceRange
    /// Under keep/drop: each value's place in ascending order (a state counts members by it).
    var ranks: [Number: Int]?
    /// Under keep/drop: for each key, whether the value of each rank matches it.
    var matches: [[Bool]] = []
    /// Under keep/drop: what a kept member of each rank adds to the value.
    var contributions: [Number] = []
    /// When BODY counts with a compare point that has no key: each class of values a member
    /// may show (under keep/drop, each rank), by a value of it, of which a state counts the
    /// kept members.
    var members: [Value] = []
    /// Without keep/drop, the class in `members` of each value a member may show.
    var memberClass: [Value: Int] = [:]

    /// No member yet.
    var empty: GroupState {
        GroupState(counts: [Int](repeating: 0, count: ranks?.count ?? keys.count), value: .integer(0),
                   members: [Int](repeating: 0, count: ranks == nil ? members.count : 0))
    }

    /// What one member adds, for each of its outcomes: under keep/drop one more member of
    /// its value's rank; else one more match for each key it matches, and its contribution
    /// to the value when BODY reads it.
    func increments(of member: Distribution) throws(StatsFailure) -> OrderedMass<GroupState> {
        var result = OrderedMass<GroupState>()
        try member.forEachValue { (value, p) throws(StatsFailure) in
            var state = empty
            if let ranks {
                guard case .number(let number) = value, let rank = ranks[number] else {
                    throw .invariant("a member's value without a rank")
                }
                state.counts[rank] = 1
            } else {
                for (index, key) in keys.enumerated() where key.matches(value) { state.counts[index] = 1 }
                if let slot = memberClass[value] { state.members[slot] = 1 }
                if readsValue {
                    if case .number(let number) = value, !rules.counting.isSum {
                        state.value = .number(try StatsFailure.arithmetic(at: range) { () throws(ArithmeticFault) in
                            try rules.counting.contribution(of: number)
                        })
                    } else {
                        state.value = value
                    }
                }
            }
            result.add(state, p)
        }
        return result
    }
}

/// Members so far: how many match each key (under keep/drop, how many show each value's
/// rank), and their value when BODY reads it; how many show each of `GroupCounting.members`.
private struct GroupState: Hashable {
    var counts: [Int]
    var value: Value
    var members: [Int] = []
}
