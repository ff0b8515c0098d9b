extension Parser {
    /// program = { separator } [ statement { separator { separator } statement } ] ;
    mutating func program() throws(DiceError) -> [Stmt] {
        var statements: [Stmt] = []
        while let statement = try nextStatement() { statements.append(statement) }
        return statements
    }

    /// The next statement of the program with the separators around it, or `nil` at
    /// the end of the input: a script runs each statement before the next is read.
    public mutating func nextStatement() throws(DiceError) -> Stmt? {
        try checkPending()
        try skipSeparators()
        if current.kind == .end { return nil }
        depth = 0
        let result = try statement()
        switch current.kind {
        case .newline, .semicolon, .end:
            return result
        default:
            throw unexpected()
        }
    }

    mutating func skipSeparators() throws(DiceError) {
        while current.kind == .newline || current.kind == .semicolon { try advance() }
    }

    /// statement = definition | assignment | statsStatement | expression ;
    mutating func statement() throws(DiceError) -> Stmt {
        let start = current.range
        switch current.kind {
        case .keywordDef:
            return try definition()
        case .keywordStats:
            return try statsStatement()
        case .name(let name):
            if try peekSecond().kind == .equal {
                return try assignment(name)
            }
        default:
            break
        }
        if expressionsAreStats { return try statsStatement() }
        let expr = try expression()
        return Stmt(.expression(expr), range(from: start))
    }

    /// definition = "def" NAME [ "(" [ NAME { "," NAME } ] ")" ] "=" expression ;
    mutating func definition() throws(DiceError) -> Stmt {
        let start = try advance().range
        let name = try freeName(.macroName)
        var parameters: [String] = []
        if current.kind == .leftParen {
            try advance()
            if current.kind != .rightParen {
                repeat {
                    let nameRange = current.range
                    let parameter = try freeName(.parameterName)
                    guard !parameters.contains(parameter) else {
                        throw DiceError(.parameterNamedTwice(parameter), at: nameRange)
                    }
                    parameters.append(parameter)
                } while try consume(.comma)
            }
            try expect(.rightParen, .closingParenthesisAfterParameters)
        }
        try expect(.equal, .definitionEquals(name: name, parameters: parameters))
        guard startsExpression else { throw expected(.macroBody) }
        let body = try expression()
        return Stmt(.definition(name: name, parameters: parameters, body: body), range(from: start))
    }

    /// assignment = NAME "=" expression ;
    mutating func assignment(_ name: String) throws(DiceError) -> Stmt {
        let start = current.range
        if ReservedNames.all.contains(name) {
            throw DiceError(.functionNameAssigned(name), at: start)
        }
        try advance()
        try advance()
        guard startsExpression else { throw expected(.assignedValue(name: name)) }
        let value = try expression()
        return Stmt(.assignment(name: name, value), range(from: start))
    }

    /// statsStatement = "stats" expression { "," expression } ;
    /// (one expression is `.stats`, more are `.compare`; with `expressionsAreStats`, for
    /// `dice --stats`, an expression statement is read as this rule without the word `stats`)
    mutating func statsStatement() throws(DiceError) -> Stmt {
        let start = current.range
        if current.kind == .keywordStats { try advance() }
        var exprs = [try expression()]
        while try consume(.comma) {
            guard startsExpression else { throw expected(.comparedExpression) }
            exprs.append(try expression())
        }
        let kind: Stmt.Kind = exprs.count == 1 ? .stats(exprs[0]) : .compare(exprs)
        return Stmt(kind, range(from: start))
    }

    /// A name that may be bound: not a keyword, function or dice form.
    mutating func freeName(_ what: DiceError.Expectation) throws(DiceError) -> String {
        guard case .name(let name) = current.kind, !ReservedNames.all.contains(name) else { throw expected(what) }
        try advance()
        return name
    }

    /// Consumes `kind` if it is next.
    mutating func consume(_ kind: TokenKind) throws(DiceError) -> Bool {
        guard current.kind == kind else { return false }
        try advance()
        return true
    }

    var startsExpression: Bool {
        switch current.kind {
        case .integer, .decimal, .name, .dice, .minus, .plus, .leftParen, .leftBrace: return true
        default: return false
        }
    }
}
