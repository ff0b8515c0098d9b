extension ValueBounds {
    /// `a op b`: 1 when it holds for every pair of values, 0 when for none, else either.
    static func comparison(_ op: ComparisonOperator, _ a: ValueBounds, _ b: ValueBounds) -> ValueBounds {
        let (a, b) = (a.clamped, b.clamped)
        let always: Bool, never: Bool
        switch op {
        case .less: (always, never) = (a.high < b.low, a.low >= b.high)
        case .lessEqual: (always, never) = (a.high <= b.low, a.low > b.high)
        case .greater: (always, never) = (a.low > b.high, a.high <= b.low)
        case .greaterEqual: (always, never) = (a.low >= b.high, a.high < b.low)
        case .equal, .notEqual:
            let same = a.low == a.high && b.low == b.high && a.low == b.low
            var apart = a.high < b.low || b.high < a.low
            if !apart && !same, let x = a.wholeValues, let y = b.wholeValues { apart = x.isDisjoint(with: y) }
            (always, never) = op == .equal ? (same, apart) : (apart, same)
        }
        return always ? .constant(1) : never ? .constant(0) : ValueBounds(low: 0, high: 1)
    }
}

/// Comparisons and conditions, for `ValueBounds`: 1 or 0 when the operands settle them.
///
/// `==` and `!=` take any two values (LANGUAGE.md §5b): numbers by their bounds, texts
/// written alike are equal, a text never equals a number or a tally, and tallies are equal
/// field by field, a field not written being 0. Without this, a text or a tally made the
/// comparison either 0 or 1: `if "b" == "b" then 1d6! else 0` said min 0 (the condition
/// always holds) and `(a: 1d6!) == (a: 0)` said max 1 (1d6! is never 0).
extension ValueBounds.Walker {
    /// The bounds of `expr` for settling a comparison or a condition: its own, and where
    /// those are unknown or have no values, bounds that hold every value though maybe more
    /// (`sound`), which settle that a test is always or never true as well.
    /// `(4d4!dl1 * 1d6!) % 2` has no bounds of its own (the product's values are not known),
    /// but lies between 0 and 2: never 5; `let r = d{0,2,5} in r + r` is 0 to 10, but never 9.
    mutating func deciding(_ expr: Expr) -> ValueBounds? {
        let own = bounds(of: expr)
        if sound || own?.wholeValues != nil { return own }
        sound = true
        defer { sound = false }
        guard let loose = bounds(of: expr) else { return own }
        guard let own else { return loose }
        return ValueBounds(low: Swift.max(own.low, loose.low), high: Swift.min(own.high, loose.high), values: loose.values)
    }

    /// What an operand of `==` is known to be: a number within bounds, a text, or a tally
    /// with its fields' bounds (a field whose bounds are unknown: any number).
    private enum Operand {
        case number(ValueBounds)
        case text(String)
        case tally([String: ValueBounds])
    }

    /// `lhs op rhs` for `op` `==` or `!=`: 1 when it holds for every pair of values, 0 when
    /// for none, else either.
    mutating func equality(_ op: ComparisonOperator, _ lhs: Expr, _ rhs: Expr) -> ValueBounds {
        guard let a = operand(lhs), let b = operand(rhs) else { return ValueBounds(low: 0, high: 1) }
        var equal: ValueBounds
        switch (a, b) {
        case (.number(let x), .number(let y)):
            equal = ValueBounds.comparison(.equal, x, y)
            // A whole constant the other side never takes, where its values are not known as a set.
            if equal.low != equal.high, let k = (y.low == y.high ? y : x).low.whole, x.low == x.high || y.low == y.high,
               !mayTake(y.low == y.high ? lhs : rhs, k) {
                equal = .constant(0)
            }
        case (.text(let x), .text(let y)):
            equal = .constant(x == y ? 1 : 0)
        case (.tally(let x), .tally(let y)):
            // Equal when every field is; never when some field never is.
            equal = Set(x.keys).union(y.keys).reduce(.constant(1)) { all, name in
                let field = ValueBounds.comparison(.equal, x[name] ?? .constant(0), y[name] ?? .constant(0))
                return ValueBounds(low: Swift.min(all.low, field.low), high: Swift.min(all.high, field.high))
            }
        default:
            // Values of different kinds.
            equal = .constant(0)
        }
        return op == .equal ? equal : ValueBounds(low: 1 - equal.high, high: 1 - equal.low)
    }

    /// What `expr` is known to be: a text or tally written in place or held by a variable,
    /// else a number within its bounds; `nil` when not known.
    private mutating func operand(_ expr: Expr) -> Operand? {
        switch expr.kind {
        case .annotated(let inner, _):
            return operand(inner)
        case .text(let text):
            return .text(text)
        case .tally(let fields):
            var bounds: [String: ValueBounds] = [:]
            // A name written twice keeps its last value (`Tally.init`).
            for field in fields {
                bounds[field.name] = deciding(field.value) ?? ValueBounds(low: -.infinity, high: .infinity)
            }
            return .tally(bounds)
        case .name(let name) where frames.last?[name] == nil:
            guard case .variable(let value) = environment[name] else { break }
            switch value {
            case .number(let number): return .number(.constant(BoundNumber(number)))
            case .text(let text): return .text(text)
            case .tally(let tally):
                return .tally(Dictionary(tally.fields.map { ($0.name, .constant(BoundNumber($0.value))) }) { $1 })
            }
        default:
            break
        }
        return deciding(expr).map { .number($0) }
    }
}
