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

    /// Parsing the text fails with the expected kind, at the marker's line and column.
    func expectReported(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let text = MarkedText(marked)
        let error = diceError { () throws(DiceError) in try Parser.parseProgram(text.text) }
        guard let error else {
            Issue.record("no error for \(text.text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.kind == expected, sourceLocation: sourceLocation)
        #expect(error.position(in: text.text) == TextPosition(line: text.line ?? 0, column: text.column ?? 0),
                sourceLocation: sourceLocation)
    }
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
}
