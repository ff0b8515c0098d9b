/// What running a statement produced.
public enum Outcome: Sendable {
    /// An expression statement: its roll.
    case roll(Roll)
    /// `name = expr`: the name and the roll bound to it.
    case assignment(name: String, Roll)
    /// `def ...`: the macro now defined.
    case definition(Macro)
    /// `stats expr`: the expression and its distribution.
    case stats(Expr, DistributionReport)
    /// `stats e1, e2, ...`: the expressions compared, and the distribution of each, in order.
    case compare([Expr], [DistributionReport])
    /// `stats E for NAME in A..B`: the expression, and its distribution for each value.
    case sweep(Expr, SweepReport)
    /// `use NAME`: the game system and the macros it defined, in order, each with its summary.
    case system(GameSystem, [Macro])
    /// `use` alone: the built-in game systems.
    case systems([GameSystem])
}

extension Evaluator {
    /// Runs one statement: rolls it, binds it, defines it, or works out its distributions
    /// (`Stats.distribution`, seeded with `statsSeed` where it falls back to simulation).
    package mutating func execute(_ statement: Stmt) throws(DiceError) -> Outcome {
        startStatement()
        switch statement.kind {
        case .expression(let expr):
            return .roll(try evaluate(expr))
        case .assignment(let name, let expr):
            let roll = try evaluate(expr)
            environment.setVariable(name, to: roll.value)
            return .assignment(name: name, roll)
        case .update(let name, let op, let expr):
            return try update(name, op, expr, in: statement)
        case .definition(let name, let parameters, let defaults, let body):
            let macro = Macro(name: name, parameters: parameters, defaults: defaults, body: body, summary: statement.doc)
            environment.define(macro)
            return .definition(macro)
        case .stats(let expr):
            return .stats(expr, try distribution(of: expr))
        case .compare(let exprs):
            var reports: [DistributionReport] = []
            for expr in exprs { reports.append(try distribution(of: expr)) }
            return .compare(exprs, reports)
        case .sweep(let expr, let name, let from, let to):
            return .sweep(expr, try Stats.sweep(expr, name: name, from: from, to: to, environment: environment,
                                                limits: limits, shouldStop: shouldStop))
        case .use(nil):
            return .systems(GameSystem.all)
        case .use(let name?):
            guard let system = GameSystem.named(name) else {
                throw DiceError(.unknownSystem(name, known: GameSystem.names), at: statement.range)
            }
            return .system(system, try system.use(in: &environment))
        }
    }
}

extension Evaluator {
    /// The distribution of `expr` with this evaluator's names, limits and `shouldStop`.
    func distribution(of expr: Expr) throws(DiceError) -> DistributionReport {
        try Stats.distribution(of: expr, environment: environment, limits: limits, seed: statsSeed,
                               shouldStop: shouldStop)
    }

    /// `hp -= 1d8`: `hp` becomes `hp - (1d8)`, shown as that sum. Only a variable can change;
    /// for any other name the error suggests the assignment that sets it.
    mutating func update(_ name: String, _ op: BinaryOperator, _ expr: Expr,
                         in statement: Stmt) throws(DiceError) -> Outcome {
        let nameEnd = SourceLocation(offset: statement.range.lowerBound.offset + name.utf8.count)
        let nameRange = statement.range.lowerBound..<nameEnd
        guard case .variable = environment[name] else {
            let value = op == .subtract ? Expr(.unary(.negate, expr), expr.range) : expr
            let suggestion = Stmt(.assignment(name: name, value), statement.range).text
            let isMacro = environment[name] != nil
            throw DiceError(.updateWithoutVariable(name, isMacro: isMacro, suggestion: suggestion), at: nameRange)
        }
        let operatorRange = nameEnd..<Swift.max(nameEnd, expr.range.lowerBound)
        let sum = Expr(.chain(Expr(.name(name), nameRange), [Operation(op, expr, operatorRange: operatorRange)]),
                       statement.range)
        let roll = try evaluate(sum)
        environment.setVariable(name, to: roll.value)
        return .assignment(name: name, roll)
    }
}
