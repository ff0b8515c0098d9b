import Foundation
import Testing

@testable import DiceKit

/// Inside a breakdown a text is shown as it is written, in quotes, `"` and `\` escaped as the
/// lexer reads them, so `"1" == 1` never reads `1 == 1 = 0`; the value a breakdown ends in
/// (after `→` or `=`, or a name's value when nothing follows) is bare, as LANGUAGE.md §5b
/// shows (`move(1): 2d6 (4, 5) + stat (1) = 10 → strong hit`) and as `-t` prints it. Markdown
/// escapes the quoted text as it escapes the user's other text.
@Suite struct QuotedTextTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var faces: [Int] = []
        var text: String
        /// The `--markdown` breakdown, when it differs from `text`.
        var markdown: String? = nil
        /// JSON's `text`, when it differs from `text` (an assignment's is its roll's alone).
        var json: String? = nil
        var testDescription: String { program.split(separator: ";").last.map(String.init) ?? program }
    }

    static let degree = "def degree(v) = match v { 1: \"one\", else: \"other\" }; "
    static let monster = "def monster = d{\"goblin\", \"orc\"}; "

    static let cases: [Case] = [
        Case(program: #""1" == 1"#, text: #""1" == 1 = 0"#),
        Case(program: #""a" != "b""#, text: #""a" != "b" = 1"#),
        // A variable holding a text: quoted as an operand, bare as the value the line ends in.
        Case(program: #"x = "1"; x == 1"#, text: #"x ("1") == 1 = 0"#),
        Case(program: #"x = "1"; x"#, text: "x (1)"),
        Case(program: #"x = "hi"; x != 1 and 1"#, text: #"x ("hi") != 1 and 1 = 1"#),
        // An assignment's value is its end.
        Case(program: #"x = "hi""#, text: "x = hi", json: "hi"),
        Case(program: #"x = d{"hi", "lo"}"#, faces: [2], text: #"x = d{"hi", "lo"} ("lo") = lo"#,
             json: #"d{"hi", "lo"} ("lo") = lo"#),
        // Text faces of dice: the faces listed are operands, the value after `=` the end.
        Case(program: #"d{"hit", "miss"}"#, faces: [2], text: #"d{"hit", "miss"} ("miss") = miss"#),
        Case(program: #"d{"hit", "miss"} == "hit""#, faces: [1], text: #"d{"hit", "miss"} ("hit") == "hit" = 1"#),
        Case(program: #"3d{"hit", "miss"}cs="hit""#, faces: [1, 2, 1],
             text: #"3d{"hit", "miss"}cs="hit" ("hit"*, "miss", "hit"*) = 2"#,
             markdown: #"3d{"hit", "miss"}cs="hit" ("hit"\*, "miss", "hit"\*) = 2"#),
        // `"` and `\` escaped as the lexer reads them; the end bare.
        Case(program: #"d{"a\"b", "c\\d"} == "a\"b""#, faces: [1], text: #"d{"a\"b", "c\\d"} ("a\"b") == "a\"b" = 1"#,
             markdown: #"d{"a\\"b", "c\\\\d"} ("a\\"b") == "a\\"b" = 1"#),
        Case(program: #"d{"a\"b", "c\\d"}"#, faces: [2], text: #"d{"a\"b", "c\\d"} ("c\\d") = c\d"#,
             markdown: #"d{"a\\"b", "c\\\\d"} ("c\\\\d") = c\\d"#),
        // Macro results: a call that rolled nothing shows its value, quoted as an operand.
        Case(program: degree + "degree(1)", text: "degree(1) (one)"),
        Case(program: degree + #"degree(1) == "one""#, text: #"degree(1) ("one") == "one" = 1"#),
        Case(program: degree + #"degree("x")"#, text: #"degree("x") (other)"#),
        Case(program: degree + #"degree(1d4) == "one""#, faces: [2], text: #"(degree(1d4 (2)): v (2) → "other") == "one" = 0"#),
        Case(program: degree + "degree(1d4)", faces: [3], text: "degree(1d4 (3)): v (3) → other"),
        // One text die under a macro's name: its face is the end, or an operand.
        Case(program: monster + "monster", faces: [2], text: "monster: orc"),
        Case(program: monster + #"monster == "orc""#, faces: [2], text: #"(monster: "orc") == "orc" = 1"#),
        // Tables, conditions and `let`: the subject, condition and bound value are operands.
        Case(program: #"match 1d4 { 1: "one", else: "more" }"#, faces: [2], text: "1d4 (2) → more"),
        Case(program: #"match "a" { "a": "yes", else: "no" }"#, text: #""a" → yes"#),
        Case(program: #"if "a" == "a" then "y" else "n""#, text: #""a" == "a" → y"#),
        Case(program: #"let y = "a" in y"#, text: #"let y = "a" in y (a)"#),
        Case(program: #"let y = "a" in y == "a""#, text: #"let y = "a" in y ("a") == "a" = 1"#),
        // An annotated text ends in its label: the value after `=` is the end.
        Case(program: #""orc" [foe]"#, text: #""orc" [foe] = orc"#),
        // Tallies hold no text: as they were.
        Case(program: "(hits: 2, glitch: 0) == (hits: 2)", text: "(hits: 2, glitch: 0) == (hits: 2) = 1"),
        Case(program: "let p = 3d6 in (hits: count(p, >=5), glitch: 0)", faces: [5, 2, 3],
             text: "let p = 3d6 (5, 2, 3) in (hits: count(p, >=5) (1), glitch: 0) = (hits: 1, glitch: 0)"),
        Case(program: "def t = d{(s: 1), (a_b: 2)}; t", faces: [2], text: "t: (a_b: 2)", markdown: "t: (a\\_b: 2)"),
        // Markdown escapes the user's marks inside the quotes, and in the bare end.
        Case(program: #"x = "a*b"; x == "a*b""#, text: #"x ("a*b") == "a*b" = 1"#, markdown: #"x ("a\*b") == "a\*b" = 1"#),
        Case(program: #"x = "a_b"; x"#, text: "x (a_b)", markdown: #"x (a\_b)"#),
    ]

    static func outcome(_ c: Case) throws -> Outcome {
        try ScriptedProgram.outcome(c.program, faces: c.faces)
    }

    @Test(arguments: cases)
    func textsInsideABreakdownAreQuoted(_ c: Case) throws {
        let outcome = try Self.outcome(c)
        #expect(OutcomeRenderer().text(for: outcome) == c.text)
        #expect(OutcomeRenderer(rolls: .markdown).text(for: outcome) == c.markdown ?? c.text)
        // JSON's `text` is the plain breakdown (no control characters here to escape).
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        #expect(object["text"] as? String == c.json ?? c.text)
    }

    /// `-t` and JSON's `value` print the value bare, as the end of a breakdown does.
    @Test func theValueAloneIsBare() throws {
        let outcome = try Self.outcome(Case(program: #"d{"a\"b", "c\\d"}"#, faces: [1], text: ""))
        guard case .roll(let roll) = outcome else { Issue.record("no roll"); return }
        #expect(roll.value == .text("a\"b"))
        #expect(RollRenderer.plain.text(of: roll.value) == "a\"b")
        #expect(RollRenderer.markdown.text(of: .text("c\\d")) == "c\\\\d")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        #expect(object["value"] as? String == "a\"b")
        let dice = try #require((object["rolls"] as? [[String: Any]])?.first?["dice"] as? [[String: Any]])
        #expect(dice.first?["value"] as? String == "a\"b")
    }

    /// A text bound of a `match` pattern shown beside a bound with dice is quoted (the
    /// pattern is never tried: the first entry holds).
    @Test func aTextBoundBesideDiceIsQuoted() throws {
        let outcome = try Self.outcome(Case(program: #"match 1d20 { <=20: 0, (1d6)-("a"): 1 }"#, faces: [5, 2], text: ""))
        #expect(OutcomeRenderer().text(for: outcome) == #"1d20 (5) vs (1d6 (2))-"a" → 0 = 0"#)
    }

    /// A control character in a quoted text is escaped in text output and kept in JSON.
    @Test func controlCharactersInAQuotedTextAreEscaped() throws {
        let outcome = try Self.outcome(Case(program: "x = \"a\u{1b}b\"; x == 1", text: ""))
        #expect(OutcomeRenderer().text(for: outcome) == #"x ("a\u{1b}b") == 1 = 0"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        #expect(object["text"] as? String == "x (\"a\u{1b}b\") == 1 = 0")
    }
}
