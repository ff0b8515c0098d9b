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
             text: "pick: d{\"hit\", \"miss\"}r=\"miss\" (~~miss~~, hit) = hit",
             markdown: "pick: d{\"hit\", \"miss\"}r=\"miss\" (~~miss~~, hit) = hit",
             notations: ["d{\"hit\", \"miss\"}r=\"miss\""]),
        // Several dice under a macro show their faces once, in their pool.
        Case(program: "def pool = 2d{(s: 1), ()}; pool", faces: [1, 2], text: "pool: 2d{(s: 1), ()} ((s: 1), ()) = (s: 1)",
             markdown: "pool: 2d{(s: 1), ()} ((s: 1), ()) = (s: 1)", notations: ["2d{(s: 1), ()}"]),
        // A die typed in place keeps its notation; no face of it is the highest or lowest.
        Case(program: "3d{(s: 1), (a: 2), ()}", faces: [3, 2, 1], text: "3d{(s: 1), (a: 2), ()} ((), (a: 2), (s: 1)) = (a: 2, s: 1)",
             markdown: "3d{(s: 1), (a: 2), ()} ((), (a: 2), (s: 1)) = (a: 2, s: 1)", notations: ["3d{(s: 1), (a: 2), ()}"]),
        Case(program: "d{\"goblin\", \"orc\"}", faces: [2], text: "d{\"goblin\", \"orc\"} (orc) = orc",
             markdown: "d{\"goblin\", \"orc\"} (orc) = orc", notations: ["d{\"goblin\", \"orc\"}"]),
    ]

    static func outcome(_ c: Case) throws -> Outcome {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice(c.faces))
        var outcome: Outcome?
        for statement in try Parser.parseProgram(c.program) { outcome = try evaluator.execute(statement) }
        return try #require(outcome)
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
}
