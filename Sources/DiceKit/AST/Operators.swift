/// `-` and `+` before an operand.
package enum UnaryOperator: String, Hashable, Sendable {
    /// `-x`
    case negate = "-"
    /// `+x`: the value unchanged.
    case plus = "+"
}

/// `and`, `or`: each evaluates its right side only when needed, and yields 1 or 0.
package enum LogicalOperator: String, Hashable, Sendable {
    /// 1 when both sides are not 0.
    case and
    /// 1 when either side is not 0.
    case or
}

/// The left-associative arithmetic operators.
public enum BinaryOperator: String, Hashable, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    /// True division: `7 / 2` is `3.5`, `6 / 2` is `3`.
    case divide = "/"
    /// Floor division: `-7 // 2` is `-4`.
    case floorDivide = "//"
    /// Modulo with the sign of the divisor: `-7 % 3` is `2`.
    case modulo = "%"

    /// Whether the operator belongs to the additive level (`+ -`).
    var isAdditive: Bool { self == .add || self == .subtract }
}

/// The comparison operators, which yield 1 or 0 and do not chain.
package enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="

    /// The operator that holds exactly when this one does not: `<` for `>=`.
    var opposite: ComparisonOperator {
        switch self {
        case .equal: return .notEqual
        case .notEqual: return .equal
        case .less: return .greaterEqual
        case .lessEqual: return .greater
        case .greater: return .lessEqual
        case .greaterEqual: return .less
        }
    }

    /// Whether `lhs op rhs` holds.
    func holds(_ lhs: Number, _ rhs: Number) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs < rhs
        case .lessEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterEqual: return lhs >= rhs
        }
    }

    /// Whether `lhs op rhs` holds, for integers.
    @inline(__always)
    func holds(_ lhs: Int, _ rhs: Int) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs < rhs
        case .lessEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterEqual: return lhs >= rhs
        }
    }
}

/// The built-in functions.
package enum Function: String, Hashable, Sendable, CaseIterable {
    case abs, floor, ceil, round, min, max

    /// How many arguments it takes: exactly one, or one or more.
    var arity: (minimum: Int, maximum: Int?) {
        switch self {
        case .abs, .floor, .ceil, .round: return (1, 1)
        case .min, .max: return (1, nil)
        }
    }
}

/// The names that are not free for variables and macros.
enum ReservedNames {
    /// Functions, `repeat`, `count`, `def`, `stats` and the keywords (`if`, `then`, `else`,
    /// `let`, `in`, `match`, `and`, `or`, `not`, `given`, `use`).
    static let all: Set<String> = Set(Function.allCases.map { $0.rawValue }).union(["repeat", "count", "def", "stats"])
        .union(Keyword.allCases.map { $0.rawValue })
}
