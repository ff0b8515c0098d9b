extension Evaluator {
    /// A parameter, variable, or macro without arguments.
    mutating func lookUp(_ name: String, at range: SourceRange) throws(DiceError) -> Roll {
        if let frame = frames.last, let bound = frame[name] {
            // As unbound: at the text member or text pool that makes it no number, as `stats` has it.
            if let error = bound.valueError { throw error }
            return made(.variable(name), value: bound.value)
        }
        switch environment[name] {
        case .variable(let value):
            return made(.variable(name), value: value)
        case .macro(let macro):
            guard macro.defaults.count == macro.parameters.count else {
                throw DiceError(.macroArity(name: name, expected: macro.parameters.count - macro.defaults.count, got: 0),
                                at: range)
            }
            return try expand(macro, arguments: [], at: range)
        case nil:
            throw DiceError(.unknownName(name, suggestion: suggestion(for: name)), at: range)
        }
    }

    /// A macro used with arguments: each argument is evaluated once.
    mutating func callMacro(_ name: String, arguments: [Expr], at range: SourceRange) throws(DiceError) -> Roll {
        guard case .macro(let macro) = environment[name] else {
            if environment[name] != nil {
                throw DiceError(.variableCalledAsMacro(name), at: range)
            }
            throw DiceError(.unknownName(name, suggestion: suggestion(for: name, called: true)), at: range)
        }
        let required = macro.parameters.count - macro.defaults.count
        guard arguments.count >= required, arguments.count <= macro.parameters.count else {
            let expected = arguments.count < required ? required : macro.parameters.count
            throw DiceError(.macroArity(name: name, expected: expected, got: arguments.count), at: range)
        }
        var rolls: [Roll] = []
        for argument in arguments { rolls.append(try evaluate(argument)) }
        return try expand(macro, arguments: rolls, at: range)
    }

    private mutating func expand(_ macro: Macro, arguments: [Roll], at range: SourceRange) throws(DiceError) -> Roll {
        guard macroDepth < limits.maxMacroDepth else {
            throw DiceError(.macroRecursion(limit: limits.maxMacroDepth), at: range)
        }
        // A use counts like a repeat member: macros that each use the last twice
        // would otherwise double the work at each level, with no dice to stop them.
        try spend(1, at: range)
        // Inside a `given` rolled again, a condition of the body or a default is noted at the
        // outermost use, in the innermost macro's name, as its error would be (`atMacroUse`).
        let macroUse = givenMacroUse
        if insideGiven { givenMacroUse = GivenConditions.Place(range: macroUse?.range ?? range, macro: macro.name) }
        defer { givenMacroUse = macroUse }
        var frame: Frame<Bound> = [:]
        frame.reserveCapacity(macro.parameters.count)
        for (parameter, argument) in zip(macro.parameters, arguments) { frame.bindNew(parameter, Bound(value: argument.value)) }
        // Parameters not given take their defaults, evaluated where the macro is used.
        // Their errors are the macro's, at its use, as its body's are.
        var defaults: [Roll] = []
        for parameter in macro.parameters.dropFirst(arguments.count) {
            guard let expression = macro.defaults[parameter] else { continue }
            let roll: Roll
            do {
                roll = try evaluate(expression)
            } catch {
                throw error.atMacroUse(macro.name, at: range)
            }
            frame.bindNew(parameter, Bound(value: roll.value))
            defaults.append(roll)
        }
        // A default that rolled dice is shown as the argument it stands for, like one passed
        // (`f(2, 1d6 (3)): ...`), with the defaults before it so each stands in its place;
        // defaults that rolled nothing after it are left out, as the call wrote them (`atk`).
        var shown = arguments
        if let last = defaults.lastIndex(where: \.hasDice) { shown += defaults[...last] }
        frames.append(frame)
        macroDepth += 1
        defer {
            frames.removeLast()
            macroDepth -= 1
        }
        do {
            let body = try evaluate(macro.body)
            return made(.macro(name: macro.name, arguments: shown, body: body), value: body.value)
        } catch {
            throw error.atMacroUse(macro.name, at: range)
        }
    }

    /// The known name nearest to `name`, if any is near enough to be a likely typo, or the
    /// roll a habit's word means (`adv`: `2d20kh1`). Only a name that works where `name`
    /// stands: `called`, a function or a macro (`m()` calls one without parameters too);
    /// else a variable or a macro whose parameters all have defaults.
    func suggestion(for name: String, called: Bool = false) -> String? {
        Suggestions.suggestion(for: name, called: called, in: environment,
                               parameters: frames.last?.names ?? [], shouldStop: shouldStop)
    }
}

/// "Did you mean" by edit distance (with transpositions): within a few edits, so only a band
/// of the table is worked out, in memory and time linear in the names' total length.
enum Suggestions {
    /// What an unknown `name` likely meant (see `Evaluator.suggestion(for:called:)`), among
    /// the names of `environment` and the `parameters` in scope: the one rule of the roller
    /// and the stats engine.
    static func suggestion(for name: String, called: Bool, in environment: Environment,
                           parameters: [String], shouldStop: (() -> Bool)? = nil) -> String? {
        if !called, let roll = Parser.advantage[name.lowercased()] { return roll }
        let candidates = environment.knownNames.filter { known in
            switch environment[known] {
            case .variable: return !called
            case .macro(let macro): return called || macro.parameters.allSatisfy { macro.defaults[$0] != nil }
            case nil: return called
            }
        }
        return nearest(to: name, among: candidates + (called ? [] : parameters), shouldStop: shouldStop)
    }

    /// The candidate nearest to `name`: the shortest that starts with what was typed (two
    /// letters or more), else the nearest within a few edits (ties: the first alphabetically);
    /// nil at once for a name far longer than every candidate, and when `shouldStop` says so.
    static func nearest(to name: String, among candidates: [String], shouldStop: (() -> Bool)? = nil) -> String? {
        let longest = candidates.reduce(0) { Swift.max($0, $1.utf8.count) }
        // Lowercasing at most triples a name's bytes: past this, no candidate is near.
        guard name.utf8.count <= 3 * (longest + 3) else { return nil }
        let typed = name.lowercased()
        if typed.count >= 2 {
            let extending = candidates.filter { $0 != name && $0.lowercased().hasPrefix(typed) }
            if let shortest = extending.min(by: { ($0.count, $0) < ($1.count, $1) }) { return shortest }
        }
        let limit = Swift.max(1, Swift.min(3, name.count / 3 + 1))
        let target = Array(name.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for (index, candidate) in candidates.enumerated() where candidate != name {
            if index & 15 == 0, let shouldStop, shouldStop() { return nil }
            let d = distance(target, Array(candidate.lowercased().utf8), atMost: limit)
            // Ties go to the name first in alphabetical order, so the message never depends
            // on the order the candidates come in (a dictionary's keys have none).
            guard d <= limit else { continue }
            if let current = best, d > current.distance || (d == current.distance && candidate >= current.name) {
                continue
            }
            best = (candidate, d)
        }
        return best?.name
    }

    /// Optimal string alignment distance, or `limit + 1` when it is more than `limit`: three
    /// rows, each worked out only within `limit` of the diagonal.
    static func distance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int {
        let far = limit + 1
        guard Swift.abs(a.count - b.count) <= limit else { return far }
        if a.isEmpty || b.isEmpty { return Swift.max(a.count, b.count) }
        var older = [Int](repeating: far, count: b.count + 1)
        var previous = [Int](repeating: far, count: b.count + 1)
        var current = [Int](repeating: far, count: b.count + 1)
        for j in 0...Swift.min(b.count, limit) { previous[j] = j }
        for i in 1...a.count {
            let low = Swift.max(1, i - limit), high = Swift.min(b.count, i + limit)
            // The cells beside the band read as too far (or the first column's own value).
            current[low - 1] = low == 1 && i <= limit ? i : far
            if high < b.count { current[high + 1] = far }
            var nearest = far
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = Swift.min(d, older[j - 2] + 1)
                }
                d = Swift.min(d, far)
                current[j] = d
                nearest = Swift.min(nearest, d)
            }
            if nearest > limit { return far }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
