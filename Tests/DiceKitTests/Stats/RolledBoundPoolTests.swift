import Foundation
import Testing
@testable import DiceKit

/// Bound pools whose count, sides or a modifier argument is rolled (LANGUAGE.md §5b "Bound
/// pools", §7): exact, as the roller rolls them (those parts once, then the dice), `p` and
/// its counts one roll. Where the roller fails, `StatsErrorTests`.
struct RolledBoundPoolTests {
    static let cases = [
        "let p = (1d2)d6 in count(p, =6)",
        "let p = 2d(1d2+4) in (hits: count(p, >=5), ones: count(p, =1))",
        "let p = 4d6kh(1d2) in count(p, >=5)",
        "let p = (1d2)d{\"a\",\"b\"} in count(p, =\"a\")",
        "1d6 + (let p = (1d3)d6 in count(p, >2))",
        "count((1d3)d6, >2)",
        // The value and the counts together: each outcome says which roll it came from.
        "let p = (1d3)d6 in p * 10 + count(p, =6)",
        "let p = (1d3 - 1)d4 in (n: count(p, =4), v: p)",
        "let p = 3d(1d3 * 2)kh(1d2) in (hi: count(p, >=3), v: p)",
        "let p = 3d6cs>=(1d2 + 4) in p * 10 + count(p, =6)",
        "let p = 4d6ro<(1d2 + 1) in count(p, =1) * 100 + p",
        // Text dice counted: `p` is the count, as rolled (1d{"a", "b"}cs="a" is 0 or 1, not a text).
        "let p = (1d2)d{\"a\", \"b\", \"b\"}cs=\"a\" in p + count(p, =\"b\") * 10",
        "let p = 1d{\"a\", \"b\"}cs=\"a\" in p * 10 + count(p, =\"b\")",
        "let p = (1d2 - 1)d{\"a\", \"b\"} in if count(p, =\"b\") == 0 then p else \"b seen\"",
        // A parameter standing for a roll; a count that reads another pool's count.
        "def pool(n) = let p = (n)d6 in count(p, >=5)\npool(1d3) + pool(2)",
        "let p = (1d2)d6 in let q = (count(p, =6) + 1)d4 in count(q, =4) * 10 + count(p, =6)",
        // A macro's default that reads the pool where the macro is used: each split of each
        // joint outcome of the parts its own. 2d4mi2 and 2d5mi3 both have three faces, and
        // two dice on the highest are worth 2 either way; only the fives tell them apart.
        "def five(n = count(p, =5)) = n * 10\nlet p = 2d(1d2 + 3)mi(1d2 + 1)cs>=4 in five + p + count(p, =9) * 100",
        // A pool of text dice bound and never read: rolled, not added up (stats said "a sum
        // of several text dice").
        "let g = 2d{\"a\", \"b\"} in 1d4",
        "let g = 2d{\"a\", \"b\"} in let g = 3d{\"x\"} in 1d2",
        // Counted inside a repeat, whose body counts as two uses: taken for a read of the
        // pool's value, so the text dice were added up.
        "let g = 2d{\"a\", \"b\"} in repeat(2, count(g, =\"a\")) + count(g, =\"b\")",
        "let g = {1d2, 1d{\"x\", \"y\"}} in repeat(2, count(g, =1))",
    ]

    /// Every roll the roller could make, followed through the evaluator (`EveryRoll`).
    @Test(arguments: cases)
    func agreesWithEveryRoll(_ program: String) throws {
        try EveryRoll.expectAgreement(program)
    }

    /// A compare point whose value is known only at the count (LANGUAGE.md §5b): it reads the
    /// pool or a name bound in the body (itself, or through a macro's default), stands for a
    /// roll (a `let` or a parameter), or rolls dice of its own, which the roller rolls at the
    /// count, after the pool. These failed with "unknown name" for a name in scope, or were
    /// simulated.
    static let pointsAtTheCount = [
        "let p = 2d6 in count(p, <=(p))",
        "let p = 3d4 in count(p, >=(p - 6)) * 100 + p",
        "let q = 2d6 in let x = 1d6 in count(q, <(x))",
        "let q = 2d4 in let x = 1d4 in count(q, <(x)) * 10 + x",
        "let x = 1d6 in let q = 2d6 in q + count(q, <(x))",
        "let x = 3 in let q = 2d4 in let x = 1d4 in count(q, >=(x))",
        "let q = 2d4 in count(q, <(1d4)) * 10 + count(q, >=(1d4))",
        "let q = 3d4kh2 in count(q, =(1d4)) + count(q, =4) * 10",
        "let p = (1d2)d4 in count(p, >=(p - 2))",
        "let p = 2d{\"a\", \"b\", \"c\"} in let t = d{\"a\", \"b\"} in count(p, =(t))",
        "let q = 2d6 in count(q, >=(count(q, >3)))",
        "def f(x) = let q = 2d6 in count(q, <(x))\nf(1d6)",
        "def lim(t = x) = t\nlet q = 2d4 in let x = 1d4 in count(q, <(lim))",
        // A rolled point tells apart only the faces its values do: {1}, {2, 3, 4}, {5}, {6}.
        "let p = 3d6 in count(p, >=(1d2 + 4)) + count(p, =1) * 10",
        "let p = 2d6 in (n: count(p, =(1d4 + 10)), v: p)",
        "let p = 3d4mi2 in count(p, !=(1d2 * 2)) * 10 + count(p, >=3)",
        // A default that counts the pool, under a body that rolls: it broke an invariant.
        "def five(n = count(p, =5)) = n * 10\nlet p = 2d6 in five + count(p, =6) + 1d2",
        // Written in place: the point rolled once, after the pool, every member compared with it.
        "count(repeat(2, 1d6), <(1d6))",
        "count({1d3}, !=(1d3))",
        "count({1d4, 1d6}, >=(1d4)) * 10 + 1d2",
        "count(repeat(1d2, 1d4), =(1d4))",
        "count(4d{\"hit\", \"miss\"}, =(d{\"hit\", \"miss\"}))",
        "3d{\"a\", \"b\", \"c\"}cs=(d{\"a\", \"b\"})",
        "let t = d{\"a\", \"b\"} in count(3d{\"a\", \"b\", \"c\"}, !=(t)) * 10 + 1d2",
    ]

    @Test(arguments: pointsAtTheCount)
    func pointsAtTheCountAgreeWithEveryRoll(_ program: String) throws {
        try EveryRoll.expectAgreement(program)
    }

    /// A point rolled apart from the pool tells apart only the faces its values do, so that
    /// big pools stay within the budget: counting 30d6 against 5 or 6 and against 1 is four
    /// classes of faces (496 outcomes), where each face apart was six (324,632 splits).
    @Test func aRolledPointTellsApartOnlyTheFacesItMust() throws {
        let report = try StatsHarness.report("let p = 30d6 in (hits: count(p, >=(1d2 + 4)), ones: count(p, =1))")
        #expect(report.exact)
        #expect(report.distribution.valueOutcomes.count == 496)
        let hits = try StatsHarness.report("def hits(tn) = let p = 20d10 in count(p, >=(tn)) - count(p, =1)\nhits(1d3 + 6)")
        #expect(hits.exact)
        #expect(abs(hits.distribution.mean - 4) < 1e-9)
        // A bound repeat's members alike: 3 to 12 are one class, no value of the point reaching them.
        let bound = try StatsHarness.report("let p = repeat(6, 4d6kh3) in count(p, >=(1d6 + 12))")
        let written = try StatsHarness.report("count(repeat(6, 4d6kh3), >=(1d6 + 12))")
        #expect(bound.exact && written.exact)
        for outcome in written.distribution.valueOutcomes {
            #expect(abs(bound.distribution.probability(ofValue: outcome.value) - outcome.probability) < 1e-12)
        }
    }

    /// §7: exact, so the header's ends are the true ones; simulated, they were the sample's.
    @Test func aRolledPointHasTheTrueEnds() throws {
        let ends: [(String, Int, Int)] = [("count({1d3}, !=(1d3))", 0, 1), ("count(repeat(2, 1d6), <(1d6))", 0, 2),
                                          ("let p = 2d6 in count(p, <=(p))", 2, 2)]
        for (program, low, high) in ends {
            let report = try StatsHarness.report(program)
            #expect(report.exact, "\(program)")
            #expect(report.distribution.minimum == .integer(low) && report.distribution.maximum == .integer(high),
                    "\(program)")
        }
    }

    /// Worked out by hand. (1d2)d6 counting sixes: one die half the time (5/6 none), two the
    /// other half (25/36 none, 10/36 one, 1/36 two). 4d6kh(1d2) counting 5s and 6s: kh1 keeps
    /// one when any of four dice shows one (65/81); kh2 keeps min(2, k), k binomial(4, 1/3)
    /// (16/81, 32/81, then 33/81 for two).
    /// A bare `!` explodes on the die's highest face before rerolls (LANGUAGE.md §3), which a
    /// reroll of it leaves unrolled: bound, these exploded on the highest face left, so
    /// `let p = 1d4r4! in count(p, >=1)` was 2 or more a third of the time, and
    /// `let p = 1d2r2! in …` an explosion on every face. The pool's value is the pool's,
    /// as unbound, and its count of dice is its count.
    @Test(arguments: ["1d4r4!", "2d6r6!!", "2d3r>=3!p", "3d4r4!", "1d2r2!", "2d6mi2!", "3d4ma3!kh2"])
    func aBareExplosionIsOnTheHighestFaceBeforeRerolls(_ pool: String) throws {
        let bound = try StatsHarness.report("let p = \(pool) in p").distribution
        let plain = try StatsHarness.report(pool).distribution
        let problems = differences(bound, plain.valueOutcomes.compactMap { outcome in
            outcome.value.number.map { ($0, outcome.probability) }
        }, tolerance: 1e-12)
        #expect(problems.isEmpty, "\(problems)")
        if pool.contains("r") {
            let dice = try StatsHarness.report("let p = \(pool) in count(p, >=-100)").distribution
            let count = Int(pool.prefix(1)) ?? 0
            #expect(abs(dice.probability(of: .integer(count)) - 1) < 1e-12)
        }
    }

    @Test func handWorkedChances() throws {
        let sixes = try StatsHarness.report("let p = (1d2)d6 in count(p, =6)")
        #expect(sixes.exact)
        try expect(sixes.distribution, [0: 55.0 / 72, 1: 16.0 / 72, 2: 1.0 / 72])
        let kept = try StatsHarness.report("let p = 4d6kh(1d2) in count(p, >=5)")
        #expect(kept.exact)
        try expect(kept.distribution, [0: 16.0 / 81, 1: 97.0 / 162, 2: 33.0 / 162])
        let texts = try StatsHarness.report("let p = (1d2)d{\"a\",\"b\"} in count(p, =\"a\")")
        try expect(texts.distribution, [0: 3.0 / 8, 1: 1.0 / 2, 2: 1.0 / 8])
        // §7: the true ends of the whole pool, not a sample's.
        #expect(sixes.distribution.minimum == .integer(0) && sixes.distribution.maximum == .integer(2))
    }

    /// Unique dice reroll a face already shown, which `EveryRoll` cannot follow (its paths end
    /// in 1s for ever): a rolled count is the mixture of the pools of each count, worked out
    /// alone (those are held to rolls in `BoundPoolStatsTests`).
    @Test(arguments: ["let p = (1d3)d4u in count(p, >=3) * 10 + p", "let p = (1d3)d6ukh(1d2) in (n: count(p, =6), v: p)"])
    func uniqueDiceMixTheirCounts(_ program: String) throws {
        let report = try StatsHarness.report(program)
        #expect(report.exact)
        var want: [Value: Double] = [:]
        for count in 1...3 {
            let fixed = program.replacingOccurrences(of: "(1d3)", with: "\(count)")
            let keeps = fixed.contains("kh(1d2)") ? [1, 2] : [0]
            for keep in keeps {
                let one = keep == 0 ? fixed : fixed.replacingOccurrences(of: "kh(1d2)", with: "kh\(keep)")
                let part = try StatsHarness.report(one)
                part.distribution.forEachValue { value, p in want[value, default: 0] += p / 3 / Double(keeps.count) }
            }
        }
        var got: [Value: Double] = [:]
        report.distribution.forEachValue { value, p in got[value, default: 0] += p }
        #expect(got.count == want.count)
        for (value, p) in want { #expect(abs((got[value] ?? 0) - p) < 1e-12, "P(\(value))") }
    }

    private func expect(_ distribution: Distribution, _ want: [Int: Double]) throws {
        #expect(distribution.valueOutcomes.count == want.count)
        for (value, p) in want {
            #expect(abs(distribution.probability(ofValue: .integer(value)) - p) < 1e-12, "P(\(value))")
        }
    }
}
