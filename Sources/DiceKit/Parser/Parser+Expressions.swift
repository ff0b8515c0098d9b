extension Parser {
    /// expression = conditional | binding | match | given ;
    mutating func expression() throws(DiceError) -> Expr {
        switch current.kind {
        case .keyword(.if): return try nested { (parser: inout Parser) throws(DiceError) in try parser.conditional() }
        case .keyword(.let): return try nested { (parser: inout Parser) throws(DiceError) in try parser.binding() }
        case .keyword(.match): return try nested { (parser: inout Parser) throws(DiceError) in try parser.match() }
        default: return try given()
        }
    }

    /// conditional = "if" expression "then" expression "else" expression ;
    /// (each part reaches as far right as it can, so `else if` chains)
    mutating func conditional() throws(DiceError) -> Expr {
        let start = try advance().range
        guard startsExpression else { throw expected(.condition) }
        let condition = try expression()
        try expect(.keyword(.then), .thenWord)
        guard startsExpression else { throw expected(.thenBranch) }
        let then = try expression()
        try expect(.keyword(.else), .elseWord)
        guard startsExpression else { throw expected(.elseBranch) }
        let otherwise = try expression()
        return Expr(.conditional(condition: condition, then: then, else: otherwise), range(from: start))
    }

    /// binding = "let" NAME "=" expression "in" expression ;
    mutating func binding() throws(DiceError) -> Expr {
        let start = try advance().range
        let name = try freeName(.boundName)
        try expect(.equal, .bindingEquals(name: name))
        guard startsExpression else { throw expected(.boundValue(name: name)) }
        let value = try expression()
        try expect(.keyword(.in), .inWord(name: name))
        guard startsExpression else { throw expected(.bindingBody) }
        let body = try expression()
        return Expr(.binding(name: name, value: value, body: body), range(from: start))
    }

    /// given = disjunction { "given" disjunction } ;
    /// (`E given C`: E conditioned on C; `a given b given c` conditions on both)
    mutating func given() throws(DiceError) -> Expr {
        try logical(of: { (parser: inout Parser) throws(DiceError) in try parser.disjunction() }, word: .given) { lhs, rhs in
            .given(lhs, condition: rhs)
        }
    }

    /// disjunction = conjunction { "or" conjunction } ;
    mutating func disjunction() throws(DiceError) -> Expr {
        try logical(of: { (parser: inout Parser) throws(DiceError) in try parser.conjunction() }, word: .or) { lhs, rhs in
            .logical(.or, lhs, rhs)
        }
    }

    /// conjunction = negation { "and" negation } ;
    mutating func conjunction() throws(DiceError) -> Expr {
        try logical(of: { (parser: inout Parser) throws(DiceError) in try parser.negation() }, word: .and) { lhs, rhs in
            .logical(.and, lhs, rhs)
        }
    }

    /// Operands of `operand` joined left to right by the keyword `word` into `combined`.
    private mutating func logical(
        of operand: (inout Parser) throws(DiceError) -> Expr, word: Keyword,
        _ combined: (Expr, Expr) -> Expr.Kind
    ) throws(DiceError) -> Expr {
        let start = current.range
        var expr = try operand(&self)
        while current.kind == .keyword(word) {
            try advance()
            guard startsExpression else { throw expected(.operand(after: word.rawValue)) }
            let rhs = try nested(operand)
            expr = Expr(combined(expr, rhs), range(from: start))
        }
        return expr
    }

    /// negation = "not" negation | comparison ;
    mutating func negation() throws(DiceError) -> Expr {
        guard current.kind == .keyword(.not) else { return try comparison() }
        let start = try advance().range
        guard startsExpression else { throw expected(.operand(after: "not")) }
        let operand = try nested { (parser: inout Parser) throws(DiceError) in try parser.negation() }
        return Expr(.not(operand), range(from: start))
    }

    /// comparison = additive [ compareOp additive ] ;  (comparisons do not chain)
    mutating func comparison() throws(DiceError) -> Expr {
        let start = current.range
        let lhs = try additive()
        guard let op = comparisonOperator(current.kind) else { return lhs }
        try advance()
        let rhs = try additive()
        if comparisonOperator(current.kind) != nil {
            throw DiceError(.chainedComparison, at: current.range)
        }
        return Expr(.comparison(op, lhs, rhs), range(from: start))
    }

    func comparisonOperator(_ kind: TokenKind) -> ComparisonOperator? {
        switch kind {
        case .equalEqual: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        default: return nil
        }
    }

    /// additive = multiplicative { ( "+" | "-" ) multiplicative } ;
    mutating func additive() throws(DiceError) -> Expr {
        try chain(of: { (parser: inout Parser) throws(DiceError) in try parser.multiplicative() },
                  operators: Parser.additiveOperator)
    }

    /// The operator of `additive` that `kind` spells, if any.
    static func additiveOperator(_ kind: TokenKind) -> BinaryOperator? {
        switch kind {
        case .plus: return .add
        case .minus: return .subtract
        default: return nil
        }
    }

    /// multiplicative = unary { ( "*" | "/" | "//" | "%" ) unary } ;
    mutating func multiplicative() throws(DiceError) -> Expr {
        try chain(of: { (parser: inout Parser) throws(DiceError) in try parser.unary() },
                  operators: Parser.multiplicativeOperator)
    }

    /// The operator of `multiplicative` that `kind` spells, if any.
    static func multiplicativeOperator(_ kind: TokenKind) -> BinaryOperator? {
        switch kind {
        case .star: return .multiply
        case .slash: return .divide
        case .slashSlash: return .floorDivide
        case .percent: return .modulo
        default: return nil
        }
    }

    private mutating func chain(
        of operand: (inout Parser) throws(DiceError) -> Expr,
        operators: (TokenKind) -> BinaryOperator?
    ) throws(DiceError) -> Expr {
        let start = current.range
        let first = try operand(&self)
        var rest: [Operation] = []
        while let op = operators(current.kind) {
            let operatorRange = try advance().range
            let rhs = try operand(&self)
            rest.append(Operation(op, rhs, operatorRange: operatorRange))
        }
        if rest.isEmpty { return first }
        return Expr(.chain(first, rest), range(from: start))
    }

    /// unary = ( "-" | "+" ) unary | power ;
    mutating func unary() throws(DiceError) -> Expr {
        let op: UnaryOperator
        switch current.kind {
        case .minus: op = .negate
        case .plus: op = .plus
        default: return try power()
        }
        let start = try advance().range
        let operand = try nested { (parser: inout Parser) throws(DiceError) in try parser.unary() }
        return Expr(.unary(op, operand), range(from: start))
    }

    /// power = annotated [ "^" unary ] ;  (right-associative; `2^-1` is 0.5)
    mutating func power() throws(DiceError) -> Expr {
        let start = current.range
        let base = try annotated()
        guard current.kind == .caret else { return base }
        try advance()
        let exponent = try nested { (parser: inout Parser) throws(DiceError) in try parser.unary() }
        return Expr(.power(base, exponent), range(from: start))
    }

    /// annotated = dice { ANNOTATION } ;
    mutating func annotated() throws(DiceError) -> Expr {
        let start = current.range
        var expr = try dice()
        while case .annotation(let text) = current.kind {
            try advance()
            expr = Expr(.annotated(expr, text), range(from: start))
        }
        return expr
    }

    /// dice = ( DICE sides modifiers | field [ DICE sides modifiers ] ) { FIELD } ;
    /// (the `d` must touch the count: `4d6`, `(1d4)d6`; a field of the roll touches its end:
    /// `4dF.s`, as `(4dF).s`)
    mutating func dice() throws(DiceError) -> Expr {
        let start = current.range
        var count: Expr?
        if current.kind != .dice {
            let operand = try field()
            guard current.kind == .dice, current.range.lowerBound == operand.range.upperBound else {
                return operand
            }
            count = operand
        }
        let diceToken = try advance()
        var spelling = DiceTerm.Spelling(dice: lexer.text(diceToken.range.lowerBound.offset..<diceToken.range.upperBound.offset))
        if current.kind == .fateSides {
            let fate = lexer.text(current.range.lowerBound.offset..<current.range.upperBound.offset)
            if fate != "F" { spelling.fateSides = fate }
        }
        var sides = try self.sides(after: diceToken)
        if spelling.fateSides?.hasSuffix(".1") == true { sides = .faces(DiceTerm.fateOneFaces) }
        let modifiers = try self.modifiers()
        var expr = Expr(.dice(DiceTerm(count: count, sides: sides, modifiers: modifiers, spelling: spelling)),
                        range(from: start))
        while case .field(let name) = current.kind {
            try advance()
            expr = Expr(.field(expr, name), range(from: start))
        }
        return expr
    }

    /// sides = INTEGER | DECIMAL | "%" | fate | faces | parenthesized ;
    mutating func sides(after diceToken: Token) throws(DiceError) -> Sides {
        let adjacent = current.range.lowerBound == diceToken.range.upperBound
        switch current.kind {
        case .integer(let value) where adjacent:
            let token = try advance()
            return .number(Expr(.number(.integer(value)), token.range))
        case .decimal(let value) where adjacent:
            let token = try advance()
            return .number(Expr(.number(value), token.range))
        case .percentileSides:
            try advance()
            return .percentile
        case .fateSides:
            try advance()
            return .fate
        case .leftBrace where adjacent:
            return try faces()
        case .leftParen where adjacent:
            return .number(try parenthesized())
        default:
            throw expected(.sides)
        }
    }

    /// parenthesized = "(" expression ")" ;
    mutating func parenthesized() throws(DiceError) -> Expr {
        let open = try advance()
        return try nested { (parser: inout Parser) throws(DiceError) in
            guard parser.startsExpression else { throw parser.expected(.expression) }
            var inner = try parser.expression()
            try parser.expect(.rightParen, .closingParenthesis)
            inner.range = parser.range(from: open.range)
            return inner
        }
    }

    /// set = "(" expression "," expression { "," expression } ")" modifiers ;
    /// (d20's parenthesised set, LANGUAGE.md §3a: the group `{a, b, ...}`; a `(` whose
    /// expression no comma follows is read here as `parenthesized`)
    mutating func set() throws(DiceError) -> Expr {
        let open = try advance()
        // `()` and `(hits: ...`: a tally.
        if current.kind == .rightParen { return try tally(open: open) }
        if case .name = current.kind, try peekSecond().kind == .colon { return try tally(open: open) }
        let (members, isSet) = try nested { (parser: inout Parser) throws(DiceError) -> ([Expr], Bool) in
            guard parser.startsExpression else { throw parser.expected(.expression) }
            var members = [try parser.expression()]
            var isSet = false
            while try parser.consume(.comma) {
                isSet = true
                guard parser.startsExpression else { throw parser.expected(.expression) }
                members.append(try parser.expression())
            }
            try parser.expect(.rightParen, isSet ? .setSeparator : .closingParenthesis)
            return (members, isSet)
        }
        if !isSet, var inner = members.first {
            inner.range = range(from: open.range)
            return inner
        }
        let modifiers = try self.modifiers()
        return Expr(.group(members, modifiers, parenthesized: true), range(from: open.range))
    }

    /// field = primary { FIELD } ;
    /// (a tally's field: `t.hits`, `(p).x`, the `.` touching what comes before it)
    mutating func field() throws(DiceError) -> Expr {
        let start = current.range
        var expr = try primary()
        while case .field(let name) = current.kind {
            try advance()
            expr = Expr(.field(expr, name), range(from: start))
        }
        return expr
    }

    /// primary = INTEGER | DECIMAL | TEXT | NAME | call | repeatCall | countCall | tally | set
    ///         | parenthesized | group ;
    mutating func primary() throws(DiceError) -> Expr {
        let token = current
        switch token.kind {
        case .integer(let value):
            try advance()
            return Expr(.number(.integer(value)), token.range)
        case .decimal(let value):
            try advance()
            return Expr(.number(value), token.range)
        case .text(let text):
            try advance()
            return Expr(.text(text), token.range)
        case .name(let name):
            try advance()
            if current.kind == .leftParen {
                if name == "repeat" { return try repeatCall(start: token.range) }
                if name == "count" { return try countCall(start: token.range) }
                return try call(name, start: token.range)
            }
            if Function(rawValue: name) != nil || name == "repeat" || name == "count" {
                throw DiceError(.functionNotCalled(name), at: token.range)
            }
            return Expr(.name(name), token.range)
        case .leftParen:
            return try self.set()
        case .leftBrace:
            return try group()
        default:
            if case .annotation = token.kind { throw unexpected() }
            throw expected(.expression)
        }
    }

    /// call = NAME "(" [ expression { "," expression } ] ")" ;
    /// (the NAME, already read, is a function or a macro; `repeat` has its own rule)
    mutating func call(_ name: String, start: SourceRange) throws(DiceError) -> Expr {
        let arguments = try self.arguments(of: name)
        let callRange = range(from: start)
        if let function = Function(rawValue: name) {
            let (minimum, maximum) = function.arity
            if arguments.count < minimum || (maximum.map { arguments.count > $0 } ?? false) {
                throw DiceError(.wrongArgumentCount(function: name, minimum: minimum, maximum: maximum,
                                                    got: arguments.count), at: callRange)
            }
            return Expr(.function(function, arguments), callRange)
        }
        return Expr(.call(name, arguments), callRange)
    }

    /// repeatCall = "repeat" "(" expression "," expression ")" modifiers ;
    /// (the `repeat`, already read, starts at `start`; other numbers of arguments are an error)
    mutating func repeatCall(start: SourceRange) throws(DiceError) -> Expr {
        let arguments = try self.arguments(of: "repeat")
        guard arguments.count == 2 else {
            throw DiceError(.wrongArgumentCount(function: "repeat", minimum: 2, maximum: 2, got: arguments.count),
                            at: range(from: start))
        }
        let modifiers = try self.modifiers()
        return Expr(.repeat(count: arguments[0], body: arguments[1], modifiers: modifiers), range(from: start))
    }

    /// The arguments of a call, from its `(` to its `)`.
    private mutating func arguments(of name: String) throws(DiceError) -> [Expr] {
        try advance()
        return try nested { (parser: inout Parser) throws(DiceError) -> [Expr] in
            var arguments: [Expr] = []
            if parser.current.kind != .rightParen {
                repeat {
                    arguments.append(try parser.expression())
                } while try parser.consume(.comma)
            }
            try parser.expect(.rightParen, .argumentSeparator(function: name))
            return arguments
        }
    }

    /// group = "{" expression { "," expression } "}" modifiers ;
    mutating func group() throws(DiceError) -> Expr {
        let open = try advance()
        let members = try nested { (parser: inout Parser) throws(DiceError) -> [Expr] in
            var members: [Expr] = []
            repeat {
                guard parser.startsExpression else { throw parser.expected(.expression) }
                members.append(try parser.expression())
            } while try parser.consume(.comma)
            try parser.expect(.rightBrace, .groupSeparator)
            return members
        }
        let modifiers = try self.modifiers()
        return Expr(.group(members, modifiers, parenthesized: false), range(from: open.range))
    }
}
