extension Parser {
    /// modifiers = { modifier } ;
    mutating func modifiers() throws(DiceError) -> [DiceModifier] {
        var result: [DiceModifier] = []
        while case .modifier(let keyword) = current.kind {
            result.append(try modifier(keyword))
        }
        return result
    }

    /// modifier = ( "kh" | "k" | "kl" | "dh" | "dl" | "d" ) [ count ]
    ///          | ( "mi" | "ma" | "min" | "max" ) count
    ///          | ( "!" | "!!" | "!p" | "x" | "xo" | "r" | "rr" | "ro" ) [ comparePoint ]
    ///          | ( "e" | "cs" | "cf" | "df" ) comparePoint
    ///          | "s" | "sa" | "sd" | "u" ;
    mutating func modifier(_ keyword: ModifierKeyword) throws(DiceError) -> DiceModifier {
        let token = try advance()
        let kind: DiceModifier.Kind
        switch keyword {
        case .keepHighest, .keep: kind = .keep(.highest, count: try count(after: token))
        case .keepLowest: kind = .keep(.lowest, count: try count(after: token))
        case .dropHighest: kind = .drop(.highest, count: try count(after: token))
        case .dropLowest, .drop: kind = .drop(.lowest, count: try count(after: token))
        case .minimum, .minimumWord: kind = .minimum(try requiredCount(keyword, after: token))
        case .maximum, .maximumWord: kind = .maximum(try requiredCount(keyword, after: token))
        case .explode, .explodeX: kind = .explode(.explode, try comparePoint(after: token))
        case .explodeE: kind = .explode(.explode, try requiredComparePoint(keyword, after: token))
        case .explodeOnce: kind = .explode(.once, try comparePoint(after: token))
        case .compound: kind = .explode(.compound, try comparePoint(after: token))
        case .penetrate: kind = .explode(.penetrate, try comparePoint(after: token))
        case .reroll, .rerollUntil: kind = .reroll(once: false, try comparePoint(after: token))
        case .rerollOnce: kind = .reroll(once: true, try comparePoint(after: token))
        case .countSuccesses: kind = .countSuccesses(try requiredComparePoint(keyword, after: token))
        case .countFailures: kind = .countFailures(try requiredComparePoint(keyword, after: token))
        case .subtractFailures: kind = .subtractFailures(try requiredComparePoint(keyword, after: token))
        case .sort, .sortAscending: kind = .sort(ascending: true)
        case .sortDescending: kind = .sort(ascending: false)
        case .unique: kind = .unique
        }
        return DiceModifier(kind, range(from: token.range), spelling: keyword.rawValue)
    }

    /// count = INTEGER | DECIMAL | parenthesized ;
    /// (touching the modifier; `nil` when none follows)
    mutating func count(after token: Token) throws(DiceError) -> Expr? {
        guard current.range.lowerBound == previousEnd else { return nil }
        switch current.kind {
        case .integer(let value):
            let number = try advance()
            return Expr(.number(.integer(value)), number.range)
        case .decimal(let value):
            let number = try advance()
            return Expr(.number(value), number.range)
        case .leftParen:
            return try parenthesized()
        default:
            return nil
        }
    }

    mutating func requiredCount(_ keyword: ModifierKeyword, after token: Token) throws(DiceError) -> Expr {
        guard let count = try count(after: token) else {
            throw DiceError(.modifierNeedsCount(keyword), at: current.range)
        }
        return count
    }

    /// comparePoint = [ pointOp ] compareValue ;
    /// (touching the modifier, and the value touching the operator; `nil` when none follows)
    mutating func comparePoint(after token: Token) throws(DiceError) -> ComparePoint? {
        guard current.range.lowerBound == previousEnd else { return nil }
        guard let op = pointOperator(current.kind) else {
            switch current.kind {
            case .integer, .decimal, .leftParen: return ComparePoint(.equal, try compareValue())
            default: return nil
            }
        }
        let opToken = try advance()
        guard current.range.lowerBound == opToken.range.upperBound else {
            throw DiceError(.spaceInComparePoint(after: opToken.kind), at: current.range)
        }
        let spelling = lexer.text(opToken.range.lowerBound.offset..<opToken.range.upperBound.offset)
        return ComparePoint(op, try compareValue(), spelling: spelling)
    }

    /// The operator of a compare point the token is (`pointOp`): `=` and `==` are equality,
    /// `<>` and `!=` inequality; `nil` for any other token.
    func pointOperator(_ kind: TokenKind) -> ComparisonOperator? {
        switch kind {
        case .equal, .equalEqual: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        default: return nil
        }
    }

    mutating func requiredComparePoint(_ keyword: ModifierKeyword, after token: Token) throws(DiceError) -> ComparePoint {
        guard let point = try comparePoint(after: token) else {
            throw DiceError(.modifierNeedsComparePoint(keyword), at: current.range)
        }
        return point
    }

    /// compareValue = [ "-" | "+" ] ( INTEGER | DECIMAL ) | TEXT | parenthesized ;
    /// (a text for text dice: `cs="hit"`, `count(p, ="hit")`; `what` names the place in the
    /// error when none follows)
    mutating func compareValue(_ what: DiceError.Expectation = .compareValue) throws(DiceError) -> Expr {
        let start = current.range
        var negative = false
        if current.kind == .minus || current.kind == .plus {
            negative = current.kind == .minus
            try advance()
        }
        switch current.kind {
        case .integer(let value):
            try advance()
            return Expr(.number(.integer(negative ? -value : value)), range(from: start))
        case .decimal(let value):
            try advance()
            // A literal is never negative, so its negation always fits.
            return Expr(.number(negative ? (try? value.negated()) ?? value : value), range(from: start))
        case .leftParen where !negative:
            return try parenthesized()
        case .text(let text) where !negative:
            try advance()
            return Expr(.text(text), range(from: start))
        default:
            throw expected(what)
        }
    }
}
