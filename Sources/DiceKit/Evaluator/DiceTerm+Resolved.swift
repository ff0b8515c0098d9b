/// The values a dice term's computed parts took in one roll, so the breakdown shows
/// `2d6kh1`, not `(extra * 2)d6kh(n)` (LANGUAGE.md §6).
struct ResolvedParts {
    /// The count, if it was an expression other than a literal.
    var count: Number?
    /// The sides, if they were an expression other than a literal.
    var sides: Number?
    /// The values of modifier arguments that were not literals, by where they stand.
    var arguments: [SourceRange: Number] = [:]

    var isEmpty: Bool { count == nil && sides == nil && arguments.isEmpty }
}

extension DiceTerm {
    /// Whether any part (count, sides, a modifier argument) is an expression, not a literal.
    static func hasComputedParts(count: Expr?, sides: Sides, modifiers: [DiceModifier]) -> Bool {
        if let count, !count.isLiteral { return true }
        if case .number(let sides) = sides, !sides.isLiteral { return true }
        return modifiers.contains { $0.arguments.contains { !$0.isLiteral } }
    }

    /// This term with its computed parts written as the values they took.
    func resolved(_ parts: ResolvedParts) -> DiceTerm {
        var count = self.count
        if let value = parts.count, let expr = count, !expr.isLiteral { count = Expr(.number(value), expr.range) }
        var sides = self.sides
        if let value = parts.sides, case .number(let expr) = sides, !expr.isLiteral {
            sides = .number(Expr(.number(value), expr.range))
        }
        let modifiers = self.modifiers.map { $0.replacingArguments(parts.arguments) }
        return DiceTerm(count: count, sides: sides, modifiers: modifiers, spelling: spelling)
    }
}

extension Expr {
    /// A number as written: `3`, `1.5`.
    var isLiteral: Bool {
        if case .number = kind { return true }
        return false
    }
}

extension DiceModifier {
    /// The modifier with each argument found in `values` (by its range) written as that value.
    func replacingArguments(_ values: [SourceRange: Number]) -> DiceModifier {
        guard !values.isEmpty else { return self }
        func replaced(_ expr: Expr) -> Expr {
            guard !expr.isLiteral, let value = values[expr.range] else { return expr }
            return Expr(.number(value), expr.range)
        }
        func replaced(_ point: ComparePoint) -> ComparePoint {
            ComparePoint(point.op, replaced(point.value), spelling: point.spelling)
        }
        var copy = self
        switch kind {
        case .keep(let extreme, let count): copy.kind = .keep(extreme, count: count.map(replaced))
        case .drop(let extreme, let count): copy.kind = .drop(extreme, count: count.map(replaced))
        case .minimum(let bound): copy.kind = .minimum(replaced(bound))
        case .maximum(let bound): copy.kind = .maximum(replaced(bound))
        case .explode(let explosion, let point): copy.kind = .explode(explosion, point.map(replaced))
        case .reroll(let once, let point): copy.kind = .reroll(once: once, point.map(replaced))
        case .countSuccesses(let point): copy.kind = .countSuccesses(replaced(point))
        case .countFailures(let point): copy.kind = .countFailures(replaced(point))
        case .subtractFailures(let point): copy.kind = .subtractFailures(replaced(point))
        case .sort, .unique: break
        }
        return copy
    }
}
