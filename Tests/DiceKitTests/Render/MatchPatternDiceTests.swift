import Foundation
import Testing

@testable import DiceKit

/// The dice of a `match` pattern's bounds (`>=(1d6 + 10)`) are rolled before the entries are
/// tried (LANGUAGE.md §5b), and every die rolled is shown: after the subject, `vs` and each
/// pattern that rolled dice, its bounds' rolls where they stand, in text, Markdown and JSON's
/// `text` and `rolls`. A pattern that rolled no dice is not shown, as before.
@Suite struct MatchPatternDiceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var faces: [Int]
        var text: String
        var markdown: String
        /// Every pool of JSON's `rolls`, in order: its notation and value.
        var rolls: [Roll]
        var testDescription: String { program.split(separator: ";").last.map(String.init) ?? program }

        struct Roll: Equatable, Sendable {
            var notation: String
            var value: Int
            init(_ notation: String, _ value: Int) {
                self.notation = notation
                self.value = value
            }
        }
    }

    static let table = "match 1d20 { >=(1d6 + 10): \"hit\", else: \"miss\" }"

    static let cases: [Case] = [
        // 11 against 4 + 10 = 14: a miss.
        Case(program: table, faces: [11, 4], text: "1d20 (11) vs >=(1d6 (4) + 10 = 14) → miss",
             markdown: "1d20 (11) vs >=(1d6 (4) + 10 = 14) → miss", rolls: [.init("1d20", 11), .init("1d6", 4)]),
        // 20 against 6 + 10 = 16: a hit; Markdown bolds the highest face of each die.
        Case(program: table, faces: [20, 6], text: "1d20 (20) vs >=(1d6 (6) + 10 = 16) → hit",
             markdown: "1d20 (**20**) vs >=(1d6 (**6**) + 10 = 16) → hit", rolls: [.init("1d20", 20), .init("1d6", 6)]),
        // Every shape of pattern; a bound with no dice in a pattern shown is its formula and value.
        // 1 is not in 2-12, not 6 or more, not 2: the else.
        Case(program: "dc = 12; match 1d20 { (1d4)-(dc): \"low\", (2d6)+: \"high\", =(1d2): \"two\", else: \"mid\" }",
             faces: [1, 2, 1, 5, 2], text: "1d20 (1) vs (1d4 (2))-(dc (12)), (2d6 (1, 5))+, =(1d2 (2)) → mid",
             markdown: "1d20 (**1**) vs (1d4 (2))-(dc (12)), (2d6 (**1**, 5))+, =(1d2 (**2**)) → mid",
             rolls: [.init("1d20", 1), .init("1d4", 2), .init("2d6", 6), .init("1d2", 2)]),
        // The entry chosen comes before the pattern with dice, which was rolled all the same.
        Case(program: "match 1d20 { 1-10: \"low\", >=(1d6 + 10): \"high\", else: \"mid\" }", faces: [3, 5],
             text: "1d20 (3) vs >=(1d6 (5) + 10 = 15) → low", markdown: "1d20 (3) vs >=(1d6 (5) + 10 = 15) → low",
             rolls: [.init("1d20", 3), .init("1d6", 5)]),
        // Only the pattern that rolled dice is shown: not `<=(dc)`, nor `"x"`.
        Case(program: "dc = 5; match 1d20 { <=(dc): \"low\", \"x\": 0, (1d6)-: \"mid\", else: \"high\" }", faces: [7, 3],
             text: "1d20 (7) vs (1d6 (3))- → high", markdown: "1d20 (7) vs (1d6 (3))- → high",
             rolls: [.init("1d20", 7), .init("1d6", 3)]),
        // No pattern rolled dice: the breakdown is as it was.
        Case(program: "dc = 5; match 1d20 { >=(dc + 10): \"hit\", else: \"miss\" }", faces: [14],
             text: "1d20 (14) → miss", markdown: "1d20 (14) → miss", rolls: [.init("1d20", 14)]),
        // A table whose subject rolled nothing shows its pattern's die, not just its value.
        Case(program: "def beats(n) = match n { >=(1d6): \"yes\", else: \"no\" }; beats(4)", faces: [3],
             text: "beats(4): n (4) vs >=(1d6 (3)) → yes", markdown: "beats(4): n (4) vs >=(1d6 (3)) → yes",
             rolls: [.init("1d6", 3)]),
        // A number result is followed by its value, as a table's always was.
        Case(program: "match 1d20 { (2d6)+: 1d4, else: 0 }", faces: [9, 3, 4, 2],
             text: "1d20 (9) vs (2d6 (3, 4))+ → 1d4 (2) = 2", markdown: "1d20 (9) vs (2d6 (3, 4))+ → 1d4 (2) = 2",
             rolls: [.init("1d20", 9), .init("2d6", 7), .init("1d4", 2)]),
    ]

    static func outcome(_ program: String, _ faces: [Int]) throws -> Outcome {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice(faces))
        var outcome: Outcome?
        for statement in try Parser.parseProgram(program) { outcome = try evaluator.execute(statement) }
        return try #require(outcome)
    }

    @Test(arguments: cases)
    func patternsThatRolledDiceAreShown(_ c: Case) throws {
        let outcome = try Self.outcome(c.program, c.faces)
        #expect(OutcomeRenderer().text(for: outcome) == c.text)
        #expect(OutcomeRenderer(rolls: .markdown).text(for: outcome) == c.markdown)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        #expect(object["text"] as? String == c.text)
        let rolls = try #require(object["rolls"] as? [[String: Any]])
        let listed = rolls.map { Case.Roll($0["notation"] as? String ?? "?", $0["value"] as? Int ?? -1) }
        #expect(listed == c.rolls)
        // The pattern's dice are the roll's pools, as a program reading the tree finds them.
        guard case .roll(let roll) = outcome else { Issue.record("no roll"); return }
        #expect(roll.pools.map(\.notation) == c.rolls.map(\.notation))
    }

    /// The value alone (`-t`, simulations) rolls the same dice to the same value.
    @Test(arguments: cases)
    func theValueAloneDrawsTheSameDice(_ c: Case) throws {
        let roll = try ScriptedProgram(c.program, faces: c.faces)
        let alone = try ScriptedProgram.value(c.program, faces: c.faces)
        #expect(alone.value == roll.roll.value)
        #expect(alone.drawn == roll.drawn)
        #expect(roll.drawn == c.faces.count)
    }

    /// A label inside a pattern labels its pool and is listed with JSON's `labels`.
    @Test func aLabelInAPatternIsListed() throws {
        let outcome = try Self.outcome("match 1d20 { >=(1d6 [bonus] + 10): \"hit\", else: \"miss\" }", [15, 4])
        #expect(OutcomeRenderer().text(for: outcome) == "1d20 (15) vs >=(1d6 (4) [bonus] + 10 = 14) → hit")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(OutcomeRenderer().json(for: outcome, input: "x").utf8))
            as? [String: Any])
        let rolls = try #require(object["rolls"] as? [[String: Any]])
        #expect(rolls.last?["annotation"] as? String == "bonus")
        let labels = try #require(object["labels"] as? [[String: Any]])
        #expect(labels.map { $0["label"] as? String } == ["bonus"])
        #expect(labels.first?["text"] as? String == "1d6 (4)")
    }
}
