import Testing
@testable import DiceKit

/// `if C then A else B` and `let name = E in BODY` (LANGUAGE.md §5a): parsing, printing,
/// rolling with scripted dice (the branch not taken rolls nothing), the value path, errors.
@Suite struct ConditionalTests {
    // MARK: - Parsing

    static let trees: [DumpCase] = [
        DumpCase("if 1 then 2 else 3", "(if 1 2 3)"),
        DumpCase("if c then 1 else 2 + 3", "(if c 1 (+ 2 3))"),
        DumpCase("if 0 then 1 else if 0 then 2 else 3", "(if 0 1 (if 0 2 3))"),
        DumpCase("if a then if b then 1 else 2 else 3", "(if a (if b 1 2) 3)"),
        DumpCase("if 1d20 + 5 >= 15 then 1d8 else 0", "(if (>= (+ (dice 1 20) 5) 15) (dice 1 8) 0)"),
        DumpCase("let x = 1d6 in x * x", "(let x (dice 1 6) (* x x))"),
        DumpCase("let x = 1 in let y = x + 1 in y", "(let x 1 (let y (+ x 1) y))"),
        DumpCase("1 + (if x >= 5 then 2 else 0)", "(+ 1 (if (>= x 5) 2 0))"),
        DumpCase("max(let x = 1d6 in x, 3)", "(max (let x (dice 1 6) x) 3)"),
        DumpCase("{if 1 then 2 else 3, 4}kh1", "(group [(if 1 2 3) 4] kh1)"),
        DumpCase("repeat(2, let r = 1d4 in r * r)", "(repeat 2 (let r (dice 1 4) (* r r)))"),
        // Names that merely start with a keyword stay names.
        DumpCase("lets + inx + elsewhere + iffy + thence", "(chain lets + inx + elsewhere + iffy + thence)"),
    ]

    @Test(arguments: trees)
    func parses(_ c: DumpCase) throws {
        let expr = try Parser.parseExpression(c.input)
        #expect(expr.dump == c.dump)
        // Printing gives text that parses back to the same tree.
        #expect(try Parser.parseExpression(expr.text).dump == c.dump, "\(expr.text)")
    }

    @Test func printsWithParenthesesOnlyInsideOperators() throws {
        #expect(try Parser.parseExpression("1 + (if x then 2 else 3)").text == "1 + (if x then 2 else 3)")
        #expect(try Parser.parseExpression("(let r = 1d20 in r)").text == "let r = 1d20 in r")
        #expect(try Parser.parseExpression("if (if a then b else c) then 1 else 2").text
                    == "if if a then b else c then 1 else 2")
    }

    static let errors: [ParseErrorCase] = [
        ParseErrorCase("if 1d6 > 3 then 1‸", .expected(.elseWord, found: .end)),
        ParseErrorCase("if ‸then 1 else 2", .expected(.condition, found: .keyword(.then))),
        ParseErrorCase("if 1d6 > 3 ‸1 else 2", .expected(.thenWord, found: .integer(1))),
        ParseErrorCase("if 1 then 2 else‸", .expected(.elseBranch, found: .end)),
        ParseErrorCase("let x = 1d20 ‸x + 1", .expected(.inWord(name: "x"), found: .name("x"))),
        ParseErrorCase("let ‸3 = 1 in 2", .expected(.boundName, found: .integer(3))),
        ParseErrorCase("let x ‸1 in x", .expected(.bindingEquals(name: "x"), found: .integer(1))),
        ParseErrorCase("let x = 1 in‸", .expected(.bindingBody, found: .end)),
        ParseErrorCase("let ‸in = 2 in 3", .reservedWord("in")),
        ParseErrorCase("‸else = 3", .reservedWord("else")),
        ParseErrorCase("def ‸then = 3", .reservedWord("then")),
        ParseErrorCase("def f(a, ‸if) = 3", .reservedWord("if")),
        ParseErrorCase("1 + ‸if 1 then 2 else 3", .expected(.expression, found: .keyword(.if))),
    ]

    @Test(arguments: errors)
    func reportsErrorAtColumn(_ c: ParseErrorCase) {
        let marked = MarkedText(c.marked)
        let error = diceError { () throws(DiceError) in try Parser.parseProgram(marked.text) }
        #expect(error?.kind == c.expected)
        #expect(error?.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
    }

    // MARK: - Rolling

    struct RollCase: Sendable, CustomTestStringConvertible {
        var text: String
        var faces: [Int]
        var value: Number
        var breakdown: String
        var testDescription: String { text }
    }

    static let rolls: [RollCase] = [
        RollCase(text: "let r = 1d20 in if r == 20 then 2d8 + 3 else 0", faces: [20, 3, 7], value: .integer(13),
                 breakdown: "let r = 1d20 (20) in r (20) == 20 → 2d8 (3, 7) + 3 = 13"),
        // The branch not taken rolls nothing: the face after the d20 is left for the next roll.
        RollCase(text: "let r = 1d20 in if r == 20 then 2d8 + 3 else 0", faces: [4], value: .integer(0),
                 breakdown: "let r = 1d20 (4) in r (4) != 20 → 0 = 0"),
        RollCase(text: "let x = 1d6 in x * x", faces: [5], value: .integer(25),
                 breakdown: "let x = 1d6 (5) in x (5) * x (5) = 25"),
        RollCase(text: "if 1d6 >= 5 then 2d6 else 1d6", faces: [5, 1, 2], value: .integer(3),
                 breakdown: "1d6 (5) >= 5 → 2d6 (1, 2) = 3"),
        RollCase(text: "if 1 then 1 else 1/0", faces: [], value: .integer(1), breakdown: "1 → 1 = 1"),
        // A failed condition of an `else if` chain is left out, unless it rolled dice.
        RollCase(text: "if 1d20 >= 15 then 1 else if 1d20 >= 10 then 2 else 3", faces: [3, 12], value: .integer(2),
                 breakdown: "1d20 (3) < 15 → 1d20 (12) >= 10 → 2 = 2"),
        RollCase(text: "let r = 1d20 in if r == 20 then 2 else if r >= 10 then 1 else 0", faces: [12], value: .integer(1),
                 breakdown: "let r = 1d20 (12) in r (12) >= 10 → 1 = 1"),
        RollCase(text: "let str = 10 in str + 1", faces: [], value: .integer(11),
                 breakdown: "let str = 10 in str (10) + 1 = 11"),
    ]

    @Test(arguments: rolls)
    func rollsOnlyTheBranchTaken(_ c: RollCase) throws {
        var source = ScriptedDice(c.faces)
        var environment = Environment()
        environment.setVariable("str", to: .integer(3))
        let roll = try Dice.roll(c.text, environment: environment, using: &source)
        #expect(roll.value == c.value)
        #expect(RollRenderer.plain.render(roll) == c.breakdown)
        #expect(source.position == c.faces.count, "rolled \(source.position) of \(c.faces.count) faces")
        // JSON lists the dice of the tree, and so of the branch taken only.
        let shown = roll.pools.reduce(0) { $0 + $1.dice.count }
        #expect(shown == c.faces.count)
    }

    @Test func aLetNameShadowsOnlyInsideItsBody() throws {
        var session = Session(seed: 1)
        for statement in try Parser.parseProgram("x = 3") { _ = try session.execute(statement) }
        #expect(try session.value(of: Parser.parseExpression("(let x = 10 in x) + x")) == .integer(13))
        let error = diceError { () throws(DiceError) in try session.value(of: Parser.parseExpression("(let y = 1 in y) + y")) }
        #expect(error != nil)
    }

    @Test func macrosWithParametersSeeTheirArgumentsInsideLets() throws {
        var session = Session(seed: 1)
        for statement in try Parser.parseProgram("def best(a, b) = if a >= b then a else b") { _ = try session.execute(statement) }
        for statement in try Parser.parseProgram("def scaled(n) = let twice = n * 2 in twice + n") { _ = try session.execute(statement) }
        #expect(try session.value(of: Parser.parseExpression("best(3, 9)")) == .integer(9))
        #expect(try session.value(of: Parser.parseExpression("scaled(5)")) == .integer(15))
        // A macro does not see the let names of the expression that uses it.
        for statement in try Parser.parseProgram("def leak = hidden") { _ = try session.execute(statement) }
        let error = diceError { () throws(DiceError) in try session.value(of: Parser.parseExpression("let hidden = 1 in leak")) }
        if case .inMacro(_, .unknownName("hidden", _))? = error?.kind {} else {
            Issue.record("expected an unknown name inside the macro, got \(String(describing: error))")
        }
    }

    /// The value path rolls the same dice and gives the same value as the tree.
    @Test(arguments: rolls)
    func theValuePathAgrees(_ c: RollCase) throws {
        var source = ScriptedDice(c.faces)
        var evaluator = Evaluator(environment: Environment(), source: source)
        evaluator.environment.setVariable("str", to: .integer(3))
        #expect(try evaluator.value(of: Parser.parseExpression(c.text)) == c.value)
        source = evaluator.source
        #expect(source.position == c.faces.count)
    }
}
