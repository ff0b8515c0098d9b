/// Tallies and bound pools (LANGUAGE.md §5b): `(hits: 3, glitch: 1)`, `count(p, >=5)`.
extension Parser {
    /// tally = "(" [ NAME ":" expression { "," NAME ":" expression } ] ")" ;
    /// (the `(`, already read, is `open`; `()` is the empty tally)
    mutating func tally(open: Token) throws(DiceError) -> Expr {
        let fields = try nested { (parser: inout Parser) throws(DiceError) -> [TallyField] in
            var fields: [TallyField] = []
            guard parser.current.kind != .rightParen else { return fields }
            var names: Set<String> = []
            repeat {
                guard case .name(let name) = parser.current.kind else { throw parser.expected(.tallyField) }
                guard names.insert(name).inserted else {
                    throw DiceError(.fieldNamedTwice(name), at: parser.current.range)
                }
                try parser.advance()
                try parser.expect(.colon, .tallyColon(field: name))
                guard parser.startsExpression else { throw parser.expected(.tallyValue(field: name)) }
                fields.append(TallyField(name, try parser.expression()))
            } while try parser.consume(.comma)
            return fields
        }
        try expect(.rightParen, .tallySeparator)
        return Expr(.tally(fields), range(from: open.range))
    }

    /// countCall = "count" "(" expression "," [ pointOp ] compareValue ")" ;
    /// (the `count`, already read, starts at `start`; spaces may stand around the operator)
    mutating func countCall(start: SourceRange) throws(DiceError) -> Expr {
        try advance()
        let (pool, point) = try nested { (parser: inout Parser) throws(DiceError) -> (Expr, ComparePoint) in
            guard parser.startsExpression else { throw parser.expected(.expression) }
            let pool = try parser.expression()
            try parser.expect(.comma, .countPoint)
            let point: ComparePoint
            if let op = parser.pointOperator(parser.current.kind) {
                let opToken = try parser.advance()
                let spelling = parser.lexer.text(opToken.range.lowerBound.offset..<opToken.range.upperBound.offset)
                point = ComparePoint(op, try parser.compareValue(), spelling: spelling)
            } else {
                point = ComparePoint(.equal, try parser.compareValue())
            }
            try parser.expect(.rightParen, .closingParenthesisAfterCount)
            return (pool, point)
        }
        return Expr(.count(pool, point), range(from: start))
    }
}
