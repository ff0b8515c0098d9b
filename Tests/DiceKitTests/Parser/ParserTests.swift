import Testing
@testable import DiceKit

/// An expression and its tree, as `Expr.dump` prints it.
struct DumpCase: Sendable, CustomTestStringConvertible {
    var input: String
    var dump: String
    init(_ input: String, _ dump: String) {
        self.input = input
        self.dump = dump
    }
    var testDescription: String { input }
}

/// A program and the dumps of its statements.
struct ProgramCase: Sendable, CustomTestStringConvertible {
    var input: String
    var dumps: [String]
    init(_ input: String, _ dumps: [String]) {
        self.input = input
        self.dumps = dumps
    }
    var testDescription: String { input.debugDescription }
}

/// Input with the error position marked by `‸` (see `MarkedText`), and the error.
struct ParseErrorCase: Sendable, CustomTestStringConvertible {
    var marked: String
    var expected: DiceError.Kind
    init(_ marked: String, _ expected: DiceError.Kind) {
        self.marked = marked
        self.expected = expected
    }
    var testDescription: String { marked.debugDescription }
}

@Suite struct ParserTests {
    // MARK: - Precedence (LANGUAGE.md §1)

    static let precedence: [DumpCase] = [
        DumpCase("-2^2", "(neg (^ 2 2))"),
        DumpCase("2*3d6", "(* 2 (dice 3 6))"),
        DumpCase("-2d6", "(neg (dice 2 6))"),
        DumpCase("2^-1", "(^ 2 (neg 1))"),
        DumpCase("2^3^2", "(^ 2 (^ 3 2))"),
        DumpCase("(2^3)^2", "(^ (^ 2 3) 2)"),
        DumpCase("2d6^2", "(^ (dice 2 6) 2)"),
        DumpCase("2^3d6", "(^ 2 (dice 3 6))"),
        DumpCase("-x^2", "(neg (^ x 2))"),
        DumpCase("1 + 2 >= 3 * 4", "(>= (+ 1 2) (* 3 4))"),
        DumpCase("1d20 + 5 >= 15", "(>= (+ (dice 1 20) 5) 15)"),
        DumpCase("1 + 2 * 3", "(+ 1 (* 2 3))"),
        DumpCase("(1 + 2) * 3", "(* (+ 1 2) 3)"),
        DumpCase("1 - 2 - 3", "(chain 1 - 2 - 3)"),
        DumpCase("1 - 2 + 3 * 4 - 5", "(chain 1 - 2 + (* 3 4) - 5)"),
        DumpCase("1 * 2 / 3 // 4 % 5", "(chain 1 * 2 / 3 // 4 % 5)"),
        DumpCase("-2 * 3", "(* (neg 2) 3)"),
        DumpCase("2 * -3", "(* 2 (neg 3))"),
        DumpCase("--3", "(neg (neg 3))"),
        DumpCase("+3", "(pos 3)"),
        DumpCase("-+3", "(neg (pos 3))"),
        DumpCase("1.5 + 2", "(+ 1.5 2)"),
        DumpCase("1 == 1", "(== 1 1)"),
        DumpCase("1 != 2", "(!= 1 2)"),
        DumpCase("a < b", "(< a b)"),
        DumpCase("1 <= 2", "(<= 1 2)"),
        DumpCase("1 > 2", "(> 1 2)"),
        DumpCase("(1 < 2) < 3", "(< (< 1 2) 3)"),
        DumpCase("1 < (2 < 3)", "(< 1 (< 2 3))"),
        DumpCase("((((1))))", "1"),
    ]

    // MARK: - Dice forms (§2)

    static let diceForms: [DumpCase] = [
        DumpCase("d20", "(dice _ 20)"),
        DumpCase("d6", "(dice _ 6)"),
        DumpCase("4d6", "(dice 4 6)"),
        DumpCase("0d6", "(dice 0 6)"),
        DumpCase("d%", "(dice _ %)"),
        DumpCase("100d%", "(dice 100 %)"),
        DumpCase("4dF", "(dice 4 F)"),
        DumpCase("dF", "(dice _ F)"),
        DumpCase("d{1,1,2,3}", "(dice _ {1,1,2,3})"),
        DumpCase("2d{-1,0,1}", "(dice 2 {-1,0,1})"),
        DumpCase("d{+1, 2}", "(dice _ {1,2})"),
        DumpCase("(1d4)d6", "(dice (dice 1 4) 6)"),
        DumpCase("2d(size)", "(dice 2 size)"),
        DumpCase("(lvl)d8", "(dice lvl 8)"),
        DumpCase("d(1 + 1)", "(dice _ (+ 1 1))"),
        DumpCase("(n + 1)d(2 * s)", "(dice (+ n 1) (* 2 s))"),
        DumpCase("abs(2)d6", "(dice (abs 2) 6)"),
        DumpCase("2d6.5", "(dice 2 6.5)"),
        DumpCase("1d4d6", "(dice 1 4 dl6)"),
        DumpCase("dex + d6", "(+ dex (dice _ 6))"),
        DumpCase("d", "d"),
    ]

    // MARK: - Modifiers and compare points (§3)

    static let modifiers: [DumpCase] = [
        DumpCase("4d6kh3", "(dice 4 6 kh3)"),
        DumpCase("4d6kh", "(dice 4 6 kh)"),
        DumpCase("4d6k3", "(dice 4 6 kh3)"),
        DumpCase("4d6k", "(dice 4 6 kh)"),
        DumpCase("4d6kl2", "(dice 4 6 kl2)"),
        DumpCase("4d6kl", "(dice 4 6 kl)"),
        DumpCase("4d6dh2", "(dice 4 6 dh2)"),
        DumpCase("4d6dh", "(dice 4 6 dh)"),
        DumpCase("4d6dl2", "(dice 4 6 dl2)"),
        DumpCase("4d6dl", "(dice 4 6 dl)"),
        DumpCase("4d6d1", "(dice 4 6 dl1)"),
        DumpCase("4d6d", "(dice 4 6 dl)"),
        DumpCase("2d6!", "(dice 2 6 !)"),
        DumpCase("2d6!=3", "(dice 2 6 !=3)"),
        DumpCase("2d6!3", "(dice 2 6 !=3)"),
        DumpCase("2d6!==3", "(dice 2 6 !=3)"),
        DumpCase("2d6!>4", "(dice 2 6 !>4)"),
        DumpCase("2d6!>=5", "(dice 2 6 !>=5)"),
        DumpCase("2d6!<2", "(dice 2 6 !<2)"),
        DumpCase("2d6!<=2", "(dice 2 6 !<=2)"),
        DumpCase("2d6!=-1", "(dice 2 6 !=-1)"),
        DumpCase("2d6!>+1", "(dice 2 6 !>1)"),
        DumpCase("2d6!!", "(dice 2 6 !!)"),
        DumpCase("2d6!!=4", "(dice 2 6 !!=4)"),
        DumpCase("2d6!!4", "(dice 2 6 !!=4)"),
        DumpCase("2d6!!>=5", "(dice 2 6 !!>=5)"),
        DumpCase("2d6!p", "(dice 2 6 !p)"),
        DumpCase("2d6!p>5", "(dice 2 6 !p>5)"),
        DumpCase("2d6r", "(dice 2 6 r)"),
        DumpCase("2d6r<3", "(dice 2 6 r<3)"),
        DumpCase("1d6r1r2", "(dice 1 6 r=1 r=2)"),
        DumpCase("2d6r!=2", "(dice 2 6 r<>2)"),
        DumpCase("2d6r<>2", "(dice 2 6 r<>2)"),
        DumpCase("2d6ro", "(dice 2 6 ro)"),
        DumpCase("2d6ro1", "(dice 2 6 ro=1)"),
        DumpCase("2d6ro<3", "(dice 2 6 ro<3)"),
        DumpCase("2d6rro", "(dice 2 6 r ro)"),
        DumpCase("2d6mi2", "(dice 2 6 mi2)"),
        DumpCase("2d6ma5", "(dice 2 6 ma5)"),
        DumpCase("6d10cs>=8", "(dice 6 10 cs>=8)"),
        DumpCase("6d10cs8", "(dice 6 10 cs=8)"),
        DumpCase("6d10cf<3", "(dice 6 10 cf<3)"),
        DumpCase("6d10df=1", "(dice 6 10 df=1)"),
        DumpCase("6d10cs>=8df=1", "(dice 6 10 cs>=8 df=1)"),
        DumpCase("4d6s", "(dice 4 6 sa)"),
        DumpCase("4d6sa", "(dice 4 6 sa)"),
        DumpCase("4d6sd", "(dice 4 6 sd)"),
        DumpCase("4d6kh(n)", "(dice 4 6 kh(n))"),
        DumpCase("4d6ma(1 + 1)", "(dice 4 6 ma((+ 1 1)))"),
        DumpCase("4d6kh((2))", "(dice 4 6 kh2)"),
        DumpCase("4d6kh1.5", "(dice 4 6 kh1.5)"),
        DumpCase("2d6cs>(x)", "(dice 2 6 cs>(x))"),
        DumpCase("2d6!>(1d4)", "(dice 2 6 !>((dice 1 4)))"),
        DumpCase("6d10!cs>=8", "(dice 6 10 ! cs>=8)"),
        DumpCase("3d6kh2!", "(dice 3 6 kh2 !)"),
        DumpCase("4d6!>=5kh3", "(dice 4 6 !>=5 kh3)"),
        DumpCase("4d6dh1dl1", "(dice 4 6 dh1 dl1)"),
        DumpCase("4d6mi2ma5r1!sd", "(dice 4 6 mi2 ma5 r=1 ! sd)"),
        DumpCase("4dFr", "(dice 4 F r)"),
        DumpCase("d{1,2,3}!kh1", "(dice _ {1,2,3} ! kh1)"),
        DumpCase("2d(6)kh1", "(dice 2 6 kh1)"),
        DumpCase("4d6kh3#a comment", "(dice 4 6 kh3)"),
        DumpCase("4d6kh3[str]", "(note (dice 4 6 kh3) \"str\")"),
    ]

    // MARK: - Groups, repeat, annotations, comments, functions (§1, §4)

    static let groupsAndMore: [DumpCase] = [
        DumpCase("{1d20+5, 1d20+5}kh1", "(group [(+ (dice 1 20) 5) (+ (dice 1 20) 5)] kh1)"),
        DumpCase("{1, 2, 3}", "(group [1 2 3])"),
        DumpCase("{3d6}", "(group [(dice 3 6)])"),
        DumpCase("{1d6, 1d8}cs>3", "(group [(dice 1 6) (dice 1 8)] cs>3)"),
        DumpCase("{1, {2, 3}kh1}dl1", "(group [1 (group [2 3] kh1)] dl1)"),
        DumpCase("{1 < 2, 3}", "(group [(< 1 2) 3])"),
        DumpCase("{1, 2}d1", "(group [1 2] dl1)"),
        DumpCase("repeat(3, 1d6)kh2", "(repeat 3 (dice 1 6) kh2)"),
        DumpCase("repeat(6, 4d6kh3)", "(repeat 6 (dice 4 6 kh3))"),
        DumpCase("repeat(0, 1d6)", "(repeat 0 (dice 1 6))"),
        DumpCase("repeat(n, (1d4)d6)cs>=5", "(repeat n (dice (dice 1 4) 6) cs>=5)"),
        DumpCase("2d6 [fire] + 1d8 [cold]", "(+ (note (dice 2 6) \"fire\") (note (dice 1 8) \"cold\"))"),
        DumpCase("2d6[fire]", "(note (dice 2 6) \"fire\")"),
        DumpCase("2d6 [  fire damage ]", "(note (dice 2 6) \"fire damage\")"),
        DumpCase("2d6 [a] [b]", "(note (note (dice 2 6) \"a\") \"b\")"),
        DumpCase("(1 + 2) [sum]", "(note (+ 1 2) \"sum\")"),
        DumpCase("2d6 [fire] * 2", "(* (note (dice 2 6) \"fire\") 2)"),
        DumpCase("1d20 # comment", "(dice 1 20)"),
        DumpCase("1d20+5#hit", "(+ (dice 1 20) 5)"),
        DumpCase("abs(-3)", "(abs (neg 3))"),
        DumpCase("floor(1.5) + ceil(x) + round(2.5)", "(chain (floor 1.5) + (ceil x) + (round 2.5))"),
        DumpCase("min(1, 2, 3)", "(min 1 2 3)"),
        DumpCase("max(1d6, 2)", "(max (dice 1 6) 2)"),
        DumpCase("min(1)", "(min 1)"),
        DumpCase("smite(2)", "(call smite 2)"),
        DumpCase("f()", "(call f)"),
        DumpCase("f(1, 2d6)", "(call f 1 (dice 2 6))"),
    ]

    @Test(arguments: precedence + diceForms + modifiers + groupsAndMore)
    func parsesExpression(_ c: DumpCase) throws {
        #expect(try Parser.parseExpression(c.input).dump == c.dump)
    }

    /// `!<>4` explodes on anything but 4; `!!=4` compounds on 4 (modifiers are read longest first).
    @Test func explodeOnAnythingButFourIsNotCompoundOnFour() throws {
        let explode = try Parser.parseExpression("2d6!<>4")
        let compound = try Parser.parseExpression("2d6!!=4")
        guard case .dice(let term) = explode.kind, case .explode(let kind, let point?) = term.modifiers.first?.kind,
              case .dice(let compoundTerm) = compound.kind,
              case .explode(let compoundKind, let compoundPoint?) = compoundTerm.modifiers.first?.kind else {
            Issue.record("unexpected trees \(explode.dump) and \(compound.dump)")
            return
        }
        #expect(kind == .explode && point.op == .notEqual && point.value.dump == "4")
        #expect(compoundKind == .compound && compoundPoint.op == .equal && compoundPoint.value.dump == "4")
        // The dump is the oracle of these tables: two different trees must not dump alike.
        #expect(explode.dump != compound.dump, "`2d6!<>4` and `2d6!!=4` both dump as \(explode.dump)")
    }

    // MARK: - Statements (§5)

    static let programs: [ProgramCase] = [
        ProgramCase("x = 3", ["(= x 3)"]),
        ProgramCase("x = 1d6 + 2", ["(= x (+ (dice 1 6) 2))"]),
        ProgramCase("x == 3", ["(== x 3)"]),
        ProgramCase("def atk = 1d20 + 5", ["(def atk [] (+ (dice 1 20) 5))"]),
        ProgramCase("def smite(n) = (n + 1)d8", ["(def smite [n] (dice (+ n 1) 8))"]),
        ProgramCase("def f(a, b) = a + b", ["(def f [a b] (+ a b))"]),
        ProgramCase("def f() = 3", ["(def f [] 3)"]),
        ProgramCase("stats 4d6kh3", ["(stats (dice 4 6 kh3))"]),
        ProgramCase("stats 1d20 + 5 >= 15", ["(stats (>= (+ (dice 1 20) 5) 15))"]),
        // `stats e1, e2, ...`: commas at the top level separate the expressions compared;
        // inside a call, a group or faces they stay the call's, the group's, the faces'.
        ProgramCase("stats 2d20kh1 + 5, 1d20 + 8", ["(stats (+ (dice 2 20 kh1) 5) (+ (dice 1 20) 8))"]),
        ProgramCase("stats 4d6kh3, 3d6, 4d6r1", ["(stats (dice 4 6 kh3) (dice 3 6) (dice 4 6 r=1))"]),
        ProgramCase("stats atk, atk2 >= 15", ["(stats atk (>= atk2 15))"]),
        ProgramCase("stats max(1d6, 2), {1d4, 1d4}kh1, d{1,2}", ["(stats (max (dice 1 6) 2) (group [(dice 1 4) (dice 1 4)] kh1) (dice _ {1,2}))"]),
        ProgramCase("stats repeat(2, 1d6)kh1, 1d6", ["(stats (repeat 2 (dice 1 6) kh1) (dice 1 6))"]),
        ProgramCase("stats 1d6, 1d8; stats 1d6", ["(stats (dice 1 6) (dice 1 8))", "(stats (dice 1 6))"]),
        ProgramCase("x = 1; y = 2\nx + y", ["(= x 1)", "(= y 2)", "(+ x y)"]),
        ProgramCase("\n\n1;;2\n", ["1", "2"]),
        ProgramCase("1d6\r\n2d6\r\n", ["(dice 1 6)", "(dice 2 6)"]),
        ProgramCase("#!/usr/bin/env dice\n1d6 # roll\n", ["(dice 1 6)"]),
        ProgramCase("", []),
        ProgramCase("# only a comment", []),
        ProgramCase(";\n;", []),
        ProgramCase("def atk = 1d20 + str; str = 3; atk", ["(def atk [] (+ (dice 1 20) str))", "(= str 3)", "atk"]),
    ]

    @Test(arguments: programs)
    func parsesProgram(_ c: ProgramCase) throws {
        #expect(try Parser.parseProgram(c.input).map(\.dump) == c.dumps)
    }

    /// Statements are read one at a time: what precedes an error is returned first.
    @Test func statementsBeforeAnErrorAreRead() throws {
        var parser = Parser(SourceFile(name: "<test>", text: "x = 1\ny = 2\n1 + * 2\nz = 3"))
        #expect(try parser.nextStatement()?.dump == "(= x 1)")
        #expect(try parser.nextStatement()?.dump == "(= y 2)")
        let error = diceError { () throws(DiceError) in try parser.nextStatement() }
        #expect(error?.position(in: "x = 1\ny = 2\n1 + * 2\nz = 3") == TextPosition(line: 3, column: 5))
    }

    /// `dice --stats`: an expression statement is read as a `stats` statement, so that a
    /// list of expressions compares them; other statements are read as usual.
    @Test func expressionsAreStatsForTheStatsOption() throws {
        var parser = Parser(SourceFile(name: "<-e>", text: "1d6\n2d20kh1 + 5, 1d20 + 8\nx = 3\ndef f = 1\nstats 1d4, 1d6"),
                            expressionsAreStats: true)
        var statements: [Stmt] = []
        while let statement = try parser.nextStatement() { statements.append(statement) }
        #expect(statements.map(\.dump) == ["(stats (dice 1 6))", "(stats (+ (dice 2 20 kh1) 5) (+ (dice 1 20) 8))",
                                             "(= x 3)", "(def f [] 1)", "(stats (dice 1 4) (dice 1 6))"])
        #expect(statements.map(\.text) == ["stats 1d6", "stats 2d20kh1 + 5, 1d20 + 8", "x = 3", "def f = 1",
                                             "stats 1d4, 1d6"])
        // The statement's range is its text, without a `stats` it did not have.
        let source = SourceFile(name: "<-e>", text: "2d6, 1d12")
        var single = Parser(source, expressionsAreStats: true)
        let comparison = try #require(try single.nextStatement())
        #expect(source.text(of: comparison.range) == "2d6, 1d12")
        guard case .compare(let exprs) = comparison.kind else {
            Issue.record("\(comparison.dump) is no comparison")
            return
        }
        #expect(exprs.map { source.text(of: $0.range) } == ["2d6", "1d12"])
    }

    /// A comparison prints as it reads: `parse(print(s))` is `s`.
    @Test func aComparisonPrintsBackToItself() throws {
        let statements = try Parser.parseProgram("stats {1d20+5,1d20+5}kh1 , max(1d20,1d20)+5,1d4>=2")
        #expect(statements.map(\.text) == ["stats {1d20 + 5, 1d20 + 5}kh1, max(1d20, 1d20) + 5, 1d4 >= 2"])
        #expect(try Parser.parseProgram(statements[0].text).map(\.dump) == statements.map(\.dump))
    }

    // MARK: - Errors and their columns

    static let errors: [ParseErrorCase] = [
        ParseErrorCase("1 + ‸* 2", .expected(.expression, found: .star)),
        ParseErrorCase("1 + 2‸)", .unexpectedToken(.rightParen)),
        ParseErrorCase("(1 + ‸)", .expected(.expression, found: .rightParen)),
        ParseErrorCase("{1,‸,2}", .expected(.expression, found: .comma)),
        ParseErrorCase("{‸}", .expected(.expression, found: .rightBrace)),
        ParseErrorCase("{1 ‸2}", .expected(.groupSeparator, found: .integer(2))),
        ParseErrorCase("2d‸", .expected(.sides, found: .end)),
        ParseErrorCase("2d ‸6", .expected(.sides, found: .integer(6))),
        ParseErrorCase("(1 + 2‸", .expected(.closingParenthesis, found: .end)),
        ParseErrorCase("4d6kh(1‸", .expected(.closingParenthesis, found: .end)),
        ParseErrorCase("1‸..2", .unexpectedToken(.dotDot)),
        ParseErrorCase("1 + ‸.5", .unexpectedCharacter("'.'")),
        ParseErrorCase("1.2‸.3", .unexpectedCharacter("'.'")),
        ParseErrorCase("1 ‸= 2", .unexpectedEquals),
        ParseErrorCase("‸= 3", .expected(.expression, found: .equal)),
        ParseErrorCase("def ‸= 3", .expected(.macroName, found: .equal)),
        ParseErrorCase("def x‸", .expected(.definitionEquals(name: "x", parameters: []), found: .end)),
        ParseErrorCase("def f(a, b) ‸3", .expected(.definitionEquals(name: "f", parameters: ["a", "b"]),
                                                  found: .integer(3))),
        ParseErrorCase("def x =‸", .expected(.macroBody, found: .end)),
        ParseErrorCase("def ‸stats = 1", .expected(.macroName, found: .keywordStats)),
        ParseErrorCase("stats 1d6,‸", .expected(.comparedExpression, found: .end)),
        ParseErrorCase("stats 1d6, ‸, 2d6", .expected(.comparedExpression, found: .comma)),
        ParseErrorCase("stats 1d6, ‸)", .expected(.comparedExpression, found: .rightParen)),
        ParseErrorCase("stats ‸, 1d6", .expected(.expression, found: .comma)),
        ParseErrorCase("stats 1d6, 2d6 + ‸", .expected(.expression, found: .end)),
        ParseErrorCase("1d6‸, 2d6", .missingSeparator(.comma, suggestion: "1d6; 2d6")),
        ParseErrorCase("x = 1d6‸, 2d6", .missingSeparator(.comma, suggestion: "x = 1d6; 2d6")),
        ParseErrorCase("def ‸abs = 1", .expected(.macroName, found: .name("abs"))),
        ParseErrorCase("def ‸d6 = 3", .expected(.macroName, found: .dice)),
        ParseErrorCase("def f(a, ‸a) = 3", .parameterNamedTwice("a")),
        ParseErrorCase("def f(‸1) = 3", .expected(.parameterName, found: .integer(1))),
        ParseErrorCase("def f(a ‸b) = 3", .expected(.closingParenthesisAfterParameters, found: .name("b"))),
        ParseErrorCase("d6 ‸= 3", .unexpectedEquals),
        ParseErrorCase("‸abs = 3", .functionNameAssigned("abs")),
        ParseErrorCase("x = ‸", .expected(.assignedValue(name: "x"), found: .end)),
        ParseErrorCase("‸abs(1, 2)", .wrongArgumentCount(function: "abs", minimum: 1, maximum: 1, got: 2)),
        ParseErrorCase("‸round()", .wrongArgumentCount(function: "round", minimum: 1, maximum: 1, got: 0)),
        ParseErrorCase("‸min()", .wrongArgumentCount(function: "min", minimum: 1, maximum: nil, got: 0)),
        ParseErrorCase("‸repeat(1)", .wrongArgumentCount(function: "repeat", minimum: 2, maximum: 2, got: 1)),
        ParseErrorCase("abs(1 ‸2)", .expected(.argumentSeparator(function: "abs"), found: .integer(2))),
        // Only repeatCall takes modifiers; after another call the lexer reads a name.
        ParseErrorCase("max(1, 2)‸kh1", .modifierAfterSpace("kh1")),
        ParseErrorCase("‸abs", .functionNotCalled("abs")),
        ParseErrorCase("‸repeat + 1", .functionNotCalled("repeat")),
        ParseErrorCase("2d6 ‸kh3", .modifierAfterSpace("kh3")),
        ParseErrorCase("2d6 ‸ro", .modifierAfterSpace("ro")),
        ParseErrorCase("2d6 ‸dl10", .modifierAfterSpace("dl10")),
        // A word that only starts like a keyword is a name out of place, not a modifier.
        ParseErrorCase("1 ‸dog", .unexpectedToken(.name("dog"))),
        ParseErrorCase("1d20 ‸str", .unexpectedToken(.name("str"))),
        ParseErrorCase("2d6 ‸kh3x", .unexpectedToken(.name("kh3x"))),
        ParseErrorCase("4d6!>‸", .expected(.compareValue, found: .end)),
        ParseErrorCase("4d6!> ‸5", .spaceInComparePoint(after: .greater)),
        ParseErrorCase("2d6!>‸x", .expected(.compareValue, found: .name("x"))),
        ParseErrorCase("2d6!>-‸(1)", .expected(.compareValue, found: .leftParen)),
        ParseErrorCase("4d6mi‸", .modifierNeedsCount(.minimum)),
        ParseErrorCase("4d6ma ‸2", .modifierNeedsCount(.maximum)),
        ParseErrorCase("6d10cs‸", .modifierNeedsComparePoint(.countSuccesses)),
        ParseErrorCase("6d10df ‸1", .modifierNeedsComparePoint(.subtractFailures)),
        ParseErrorCase("2d6!!‸p", .unexpectedToken(.name("p"))),
        ParseErrorCase("4d6 ‸!", .unexpectedCharacter("'!'")),
        ParseErrorCase("1 < 2 ‸< 3", .chainedComparison),
        ParseErrorCase("1 == 2 ‸!= 3", .chainedComparison),
        ParseErrorCase("(1 + 2)‸)", .unexpectedToken(.rightParen)),
        ParseErrorCase("‸[fire]", .annotationWithoutTerm),
        ParseErrorCase("2d6 ‸[fire", .unterminatedAnnotation),
        ParseErrorCase("d‸{}", .emptyFaces),
        ParseErrorCase("d{1,‸,2}", .expected(.face, found: .comma)),
        ParseErrorCase("d{1,‸x}", .expected(.face, found: .name("x"))),
        ParseErrorCase("d{1 ‸2}", .expected(.closingBraceAfterFaces, found: .integer(2))),
        ParseErrorCase("‸99999999999999999999", .integerTooLarge),
        ParseErrorCase("1 + ‸\(String(repeating: "9", count: 400)).5",
                       .decimalTooLarge(String(repeating: "9", count: 400) + ".5")),
        // Other rollers' habits get a did-you-mean.
        ParseErrorCase("1 ‸2", .missingSeparator(.integer(2), suggestion: "1; 2")),
        ParseErrorCase("1d20‸, 1d20", .missingSeparator(.comma, suggestion: "1d20; 1d20")),
        ParseErrorCase("3d6 ‸1d6 # two rolls", .missingSeparator(.integer(1), suggestion: "3d6; 1d6 # two rolls")),
        ParseErrorCase("x = 1 ‸(2)", .missingSeparator(.leftParen, suggestion: "x = 1; (2)")),
        ParseErrorCase(String(repeating: "1 + ", count: 15) + "1 ‸2", .missingSeparator(.integer(2), suggestion: nil)),
        ParseErrorCase("‸/roll 1d20 + 5", .chatCommand("roll", roll: "1d20 + 5")),
        ParseErrorCase("‸/r", .chatCommand("r", roll: "")),
        ParseErrorCase("4d6‸p1", .foreignModifier("p1", suggestion: "4d6dl1")),
        ParseErrorCase("4d6‸ph1", .foreignModifier("ph1", suggestion: "4d6dh1")),
        // Only after dice that may take another modifier: not a number, not a bare `kh`.
        ParseErrorCase("9‸x", .unexpectedToken(.name("x"))),
        ParseErrorCase("0‸x10", .unexpectedToken(.name("x10"))),
        // A keyword in capitals: the keyword.
        ParseErrorCase("‸STATS 1d6", .foreignModifier("STATS", suggestion: "stats 1d6")),
        ParseErrorCase("‸If 1 then 2 else 3", .foreignModifier("If", suggestion: "if 1 then 2 else 3")),
        ParseErrorCase("foo ‸1d6", .missingSeparator(.integer(1), suggestion: "foo; 1d6")),
        ParseErrorCase("x = 1\n‸:vars", .promptCommandInScript(":vars")),
        ParseErrorCase("‸:max-dice 5", .promptCommandInScript(":max-dice")),
        ParseErrorCase("1 +‸", .expected(.expression, found: .end)),
        ParseErrorCase("1d6 +‸\n", .expected(.expression, found: .end)),
        ParseErrorCase("1d6 +\n‸;", .expected(.expression, found: .semicolon)),
        ParseErrorCase("1d6\n2d6 + ‸* 3", .expected(.expression, found: .star)),
        ParseErrorCase("‸🎲", .unexpectedCharacter("'🎲' (U+1F3B2)")),
        ParseErrorCase("1d6 + ‸é", .unexpectedCharacter("'é' (U+00E9)")),
        ParseErrorCase("2d6 [🎲 é] + ‸* 2", .expected(.expression, found: .star)),
        ParseErrorCase("1 +\t‸@", .unexpectedCharacter("'@'")),
    ]

    @Test(arguments: errors)
    func reportsErrorAtColumn(_ c: ParseErrorCase) {
        let marked = MarkedText(c.marked)
        let error = diceError { () throws(DiceError) in try Parser.parseProgram(marked.text) }
        guard let error else {
            Issue.record("no error for \(marked.text.debugDescription)")
            return
        }
        #expect(error.kind == c.expected)
        #expect(error.position(in: marked.text) == TextPosition(line: marked.line ?? 0, column: marked.column ?? 0))
    }

    /// Bytes that are not text, and control characters, are errors with a position.
    static let binaryJunk: [(bytes: [UInt8], kind: DiceError.Kind, column: Int)] = [
        ([0x00], .unexpectedCharacter("U+0000"), 1),
        ([0x31, 0x20, 0x2B, 0x20, 0x1B], .unexpectedCharacter("U+001B"), 5),
        ([0xFF, 0xFE, 0x31], .invalidUTF8, 1),
        ([0x80], .invalidUTF8, 1),
        ([0x31, 0x2B, 0xC3], .invalidUTF8, 3),
        ([0x31, 0x2B, 0xED, 0xA0, 0x80], .invalidUTF8, 3),
        ([0x32, 0x64, 0x36, 0x20, 0x5B, 0xFF, 0x5D], .invalidUTF8, 5),
    ]

    @Test func binaryJunkIsAnError() {
        for junk in Self.binaryJunk {
            let source = SourceFile(name: "<test>", bytes: junk.bytes)
            let error = diceError { () throws(DiceError) in
                var parser = Parser(source)
                while try parser.nextStatement() != nil {}
            }
            #expect(error?.kind == junk.kind, "\(junk.bytes)")
            if let error {
                #expect(source.lineAndColumn(of: error.range.lowerBound).column == junk.column, "\(junk.bytes)")
            }
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = Xoshiro256StarStar(seed: 2024)
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 24)
            let bytes = (0..<length).map { _ in
                // Mostly dice-like ASCII, sometimes anything.
                let pick = generator.next()
                if pick % 4 == 0 { return UInt8(truncatingIfNeeded: pick >> 8) }
                let alphabet = Array("0123456789d%F{}()[],;+-*/^<>=!khlrosmicfa \n#.xé".utf8)
                return alphabet[Int((pick >> 8) % UInt64(alphabet.count))]
            }
            var parser = Parser(SourceFile(name: "<fuzz>", bytes: bytes))
            do {
                while try parser.nextStatement() != nil {}
            } catch {
                #expect(error.range.lowerBound.offset >= 0 && error.range.lowerBound.offset <= bytes.count)
            }
        }
    }

    // MARK: - Nesting and long input

    static func parenthesized(_ depth: Int) -> String {
        String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
    }

    @Test(arguments: [200, 256])
    func nestingWithinTheLimitParses(_ depth: Int) throws {
        #expect(try Parser.parseExpression(Self.parenthesized(depth)).dump == "1")
    }

    @Test(arguments: [
        parenthesized(257),
        String(repeating: "-", count: 300) + "1",
        String(repeating: "{", count: 300) + "1" + String(repeating: "}", count: 300),
        String(repeating: "2^", count: 300) + "1",
        String(repeating: "abs(", count: 300) + "1" + String(repeating: ")", count: 300),
    ])
    func nestingBeyondTheLimitIsAnError(_ text: String) {
        let error = diceError { () throws(DiceError) in try Parser.parseExpression(text) }
        #expect(error?.kind == .nestingTooDeep(limit: 256))
    }

    @Test func aStatementPastTheTokenLimitIsAnErrorAtTheTokenPastIt() throws {
        let limits = Limits(maxStatementTokens: 5)
        // `1 + 2 + 3` is 5 tokens: fine; `1 + 2 + 3 + 4` fails at its sixth, the last `+`.
        _ = try Parser.parseExpression("1 + 2 + 3", limits: limits)
        let text = "1 + 2 + 3 + 4"
        let error = diceError { () throws(DiceError) in try Parser.parseExpression(text, limits: limits) }
        #expect(error?.kind == .statementTooLong(limit: 5))
        #expect(error?.range.lowerBound.offset == 10)  // the sixth token, `+` before 4
        // Each statement has its own count, and blank lines and `;` between them count for none.
        let program = "1 + 2 + 3\n\n\n;;;\n\n\n1 + 2 + 3"
        #expect(try Parser.parseProgram(program, limits: limits).count == 2)
        let tooLong = diceError { () throws(DiceError) in try Parser.parseProgram("x = 1 + 2 + 3", limits: limits) }
        #expect(tooLong?.kind == .statementTooLong(limit: 5))
    }

    @Test func aHundredThousandTermSumIsAFlatChain() throws {
        let text = Array(repeating: "1d6", count: 100_000).joined(separator: " + ")
        let expr = try Parser.parseExpression(text)
        guard case .chain(let first, let rest) = expr.kind else {
            Issue.record("not a chain: \(expr.dump.prefix(40))")
            return
        }
        #expect(first.dump == "(dice 1 6)")
        #expect(rest.count == 99_999)
        #expect(rest.allSatisfy { $0.op == .add })
    }

    // MARK: - Source ranges

    @Test func rangesCoverTheirText() throws {
        let text = "2 * (1d20 + 5) [hit] >= 15"
        let expr = try Parser.parseExpression(text)
        let source = SourceFile(name: "<test>", text: text)
        #expect(source.text(of: expr.range) == text)
        guard case .comparison(_, let lhs, let rhs) = expr.kind else {
            Issue.record("not a comparison")
            return
        }
        #expect(source.text(of: lhs.range) == "2 * (1d20 + 5) [hit]")
        #expect(source.text(of: rhs.range) == "15")
    }
}
