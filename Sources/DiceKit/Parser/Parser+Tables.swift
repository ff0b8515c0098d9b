/// Tables (LANGUAGE.md §5b): `match 2d6 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }`.
extension Parser {
    /// match = "match" given "{" { NEWLINE } entry { entrySeparator { NEWLINE } entry }
    ///         [ "," ] { NEWLINE } "}" ;
    /// (entries are separated by `,`, line breaks or both; `else`, when given, comes last)
    mutating func match() throws(DiceError) -> Expr {
        let start = try advance().range
        guard startsExpression else { throw expected(.operand(after: "match")) }
        let subject = try given()
        guard current.kind == .leftBrace else { throw expected(.matchBrace) }
        // Line breaks separate the entries, in the REPL too: the lexer must not skip them.
        if lookahead == nil { lexer.markMatchBody() }
        try advance()
        var entries: [MatchEntry] = []
        var otherwise: Expr?
        while try consume(.newline) {}
        while true {
            if otherwise != nil { throw DiceError(.entryAfterElse, at: current.range) }
            let (pattern, patternRange, result) = try entry()
            if let pattern {
                entries.append(MatchEntry(pattern, result, patternRange: patternRange))
            } else {
                otherwise = result
            }
            let comma = try consume(.comma)
            let lineBreak = current.kind == .newline ? current.range.lowerBound.offset : nil
            while try consume(.newline) {}
            if current.kind == .rightBrace { break }
            guard comma || lineBreak != nil else { throw expected(.entrySeparator) }
            if !comma, let lineBreak { entryBreaks.append(lineBreak) }
        }
        try advance()
        // Nothing goes on after a match's `}` (it is the loosest form): say how to go on.
        if continuesAnOperand(current.kind) { throw DiceError(.operatorAfterMatch(current.kind), at: current.range) }
        return Expr(.match(subject, entries, otherwise: otherwise), range(from: start))
    }

    /// Whether `kind` is an infix operator of the grammar, which would go on with the
    /// expression before it.
    func continuesAnOperand(_ kind: TokenKind) -> Bool {
        switch kind {
        case .caret, .keyword(.and), .keyword(.or), .keyword(.given): return true
        default:
            return Parser.additiveOperator(kind) != nil || Parser.multiplicativeOperator(kind) != nil
                || comparisonOperator(kind) != nil
        }
    }

    /// entry = ( pattern | "else" ) ":" expression ;
    /// (a `nil` pattern is the `else` entry)
    mutating func entry() throws(DiceError) -> (MatchEntry.Pattern?, SourceRange, Expr) {
        let patternStart = current.range
        var pattern: MatchEntry.Pattern?
        if current.kind == .keyword(.else) {
            try advance()
        } else {
            pattern = try self.pattern()
        }
        let patternRange = range(from: patternStart)
        try expect(.colon, .entryColon)
        guard startsExpression else { throw expected(.entryResult) }
        let result = try nested { (parser: inout Parser) throws(DiceError) in try parser.expression() }
        return (pattern, patternRange, result)
    }

    /// pattern = pointOp compareValue | compareValue [ "+" | "-" [ compareValue ] ] ;
    /// (`>=15`, `7`, `"orc"`, `10+`, `6-`, `7-9`, `-3--1`, `>=(dc + 10)`)
    mutating func pattern() throws(DiceError) -> MatchEntry.Pattern {
        if let op = pointOperator(current.kind) {
            let opToken = try advance()
            let spelling = lexer.text(opToken.range.lowerBound.offset..<opToken.range.upperBound.offset)
            return .point(ComparePoint(op, try compareValue(.patternBound), spelling: spelling))
        }
        switch current.kind {
        case .integer, .decimal, .minus, .plus, .text, .leftParen: break
        default: throw expected(.pattern)
        }
        // A parenthesised bound is an expression, whatever it is (`(3)`); the others are literals.
        let lowIsLiteral = current.kind != .leftParen
        let low = try compareValue(.patternBound)
        switch current.kind {
        case .plus:
            try advance()
            return .orMore(low)
        case .minus:
            try advance()
            if current.kind == .colon { return .orLess(low) }
            let highIsLiteral = current.kind != .leftParen
            let high = try compareValue(.patternBound)
            // Ends written as numbers out of order hold for no value: always a mistake. A
            // parenthesised end (`(n)-1`) is the author's to order.
            if lowIsLiteral, highIsLiteral, case .number(let a) = low.kind, case .number(let b) = high.kind, a > b {
                let lowText = lexer.text(low.range.lowerBound.offset..<low.range.upperBound.offset)
                let highText = lexer.text(high.range.lowerBound.offset..<high.range.upperBound.offset)
                throw DiceError(.emptyRange(low: lowText, high: highText), at: low.range.lowerBound..<high.range.upperBound)
            }
            return .between(low, high)
        default:
            return .equal(low)
        }
    }
}
