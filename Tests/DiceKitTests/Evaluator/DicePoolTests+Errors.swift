import Testing
@testable import DiceKit

/// Errors raised while rolling dice, and the dice limit (the rest of `DicePoolTests`).
extension DicePoolTests {
    // MARK: - Errors raised while rolling

    static let errors: [EvalErrorCase] = [
        // An explosion or a reroll that would never end points at its modifier.
        EvalErrorCase("1d1‸!", .explosionMatchesEveryFace),
        EvalErrorCase("d{2,2}‸!", .explosionMatchesEveryFace),
        EvalErrorCase("8d10‸!>=1", .explosionMatchesEveryFace),
        EvalErrorCase("1d6‸!<7", .explosionMatchesEveryFace),
        EvalErrorCase("1d6‸!!>0", .explosionMatchesEveryFace),
        EvalErrorCase("1d6‸!p!=0", .explosionMatchesEveryFace),
        EvalErrorCase("4dF‸!>=-1", .explosionMatchesEveryFace),
        EvalErrorCase("1d6mi7‸!", .explosionMatchesEveryFace),
        EvalErrorCase("1d6r<6‸!", .explosionMatchesEveryFace),
        EvalErrorCase("1d1‸r", .rerollMatchesEveryFace),
        EvalErrorCase("1d6‸r<=6", .rerollMatchesEveryFace),
        EvalErrorCase("1d6‸r1r2r3r4r5r6", .rerollMatchesEveryFace),
        EvalErrorCase("4dF‸r<2", .rerollMatchesEveryFace),
        EvalErrorCase("d{3,3}‸r3", .rerollMatchesEveryFace),
        EvalErrorCase("1d6ma1‸r", .rerollMatchesEveryFace),
        EvalErrorCase("2d6ro1‸r<=6", .rerollMatchesEveryFace),
        EvalErrorCase("(1d6‸!>0)d6!", .explosionMatchesEveryFace),
        EvalErrorCase("let p = 5d6‸!>0 in count(p, >=5)", .explosionMatchesEveryFace),
        EvalErrorCase("2d‸(-2)", .invalidSides(.integer(-2))),
        EvalErrorCase("2d‸0", .invalidSides(.integer(0))),
        EvalErrorCase("d‸(1d1 - 1)", .invalidSides(.integer(0))),
        EvalErrorCase("2d‸(3.5)", .invalidSides(.ratio(7, 2))),
        EvalErrorCase("2d‸6.5", .invalidSides(.ratio(13, 2))),
        EvalErrorCase("‸(-3)d6", .invalidCount(.integer(-3))),
        EvalErrorCase("‸(3.5)d6", .invalidCount(.ratio(7, 2))),
        EvalErrorCase("‸(7/2)d6", .invalidCount(.ratio(7, 2))),
        EvalErrorCase("repeat(‸-1, 1d6)", .invalidRepeatCount(.integer(-1))),
        EvalErrorCase("repeat(‸1.5, 1d6)", .invalidRepeatCount(.ratio(3, 2))),
        EvalErrorCase("d‸{}", .emptyFaces),
        EvalErrorCase("4d6kh‸(1.5)", .invalidModifierArgument(.keepHighest, value: .ratio(3, 2))),
        EvalErrorCase("4d6kh‸(-1)", .invalidModifierArgument(.keepHighest, value: .integer(-1))),
        EvalErrorCase("4d6dl‸(0.5)", .invalidModifierArgument(.dropLowest, value: .ratio(1, 2))),
        EvalErrorCase("4d6mi‸(1.5)", .invalidModifierArgument(.minimum, value: .ratio(3, 2))),
        EvalErrorCase("{1, 2}kh‸(1.5)", .invalidModifierArgument(.keepHighest, value: .ratio(3, 2))),
        EvalErrorCase("2d6cs>3‸cf<2", .conflictingModifiers(.countSuccesses, .countFailures)),
        EvalErrorCase("2d6!3‸!p", .conflictingModifiers(.explode, .penetrate)),
        EvalErrorCase("2d6df1‸df2", .conflictingModifiers(.subtractFailures, .subtractFailures)),
        EvalErrorCase("{1,2}‸!", .modifierAppliesToDice(.explode)),
        EvalErrorCase("{1,2}‸mi2", .modifierAppliesToDice(.minimum)),
        // `u` is of a pool's dice (LANGUAGE.md §5b); on a group it was silently ignored.
        EvalErrorCase("{1d6, 1d6}‸u", .modifierAppliesToDice(.unique)),
        EvalErrorCase("‸2d{9223372036854775807}", .overflow),
    ]

    @Test(arguments: errors)
    func reportsRollingErrors(_ c: EvalErrorCase) {
        expectEvaluationError(c)
    }

    /// No arithmetic may trap (LANGUAGE.md §1), `df` included: the face clamped to the least
    /// integer less one failure is an overflow error. Run in a child process, because a trap
    /// ends the process and every test in it.
    @Test func subtractingAFailureFromTheLeastIntegerIsAnError() throws {
        let outcome = try IsolatedTest.run("df-overflow", test: "subtractingAFailureFromTheLeastIntegerInAChild()")
        #expect(outcome.passed, "\(outcome)")
    }

    @Test(.enabled(if: IsolatedTest.isChild("df-overflow")))
    func subtractingAFailureFromTheLeastIntegerInAChild() {
        expectEvaluationError(EvalErrorCase("‸1d6ma(-9223372036854775807 - 1)df<0", .overflow))
        expectEvaluationError(EvalErrorCase("‸d{5}ma(-9223372036854775807 - 1)df=(-9223372036854775807 - 1)", .overflow))
    }

    // MARK: - The dice limit counts every die rolled, explosions and rerolls included

    static let small = Limits(maxDice: 10)

    static let withinLimit: [DiceCase] = [
        DiceCase("10d6", faces: [2], 20, [Array(repeating: "2", count: 10)]),
        DiceCase("9d6!", faces: [6, 1, 1, 1, 1, 1, 1, 1, 1, 1], 15,
                 [["6 exploded", "1 extra"] + Array(repeating: "1", count: 8)]),
        DiceCase("8d6r", faces: [1, 1, 2, 2, 2, 2, 2, 2, 2, 2], 16,
                 [["1 rerolled", "1 rerolled"] + Array(repeating: "2", count: 8)]),
    ]

    @Test(arguments: withinLimit)
    func rollsUpToTheDiceLimit(_ c: DiceCase) throws {
        var source = ScriptedDice(c.faces)
        let roll = try Dice.roll(c.input, limits: Self.small, using: &source)
        #expect(roll.value == c.value)
        #expect(describeDice(roll) == c.dice)
    }

    static let overLimit: [EvalErrorCase] = [
        EvalErrorCase("‸11d6", .tooManyDice(limit: 10)),
        EvalErrorCase("‸9d6!", .tooManyDice(limit: 10), faces: [6, 6, 1]),
        EvalErrorCase("‸1d6!!", .tooManyDice(limit: 10), faces: Array(repeating: 6, count: 11) + [1]),
        EvalErrorCase("‸1d6!p", .tooManyDice(limit: 10), faces: Array(repeating: 6, count: 11) + [1]),
        EvalErrorCase("‸8d6r", .tooManyDice(limit: 10), faces: [1, 1, 1, 2]),
        EvalErrorCase("5d6 + ‸6d6", .tooManyDice(limit: 10)),
        EvalErrorCase("‸repeat(11, 1)", .tooManyDice(limit: 10)),
        EvalErrorCase("repeat(4, ‸2d6)", .tooManyDice(limit: 10)),
        EvalErrorCase("‸9223372036854775807d6", .tooManyDice(limit: 10)),
    ]

    @Test(arguments: overLimit)
    func stopsAtTheDiceLimit(_ c: EvalErrorCase) {
        expectEvaluationError(c, limits: Self.small)
    }

    @Test func hugePoolsStopAtTheStandardLimit() {
        let error = diceError { () throws(DiceError) in try Dice.roll("1000000000d6", seed: 1) }
        #expect(error?.kind == .tooManyDice(limit: 10_000_000))
    }

    @Test func theLimitIsPerStatement() throws {
        var evaluator = Evaluator(environment: Environment(), limits: Self.small, source: ScriptedDice([3]))
        for statement in try Parser.parseProgram("8d6; 8d6; x = 8d6; x") {
            _ = try evaluator.execute(statement)
        }
        #expect(evaluator.environment["x"] == .variable(.integer(24)))
    }
}
