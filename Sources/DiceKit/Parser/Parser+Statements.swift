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
        try checkChatCommand()
        let result = try statement()
        switch current.kind {
        case .newline, .semicolon, .end:
            return result
        default:
            throw unexpected(after: result)
        }
    }

    /// `/roll 1d20`, another program's chat command: an error that suggests the roll alone.
    private mutating func checkChatCommand() throws(DiceError) {
        guard current.kind == .slash else { return }
        let slash = current.range
        let word = try peekSecond()
        guard case .name(let name) = word.kind, word.range.lowerBound == slash.upperBound else { return }
        let end = lexer.lineEnd(from: word.range.upperBound.offset)
        let rest = lexer.text(word.range.upperBound.offset..<end)
        throw DiceError(.chatCommand(name, roll: Parser.trimmed(rest)), at: slash.lowerBound..<word.range.upperBound)
    }

    /// The error for a token that cannot continue the statement `result`, with a hint for
    /// other rollers' habits: their modifiers (`1d20x`, `4d6p1`) and statements side by side
    /// without `;` (`1d20, 1d20`, `3d6 1d6`).
    private func unexpected(after result: Stmt) -> DiceError {
        let start = result.range.lowerBound.offset
        let tokenStart = current.range.lowerBound.offset
        let tokenEnd = current.range.upperBound.offset
        let lineEnd = lexer.lineEnd(from: tokenEnd)
        func rewritten(_ replacement: String, keepingFrom resume: Int) -> String {
            lexer.text(start..<tokenStart) + replacement + lexer.text(resume..<lineEnd)
        }
        if let hint = habitHint(after: result) { return hint }
        switch current.kind {
        case .name(let word) where current.range.lowerBound == previousEnd:
            // Only right after dice (`1d20x`), not a number (`9x`) or a bare modifier (`4d6khx`).
            if Parser.endsInDiceTakingModifiers(result), let modifier = Parser.nativeModifier(for: word) {
                return DiceError(.foreignModifier(word, suggestion: Parser.trimmed(rewritten(modifier, keepingFrom: tokenEnd))),
                                 at: current.range)
            }
        case .comma:
            let suggestion = lineEnd - start <= 60 ? Parser.trimmed(
                Parser.trimmed(lexer.text(start..<tokenStart)) + "; " + Parser.trimmed(lexer.text(tokenEnd..<lineEnd))) : nil
            return DiceError(.missingSeparator(.comma, suggestion: suggestion), at: current.range)
        case .integer, .decimal, .dice, .leftParen, .leftBrace:
            guard current.range.lowerBound != previousEnd else { break }
            // A keyword in capitals (`STATS 1d6`, `IF x then ...`): the lower-case keyword.
            if case .expression(let expr) = result.kind, case .name(let word) = expr.kind,
               ["stats", "def", "if", "let"].contains(word.lowercased()), word != word.lowercased() {
                return DiceError(.foreignModifier(word, suggestion: Parser.trimmed(
                    word.lowercased() + " " + Parser.trimmed(lexer.text(tokenStart..<lineEnd)))), at: expr.range)
            }
            let suggestion = lineEnd - start <= 60
                ? Parser.trimmed(lexer.text(start..<previousEnd.offset)) + "; " + Parser.trimmed(lexer.text(tokenStart..<lineEnd))
                : nil
            return DiceError(.missingSeparator(current.kind, suggestion: suggestion.flatMap { Parser.parses($0) ? $0 : nil }),
                             at: current.range)
        default:
            break
        }
        return unexpected()
    }

    /// Whether `statement` ends in a dice term that may take another modifier: the term's
    /// last modifier, if any, has its argument written (`4d6kh` may yet want one).
    static func endsInDiceTakingModifiers(_ statement: Stmt) -> Bool {
        func last(_ expr: Expr) -> DiceTerm? {
            switch expr.kind {
            case .dice(let term): return term
            case .chain(let first, let rest): return last(rest.last?.operand ?? first)
            case .unary(_, let operand): return last(operand)
            case .power(_, let exponent): return last(exponent)
            case .comparison(_, _, let right): return last(right)
            default: return nil
            }
        }
        let expr: Expr
        switch statement.kind {
        case .expression(let e), .assignment(_, let e), .update(_, _, let e), .definition(_, _, _, let e), .stats(let e):
            expr = e
        case .compare(let exprs):
            guard let final = exprs.last else { return false }
            expr = final
        case .sweep(_, _, _, let to):
            expr = to
        case .use: return false
        }
        guard let term = last(expr) else { return false }
        guard let modifier = term.modifiers.last else { return true }
        switch modifier.kind {
        case .keep(_, let count), .drop(_, let count): return count != nil
        default: return true
        }
    }

    /// This language's spelling of another roller's modifier word: Avrae's drop `p` (`p1`,
    /// `pl1`, `ph1`) is `dl` or `dh`. (Foundry's explode `x` is a spelling of `!`, §3a.)
    static func nativeModifier(for word: String) -> String? {
        let letters = word.prefix(while: { $0.isLetter })
        let digits = word.dropFirst(letters.count)
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        switch letters {
        case "p", "pl": return digits.isEmpty && letters == "p" ? nil : "dl" + digits
        case "ph": return "dh" + digits
        default: return nil
        }
    }

    static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }

    /// Separators between statements belong to none of them: they do not count as tokens.
    mutating func skipSeparators() throws(DiceError) {
        while current.kind == .newline || current.kind == .semicolon {
            tokens = 0
            try advance()
        }
        tokens = 0
    }

    /// statement = definition | assignment | update | useStatement | statsStatement | expression ;
    mutating func statement() throws(DiceError) -> Stmt {
        let start = current.range
        switch current.kind {
        case .keywordDef:
            return try definition()
        case .keywordStats:
            return try statsStatement()
        case .name(let name):
            switch try peekSecond().kind {
            case .equal: return try assignment(name)
            case .update(let op): return try update(name, op)
            default: break
            }
        case .keyword(let word) where word != .if && word != .let:
            if try peekSecond().kind == .equal { throw DiceError(.reservedWord(word.rawValue), at: current.range) }
            if word == .use { return try useStatement() }
        default:
            break
        }
        if expressionsAreStats { return try statsStatement() }
        let expr = try expression()
        return Stmt(.expression(expr), range(from: start))
    }

    /// definition = "def" NAME [ "(" [ parameter { "," parameter } ] ")" ] "=" expression ;
    /// (parameters with defaults come after those without)
    mutating func definition() throws(DiceError) -> Stmt {
        let start = try advance().range
        let name = try freeName(.macroName)
        var parameters: [String] = []
        var defaults: [String: Expr] = [:]
        if current.kind == .leftParen {
            try advance()
            if current.kind != .rightParen {
                repeat {
                    let nameRange = current.range
                    let (parameter, value) = try self.parameter()
                    guard !parameters.contains(parameter) else {
                        throw DiceError(.parameterNamedTwice(parameter), at: nameRange)
                    }
                    if let value {
                        defaults[parameter] = value
                    } else if !defaults.isEmpty {
                        throw DiceError(.requiredParameterAfterDefault(parameter), at: nameRange)
                    }
                    parameters.append(parameter)
                } while try consume(.comma)
            }
            try expect(.rightParen, .closingParenthesisAfterParameters)
        }
        // A default is worked out where the macro is used, among the caller's names: one that
        // named a parameter read whatever the caller had of that name (`x = 10; def f(x, y = x)`
        // made `f(2)` 12), so it is an error here.
        let names = Set(parameters)
        for parameter in parameters {
            if let read = defaults[parameter]?.firstRead(of: names) {
                throw DiceError(.defaultReadsParameter(parameter: parameter, read: read.name), at: read.range)
            }
        }
        try expect(.equal, .definitionEquals(name: name, parameters: parameters))
        guard startsExpression else { throw expected(.macroBody) }
        let body = try expression()
        var statement = Stmt(.definition(name: name, parameters: parameters, defaults: defaults, body: body),
                             range(from: start))
        statement.doc = lexer.docComment(above: start.lowerBound).flatMap { $0.isEmpty ? nil : $0 }
        return statement
    }

    /// parameter = NAME [ "=" expression ] ;
    /// (a default value, evaluated at each call that leaves the parameter out)
    mutating func parameter() throws(DiceError) -> (String, Expr?) {
        let name = try freeName(.parameterName)
        guard try consume(.equal) else { return (name, nil) }
        guard startsExpression else { throw expected(.defaultValue(parameter: name)) }
        return (name, try nested { (parser: inout Parser) throws(DiceError) in try parser.expression() })
    }

    /// useStatement = "use" [ NAME ] ;
    /// (`use pbta` defines a game system's macros; `use` alone lists the systems)
    mutating func useStatement() throws(DiceError) -> Stmt {
        let start = try advance().range
        switch current.kind {
        case .name(let system):
            try advance()
            return Stmt(.use(system), range(from: start))
        case .newline, .semicolon, .end:
            return Stmt(.use(nil), range(from: start))
        default:
            throw expected(.systemName)
        }
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

    /// update = NAME ( "+=" | "-=" | "*=" ) expression ;
    /// (the variable becomes `NAME op (expression)`: `hp -= 1d8`)
    mutating func update(_ name: String, _ op: BinaryOperator) throws(DiceError) -> Stmt {
        let start = current.range
        if ReservedNames.all.contains(name) {
            throw DiceError(.functionNameAssigned(name), at: start)
        }
        try advance()
        try advance()
        guard startsExpression else { throw expected(.updateValue(name: name, op)) }
        let value = try expression()
        return Stmt(.update(name: name, op, value), range(from: start))
    }

    /// statsStatement = "stats" expression ( sweep | { "," expression } ) ;
    /// (one expression is `.stats`, more are `.compare`; with `expressionsAreStats`, for
    /// `dice --stats`, an expression statement is read as this rule without the word `stats`)
    mutating func statsStatement() throws(DiceError) -> Stmt {
        let start = current.range
        if current.kind == .keywordStats { try advance() }
        var exprs = [try expression()]
        if case .name("for") = current.kind {
            let (name, from, to) = try sweep()
            return Stmt(.sweep(exprs[0], name: name, from: from, to: to), range(from: start))
        }
        while try consume(.comma) {
            guard startsExpression else { throw expected(.comparedExpression) }
            exprs.append(try expression())
        }
        if case .name("for") = current.kind { throw expected(.comparisonEnd) }
        let kind: Stmt.Kind = exprs.count == 1 ? .stats(exprs[0]) : .compare(exprs)
        return Stmt(kind, range(from: start))
    }

    /// sweep = "for" NAME "in" expression ".." expression ;
    /// (`stats 1d20 + 5 >= ac for ac in 10..20`: the bounds are checked when it runs)
    mutating func sweep() throws(DiceError) -> (name: String, from: Expr, to: Expr) {
        try advance()
        let name = try freeName(.sweepName)
        guard current.kind == .keyword(.in) else { throw expected(.sweepIn(name: name)) }
        try advance()
        guard startsExpression else { throw expected(.sweepStart(name: name)) }
        let from = try expression()
        guard current.kind == .dotDot else { throw expected(.sweepDots) }
        try advance()
        guard startsExpression else { throw expected(.sweepEnd) }
        let to = try expression()
        return (name, from, to)
    }

    /// A name that may be bound: not a keyword, function or dice form.
    mutating func freeName(_ what: DiceError.Expectation) throws(DiceError) -> String {
        if case .keyword(let word) = current.kind { throw DiceError(.reservedWord(word.rawValue), at: current.range) }
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
        case .integer, .decimal, .text, .name, .dice, .minus, .plus, .leftParen, .leftBrace,
             .keyword(.if), .keyword(.let), .keyword(.match), .keyword(.not):
            return true
        default: return false
        }
    }
}
