import Testing
@testable import DiceKit

/// Unique dice (`u`, LANGUAGE.md §5b): each die showing a face already shown in the pool is
/// rolled again until it shows a new one, after its own rerolls and before its explosion.
@Suite struct UniqueDiceTests {
    static let cases: [OutcomeEvaluatorTests.RollCase] = [
        .init("3d8u", [3, 5, 7], .integer(15)),
        .init("3d8u", [3, 3, 5, 3, 5, 7], .integer(15)),
        .init("3d6r1u", [1, 2, 2, 3, 4], .integer(9)),
        .init("4d4u", [4, 4, 4, 3, 2, 2, 1], .integer(10)),
        .init("2d{1, 1, 2}u", [1, 2, 3], .integer(3)),
        .init("3d6ukh2", [6, 6, 1, 5], .integer(11)),
        .init("3d6u!", [6, 2, 6, 3, 1], .integer(12)),
        .init("3d{\"a\", \"b\", \"c\", \"d\"}r=\"a\"ucs=\"b\"", [1, 2, 2, 1, 3, 4], .integer(1)),
    ]

    @Test(arguments: cases)
    func rolls(_ c: OutcomeEvaluatorTests.RollCase) throws {
        let run = try ScriptedProgram(c.program, faces: c.faces)
        #expect(run.roll.value == c.value)
        #expect(run.drawn == c.drawn ?? c.faces.count, "drew \(run.drawn) of \(c.faces)")
        let value = try ScriptedProgram.value(c.program, faces: c.faces)
        #expect(value.value == run.roll.value)
        #expect(value.drawn == run.drawn)
    }

    /// The dice of unique and rerolled pools, each face with its marks: a face already shown
    /// is marked rerolled and rolled again. (A text die's value is the index of its text, from 0.)
    @Test(arguments: [
        ("3d8u", [3, 3, 5, 3, 5, 7], ["3", "3 rerolled", "5", "3 rerolled", "5 rerolled", "7"]),
        ("3d6r1u", [1, 2, 2, 3, 4], ["1 rerolled", "2", "2 rerolled", "3", "4"]),
        ("3d6u!", [6, 2, 6, 3, 1], ["6 exploded", "2 extra", "6 rerolled", "3", "1"]),
        ("4d{\"hit\", \"miss\", \"miss\"}r=\"miss\"cs=\"hit\"", [2, 1, 1, 3, 1, 1],
         ["1 rerolled", "0 success", "0 success", "1 rerolled", "0 success", "0 success"]),
    ] as [(String, [Int], [String])])
    func marksRerolledFaces(_ text: String, _ faces: [Int], _ dice: [String]) throws {
        let run = try ScriptedProgram(text, faces: faces)
        #expect(describeDice(run.roll) == [dice])
    }

    /// `u` leaves every face different, over many seeded rolls, whatever the other modifiers.
    @Test(arguments: ["5d6u", "3d6r1u", "4d6u!", "6d6ukh3", "3d{1, 1, 2, 3}u", "4d8ro<3u",
                      "3d{\"a\", \"b\", \"c\", \"d\"}r=\"a\"ucs=\"b\""])
    func uniqueFacesAreAllDifferent(_ text: String) throws {
        var session = Session(seed: 5)
        let expr = try Parser.parseExpression(text)
        for _ in 0..<300 {
            let roll = try session.roll(expr)
            let pool = try #require(roll.pools.first)
            // The face each die settled on before its explosion: dice neither rerolled nor extra.
            let settled = pool.dice.filter { $0.flags.isDisjoint(with: [.rerolled, .extra]) }.map { pool.faceValue(of: $0) }
            #expect(Set(settled).count == settled.count, "\(RollRenderer.plain.render(roll))")
        }
    }
}

