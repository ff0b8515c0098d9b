import Foundation
import Testing

@testable import DiceKit

/// A die of texts or tallies under a macro's name reads as the face it rolled
/// (`ability: (s: 1, a: 1)`), not as its list of faces again for every die, in text,
/// Markdown and JSON alike; a die typed in place keeps its notation. Symbol faces are no
/// highest or lowest face, so Markdown bolds none and JSON marks none `max` or `min`.
@Suite struct SymbolDiceRenderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var faces: [Int]
        var text: String
        var markdown: String
        /// Every pool's `notation` in the JSON, in order.
        var notations: [String]
        var testDescription: String { program.split(separator: ";").last.map(String.init) ?? program }
    }

    static let ability = "def ability = d{(), (s: 1), (s: 2), (s: 1, a: 1)}; "
    static let difficulty = "def difficulty = d{(), (f: 1), (net_t: 1)}; "

    static let cases: [Case] = [
        Case(program: ability + "ability", faces: [4], text: "ability: (s: 1, a: 1)",
             markdown: "ability: (s: 1, a: 1)", notations: ["ability"]),
        // A group's members end in their faces: no `= (s: 1)` after each.
        Case(program: ability + difficulty + "let g = repeat(2, ability) + difficulty in g.s - g.net_t",
             faces: [2, 1, 3],
             text: "let g = {ability: (s: 1), ability: ()} + (difficulty: (net_t: 1)) = (s: 1, net_t: 1) in g.s - g.net_t = 0",
             markdown: "let g = {ability: (s: 1), ability: ()} + (difficulty: (net\\_t: 1)) = (s: 1, net\\_t: 1) in "
                 + "g.s - g.net\\_t = 0",
             notations: ["ability", "ability", "difficulty"]),
        // A macro with parameters is named with its arguments; a text face as it reads.
        Case(program: "def face(n) = d{\"orc\", \"troll\"}; face(1d4)", faces: [3, 2], text: "face(1d4 (3)): troll",
             markdown: "face(1d4 (3)): troll", notations: ["1d4", "face(1d4 (3))"]),
        // A die rerolled is more than its face: its notation and both faces are shown.
        Case(program: "def pick = d{\"hit\", \"miss\"}r=\"miss\"; pick", faces: [2, 1],
             text: "pick: d{\"hit\", \"miss\"}r=\"miss\" (~~\"miss\"~~, \"hit\") = hit",
             markdown: "pick: d{\"hit\", \"miss\"}r=\"miss\" (~~\"miss\"~~, \"hit\") = hit",
             notations: ["d{\"hit\", \"miss\"}r=\"miss\""]),
        // Several dice under a macro show their faces once, in their pool.
        Case(program: "def pool = 2d{(s: 1), ()}; pool", faces: [1, 2], text: "pool: 2d{(s: 1), ()} ((s: 1), ()) = (s: 1)",
             markdown: "pool: 2d{(s: 1), ()} ((s: 1), ()) = (s: 1)", notations: ["2d{(s: 1), ()}"]),
        // A die typed in place keeps its notation; no face of it is the highest or lowest.
        Case(program: "3d{(s: 1), (a: 2), ()}", faces: [3, 2, 1], text: "3d{(s: 1), (a: 2), ()} ((), (a: 2), (s: 1)) = (a: 2, s: 1)",
             markdown: "3d{(s: 1), (a: 2), ()} ((), (a: 2), (s: 1)) = (a: 2, s: 1)", notations: ["3d{(s: 1), (a: 2), ()}"]),
        Case(program: "d{\"goblin\", \"orc\"}", faces: [2], text: "d{\"goblin\", \"orc\"} (\"orc\") = orc",
             markdown: "d{\"goblin\", \"orc\"} (\"orc\") = orc", notations: ["d{\"goblin\", \"orc\"}"]),
    ]

    static func outcome(_ c: Case) throws -> Outcome {
        try ScriptedProgram.outcome(c.program, faces: c.faces)
    }

    @Test(arguments: cases)
    func readsAsItsFaces(_ c: Case) throws {
        let outcome = try Self.outcome(c)
        #expect(OutcomeRenderer().text(for: outcome) == c.text)
        #expect(OutcomeRenderer(rolls: .markdown).text(for: outcome) == c.markdown)
        let json = OutcomeRenderer().json(for: outcome, input: "x")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rolls = try #require(object["rolls"] as? [[String: Any]])
        #expect(rolls.map { $0["notation"] as? String } == c.notations)
        #expect(object["text"] as? String == c.text)
        // Text and tally faces have no highest or lowest.
        for roll in rolls where roll["notation"] as? String != "1d4" {
            let dice = try #require(roll["dice"] as? [[String: Any]])
            #expect(dice.allSatisfy { $0["max"] == nil && $0["min"] == nil })
        }
    }

    /// The texts of a notation's faces and compare points are the user's text, escaped as
    /// their faces are (LANGUAGE.md §6): a control character as `\u{1b}`, and for Markdown
    /// the user's `*` and `_`; JSON's `text` keeps them exact (its own escaping).
    @Test(arguments: [
        ("d{\"\u{1b}[31mred\"}", [1], #"d{"\u{1b}[31mred"} ("\u{1b}[31mred") = \u{1b}[31mred"#,
         #"d{"\u{1b}[31mred"} ("\u{1b}[31mred") = \u{1b}[31mred"#, "d{\"\u{1b}[31mred\"} (\"\u{1b}[31mred\") = \u{1b}[31mred"),
        (#"d{"**x**", "y"}"#, [2], #"d{"**x**", "y"} ("y") = y"#, #"d{"\*\*x\*\*", "y"} ("y") = y"#, #"d{"**x**", "y"} ("y") = y"#),
        (#"d{(a_b: 1), ()}"#, [2], #"d{(a_b: 1), ()} (()) = ()"#, #"d{(a\_b: 1), ()} (()) = ()"#, #"d{(a_b: 1), ()} (()) = ()"#),
        // A compare point's text, and after a computed count (its own breakdown, not escaped
        // again); `"a*"*` is the face `a*` counted as a success.
        ("(1d2)d{\"a*\", \"b\u{7f}\"}cs=\"a*\"", [2, 1, 2], "(1d2 (2))d{\"a*\", \"b\\u{7f}\"}cs=\"a*\" (\"a*\"*, \"b\\u{7f}\") = 1",
         "(1d2 (**2**))d{\"a\\*\", \"b\\u{7f}\"}cs=\"a\\*\" (\"a\\*\"\\*, \"b\\u{7f}\") = 1",
         "(1d2 (2))d{\"a*\", \"b\u{7f}\"}cs=\"a*\" (\"a*\"*, \"b\u{7f}\") = 1"),
    ] as [(String, [Int], String, String, String)])
    func theUsersTextInANotationIsEscaped(program: String, faces: [Int], text: String, markdown: String,
                                          json: String) throws {
        let outcome = try Self.outcome(Case(program: program, faces: faces, text: "", markdown: "", notations: []))
        #expect(OutcomeRenderer().text(for: outcome) == text)
        #expect(OutcomeRenderer(rolls: .markdown).text(for: outcome) == markdown)
        #expect(OutcomeRenderer(rolls: .ansi).text(for: outcome).contains(text.prefix(while: { $0 != " " })))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        #expect(object["text"] as? String == json)
    }

    /// A `stats` header shows the expression's texts and labels with their control characters
    /// escaped, as its table's rows do: alone, compared, and swept.
    @Test(arguments: [
        ("stats d{\"\u{1b}x\", \"y\"}", #"d{"\u{1b}x", "y"}: 2 outcomes"#),
        ("stats 1d2 [a\u{1b}b]", #"1d2 [a\u{1b}b]: mean 1.50, stdev 0.50, min 1, max 2, median 1, p10 1, p90 2"#),
        ("stats 1d2, d{\"\u{1b}x\"}", #"1d2:          mean 1.50, stdev 0.50, min 1, max 2, median 1"#),
        ("stats d{\"\u{1b}x\", \"y\"} for n in 1..2", #"d{"\u{1b}x", "y"} for n in 1..2"#),
    ])
    func statsHeadersEscapeTheUsersText(program: String, firstLine: String) throws {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([1]))
        let outcome = try evaluator.execute(try #require(try Parser.parseProgram(program).first))
        let renderer = DistributionRenderer(width: 80)
        let text: String
        switch outcome {
        case .stats(let expr, let report): text = renderer.render(report, title: expr.text)
        case .compare(let exprs, let reports): text = renderer.render(comparing: zip(exprs, reports).map { ($0.text, $1) })
        case .sweep(let expr, let sweep): text = renderer.render(sweep, of: expr)
        default: text = ""
        }
        #expect(!text.contains("\u{1b}"), "\(visibleEscapes(text))")
        #expect(text.split(separator: "\n").first.map(String.init) == firstLine)
    }
}
