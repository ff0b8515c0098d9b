import Testing
@testable import DiceKit

/// A statement written over lines and the same statement on one line.
struct ContinuedCase: Sendable, CustomTestStringConvertible {
    var lines: String
    var oneLine: String
    init(_ lines: String, _ oneLine: String) {
        self.lines = lines
        self.oneLine = oneLine
    }
    var testDescription: String { lines.debugDescription }
}

/// LANGUAGE.md §5: "A line that ends where its statement cannot end (after `=`, an operator,
/// `,`, `in`, `then`, `else`, or inside an open `(`, `{` or `[`) continues on the next line,
/// in scripts, `-e` and the REPL alike."
@Suite struct LineContinuationTests {
    /// Every token after which a statement cannot end, at the end of a line.
    static let continued: [ContinuedCase] = [
        ContinuedCase("x =\n3", "x = 3"),
        ContinuedCase("def f(a, b) =\n  a + b", "def f(a, b) = a + b"),
        ContinuedCase("def f(a =\n 1) = a", "def f(a = 1) = a"),
        ContinuedCase("hp = 3; hp -=\n1d4", "hp = 3; hp -= 1d4"),
        ContinuedCase("hp = 3; hp +=\n1", "hp = 3; hp += 1"),
        ContinuedCase("hp = 3; hp *=\n2", "hp = 3; hp *= 2"),
        ContinuedCase("1d20 +\n5", "1d20 + 5"),
        ContinuedCase("1d20 -\n5", "1d20 - 5"),
        ContinuedCase("2 *\n3", "2 * 3"),
        ContinuedCase("7 /\n2", "7 / 2"),
        ContinuedCase("7 //\n2", "7 // 2"),
        ContinuedCase("7 %\n2", "7 % 2"),
        ContinuedCase("2 ^\n3", "2 ^ 3"),
        ContinuedCase("-\n3", "-3"),
        ContinuedCase("1d20 ==\n20", "1d20 == 20"),
        ContinuedCase("1d20 !=\n1", "1d20 != 1"),
        ContinuedCase("1d20 <\n5", "1d20 < 5"),
        ContinuedCase("1d20 <=\n5", "1d20 <= 5"),
        ContinuedCase("1d20 >\n5", "1d20 > 5"),
        ContinuedCase("1d20 + 5 >=\n15", "1d20 + 5 >= 15"),
        ContinuedCase("stats 2d20kh1 + 5,\n1d20 + 8", "stats 2d20kh1 + 5, 1d20 + 8"),
        ContinuedCase("stats 1d20 >= ac for ac in 10..\n12", "stats 1d20 >= ac for ac in 10..12"),
        ContinuedCase("stats 1d20 >= ac for ac in\n10..12", "stats 1d20 >= ac for ac in 10..12"),
        ContinuedCase("let r = 1d20 in\nr + r", "let r = 1d20 in r + r"),
        ContinuedCase("let r =\n1d20 in r", "let r = 1d20 in r"),
        ContinuedCase("let\nr = 1d20 in r", "let r = 1d20 in r"),
        ContinuedCase("if 1d20 >= 10 then\n2d6 else\n0", "if 1d20 >= 10 then 2d6 else 0"),
        ContinuedCase("if\n1 then 2 else 3", "if 1 then 2 else 3"),
        ContinuedCase("1d2 == 1 and\n1d2 == 2", "1d2 == 1 and 1d2 == 2"),
        ContinuedCase("1d2 == 1 or\n1d2 == 2", "1d2 == 1 or 1d2 == 2"),
        ContinuedCase("not\n1d2 == 1", "not 1d2 == 1"),
        ContinuedCase("1d6 given\n1d6 > 2", "1d6 given 1d6 > 2"),
        ContinuedCase("match\n1d6 { 1: 2, else: 3 }", "match 1d6 { 1: 2, else: 3 }"),
        ContinuedCase("match 1d6 { 1:\n\"low\", else:\n\"high\" }", "match 1d6 { 1: \"low\", else: \"high\" }"),
        ContinuedCase("def\natk = 1d20", "def atk = 1d20"),
        ContinuedCase("stats\n1d6", "stats 1d6"),
        ContinuedCase("(1 +\n2) * 3", "(1 + 2) * 3"),
        ContinuedCase("max(1d6,\n1d8)", "max(1d6, 1d8)"),
        ContinuedCase("max(1d6\n, 1d8)", "max(1d6, 1d8)"),
        ContinuedCase("{1d20 + 5\n, 1d20 + 5}kh1", "{1d20 + 5, 1d20 + 5}kh1"),
        ContinuedCase("d{1,\n2, 3}", "d{1, 2, 3}"),
        ContinuedCase("(hits:\n1, glitch: 0)", "(hits: 1, glitch: 0)"),
        ContinuedCase("2d6 [fire\nand ice] + 1", "2d6 [fire and ice] + 1"),
        // Blank lines, comments and Windows line endings on the way.
        ContinuedCase("1d20 +  # the bonus comes\n\n   # on a later line\n  5", "1d20 + 5"),
        ContinuedCase("1d20 +\r\n5\r\n", "1d20 + 5"),
        // A label's `\r\n` is one Character, and the same line break as `\n`.
        ContinuedCase("2d6 [fire\r\n  and ice] + 1", "2d6 [fire and ice] + 1"),
        // Several lines, several reasons.
        ContinuedCase("def check(mod, dc) = let r = 1d20 in let t = r + mod in\n"
                      + "    match (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1) {\n"
                      + "        <=-1: \"critical failure\", 0: \"failure\", 1: \"success\", else: \"critical success\" }",
                      "def check(mod, dc) = let r = 1d20 in let t = r + mod in match (t >= dc + 10) + (t >= dc) "
                      + "- (t <= dc - 10) + (r == 20) - (r == 1) { <=-1: \"critical failure\", 0: \"failure\", "
                      + "1: \"success\", else: \"critical success\" }"),
    ]

    @Test(arguments: continued)
    func aStatementGoesOnInTheNextLine(_ c: ContinuedCase) throws {
        #expect(try Parser.parseProgram(c.lines).map(\.dump) == Parser.parseProgram(c.oneLine).map(\.dump))
        // Each line but the last asks for another.
        var lines = c.lines.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        if lines.last?.isEmpty == true { lines.removeLast() }
        for end in 1..<lines.count {
            let text = lines[..<end].joined(separator: "\n")
            #expect(Parser.needsAnotherLine(text), "\(text.debugDescription)")
        }
        #expect(!Parser.needsAnotherLine(c.lines))
        #expect(!Parser.needsAnotherLine(c.oneLine))
    }

    /// A line break where a statement can end ends it, even when the next line could go on.
    static let separate: [ProgramCase] = [
        ProgramCase("1d20\n+ 5", ["(dice 1 20)", "(pos 5)"]),
        ProgramCase("x = 1\n-2", ["(= x 1)", "(neg 2)"]),
        ProgramCase("use\npbta", ["(use)", "pbta"]),
        ProgramCase("1d6 # +\n2", ["(dice 1 6)", "2"]),
        ProgramCase("\"a +\"\n2", ["\"a +\"", "2"]),
        ProgramCase("4d6kh\n3", ["(dice 4 6 kh)", "3"]),
    ]

    @Test(arguments: separate)
    func aLineBreakWhereTheStatementCanEndEndsIt(_ c: ProgramCase) throws {
        #expect(try Parser.parseProgram(c.input).map(\.dump) == c.dumps)
        let firstLine = String(c.input.prefix { $0 != "\n" })
        #expect(!Parser.needsAnotherLine(firstLine), "\(firstLine.debugDescription)")
    }

    @Test func aContinuedStatementEndsWithTheFirstLineThatCanEndIt() throws {
        #expect(try Parser.parseProgram("1d6 +\n2\n3").map(\.dump) == ["(+ (dice 1 6) 2)", "3"])
        #expect(!Parser.needsAnotherLine("1d6 +\n2"))
    }

    /// Inside a `match`'s braces a line break still separates entries, unless the entry's line
    /// ends where it cannot: `2 +` goes on, `-3` then starts the next entry.
    @Test func entriesOfAMatchAreSeparatedByLinesThatCanEnd() throws {
        let text = "match x {\n  1: 2 +\n    3\n  -3: y\n  else:\n    4\n}"
        #expect(try Parser.parseProgram(text).map(\.dump) == ["(match x [1: (+ 2 3)] [-3: y] [else: 4])"])
        #expect(Parser.oneLine(text) == "match x { 1: 2 + 3, -3: y, else: 4 }")
    }

    // MARK: - Errors in continued statements

    static let errors: [ParseErrorCase] = [
        // On the second line of a statement: line and column there.
        ParseErrorCase("x = 1d20 +\n  5 + ‸* 3", .expected(.expression, found: .star)),
        ParseErrorCase("if 1 then\n  2 ‸3 else 4", .expected(.elseWord, found: .integer(3))),
        ParseErrorCase("y = 2\nx = (1 +\n\n  2 ‸]", .unexpectedCharacter("']'")),
        // A text ending in the middle of a statement: the error right after its last token.
        ParseErrorCase("x = 1 +‸\n", .expected(.expression, found: .end)),
        ParseErrorCase("x = 1 +‸\n\n# more to come\n", .expected(.expression, found: .end)),
        ParseErrorCase("x = max(1,\n  2‸\n", .expected(.argumentSeparator(function: "max"), found: .end)),
        ParseErrorCase("if 1 then‸\n", .expected(.thenBranch, found: .end)),
        ParseErrorCase("x = 1 + ‸", .expected(.expression, found: .end)),
    ]

    @Test(arguments: errors)
    func anErrorPointsIntoTheLinesOfItsStatement(_ c: ParseErrorCase) {
        c.expectReported()
    }

    @Test func anAnnotationLeftOpenIsAnErrorAtItsBracket() {
        let text = "1d6\n2d6 [fire\n1d20 + 5\n"
        let error = diceError { () throws(DiceError) in try Parser.parseProgram(text) }
        #expect(error?.kind == .unterminatedAnnotation)
        #expect(error?.position(in: text) == TextPosition(line: 2, column: 5))
    }

    // MARK: - Reading a line at a time

    /// `read` tells how much of each part ends in whole statements; the rest waits.
    @Test func readsWhereStatementsEndALineAtATime() {
        var lines = LineContinuation()
        #expect(!lines.needsAnotherLine)
        #expect(lines.read("1d6\nx = (1 +\n".utf8) == 4)
        #expect(lines.needsAnotherLine)
        #expect(lines.read("2) *\n".utf8) == 0)
        #expect(lines.needsAnotherLine)
        #expect(lines.read("3\ny = 1; z =\n".utf8) == 2)
        #expect(lines.needsAnotherLine)
        #expect(lines.read("2\n\n".utf8) == 3)
        #expect(!lines.needsAnotherLine)
        // An annotation may close lines later; a `]` inside it does not count twice.
        #expect(lines.read("2d6 [fire (\n".utf8) == 0)
        #expect(lines.read("and ice]\n".utf8) == 9)
        #expect(!lines.needsAnotherLine)
        // A match's entries on lines of their own are inside its braces.
        #expect(lines.read("match 1d6 {\n 1: 2\n".utf8) == 0)
        #expect(lines.read(" else: 3 }\n".utf8) == 11)
    }

    /// A mistake no later line mends ends the statement where the text read ends, so the
    /// parser reports it; reading starts afresh after it.
    @Test func aMistakeEndsTheStatementForTheParserToReport() {
        var lines = LineContinuation()
        #expect(lines.read("x = (1 + @\n".utf8) == 11)
        #expect(!lines.needsAnotherLine)
        #expect(lines.read("x = \"open\n".utf8) == 10)
        #expect(!lines.needsAnotherLine)
        #expect(lines.read("1 +\n".utf8) == 0)
        #expect(lines.needsAnotherLine)
    }
}
