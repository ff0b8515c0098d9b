import Foundation
import Testing
@testable import DiceKit

/// Bound pools (`let p = TERM in BODY`) against other ways to the same distribution: the
/// engine's own pools (a term counted in place is a pool with `cs`, its value a plain pool),
/// closed forms, and the body worked out as a distribution instead of by the roller.
@Suite struct BoundPoolStatsTests {
    /// Exploding terms, with keep/drop (which sees each die of a chain) and counting.
    static let terms = [
        "3d6!", "4d6!kh2", "6d6!kh3", "5d6!dl2", "4d10!>=9", "4d6!!", "3d6!!kl1", "3d6!p", "4d6!pkh2",
        "4d6xo", "5d6xokl2", "4d6ro1!", "5d10!cs>=8", "4d6!r1",
    ]

    /// The pool's value read through the name is the term's own distribution.
    @Test(arguments: terms)
    func valueIsThePoolsDistribution(_ term: String) throws {
        let bound = try StatsHarness.report("let p = \(term) in p")
        let plain = try StatsHarness.report(term)
        #expect(bound.exact && plain.exact)
        try expectAlike(bound.distribution, plain.distribution, term)
    }

    /// `count(p, cp)` of the bound pool is the term counted in place.
    @Test(arguments: terms)
    func countIsTheTermCounted(_ term: String) throws {
        for point in [">=5", "=1", "=6"] {
            let bound = try StatsHarness.report("let p = \(term) in count(p, \(point))")
            let counted = try StatsHarness.report("count(\(term), \(point))")
            try expectAlike(bound.distribution, counted.distribution, "\(term) \(point)")
        }
    }

    /// Counted with one compare point only, a pool whose keep/drop sees each die of wide
    /// chains is the term counted in place, exact and as quick: `let p = 10d10!>=8kh5 in
    /// count(p, >=8)` was too expensive, and the others simulated with no min or max.
    @Test(arguments: [
        ("10d10!>=8kh5", ">=8"), ("6d10!>=8kh3", ">=8"), ("1d8x!=7dh1", "=3"), ("8d12!>=10dl2cs>=11", "=1"),
    ])
    func countedOnceWithOnePointIsTheTermCounted(_ term: String, _ point: String) throws {
        let bound = try StatsHarness.report("let p = \(term) in count(p, \(point)) * 10 + count(p, \(point))")
        let counted = try StatsHarness.report("11 * count(\(term), \(point))")
        #expect(bound.exact && counted.exact)
        try expectAlike(bound.distribution, counted.distribution, "\(term) \(point)")
        #expect(bound.minimum == counted.minimum && bound.maximum == counted.maximum)
    }

    /// Unique dice (LANGUAGE.md §5b: `u`, bound pools and `stats` exact together): counted
    /// through the name, exactly as counted in place; the value read too.
    @Test(arguments: ["3d6u", "4d6ukh2", "5d8udl2", "3d6ur1", "4d6umi2", "4d{1,1,2,3,3,4}u", "3d6ro<3u"])
    func uniqueDiceCountExactly(_ term: String) throws {
        for point in [">=5", "=1", "=3"] {
            let bound = try StatsHarness.report("let p = \(term) in count(p, \(point))")
            let counted = try StatsHarness.report("count(\(term), \(point))")
            #expect(bound.exact && counted.exact, "\(term) \(point)")
            try expectAlike(bound.distribution, counted.distribution, "\(term) \(point)")
        }
        let both = try StatsHarness.report("let p = \(term) in p * 10 + count(p, >=4)")
        #expect(both.exact, "\(term)")
    }

    /// Unique dice that explode (§5b: bound pools and unique dice exact): the first dice
    /// differ, each then explodes on its own, its extra dice free to show any face. Counted
    /// through the name as in place (`count(3d6u!, =6)`, worked out apart), the value read.
    @Test(arguments: ["3d6u!", "2d4u!p", "3d6uxo", "3d6u!!", "4d6u!kh2", "3d6u!>=5", "3d8u!pkl2", "3d6r1u!", "2d6u!!kh1"])
    func uniqueExplodingDiceCountExactly(_ term: String) throws {
        for point in [">=5", "=1", "=6"] {
            let bound = try StatsHarness.report("let p = \(term) in count(p, \(point))")
            let counted = try StatsHarness.report("count(\(term), \(point))")
            #expect(bound.exact && counted.exact, "\(term) \(point)")
            // `xo` has no tail to cut.
            #expect(term.contains("xo") ? bound.truncatedMass == 0 : bound.truncatedMass > 0 && bound.truncatedMass < 1e-11,
                    "\(term) \(point)")
            try expectAlike(bound.distribution, counted.distribution, "\(term) \(point)")
        }
        let both = try StatsHarness.report("let p = \(term) in p * 100 + count(p, >=4)")
        #expect(both.exact, "\(term)")
        // Its value, p, is what it says past the count (less than 100).
        try expectAlike(both.distribution.mapped { (x) throws(ArithmeticFault) in try x.floorDividing(by: .integer(100)) },
                        try StatsHarness.report(term).distribution, term)
    }

    /// The sixes of 3d6u!: a six is among the three first faces half the time, then its
    /// chain adds k more with chance (1/6)^k · 5/6.
    @Test func sixesOfUniqueExplodingDice() throws {
        let report = try StatsHarness.report("let p = 3d6u! in count(p, =6)")
        #expect(report.exact)
        #expect(abs(report.distribution.probability(ofValue: .integer(0)) - 0.5) < 1e-12)
        for k in 0...12 {
            let want = 0.5 * pow(1.0 / 6, Double(k)) * 5 / 6
            #expect(abs(report.distribution.probability(ofValue: .integer(k + 1)) - want) < 1e-12, "\(k)")
        }
    }

    /// `2d4u!p` counted two ways, against every roll: two different first faces (12 orders),
    /// a 4 going on with extra dice that show one less than they roll and go on when they roll 4.
    @Test func uniquePenetratingDiceAgainstEveryRoll() throws {
        let report = try StatsHarness.report("let p = 2d4u!p in (a: count(p, >=3), b: count(p, =1))")
        #expect(report.exact)
        var want: [[Int]: Double] = [:]
        func roll(_ shown: Int, _ rolled: Int, _ rest: [Int], _ counts: [Int], _ p: Double) {
            let counts = [counts[0] + (shown >= 3 ? 1 : 0), counts[1] + (shown == 1 ? 1 : 0)]
            if rolled == 4 && p > 1e-18 {
                for next in 1...4 { roll(next - 1, next, rest, counts, p / 4) }
            } else if let first = rest.first {
                roll(first, first, Array(rest.dropFirst()), counts, p)
            } else {
                want[counts, default: 0] += p
            }
        }
        for x in 1...4 { for y in 1...4 where y != x { roll(x, x, [y], [0, 0], 1.0 / 12) } }
        for (counts, p) in want where p > 1e-14 {
            let tally = Value.tally(DiceKit.Tally([("a", .integer(counts[0])), ("b", .integer(counts[1]))]))
            #expect(abs(report.distribution.probability(ofValue: tally) - p) < 1e-12, "\(counts)")
        }
    }

    /// Three of four text dice, unique: "a" is among them three times in four.
    @Test func uniqueTextDiceCountExactly() throws {
        let report = try StatsHarness.report("let p = 3d{\"a\", \"b\", \"c\", \"d\"}u in count(p, =\"a\")")
        #expect(report.exact)
        #expect(abs(report.distribution.probability(ofValue: .integer(1)) - 0.75) < 1e-12)
    }

    /// Counted text dice read as a value are the count, as rolled (a text was given for one
    /// die, and two failed as a sum of texts). One die: an "a" is 1 + 0, a "b" 0 + 1. Two of
    /// {a, b, b}: k "a"s (binomial(2, 1/3)) give 10k + (2 - k).
    @Test func countedTextDiceHaveTheirCountAsValue() throws {
        let one = try StatsHarness.report("let p = 1d{\"a\", \"b\"}cs=\"a\" in p + count(p, =\"b\")")
        #expect(one.exact && one.distribution.valueOutcomes.count == 1)
        #expect(abs(one.distribution.probability(ofValue: .integer(1)) - 1) < 1e-12)
        let two = try StatsHarness.report("let p = 2d{\"a\", \"b\", \"b\"}cs=\"a\" in p * 10 + count(p, =\"b\")")
        #expect(two.distribution.valueOutcomes.count == 3)
        for (value, p) in [(2, 4.0 / 9), (11, 4.0 / 9), (20, 1.0 / 9)] {
            #expect(abs(two.distribution.probability(ofValue: .integer(value)) - p) < 1e-12, "P(\(value))")
        }
    }

    /// The sixes of 3d6! are a negative binomial: k sixes before the three dice stop.
    @Test func sixesOfExplodingDiceAreANegativeBinomial() throws {
        let report = try StatsHarness.report("let p = 3d6! in count(p, =6)")
        for k in 0...20 {
            let ways = Double((k + 1) * (k + 2) / 2)  // C(k + 2, 2)
            let want = ways * pow(1.0 / 6, Double(k)) * pow(5.0 / 6, 3)
            let got = report.distribution.probability(ofValue: .integer(k))
            #expect(abs(got - want) < 1e-12, "P(\(k)) = \(got), want \(want)")
        }
        #expect(report.truncatedMass < 1e-12)
    }

    /// A body that rolls nothing, worked out by the roller, agrees with the same body worked
    /// out as a distribution (behind `if 1d1 == 1`, it rolls a die).
    @Test(arguments: [
        "let p = 9d6! in (hits: count(p, >=5), glitch: count(p, =1) * 2 > 9 + count(p, =6))",
        "let p = 6d6kh4 in match p { <=12: \"low\", else: \"high\" }",
        "let p = 8d10!>=9 in let s = count(p, >=8) in if s == 0 then \"failure\" else s",
        "let p = 5d6 in let q = 4d6 in (a: count(p, =6) + count(q, =6), b: count(q, =1))",
    ])
    func rollerAgreesWithTheEngine(_ body: String) throws {
        let fixed = try StatsHarness.report(body)
        let split = try #require(body.range(of: " in "))
        let rolled = try StatsHarness.report(body[..<split.lowerBound] + " in if 1d1 == 1 then ("
                                             + body[split.upperBound...] + ") else 0")
        #expect(fixed.exact && rolled.exact)
        try expectAlike(fixed.distribution, rolled.distribution, body)
    }

    /// A body that adds each die's match to its face is a pool of faces so moved, each die of
    /// a chain added and counted alike: `count(p, >=8) + p` of `5d10!>=8` is `5d{1, …, 7, 9,
    /// 10, 11}!>=9`. The faces that explode are a class of their own (`summedClassOutcomes`);
    /// split face by face, the first two were simulated and the third too expensive.
    @Test(arguments: [
        ("let p = 5d10!>=8 in count(p, >=8) + p", "5d{1,2,3,4,5,6,7,9,10,11}!>=9"),
        ("let g = 1d30!>=21 in count(g, >=1) + g", "1d{\((2...31).map(String.init).joined(separator: ","))}!>=22"),
        ("let p = 12d10!>=8 in p - count(p, =1)", "12d{0,2,3,4,5,6,7,8,9,10}!>=8"),
        ("let p = 4d6r1! in p + count(p, 6)", "4d{2,3,4,5,7}!"),
    ])
    func explodingValueAndCountsTogether(_ program: String, _ moved: String) throws {
        let bound = try StatsHarness.report(program)
        let pool = try StatsHarness.report(moved)
        #expect(bound.exact && pool.exact)
        try expectAlike(bound.distribution, pool.distribution, program)
    }

    /// A body that reads the pool's value and counts it: the value within each split of the
    /// counted classes is a convolution (`summedClassOutcomes`); the same as when every die is
    /// kept (`kh4` of four dice), which splits the dice face by face.
    @Test(arguments: [
        ("4d6", "kh4", "p + count(p, =6) * 10 - count(p, <=2)"),
        ("3d{1,1,2,5}", "kh3", "p * count(p, =1)"),
        ("5d4mi2", "kh5", "(v: p, c: count(p, =4))"),
        ("4d6r1", "kh4", "match p - count(p, >=5) { <=8: \"low\", else: \"high\" }"),
        ("5dF", "kh5", "p + count(p, =0) - count(p, <>1)"),
    ])
    func valueAndCountsTogether(_ term: String, _ keepAll: String, _ body: String) throws {
        let summed = try StatsHarness.report("let p = \(term) in \(body)")
        let perFace = try StatsHarness.report("let p = \(term)\(keepAll) in \(body)")
        #expect(summed.exact && perFace.exact)
        #expect(summed.distribution.valueOutcomes.count == perFace.distribution.valueOutcomes.count)
        try expectAlike(summed.distribution, perFace.distribution, body)
    }

    /// `p + count(p, =20)` of 12d20 against every roll of 3d20 worked out here, and exact
    /// where splitting the dice face by face made C(31, 19) splits (past the bound).
    @Test func aCritAddingOneIsExact() throws {
        var brute: [Int: Double] = [:]
        for a in 1...20 { for b in 1...20 { for c in 1...20 {
            let crits = [a, b, c].filter { $0 == 20 }.count
            brute[a + b + c + crits, default: 0] += 1.0 / 8000
        } } }
        let small = try StatsHarness.report("let p = 3d20 in p + count(p, =20)").distribution
        #expect(small.outcomes.count == brute.count)
        for (value, p) in brute { #expect(abs(small.probability(of: .integer(value)) - p) < 1e-12, "P(\(value))") }
        let large = try StatsHarness.report("let p = 12d20 in p + count(p, =20)")
        #expect(large.exact)
        #expect(abs(large.distribution.mean - (12 * 10.5 + 12.0 / 20)) < 1e-9)
    }

    /// A bound pool whose explosion tails are cut says so (§7), as the pool alone does: a
    /// compounding die's totals were scaled up to a total of 1 within the pool's parts, which
    /// spread the cut mass over them, so `let p = 1d4!! in count(p, >1) + p` gave no
    /// `truncated` and no note where `1d4!!` and `let p = 1d4! in ...` did. Counted only, with
    /// a rolled count, unique, and a bound group and `repeat` of compounding dice too; and the
    /// group or `repeat` counted in place, whose members' chances of a match were divided by
    /// their totals, which left the cut out of `count({1d4!!, 1d4!!}, >1)` the same way.
    @Test(arguments: [
        "let p = 1d4!! in count(p, >1) + p", "let p = 2d4!! in count(p, >1)", "let p = 2d4!!kh1 in count(p, >=3) + p",
        "let p = (1d2)d4!! in count(p, >1) + p", "let p = 2d4u!! in count(p, >1) + p", "let p = 1d4! in count(p, >1) + p",
        "let p = 2d6!p in count(p, >=5) + p", "let g = {1d4!!, 1d4!!} in count(g, >1) + g",
        "let g = repeat(2, 1d4!!) in count(g, >1) + g", "count(2d4!!, >1)", "count({1d4!!, 1d4!}, >1)",
        "count(repeat((1d2), 1d4!), >1)",
    ])
    func cutTailsOfACountedPoolAreStated(_ program: String) throws {
        let report = try StatsHarness.report(program)
        #expect(report.exact)
        try StatsHarness.expectCutStated(report, program)
    }

    private func expectAlike(_ a: Distribution, _ b: Distribution, _ what: String) throws {
        var values = Set(a.valueOutcomes.map(\.value))
        values.formUnion(b.valueOutcomes.map(\.value))
        #expect(!values.isEmpty)
        for value in values {
            let x = a.probability(ofValue: value), y = b.probability(ofValue: value)
            #expect(abs(x - y) < 1e-9, "\(what): P(\(value)) = \(x) against \(y)")
        }
    }
}
