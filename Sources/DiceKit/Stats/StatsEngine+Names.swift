/// Parameters, variables and macros.
///
/// A macro used by name is rolled afresh at each use, so its body's distribution is
/// independent of everything else. A macro with parameters binds each argument's value
/// once: a parameter used more than once must show the same value at each use, so the
/// body is evaluated for each joint outcome of those arguments and the results mixed.
extension StatsEngine {
    func nameDistribution(_ name: String, at range: SourceRange) throws(StatsFailure) -> Distribution {
        if let parameter = frames.last?[name] {
            switch parameter {
            case .value(let value): return Distribution(only: value)
            case .distribution(let distribution): return distribution
            case .pool(let pool): return Distribution(only: pool.value)
            }
        }
        switch environment[name] {
        case .variable(let value):
            return Distribution(only: value)
        case .macro(let macro):
                guard macro.defaults.count == macro.parameters.count else {
                throw .dice(DiceError(.macroArity(name: name, expected: macro.parameters.count - macro.defaults.count,
                                                  got: 0), at: range))
            }
            return try callDistribution(name, [], at: range)
        case nil:
            throw .dice(unknownName(name, at: range))
        }
    }

    func callDistribution(_ name: String, _ arguments: [Expr],
                          at range: SourceRange) throws(StatsFailure) -> Distribution {
        guard case .macro(let macro) = environment[name] else {
            if environment[name] != nil {
                throw .dice(DiceError(.variableCalledAsMacro(name), at: range))
            }
            throw .dice(unknownName(name, called: true, at: range))
        }
        let required = macro.parameters.count - macro.defaults.count
        guard arguments.count >= required, arguments.count <= macro.parameters.count else {
            let expected = arguments.count < required ? required : macro.parameters.count
            throw .dice(DiceError(.macroArity(name: name, expected: expected, got: arguments.count), at: range))
        }
        var values: [Distribution] = []
        for argument in arguments { values.append(try outcomes(of: argument)) }
        // Parameters not given take their defaults, evaluated where the macro is used; their
        // errors are the macro's, at its use, as its body's are.
        for parameter in macro.parameters.dropFirst(arguments.count) {
            guard let expression = macro.defaults[parameter] else { continue }
            do {
                values.append(try inMacroUse(name, at: range) { () throws(StatsFailure) in
                    try inTree("\(name)=\(parameter)") { () throws(StatsFailure) in try outcomes(of: expression) }
                })
            } catch .dice(let error) {
                throw .dice(error.atMacroUse(macro.name, at: range))
            }
        }
        let uses = parameterUses(of: macro)
        var bindings: Frame<Parameter> = [:]
        var mass = 1.0
        var conditioned: [(name: String, distribution: Distribution)] = []
        for (parameter, value) in zip(macro.parameters, values) {
            if let constant = value.constantOutcome {
                bindings[parameter] = .value(constant)
                mass *= value.totalProbability
            } else if uses[parameter, default: 0] <= 1 {
                bindings[parameter] = .distribution(value)
            } else {
                conditioned.append((parameter, value))
            }
        }
        if conditioned.isEmpty {
            return try macroBody(macro, bindings: bindings, at: range).scaled(by: mass)
        }
        var builder = ValueAccumulator()
        var tryFixed = true
        try forEachJointOutcome(of: conditioned.map { $0.distribution }) { (outcome, weight) throws(StatsFailure) in
            var fixed = bindings
            for (index, value) in outcome.enumerated() { fixed[conditioned[index].name] = .value(value) }
            let body = try macroBody(macro, bindings: fixed, at: range, tryFixed: &tryFixed)
            try meter.charge(body.storageSize)
            try mix(body, times: weight * mass, into: &builder)
        }
        return try meter.checkSize(builder.build())
    }

    /// The body of `macro` evaluated with `bindings`; its errors are reported at the use, `range`.
    /// The work charged for each macro use, besides its body's own: measured at about 1 µs a
    /// use (frames, bindings, the body's walk), so recursion through macros (`f(n-1) + f(n-1)`)
    /// spends the budget at its real pace and keeps within `--stats-seconds`.
    static let macroUseCost = 256

    func macroBody(_ macro: Macro, bindings: Frame<Parameter>,
                   at range: SourceRange) throws(StatsFailure) -> Distribution {
        var tryFixed = false
        return try macroBody(macro, bindings: bindings, at: range, tryFixed: &tryFixed)
    }

    /// `macroBody`, trying `fixedValue` first while `tryFixed` (see `outcomes(ofEach:tryFixed:)`).
    func macroBody(_ macro: Macro, bindings: Frame<Parameter>, at range: SourceRange,
                   tryFixed: inout Bool) throws(StatsFailure) -> Distribution {
        guard macroDepth < limits.maxMacroDepth else {
            throw .dice(DiceError(.macroRecursion(limit: limits.maxMacroDepth), at: range))
        }
        // Each use costs a walk of the body, whatever its size: charge it, so macros that
        // each use the last twice reach the budget instead of running for minutes.
        try meter.charge(StatsEngine.macroUseCost)
        macroDepth += 1
        frames.append(bindings)
        defer {
            macroDepth -= 1
            frames.removeLast()
        }
        do {
            return try inMacroUse(macro.name, at: range) { () throws(StatsFailure) in
                try inTree(macro.name) { () throws(StatsFailure) in try outcomes(ofEach: macro.body, tryFixed: &tryFixed) }
            }
        } catch .dice(let error) {
            throw .dice(error.atMacroUse(macro.name, at: range))
        }
    }

    /// Calls `body` with each joint outcome of independent `distributions` and its probability:
    /// the cuts it notes count times that probability, as its part is mixed in at it.
    func forEachJointOutcome(of distributions: [Distribution],
                             _ body: ([Value], Double) throws(StatsFailure) -> Void) throws(StatsFailure) {
        let lists = distributions.map { $0.valueOutcomes }
        var combinations = 1
        for list in lists { combinations = WorkMeter.product(combinations, list.count) }
        try meter.charge(combinations)
        if lists.contains(where: { $0.isEmpty }) { return }
        var indices = [Int](repeating: 0, count: lists.count)
        while true {
            var weight = 1.0
            var values: [Value] = []
            values.reserveCapacity(lists.count)
            for (list, index) in zip(lists, indices) {
                values.append(list[index].value)
                weight *= list[index].probability
            }
            try scalingCuts(by: weight) { () throws(StatsFailure) in try body(values, weight) }
            var position = lists.count - 1
            while position >= 0 {
                indices[position] += 1
                if indices[position] < lists[position].count { break }
                indices[position] = 0
                position -= 1
            }
            if position < 0 { return }
        }
    }

    // MARK: - Parameter uses

    /// How often the body of `macro` uses each parameter; a use inside `repeat`'s body counts as many.
    func parameterUses(of macro: Macro) -> [String: Int] {
        if let known = parameterUses[macro.name] { return known }
        var uses: [String: Int] = [:]
        let parameters = Set(macro.parameters)
        StatsEngine.countUses(in: macro.body, of: parameters, weight: 1, into: &uses)
        for name in StatsEngine.namesFixedByGiven(in: macro.body, of: parameters, topIsUnit: true) {
            uses[name] = Swift.max(uses[name, default: 0], 2)
        }
        parameterUses[macro.name] = uses
        return uses
    }

    /// Adds `weight` to each use of a parameter in `expr`; a use inside `repeat`'s body
    /// counts as two (it may be rolled many times), and a use in each branch of an `if` counts
    /// in both: more than needed, never less.
    static func countUses(in expr: Expr, of parameters: Set<String>, weight: Int,
                          into uses: inout [String: Int]) {
        if case .name(let name) = expr.kind, parameters.contains(name) { uses[name, default: 0] += weight }
        var isRepeat = false
        if case .repeat = expr.kind { isRepeat = true }
        var index = 0
        expr.forEachChild { child in
            // A repeat's children are its count, then its body.
            countUses(in: child, of: parameters, weight: isRepeat && index == 1 ? 2 : weight, into: &uses)
            index += 1
        }
    }

    /// Those of `names` used inside a `given` unit in `expr` (`E given C`, or a `let` ending
    /// in one): the roller rolls that unit again with the names fixed, so their values must be
    /// fixed here too, one at a time, not stood in for by their distribution at their one use.
    /// `let r = 1d20 in 1 + (5 given r > 10)` fails to roll when r is 10 or less; read lazily, it
    /// was 6 every time. `topIsUnit`: whether `expr` itself, when it ends in `given`, is a unit
    /// the names are bound outside of (a macro's body), or is not (a `let`'s body: the unit
    /// is then the `let`, rolled again whole, its name with it).
    static func namesFixedByGiven(in expr: Expr, of names: Set<String>, topIsUnit: Bool) -> Set<String> {
        if expr.endsInGiven {
            guard topIsUnit else { return [] }
            var uses: [String: Int] = [:]
            countUses(in: expr, of: names, weight: 1, into: &uses)
            return Set(uses.keys)
        }
        var fixed = Set<String>()
        expr.forEachChild { child in fixed.formUnion(namesFixedByGiven(in: child, of: names, topIsUnit: true)) }
        return fixed
    }

    // MARK: - Unknown names

    func unknownName(_ name: String, called: Bool = false, at range: SourceRange) -> DiceError {
        let suggestion = Suggestions.suggestion(for: name, called: called, in: environment,
                                                parameters: frames.last?.names.filter { !StatsEngine.isCountName($0) } ?? [])
        return DiceError(.unknownName(name, suggestion: suggestion), at: range)
    }
}
