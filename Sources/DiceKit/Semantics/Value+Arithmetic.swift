/// Arithmetic over values: numbers as numbers; tallies add and subtract field by field (the
/// number 0 counting as the empty tally, there and in reading a field) and multiply by a
/// number; texts have none.
extension Value {
    /// `a op b`.
    static func apply(_ op: BinaryOperator, _ a: Value, _ b: Value) throws(ArithmeticFault) -> Value {
        if case .number(let x) = a, case .number(let y) = b { return .number(try Number.apply(op, x, y)) }
        for value in [a, b] {
            if case .text = value { throw .notANumber(value, needed: "'\(op.rawValue)'") }
        }
        switch (op, a, b) {
        case (.add, .tally(let x), .tally(let y)):
            return .tally(try x.combined(with: y) { (p, q) throws(ArithmeticFault) in try p.adding(q) })
        case (.subtract, .tally(let x), .tally(let y)):
            return .tally(try x.combined(with: y) { (p, q) throws(ArithmeticFault) in try p.subtracting(q) })
        case (.add, .tally(let x), .number(.integer(0))), (.subtract, .tally(let x), .number(.integer(0))),
             (.add, .number(.integer(0)), .tally(let x)):
            return .tally(x)
        case (.subtract, .number(.integer(0)), .tally(let y)):
            return .tally(try y.scaled(by: .integer(-1)))
        case (.multiply, .tally(let x), .number(let n)), (.multiply, .number(let n), .tally(let x)):
            return .tally(try x.scaled(by: n))
        default:
            let what = a.number == nil && b.number == nil ? " of two tallies" : " of a tally and a number"
            throw .tally("'\(op.rawValue)'" + what)
        }
    }

    /// `value.name`: a tally's field (0 when absent). The number 0 is the empty tally, as in
    /// `+` and `-` (an empty `repeat` of tally dice), so its every field is 0; any other
    /// number, and a text, has no fields.
    func field(_ name: String) throws(ArithmeticFault) -> Number {
        switch self {
        case .tally(let tally): return tally[name]
        case .number(.integer(0)): return .integer(0)
        case .number, .text: throw .field(self, name: name)
        }
    }

    /// `-value`: a number negated, a tally's every field negated.
    func negated() throws(ArithmeticFault) -> Value {
        switch self {
        case .number(let number): return .number(try number.negated())
        case .tally(let tally): return .tally(try tally.scaled(by: .integer(-1)))
        case .text: throw .notANumber(self, needed: "'-'")
        }
    }

    /// The number, or `notANumber` naming what `needed` it.
    func number(for needed: @autoclosure () -> String) throws(ArithmeticFault) -> Number {
        if case .number(let number) = self { return number }
        throw .notANumber(self, needed: needed())
    }
}

extension Number {
    /// `a op b`.
    static func apply(_ op: BinaryOperator, _ a: Number, _ b: Number) throws(ArithmeticFault) -> Number {
        switch op {
        case .add: return try a.adding(b)
        case .subtract: return try a.subtracting(b)
        case .multiply: return try a.multiplying(by: b)
        case .divide: return try a.dividing(by: b)
        case .floorDivide: return try a.floorDividing(by: b)
        case .modulo: return try a.modulo(b)
        }
    }
}

extension ComparePoint {
    /// The error of an ordering compare point (`>=5`, and a `match`'s `7-9`, `10+` and `6-`)
    /// tried with `culprit`, a text or tally: the same for `count` and `match`, rolled or in
    /// `stats`.
    static func orderingError(_ culprit: Value, at range: SourceRange) -> DiceError {
        DiceError(.notANumber(culprit, needed: "the compare point"), at: range)
    }
}

extension ComparisonOperator {
    /// Whether `lhs op rhs` holds: `==` and `!=` compare any values (a text never equals a
    /// number); ordering needs numbers, else `error` of the value that is none.
    func holds(_ lhs: Value, _ rhs: Value,
               error: (Value) throws(DiceError) -> DiceError) throws(DiceError) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        default:
            guard case .number(let a) = lhs else { throw try error(lhs) }
            guard case .number(let b) = rhs else { throw try error(rhs) }
            return holds(a, b)
        }
    }
}
