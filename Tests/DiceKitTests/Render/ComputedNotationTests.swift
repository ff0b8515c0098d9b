import Testing

@testable import DiceKit

/// A computed count, sides or modifier argument shows the value it took, not its formula
/// (LANGUAGE.md §6): `(extra * 2)d6` with `extra = 1` shows `2d6 (…)`, in text and in JSON.
@Suite struct ComputedNotationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var program: String
        var faces: [Int]
        var text: String
        var notations: [String]
        var testDescription: String { program }
    }

    static let cases: [Case] = [
        Case(program: "extra = 1; (extra * 2)d6", faces: [4, 1], text: "2d6 (4, 1) = 5", notations: ["2d6"]),
        Case(program: "die = 8; 1d(die)!", faces: [3], text: "1d8! (3) = 3", notations: ["1d8!"]),
        Case(program: "n = 3; 4d6kh(n)", faces: [6, 4, 3, 1], text: "4d6kh3 (6, 4, 3, ~~1~~) = 13", notations: ["4d6kh3"]),
        Case(program: "t = 8; 6d10cs>=(t)", faces: [8, 1, 9, 2, 3, 4], text: "6d10cs>=8 (8*, 1, 9*, 2, 3, 4) = 2",
             notations: ["6d10cs>=8"]),
        Case(program: "def crit(extra) = 2d8 + (extra * 2)d6; crit(1)", faces: [5, 7, 4, 1],
             text: "crit(1): 2d8 (5, 7) + 2d6 (4, 1) = 17", notations: ["2d8", "2d6"]),
        Case(program: "def trait(die) = 1d(die)!; trait(4)", faces: [2], text: "trait(4): 1d4! (2) = 2", notations: ["1d4!"]),
        // A count that rolled dice keeps its roll in place; JSON lists that roll, then the pool as rolled.
        Case(program: "(1d4)d6", faces: [2, 5, 6], text: "(1d4 (2))d6 (5, 6) = 11", notations: ["1d4", "2d6"]),
        // So does a modifier argument that rolled dice, where it stands: the arguments roll in
        // the order the modifiers apply (`r` before `kh`), JSON lists them so.
        Case(program: "4d6dl(1d3)", faces: [1, 5, 2, 5, 5], text: "4d6dl(1d3 (1)) (5, ~~2~~, 5, 5) = 15",
             notations: ["1d3", "4d6dl1"]),
        Case(program: "4d6kh(1d2)r<(1d3)", faces: [1, 2, 6, 4, 3, 5], text: "4d6kh(1d2 (2))r<(1d3 (1)) (6, ~~4~~, ~~3~~, 5) = 11",
             notations: ["1d3", "1d2", "4d6kh2r<1"]),
        Case(program: "4d6r(1d3)", faces: [1, 1, 6, 4, 3, 5], text: "4d6r(1d3 (1)) (~~1~~, 6, 4, 3, 5) = 18",
             notations: ["1d3", "4d6r1"]),
        // A group's and a repeat's computed modifiers too.
        Case(program: "n = 2; {1, 2, 3}kh(n)", faces: [], text: "{~~1~~, 2, 3}kh2 = 5", notations: []),
        Case(program: "repeat(3, 1d6)dl(1 + 1)", faces: [4, 2, 5], text: "{~~1d6 (4) = 4~~, ~~1d6 (2) = 2~~, 1d6 (5) = 5}dl2 = 5",
             notations: ["1d6", "1d6", "1d6"]),
        // A repeat's count that rolled dice, before its members; JSON lists its dice first.
        Case(program: "repeat(1d4, 1d6)", faces: [2, 5, 3], text: "repeat(1d4 (2), 1d6) {1d6 (5) = 5, 1d6 (3) = 3} = 8",
             notations: ["1d4", "1d6", "1d6"]),
        Case(program: "repeat(1d4 + 1, 1d6)kh1", faces: [1, 5, 3], text: "repeat(1d4 (1) + 1, 1d6) {1d6 (5) = 5, ~~1d6 (3) = 3~~}kh1 = 5",
             notations: ["1d4", "1d6", "1d6"]),
        // A group's or a repeat's modifier argument that rolled dice shows its roll in place,
        // as a pool's does; JSON lists its dice after the members', in the order rolled.
        Case(program: "{1d6, 1d6}kh(1d2)", faces: [4, 2, 1], text: "{1d6 (4) = 4, ~~1d6 (2) = 2~~}kh(1d2 (1)) = 4",
             notations: ["1d6", "1d6", "1d2"]),
        Case(program: "(1d6, 1d6)kh(1d2)", faces: [4, 2, 1], text: "(1d6 (4) = 4, ~~1d6 (2) = 2~~)kh(1d2 (1)) = 4",
             notations: ["1d6", "1d6", "1d2"]),
        Case(program: "{1, 2, 3}dl(1d2)", faces: [2], text: "{~~1~~, ~~2~~, 3}dl(1d2 (2)) = 3", notations: ["1d2"]),
        Case(program: "repeat(3, 1d6)kh(1d2)", faces: [4, 2, 5, 2], text: "{1d6 (4) = 4, ~~1d6 (2) = 2~~, 1d6 (5) = 5}kh(1d2 (2)) = 9",
             notations: ["1d6", "1d6", "1d6", "1d2"]),
        Case(program: "repeat(3, 1d6)cs>(1d3)", faces: [4, 2, 5, 2], text: "{1d6 (4) = 4*, 1d6 (2) = 2, 1d6 (5) = 5*}cs>(1d3 (2)) = 2",
             notations: ["1d6", "1d6", "1d6", "1d3"]),
        Case(program: "repeat(1d4, 1d6)dl(1d2)", faces: [2, 5, 3, 1], text: "repeat(1d4 (2), 1d6) {1d6 (5) = 5, ~~1d6 (3) = 3~~}dl(1d2 (1)) = 5",
             notations: ["1d4", "1d6", "1d6", "1d2"]),
        // A dice-free argument keeps showing its value.
        Case(program: "{1d6, 1d6}kh(2 - 1)", faces: [4, 2], text: "{1d6 (4) = 4, ~~1d6 (2) = 2~~}kh1 = 4", notations: ["1d6", "1d6"]),
        // Literal parts are shown as written.
        Case(program: "4d6kh3", faces: [6, 4, 3, 1], text: "4d6kh3 (6, 4, 3, ~~1~~) = 13", notations: ["4d6kh3"]),
    ]

    @Test(arguments: cases)
    func computedPartsShowTheirValues(_ c: Case) throws {
        let statements = try Parser.parseProgram(c.program)
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice(c.faces))
        var outcome: Outcome?
        for statement in statements { outcome = try evaluator.execute(statement) }
        let last = try #require(outcome)
        let renderer = OutcomeRenderer()
        #expect(renderer.text(for: last) == c.text)
        guard case .roll(let roll) = last else {
            Issue.record("not a roll")
            return
        }
        #expect(roll.pools.map(\.notation) == c.notations)
        let json = renderer.json(for: last, input: "x")
        for notation in c.notations { #expect(json.contains("\"notation\":\"\(notation)\"")) }
    }

    /// A repeat of more members than are listed keeps its modifier argument's roll too, with
    /// and without every member's value kept (`listedRepeat`, `boundedRepeat`).
    @Test(arguments: [false, true], ["repeat(3, 1d1)kh(1d2)", "repeat(3, 1d1)kh(1d2)s"])
    func aLargeRepeatShowsItsArgumentRoll(keepsEveryValue: Bool, program: String) throws {
        var limits = Limits(maxRecordedDice: 2)
        limits.keepsEveryValue = keepsEveryValue
        var evaluator = Evaluator(environment: Environment(), limits: limits, source: ScriptedDice([1, 1, 1, 2]))
        let outcome = try evaluator.execute(try #require(try Parser.parseProgram(program).first))
        let renderer = OutcomeRenderer()
        #expect(renderer.text(for: outcome).contains("kh(1d2 (2))"))
        guard case .roll(let roll) = outcome else {
            Issue.record("not a roll")
            return
        }
        #expect(roll.pools.map(\.notation) == ["1d1", "1d1", "1d2"])
        #expect(renderer.json(for: outcome, input: "x").contains(#""notation":"1d2""#))
    }

    /// A sorted repeat of more distinct member values than `MemberValues` codes rolls its
    /// modifier argument once, as its value alone does: it was rolled again, so the breakdown
    /// showed (and kept) a second d2 that the value without breakdown never rolled.
    @Test func aLargeSortedRepeatRollsItsArgumentOnce() throws {
        let program = "repeat(70000, 1d1000000)kh(1d2)s"
        let faces = Array(1...70000) + [1, 2]
        let limits = Limits(maxRecordedDice: 2)
        var evaluator = Evaluator(environment: Environment(), limits: limits, source: ScriptedDice(faces))
        let outcome = try evaluator.execute(try #require(try Parser.parseProgram(program).first))
        #expect(OutcomeRenderer().text(for: outcome).hasSuffix("}kh(1d2 (1))s = 70000"))
        var valueOnly = Evaluator(environment: Environment(), limits: limits, source: ScriptedDice(faces))
        #expect(try valueOnly.value(of: try Parser.parseExpression(program)) == .integer(70000))
    }

    /// The dice of a group member that keep/drop dropped count for nothing: JSON says so of
    /// each (LANGUAGE.md §6: `rolls` describes every die, kept or dropped).
    @Test func diceOfADroppedMemberAreNotKept() throws {
        var evaluator = Evaluator(environment: Environment(), source: ScriptedDice([14, 13, 2, 3]))
        let outcome = try evaluator.execute(try #require(try Parser.parseProgram("{1d20 + 5, 1d20 + 5, 2d6kh1}kh1").first))
        let json = OutcomeRenderer().json(for: outcome, input: "x")
        #expect(json.contains(#""dice":[{"value":14,"kept":true}]"#))
        #expect(json.contains(#""dice":[{"value":13,"kept":false,"dropped":true}]"#))
        // Dropped in its own pool, and in a dropped member: marked dropped once.
        #expect(json.contains(#""dice":[{"value":2,"kept":false,"dropped":true},{"value":3,"kept":false,"dropped":true}]"#))
    }
}
