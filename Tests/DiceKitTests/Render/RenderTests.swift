import Foundation
import Testing
@testable import DiceKit

/// An expression rolled on scripted faces and its human breakdown.
struct RenderCase: Sendable, CustomTestStringConvertible {
    var input: String
    var faces: [Int]
    var text: String
    init(_ input: String, faces: [Int] = [], _ text: String) {
        self.input = input
        self.faces = faces
        self.text = text
    }
    var testDescription: String { input }
}

/// Escape sequences made visible, for failure messages and snapshot files.
func visibleEscapes(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}", with: "⎋")
}

@Suite struct RollRendererTests {
    static let plain: [RenderCase] = [
        RenderCase("4d6kh3+2", faces: [6, 4, 3, 1], "4d6kh3 (6, 4, 3, ~~1~~) + 2 = 15"),
        RenderCase("2d6!", faces: [6, 6, 3, 5], "2d6! (6!, 6!, 3, 5) = 20"),
        RenderCase("2d6!!", faces: [6, 6, 3, 5], "2d6!! (15!!, 5) = 20"),
        RenderCase("2d6!p", faces: [6, 6, 3, 5], "2d6!p (6!, 5!p, 2p, 5) = 18"),
        RenderCase("1d6r", faces: [1, 1, 4], "1d6r (~~1~~, ~~1~~, 4) = 4"),
        RenderCase("1d6!r", faces: [6, 1, 2], "1d6!r (6!, ~~1~~, 2) = 8"),
        RenderCase("6d10cs>=8df=1", faces: [8, 1, 10, 5, 7, 1], "6d10cs>=8df=1 (8*, 1_, 10*, 5, 7, 1_) = 0"),
        // `cf` counts failures, marked as failures, never as successes (issue 22).
        RenderCase("6d10cf<3", faces: [8, 1, 10, 5, 7, 2], "6d10cf<3 (8, 1_, 10, 5, 7, 2_) = 2"),
        RenderCase("{1d6, 1d6, 1d6}cf<3", faces: [2, 5, 1], "{1d6 (2) = 2_, 1d6 (5) = 5, 1d6 (1) = 1_}cf<3 = 2"),
        RenderCase("repeat(3, 1d6)cf=1", faces: [1, 5, 1], "{1d6 (1) = 1_, 1d6 (5) = 5, 1d6 (1) = 1_}cf=1 = 2"),
        RenderCase("3d6mi3", faces: [1, 2, 6], "3d6mi3 (3, 3, 6) = 12"),
        RenderCase("4d6s", faces: [6, 4, 3, 1], "4d6s (1, 3, 4, 6) = 14"),
        RenderCase("4dF", faces: [1, 2, 3, 3], "4dF ([-] [ ] [+] [+]) = 1"),
        RenderCase("d{1,1,2,3}", faces: [4], "d{1,1,2,3} (3) = 3"),
        RenderCase("d%", faces: [42], "d% (42) = 42"),
        RenderCase("0d6", "0d6 = 0"),
        RenderCase("-2d6", faces: [3, 4], "-2d6 (3, 4) = -7"),
        RenderCase("2 * (1d6 + 1)", faces: [3], "2 * (1d6 (3) + 1) = 8"),
        RenderCase("1d20 + 5 >= 15", faces: [10], "1d20 (10) + 5 >= 15 = 1"),
        RenderCase("max(1d20, 1d20)", faces: [3, 15], "max(1d20 (3), 1d20 (15)) = 15"),
        RenderCase("2d6 [fire] + 1d8 [cold]", faces: [2, 5, 6], "2d6 (2, 5) [fire] + 1d8 (6) [cold] = 13"),
        RenderCase("{1d20+5, 1d20+5}kh1", faces: [4, 17], "{~~1d20 (4) + 5 = 9~~, 1d20 (17) + 5 = 22}kh1 = 22"),
        RenderCase("{1d6, 1d6, 1d6}cs>=4df=2", faces: [2, 5, 6],
                   "{1d6 (2) = 2_, 1d6 (5) = 5*, 1d6 (6) = 6*}cs>=4df=2 = 1"),
        RenderCase("repeat(3, 1d6)kh2", faces: [2, 5, 6], "{~~1d6 (2) = 2~~, 1d6 (5) = 5, 1d6 (6) = 6}kh2 = 11"),
        RenderCase("{3, 5, 1}kh2", "{3, 5, ~~1~~}kh2 = 8"),
        RenderCase("repeat(0, 1d6)", "{} = 0"),
        RenderCase("7/2", "7 / 2 = 3.5"),
        RenderCase("2^-1", "2^-1 = 0.5"),
        RenderCase("3", "3"),
        RenderCase("(1 + 2) * 3", "(1 + 2) * 3 = 9"),
    ]

    @Test(arguments: plain)
    func rendersPlainBreakdown(_ c: RenderCase) throws {
        let roll = try rollScripted(c.input, faces: c.faces)
        #expect(RollRenderer.plain.render(roll) == c.text)
    }

    // MARK: - Big pools

    static let cycle = Array(1...6)

    @Test func aPoolOfMoreThanAHundredDiceShowsTheFirstHundred() throws {
        let roll = try rollScripted("150d6", faces: Self.cycle)
        let shown = (0..<100).map { String($0 % 6 + 1) }.joined(separator: ", ")
        #expect(RollRenderer.plain.render(roll) == "150d6 (\(shown), … and 50 more) = 525")
    }

    @Test func aPoolOfExactlyAHundredDiceShowsThemAll() throws {
        let roll = try rollScripted("100d6", faces: Self.cycle)
        #expect(!RollRenderer.plain.render(roll).contains("more"))
    }

    @Test func bigModifiedPoolsAndGroupsAreAbbreviatedToo() throws {
        let kept = try rollScripted("150d6kh2", faces: Self.cycle)
        #expect(RollRenderer.plain.render(kept).hasSuffix("~~3~~, ~~4~~, … and 50 more) = 12"))
        let repeated = try rollScripted("repeat(150, 1)", faces: [])
        #expect(RollRenderer.plain.render(repeated).hasSuffix("1, 1, … and 50 more} = 150"))
        let few = try rollScripted("5d6", faces: Self.cycle)
        #expect(RollRenderer(style: .plain, maxShown: 3).render(few) == "5d6 (1, 2, 3, … and 2 more) = 15")
    }

    @Test func longRenderingsMatchTheirSnapshots() throws {
        Snapshot.assert(RollRenderer.plain.render(try rollScripted("150d6", faces: Self.cycle)), named: "pool-150d6")
        Snapshot.assert(RollRenderer.plain.render(try rollScripted("repeat(6, 4d6kh3)", faces: [6, 4, 3, 1, 2, 2, 5])),
                        named: "repeat-ability-scores")
        let complex = "2d6! + 3d6!! + 2d6!p + 4d6cs>=5df1 + 7/2 + {1d6, 1d6}kh1 [x] - 4dF >= 10"
        let faces = [6, 6, 3, 5, 1, 2, 4]
        Snapshot.assert(RollRenderer.plain.render(try rollScripted(complex, faces: faces)), named: "complex-plain")
        Snapshot.assert(visibleEscapes(RollRenderer.ansi.render(try rollScripted(complex, faces: faces))),
                        named: "complex-ansi")
    }

    // MARK: - Colour

    @Test func ansiStyleUsesColourInsteadOfMarkup() throws {
        let roll = try rollScripted("4d6kh3+2", faces: [6, 4, 3, 1])
        let text = RollRenderer.ansi.render(roll)
        #expect(!text.contains("~~"))
        #expect(visibleEscapes(text) == "4d6kh3 (⎋[1;32m6⎋[0m, 4, 3, ⎋[2;9m1⎋[0m) + 2 = ⎋[1m15⎋[0m")
    }

    @Test(arguments: [
        RenderCase("1d6r", faces: [1, 1, 4], ""),
        RenderCase("{1d20+5, 1d20+5}kh1", faces: [4, 17], ""),
        RenderCase("6d10cs>=8df=1", faces: [8, 1, 10, 5, 7, 1], ""),
        RenderCase("2d6!!", faces: [6, 6, 3, 5], ""),
    ])
    func ansiStyleHasEscapesAndNoStrikeMarkup(_ c: RenderCase) throws {
        let text = RollRenderer.ansi.render(try rollScripted(c.input, faces: c.faces))
        #expect(text.contains("\u{1B}["))
        #expect(!text.contains("~~"))
        #expect(text.hasSuffix("\u{1B}[0m"))
    }

    // MARK: - Statements

    @Test func outcomesRenderAsText() throws {
        var session = MacroSession(faces: [3, 4])
        let renderer = OutcomeRenderer()
        var outcomes: [String] = []
        for statement in try Parser.parseProgram("str = 3; y = 1d6; def atk = 1d20 + str; atk; def f(n) = n*2; f(2)") {
            outcomes.append(renderer.text(for: try session.evaluator.execute(statement)))
        }
        #expect(outcomes == [
            "str = 3",
            "y = 1d6 (3) = 3",
            "def atk = 1d20 + str",
            "atk: 1d20 (4) + str (3) = 7",
            "def f(n) = n * 2",
            "f(2) (4) = 4",
        ])
    }

    /// A default that rolls dice shows them as the argument it stands for, like one passed
    /// (LANGUAGE.md §6: every die as rolled; JSON `rolls` describes every die); defaults
    /// after it that rolled nothing stay unwritten, and so do all of a call's that rolled none.
    @Test(arguments: [
        ("def f(a, b = 1d6) = a + b; f(2)", "f(2, 1d6 (4)): a (2) + b (4) = 6", ["1d6"]),
        ("def g(a, b) = a + b; g(2, 1d6)", "g(2, 1d6 (4)): a (2) + b (4) = 6", ["1d6"]),
        ("def h(a = 1d6) = a + 1; h", "h(1d6 (4)): a (4) + 1 = 5", ["1d6"]),
        ("def h(a = 1d6) = a + 1; h()", "h(1d6 (4)): a (4) + 1 = 5", ["1d6"]),
        ("def h(a = 1d6) = a + 1; h(2)", "h(2) (3) = 3", []),
        ("def k(a, b = 0, c = 1d4, d = 2) = a + b + c + d; k(1)",
         "k(1, 0, 1d4 (4)): a (1) + b (0) + c (4) + d (2) = 7", ["1d4"]),
        ("def atk(bonus = 0) = 1d20 + bonus; atk", "atk: 1d20 (4) + bonus (0) = 4", ["1d20"]),
    ])
    func aDefaultThatRollsDiceShowsThem(program: String, text: String, notations: [String]) throws {
        var session = MacroSession(faces: [4])
        var outcome: Outcome?
        for statement in try Parser.parseProgram(program) { outcome = try session.evaluator.execute(statement) }
        let last = try #require(outcome)
        let renderer = OutcomeRenderer()
        #expect(renderer.text(for: last) == text)
        let object = JSONTests.object(renderer.json(for: last, input: "x"))
        #expect(object["text"] as? String == text)
        let rolls = object["rolls"] as? [[String: Any]] ?? []
        #expect(rolls.map { $0["notation"] as? String } == notations)
    }
}

@Suite struct JSONTests {
    /// Parses one JSON Lines record into a dictionary, failing the test if it is not valid JSON.
    static func object(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String: Any] {
        #expect(!text.contains("\n"), "a JSON Lines record is one line", sourceLocation: sourceLocation)
        guard let data = text.data(using: .utf8),
              let value = try? JSONSerialization.jsonObject(with: data),
              let object = value as? [String: Any] else {
            Issue.record("not a JSON object: \(text)", sourceLocation: sourceLocation)
            return [:]
        }
        return object
    }

    static func json(_ input: String, faces: [Int]) throws -> String {
        OutcomeRenderer().json(for: .roll(try rollScripted(input, faces: faces)), input: input)
    }

    @Test func aRollHasInputValueTextAndRolls() throws {
        let text = try Self.json("4d6kh3+2", faces: [6, 4, 3, 1])
        let object = Self.object(text)
        #expect(object["input"] as? String == "4d6kh3+2")
        #expect(object["value"] as? Int == 15)
        #expect(object["text"] as? String == "4d6kh3 (6, 4, 3, ~~1~~) + 2 = 15")
        let rolls = object["rolls"] as? [[String: Any]] ?? []
        #expect(rolls.count == 1)
        #expect(rolls.first?["notation"] as? String == "4d6kh3")
        #expect(rolls.first?["value"] as? Int == 13)
        let dice = rolls.first?["dice"] as? [[String: Any]] ?? []
        #expect(dice.map { $0["value"] as? Int } == [6, 4, 3, 1])
        #expect(dice.map { $0["kept"] as? Bool } == [true, true, true, false])
        #expect(dice.map { $0["dropped"] as? Bool } == [nil, nil, nil, true])
        #expect(text.hasPrefix(#"{"input":"4d6kh3+2","value":15,"text":"#))
    }

    @Test(arguments: [("6/2", "3"), ("7/2", "3.5"), ("1.5 * 2", "3"), ("-7 // 2", "-4"), ("2^-1", "0.5")])
    func valuesAreIntegersWhenWhole(_ input: String, _ raw: String) throws {
        let text = try Self.json(input, faces: [])
        #expect(text.contains("\"value\":\(raw),"), "\(text)")
        #expect(!text.contains(".0,"))
        let value = Self.object(text)["value"] as? NSNumber
        #expect(value?.doubleValue == Double(raw))
    }

    @Test func diceCarryTheirFlags() throws {
        let text = try Self.json("2d6!p + 1d6!! + 1d6r + 3d6cs>=5df1 + 1d6mi3", faces: [6, 6, 3, 5, 6, 2, 1, 4, 5, 1, 6, 2])
        let rolls = Self.object(text)["rolls"] as? [[String: Any]] ?? []
        let flags = rolls.map { pool in
            (pool["dice"] as? [[String: Any]] ?? []).map { die in
                ["exploded", "extra", "penetrated", "compounded", "rerolled", "success", "failure", "clamped", "dropped"]
                    .filter { die[$0] as? Bool == true }
            }
        }
        #expect(flags == [
            [["exploded"], ["exploded", "extra", "penetrated"], ["extra", "penetrated"], []],
            [["exploded", "compounded"]],
            [["rerolled"], []],
            [["success"], ["failure"], ["success"]],
            [["clamped"]],
        ])
        #expect(rolls.map { $0["count"] as? Bool } == [nil, nil, nil, true, nil])
        #expect(rolls.map { $0["notation"] as? String } == ["2d6!p", "1d6!!", "1d6r", "3d6cs>=5df1", "1d6mi3"])
    }

    /// Probabilities have at most 12 significant digits (LANGUAGE.md §6).
    @Test func probabilitiesHaveAtMostTwelveDigits() {
        let cases: [(Double, String)] = [
            (0.9800000000000004, "0.98"), (0.020000000000000004, "0.02"), (1, "1"), (0.25, "0.25"),
            (1.0 / 3, "0.333333333333"), (2.0 / 3, "0.666666666667"), (2.1433470507544583e-05, "2.14334705075e-5"),
            (1.5e-13, "1.5e-13"), (0.99999999999999, "1"), (1e-300, "1e-300"), (0.0001, "0.0001"), (0, "0"), (.leastNonzeroMagnitude, "4.94065645841e-324"),
        ]
        for (value, text) in cases {
            var json = JSONWriter()
            json.probability(nil, value)
            #expect(json.text == text, "\(value)")
        }
    }

    /// `cf` counts failures: its dice are failures in JSON, never successes (issue 22).
    @Test func countedFailuresAreFailures() throws {
        for input in ["4d6cf<3", "200d6cf<3"] {
            let rolls = Self.object(try Self.json(input, faces: [2, 5, 1, 6]))["rolls"] as? [[String: Any]] ?? []
            let dice = rolls.first?["dice"] as? [[String: Any]] ?? []
            #expect(dice.count == (input == "4d6cf<3" ? 4 : 200), "\(input)")
            for die in dice {
                let matched = (die["value"] as? Int ?? 0) < 3
                #expect(die["failure"] as? Bool == (matched ? true : nil), "\(input): \(die)")
                #expect(die["success"] == nil, "\(input): \(die)")
            }
        }
    }

    @Test func annotationsAndEscapes() throws {
        let input = #"1d6 [a "b" \ c] + 1d4 [tab"# + "\t" + "é🎲]"
        let object = Self.object(try Self.json(input, faces: [2, 3]))
        #expect(object["input"] as? String == input)
        let rolls = object["rolls"] as? [[String: Any]] ?? []
        #expect(rolls.map { $0["annotation"] as? String } == [#"a "b" \ c"#, "tab\té🎲"])
    }

    /// A text value with control characters, a quote and a backslash (the fuzzer's harness
    /// once compared them undecoded) reads back from the JSON as the text itself.
    @Test func textValuesReadBackExactly() throws {
        let text = "%\u{10}a\u{0}b\u{1F}\"q\" \\ 🎲"
        let input = "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let roll = try rollScripted(input, faces: [])
        #expect(roll.value == .text(text))
        let object = Self.object(OutcomeRenderer().json(for: .roll(roll), input: input))
        #expect(object["value"] as? String == text)
    }

    @Test func poolsOverTenThousandDiceGiveTheRestAsACount() throws {
        for input in ["10005d6", "10005d6kh1"] {
            let object = Self.object(try Self.json(input, faces: [2]))
            let pool = (object["rolls"] as? [[String: Any]])?.first
            #expect((pool?["dice"] as? [Any])?.count == 10_000, "\(input)")
            #expect(pool?["more"] as? Int == 5, "\(input)")
        }
        let object = Self.object(try Self.json("10000d6", faces: [2]))
        #expect((object["rolls"] as? [[String: Any]])?.first?["more"] == nil)
    }

    /// A repeat past the members listed counts those left out (their dice are not kept):
    /// every huge repeat of the statement, with modifiers or sorted too.
    @Test func repeatsOverTenThousandMembersGiveTheRestAsACount() throws {
        let cases: [(input: String, more: Int?)] = [
            ("repeat(10001, 1d1)", 1), ("repeat(10002, 1d1)kh1", 2), ("repeat(10003, 1d1)sa", 3),
            ("repeat(10001, 1d1) + repeat(10004, 1d1)", 5), ("repeat(10000, 1d1)", nil),
        ]
        for (input, more) in cases {
            let object = Self.object(try Self.json(input, faces: [1]))
            #expect((object["rolls"] as? [Any])?.count == 10_000 * (input.contains(" + ") ? 2 : 1), "\(input)")
            #expect(object["more_members"] as? Int == more, "\(input)")
        }
    }

    @Test func assignmentsDefinitionsAndErrors() throws {
        var session = MacroSession(faces: [4])
        let renderer = OutcomeRenderer()
        let statements = try Parser.parseProgram("x = 3\ndef atk(b) = 1d20 + b")
        let assignment = Self.object(renderer.json(for: try session.evaluator.execute(statements[0]), input: "x = 3"))
        #expect(assignment["input"] as? String == "x = 3")
        #expect(assignment["name"] as? String == "x")
        #expect(assignment["value"] as? Int == 3)
        let definition = Self.object(renderer.json(for: try session.evaluator.execute(statements[1]),
                                                   input: "def atk(b) = 1d20 + b"))
        #expect(definition["defined"] as? String == "atk")
        #expect(definition["value"] == nil)

        let input = "2d6 + * 3\u{1}"
        let error = diceError { () throws(DiceError) in try Parser.parseExpression(input) }
        let record = Self.object(renderer.json(for: try #require(error), in: SourceFile(name: "<-e>", text: input),
                                               input: input))
        #expect(record["input"] as? String == input)
        let details = record["error"] as? [String: Any]
        #expect(details?["message"] as? String == "expected an expression, found '*'")
        #expect(details?["line"] as? Int == 1)
        #expect(details?["column"] as? Int == 7)
    }

    @Test func aComplexRollMatchesItsSnapshot() throws {
        let input = "2d6! + 3d6!! + {1d6, 1d6}kh1 [x] + 2d6r<2 + 4dF"
        Snapshot.assert(try Self.json(input, faces: [6, 6, 3, 5, 1, 2, 4]), named: "complex-json")
    }
}

@Suite struct DiagnosticRendererTests {
    /// Renders the error `text` raises (parsing, then rolling) as the command prints it.
    static func diagnostic(_ text: String, name: String = "<-e>", colour: Bool = false) -> String? {
        let error = diceError { () throws(DiceError) in
            var parser = Parser(SourceFile(name: name, text: text))
            var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([1]))
            while let statement = try parser.nextStatement() { _ = try evaluator.execute(statement) }
        }
        guard let error else { return nil }
        return DiagnosticRenderer(colour: colour).render(error, in: SourceFile(name: name, text: text))
    }

    static let cases: [(input: String, name: String, expected: String)] = [
        ("2d6 + * 3", "<-e>", "<-e>:1:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^"),
        ("1 + 2)", "<-e>", "<-e>:1:6: error: unexpected ')'\n1 + 2)\n     ^"),
        ("2d6 +\t* 3", "<-e>", "<-e>:1:7: error: expected an expression, found '*'\n2d6 +\t* 3\n     \t^"),
        ("2d6 [é🎲] + * 3", "<-e>", "<-e>:1:12: error: expected an expression, found '*'\n2d6 [é🎲] + * 3\n           ^"),
        ("1d6 + é", "<-e>", "<-e>:1:7: error: unexpected character 'é' (U+00E9)\n1d6 + é\n      ^"),
        ("1d6\n2d6 + * 3\n4d6", "<stdin>", "<stdin>:2:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^"),
        ("1d6\r\n2d6 + * 3\r\n", "a.dice", "a.dice:2:7: error: expected an expression, found '*'\n2d6 + * 3\n      ^"),
        ("1 + \u{1B}", "<-e>", "<-e>:1:5: error: unexpected character U+001B\n1 + \u{FFFD}\n    ^"),
        ("x = 1\n1 + 1d6 / 0", "s.dice", "s.dice:2:9: error: division by zero\n1 + 1d6 / 0\n        ^"),
        ("1d1!", "<-e>",
         "<-e>:1:4: error: the explosion matches every face of the die, so it would never end\n1d1!\n   ^"),
    ]

    @Test func rendersHeaderLineAndCaret() {
        for c in Self.cases {
            let text = Self.diagnostic(c.input, name: c.name)
            #expect(text == c.expected, "\(c.input.debugDescription)")
        }
    }

    @Test func colourMarksTheLabelAndCaret() throws {
        let text = try #require(Self.diagnostic("2d6 + * 3", colour: true))
        #expect(visibleEscapes(text) == """
            ⎋[1m<-e>:1:7:⎋[0m ⎋[1;31merror:⎋[0m expected an expression, found '*'
            2d6 + * 3
                  ⎋[1;32m^⎋[0m
            """)
    }

    /// A long line is shown around the error, cut where `…` stands (LANGUAGE.md §9: the line
    /// and a caret under the column); one of megabytes too, without decoding it whole.
    @Test func aVeryLongLineIsShownAroundTheError() throws {
        let input = String(repeating: "1 + ", count: 200) + "* 2 " + String(repeating: "+ 1 ", count: 100)
        let text = try #require(Self.diagnostic(input))
        let around = "…" + String(repeating: "1 + ", count: 15) + "* 2 " + String(repeating: "+ 1 ", count: 14) + "…"
        #expect(text == "<-e>:1:801: error: expected an expression, found '*'\n" + around + "\n"
            + String(repeating: " ", count: 61) + "^")
        // Cut between characters, not bytes: each `é` is two.
        let ending = "1 [" + String(repeating: "é", count: 300) + "] + * 2"
        let tail = try #require(Self.diagnostic(ending))
        #expect(tail == "<-e>:1:308: error: expected an expression, found '*'\n…"
            + String(repeating: "é", count: 28) + "] + * 2\n" + String(repeating: " ", count: 33) + "^")
        let huge = String(repeating: "1+", count: 300_000) + "foo"
        let unknown = try #require(Self.diagnostic(huge))
        #expect(unknown.hasSuffix("\n…" + String(repeating: "1+", count: 30) + "foo\n" + String(repeating: " ", count: 61) + "^"))
    }

    @Test func manyDiagnosticsMatchTheirSnapshot() {
        let inputs = ["1 + * 2", "(1 + 2", "def x", "4d6!>", "1 < 2 < 3", "[fire]", "d{}", "abs(1, 2)", "strenght",
                      "2d(-2)", "4d6kh(1.5)", "1d6r<=6", "1 + 2 / 0", "(-9223372036854775807 - 1) // -1"]
        let rendered = inputs.map { Self.diagnostic($0) ?? "no error for \($0)" }.joined(separator: "\n\n")
        Snapshot.assert(rendered, named: "diagnostics")
    }
}
