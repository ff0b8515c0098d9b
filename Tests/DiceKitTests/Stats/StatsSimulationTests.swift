import Testing
@testable import DiceKit

/// The exact distribution against the roller itself: 10,000 seeded rolls of each
/// expression pass a chi-square test, so `Stats` and the evaluator agree on semantics.
struct StatsSimulationTests {
    static let programs = [
        "3d4!pkh2", "2d6ro<3!", "4d6r1ro2kh3", "3d6!!kh2", "5d10!cs>=8df1", "{1d6, 2d4}kh1",
        "def dbl(x) = x + x; dbl(1d6) + 1d4", "(1d4)d6kh2", "2d(1d3*2)", "repeat(1d3, 1d6)kh1",
        "4d6mi2ma5r2", "3d4!=2kh1", "1d6!p>=5 + 1d4", "max(1d6!, 2d4)", "round(3d6/4)", "6d10cs>=8df=1",
        "4dF!kh2", "3d4!dl1", "8d6!kh3", "2d{1,1,2,3}!>=2kl1", "{2d6, 1d12, 3d4}dh1dl1cs>=6",
        "def hit(m) = 1d20 + m >= 15; hit(1d4) + hit(2)", "4d6kh(1d3)", "1d20ro<5r1", "3d6ma4mi2!",
        // Keep/drop over exploding pools: either end, both ends, steps in written order.
        "6d6!dl4", "5d6!dl1dh1", "4d10!kh3", "3d20!dl1", "8d6!dl4", "4d6!kh3kl2", "5d6!kl3kh2",
        "4d6!>=5dl1dh1", "4d6!<2dl1dh1", "3d10!dh1dl1cs>=8", "4d6!dl1dh1df1", "4d6r1mi2!dl1dh1",
        "5d6!!dl1dh1", "3d2!pdl1dh1", "(1d3+2)d6!dh1dl1", "4dF!dh1dl1",
        "5d6!pdl1dh1", "4d6!pkh3kl2", "4d10!pdh1dl1", "6d6!pdl4", "5d6!=3dl1dh1", "4d6!p>=5kh2cs>=4",
    ]

    /// `if` and `let` (LANGUAGE.md §5a): a bound roll is one roll, the branch not taken unrolled.
    static let conditionals = [
        "let r = 1d20 in if r == 20 then 2d8 + 3 else if r + 5 >= 15 then 1d8 + 3 else 0",
        "let x = 1d6 in x * x", "if 1d6 >= 5 then 2d6 else 1d6", "repeat(3, let x = 1d4 in x * x)",
        "let a = 1d4 in let b = 1d4 + a in a * b", "def best(a, b) = if a >= b then a else b; best(1d6, 2d4)",
        "let x = 3d6!kh2 in if x > 8 then x - 1d4 else x + 1d4",
    ]

    @Test(arguments: StatsSimulationTests.programs + StatsSimulationTests.conditionals)
    func agreesWithTheRoller(_ program: String) throws {
        let (expr, environment) = try StatsHarness.prepare(program)
        let exact = try Stats.exactDistribution(of: expr, environment: environment).distribution
        var evaluator = Evaluator(environment: environment, source: Xoshiro256StarStar(seed: 20_261_130))
        let rolls = 10_000
        var counts: [Value: Int] = [:]
        for _ in 0..<rolls {
            evaluator.startStatement()
            counts[try evaluator.evaluate(expr).value, default: 0] += 1
        }
        for value in counts.keys {
            #expect(exact.probability(ofValue: value) > 0, "rolled \(value), which has probability 0")
        }
        // Pearson's chi-square over bins of expected count >= 5 (merged in order).
        var statistic = 0.0, bins = 0
        var expected = 0.0, observed = 0
        for outcome in exact.outcomes {
            expected += outcome.probability * Double(rolls)
            observed += counts[.number(outcome.value)] ?? 0
            if expected >= 5 {
                statistic += (Double(observed) - expected) * (Double(observed) - expected) / expected
                bins += 1
                expected = 0
                observed = 0
            }
        }
        let freedom = Double(Swift.max(bins - 1, 1))
        // About 5 standard deviations above the mean of the chi-square distribution.
        #expect(statistic < freedom + 5 * (2 * freedom).squareRoot() + 10,
                "chi-square \(statistic) with \(Int(freedom)) degrees of freedom")
    }
}
