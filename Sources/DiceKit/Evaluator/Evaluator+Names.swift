extension Evaluator {
    /// A parameter, variable, or macro without arguments.
    mutating func lookUp(_ name: String, at range: SourceRange) throws(DiceError) -> Roll {
        if let frame = frames.last, let value = frame[name] {
            return Roll(.variable(name), value: value)
        }
        switch environment[name] {
        case .variable(let value):
            return Roll(.variable(name), value: value)
        case .macro(let macro):
            guard macro.parameters.isEmpty else {
                throw DiceError(.macroArity(name: name, expected: macro.parameters.count, got: 0), at: range)
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
        guard macro.parameters.count == arguments.count else {
            throw DiceError(.macroArity(name: name, expected: macro.parameters.count, got: arguments.count), at: range)
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
        var frame: [String: Number] = [:]
        for (parameter, argument) in zip(macro.parameters, arguments) { frame[parameter] = argument.value }
        frames.append(frame)
        macroDepth += 1
        defer {
            frames.removeLast()
            macroDepth -= 1
        }
        do {
            let body = try evaluate(macro.body)
            return Roll(.macro(name: macro.name, arguments: arguments, body: body), value: body.value)
        } catch {
            switch error.kind {
            case .macroRecursion, .interrupted, .tooManyDice, .resultTooLarge, .inMacro:
                throw DiceError(error.kind, at: range)
            default:
                throw DiceError(.inMacro(name: macro.name, error.kind), at: range)
            }
        }
    }

    /// The known name nearest to `name`, if any is near enough to be a likely typo, or the
    /// roll a habit's word means (`adv`: `2d20kh1`). Only a name that works where `name`
    /// stands: `called`, a function or a macro with parameters; else a variable or a macro
    /// without.
    func suggestion(for name: String, called: Bool = false) -> String? {
        Suggestions.suggestion(for: name, called: called, in: environment, parameters: frames.last.map { Array($0.keys) } ?? [])
    }
}

/// "Did you mean" by edit distance (with transpositions).
enum Suggestions {
    /// What an unknown `name` likely meant (see `Evaluator.suggestion(for:called:)`), among
    /// the names of `environment` and the `parameters` in scope: the one rule of the roller
    /// and the stats engine.
    static func suggestion(for name: String, called: Bool, in environment: Environment,
                           parameters: [String]) -> String? {
        if !called, let roll = Parser.advantage[name.lowercased()] { return roll }
        let candidates = environment.knownNames.filter { known in
            switch environment[known] {
            case .variable: return !called
            case .macro(let macro): return macro.parameters.isEmpty != called
            case nil: return called
            }
        }
        return nearest(to: name, among: candidates + (called ? [] : parameters))
    }

    /// The candidate nearest to `name`: the shortest that starts with what was typed (two
    /// letters or more), else the nearest within a few edits (ties: the first alphabetically).
    static func nearest(to name: String, among candidates: [String]) -> String? {
        let typed = name.lowercased()
        if typed.count >= 2 {
            let extending = candidates.filter { $0 != name && $0.lowercased().hasPrefix(typed) }
            if let shortest = extending.min(by: { ($0.count, $0) < ($1.count, $1) }) { return shortest }
        }
        let limit = Swift.max(1, Swift.min(3, name.count / 3 + 1))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let d = distance(Array(name.lowercased().utf8), Array(candidate.lowercased().utf8))
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

    /// Optimal string alignment distance.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d = Swift.min(d, table[i - 2][j - 2] + 1)
                }
                table[i][j] = d
            }
        }
        return table[a.count][b.count]
    }
}
