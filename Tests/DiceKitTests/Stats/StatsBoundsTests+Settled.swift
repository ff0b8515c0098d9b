import Testing
@testable import DiceKit

extension StatsBoundsTests {
    /// Ends that explosions, `xo`, tests, texts, tallies and counts made loose (LANGUAGE.md §7:
    /// min and max are never wrong), with the exact report (its tails cut, or `xo`'s not) and
    /// a simulation, which takes them from `ValueBounds` alone, stating the true ones.
    static let settled = [
        // `xo` cuts no tail: its exact ends. Keep/drop sees its extra dice, but it keeps three
        // of two dice only when both showed 1 (it said 1 to 12). With a cut term beside it, the
        // ends `ValueBounds` gives.
        Probe(expr: "2d4xo=1dh1", minimum: 2, maximum: 6),
        Probe(expr: "2d4xo=1dh1 + 0 * 1d6!", minimum: 2, maximum: 6),
        Probe(expr: "3d6xokh2 + 1d6!", minimum: 3, maximum: nil),
        Probe(expr: "1d4xo>=1kl1 + 1d6!", minimum: 2, maximum: nil),
        // A factor that is always 0: `1d2 * 1d2` is 1, 2 or 4, never 3 (it said max unbounded).
        Probe(expr: "1d6! * (1d2 * 1d2 == 3)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (1d3 * 1d2 == 5) + 1d4", minimum: 1, maximum: 4),
        Probe(expr: "1d6! * (1d2 * 1d2 != 3)", minimum: 1, maximum: nil),
        // Texts and tallies compared: a condition that always holds (it said min 0), tallies
        // that are never equal (1d6! is never 0: it said max 1).
        Probe(expr: #"if "b" == "b" then 1d6! else 0"#, minimum: 1, maximum: nil),
        Probe(expr: #"if "b" == 1 then 0 else 1d6!"#, minimum: 1, maximum: nil),
        Probe(expr: "(a: 1d6!) == (a: 0)", minimum: 0, maximum: 0),
        Probe(expr: "(a: 1d6!) != (b: 0)", minimum: 1, maximum: 1),
        Probe(expr: "(a: 1d6!, b: 1) == (a: 1d6!)", minimum: 0, maximum: 0),
        Probe(expr: "((a: 1d6!) == (a: 1d6!)) + 1d2", minimum: 1, maximum: 3),
        // Values followed through `^`, `-`, `abs`, `//`, `min`, `max`, dice of random sides and
        // `repeat`: tests that never hold (each said max unbounded), and an end no value reaches.
        Probe(expr: "1d6! * ((1d3)^2 == 2)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (-(1d3 * 2) == -3)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (abs(2 * 1d3 - 4) == 1)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * ((1d3 * 4) // 2 == 3)", minimum: 0, maximum: 0),
        Probe(expr: "(2 * 1d2 - 3)^2 + 1d6!", minimum: 2, maximum: nil),
        Probe(expr: "1d6! * (min(1d3 * 2, 7) == 5)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (max(1d6 * 2, 3) == 5)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * ((1d(1d3 + 1))^2 == 2)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (repeat(2, 1d3 * 3) == 7)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (repeat(3, 1d2 * 2)kh2 == 5)", minimum: 0, maximum: 0),
        // Tests settled by bounds that hold every value, though maybe more, where a value's own
        // are not known: a remainder by 2 is never 5, a count never below 0, a `let` read
        // twice never 9 (each said max unbounded).
        Probe(expr: "1d6! * ((4d4!dl1 * 1d6!) % 2 == 5)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (count(3d6!kh2, =6) < 0)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (min(count(3d6!kh2, =6), 4) > 4)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * ((let r = d{0,2,5} in r + r) == 9)", minimum: 0, maximum: 0),
        // `count` of a pool of `!`, `!p` or `xo` chains: no max where an extra die may match and
        // explode. The cut tails never reached past the other branch's 100: it said max 100.
        Probe(expr: "if 1d2 == 1 then count(3d6!, =6) else 100", minimum: 0, maximum: nil),
        Probe(expr: "let p = 3d6! in if 1d2 == 1 then count(p, =6) else 100", minimum: 0, maximum: nil),
        Probe(expr: "if 1d2 == 1 then count(2d6!p>=5, <=4) else 100", minimum: 2, maximum: nil),
        Probe(expr: "count(2d6!p, =1)", minimum: 0, maximum: 2),
        Probe(expr: "count(2d6xo, =6)", minimum: 0, maximum: 4),
        Probe(expr: "count(3d6!p, =5)", minimum: 0, maximum: nil),
        // A compounded die matches as its sums do: =6 never shows 6, but one may total 100.
        Probe(expr: "count(3d6!!, =6)", minimum: 0, maximum: 0),
        Probe(expr: "count(1d6!!, =100)", minimum: 0, maximum: 1),
        Probe(expr: "1d6!!cs=100", minimum: 0, maximum: 1),
        Probe(expr: "2d6!!cs>=1000", minimum: 0, maximum: 2),
        // No more matches than a group's members or a `repeat`'s count (each said max 1).
        Probe(expr: "count({1d6!}, >0) >= 2", minimum: 0, maximum: 0),
        Probe(expr: "count(repeat(2, 1d6!), >0) > 2", minimum: 0, maximum: 0),
        // A field of a tally written in place, 0 where not written (it said max 1).
        Probe(expr: "().a == 1d6!", minimum: 0, maximum: 0),
        Probe(expr: "(a: 1d6!).b + 1d6!", minimum: 1, maximum: nil),
        // Keep/drop over exploding chains keeps dice, each some face: 3d6!kh2 is 2 to 12 and
        // twice it never 7 (each said max 1, or 2).
        Probe(expr: "1d2 * (3d6!kh2 * 2d2xo == 7)", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * (2 * 3d6!kh2 == 7)", minimum: 0, maximum: 0),
        // A constant no power or product of the values takes: 13 is no square, 11 no product
        // of two values of at least 2 (each said max 1); 7 is 1 × 7.
        Probe(expr: "(1d6!)^2 == 13", minimum: 0, maximum: 0),
        Probe(expr: "(1d6!)^2 == 49", minimum: 0, maximum: 1),
        Probe(expr: "2d6xo * 2d4! == 11", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * 1d6! != 7", minimum: 0, maximum: 1),
    ]

    @Test(arguments: StatsBoundsTests.settled)
    func settledEndsAreTheTrueEnds(_ probe: Probe) throws {
        let report = try StatsHarness.report(probe.expr)
        #expect(Self.end(report.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(report.maximum) == .some(probe.maximum.map { .integer($0) }))
        let (expr, environment) = try StatsHarness.prepare(probe.expr)
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 200)
        #expect(Self.end(simulated.minimum) == .some(probe.minimum.map { .integer($0) }), "simulated")
        #expect(Self.end(simulated.maximum) == .some(probe.maximum.map { .integer($0) }), "simulated")
    }
}

extension StatsBoundsTests {
    /// `let r = … in r given C` where C is no comparison of `r` with constants: its values tried
    /// one by one from each end, and no max where C holds on every `k`-th value without end.
    /// Each said max 286 (or 1000), the end of the cut tails; `r % 2 == 1` said min 20.
    static let givenValueByValue = [
        Probe(expr: "let r = 20d6! in r given r % 2 == 0", minimum: 20, maximum: nil),
        Probe(expr: "let r = 20d6! in r given r % 2 == 1", minimum: 21, maximum: nil),
        Probe(expr: "let r = 3d6! in r given r % 3 == 0 and r % 5 == 2", minimum: 12, maximum: nil),
        Probe(expr: "let r = 2000d6 in r given r % 2 == 1", minimum: 2001, maximum: 11999),
        Probe(expr: "if 1d2 == 1 then (let r = 1d6! in r given r % 2 == 0) else 1000", minimum: 2, maximum: nil),
    ]

    @Test(arguments: StatsBoundsTests.givenValueByValue)
    func givenTriedValueByValueHasItsEnds(_ probe: Probe) throws {
        let report = try StatsHarness.report(probe.expr)
        #expect(Self.end(report.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(report.maximum) == .some(probe.maximum.map { .integer($0) }))
        let (expr, environment) = try StatsHarness.prepare(probe.expr)
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 200)
        #expect(Self.end(simulated.minimum) == .some(probe.minimum.map { .integer($0) }), "simulated")
        #expect(Self.end(simulated.maximum) == .some(probe.maximum.map { .integer($0) }), "simulated")
    }

    /// Ends `ValueBounds` cannot tell exactly, with the sum tails cut: bounds that hold every
    /// value, not the least and greatest sums the cut left (it said 345520 to 354490).
    @Test func cutSumTailsAreNoEnds() throws {
        let report = try StatsHarness.report("let r = 100000d6 in r given r % 2 == 0")
        #expect(report.sumTailsCut)
        #expect(report.minimum == .value(.integer(100_000)) && report.maximum == .value(.integer(600_000)))
    }
}

extension StatsBoundsTests {
    /// A `let` body whose sound bounds are one value has that value for its ends, though `p`
    /// at its ends is no pool to count: a compounded =6 never shows 6, so this is always 0 (a
    /// simulation said sample max 0).
    @Test func aBodyOfOneValueHasItsEnds() throws {
        let (expr, environment) = try StatsHarness.prepare("let p = 4d6!!=6 in if count(p, =6) > 0 then p else 0")
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 200)
        #expect(simulated.minimum == .value(.integer(0)) && simulated.maximum == .value(.integer(0)))
    }
}

extension StatsBoundsTests {
    /// A `let` body whose ends are not known, the roll read twice: the values it takes with the
    /// roll at its ends are within its ends, though their chance underflows (r = 1000 here):
    /// it said max 1583, the greatest its cut sum tails left.
    @Test func valuesAtTheRollsEndsAreWithinTheEnds() throws {
        let report = try StatsHarness.report("let r = 1000d6! in max(r, 5000) - r")
        #expect(report.minimum == .value(.integer(0)) && report.maximum == .value(.integer(4000)))
    }
}
