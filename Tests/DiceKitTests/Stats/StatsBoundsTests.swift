import Testing
@testable import DiceKit

/// `min` and `max` of `stats` (LANGUAGE.md §7): the least and greatest possible outcome,
/// unbounded only when explosions make that end so, for exact, cut and simulated results.
struct StatsBoundsTests {
    /// An end as a test writes it: a number, or `nil` for unbounded.
    static func end(_ extreme: DistributionReport.Extreme?) -> Number?? {
        switch extreme {
        case .value(let value)?: return .some(value)
        case .unbounded?: return .some(nil)
        case nil: return nil
        }
    }

    struct Probe: Sendable, CustomTestStringConvertible {
        var expr: String
        var minimum: Int?
        var maximum: Int?
        var testDescription: String { expr }
    }

    /// The headers issue 22 found wrong, and their neighbours.
    static let probes = [
        Probe(expr: "8d6!kh3", minimum: 3, maximum: 18),
        Probe(expr: "6d6!<>4kh2", minimum: 8, maximum: 12),
        Probe(expr: "2d6kl2!p>4", minimum: 0, maximum: 8),
        Probe(expr: "2dF!pdh", minimum: -3, maximum: 0),
        Probe(expr: "{2d6!, 1d12}kh1", minimum: 2, maximum: nil),
        // A bounded end deeper than the cut reaches: twenty sixes kept of one chain.
        Probe(expr: "1d6!kh20", minimum: 1, maximum: 120),
        Probe(expr: "4d6!dl1", minimum: 3, maximum: nil),
        Probe(expr: "4d6!kh3dl1", minimum: 2, maximum: 12),
        Probe(expr: "5d6!cs>=5kh3", minimum: 0, maximum: 3),
        Probe(expr: "4d6!df=1kl2", minimum: 0, maximum: 10),
        Probe(expr: "-(3d6!kh2)", minimum: -12, maximum: -2),
        Probe(expr: "{1d6, 2d6!}kl1", minimum: 1, maximum: 6),
        Probe(expr: "repeat(3, 1d6!)kh2", minimum: 2, maximum: nil),
        Probe(expr: "2d6!", minimum: 2, maximum: nil),
        Probe(expr: "4d6kh3", minimum: 3, maximum: 18),
        // Arithmetic over a cut tail: unbounded only where the tail goes.
        Probe(expr: "(1d6!)^2", minimum: 1, maximum: nil),
        Probe(expr: "(1d6! - 3)^2", minimum: 0, maximum: nil),
        Probe(expr: "(-(1d6!))^3", minimum: nil, maximum: -1),
        Probe(expr: "1d6! % 3", minimum: 0, maximum: 2),
        Probe(expr: "min(1d6!, 4)", minimum: 1, maximum: 4),
        Probe(expr: "abs(1d6! - 10)", minimum: 0, maximum: nil),
        Probe(expr: "if 1d2 == 1 then 1d6! else 0", minimum: 0, maximum: nil),
        Probe(expr: "{1d6!, 1d6}cs>=5", minimum: 0, maximum: 2),
        Probe(expr: "1d6! - 1d6!", minimum: nil, maximum: nil),
        Probe(expr: "1d6! >= 1", minimum: 1, maximum: 1),
        Probe(expr: "(1d6! == 0) + (1d6! > 3)", minimum: 0, maximum: 1),
        Probe(expr: "if 1 then 1d6! else -5", minimum: 1, maximum: nil),
        // A count or sides an explosion leaves without end; sides a variable or a parameter
        // fixes; a macro's defaults (savage `trait(8)` said max 111).
        Probe(expr: "(1d6!)d6", minimum: 1, maximum: nil),
        Probe(expr: "(1d6!)d6cs>=5", minimum: 0, maximum: nil),
        Probe(expr: "(1d6!)d6kh3", minimum: 1, maximum: 18),
        Probe(expr: "1d(1d6!)", minimum: 1, maximum: nil),
        Probe(expr: "repeat(1d6!, 1)", minimum: 1, maximum: nil),
        Probe(expr: "x = 8; 1d(x)!", minimum: 1, maximum: nil),
        Probe(expr: "def trait(die, mod = 0) = {1d(die)!, 1d6!}kh1 + mod; trait(8, -2)", minimum: -1, maximum: nil),
        // Where the interval walker cannot tell, the tails are cut finer: an end that moves has none.
        Probe(expr: "count(3d6!, =6)", minimum: 0, maximum: nil),
        Probe(expr: "let p = 5d10! in count(p, >=8)", minimum: 0, maximum: nil),
        Probe(expr: "1d6! given 1d2 == 1", minimum: 1, maximum: nil),
        Probe(expr: "let r = 1d6! in r given r < 3", minimum: 1, maximum: 2),
        Probe(expr: "count(3d6!kh2, =6)", minimum: 0, maximum: 2),
        // Cut 10,000 times finer, below what 1 - total can show: the negative binomial's tail
        // went on to its limit, the finer work failed and the cut sample's max was taken.
        Probe(expr: "let p = 3d6! in count(p, =6)", minimum: 0, maximum: nil),
        Probe(expr: "let p = 3d6u! in count(p, =6)", minimum: 0, maximum: nil),
        Probe(expr: "let p = 3d6u!>=5 in count(p, >=5)", minimum: 0, maximum: nil),
        // Each chain ends with one die that stops; `xo`'s 6 adds one die.
        Probe(expr: "let p = 3d6u!>=5 in count(p, =1)", minimum: 0, maximum: 3),
        Probe(expr: "let p = 3d6uxo in count(p, =6)", minimum: 0, maximum: 2),
        Probe(expr: "let p = 2d4u!p in count(p, =3)", minimum: 0, maximum: nil),
        // One roll used twice is one value: `r - r` is 0, not anything from -∞ to ∞.
        Probe(expr: "let r = 1d6! in r - r", minimum: 0, maximum: 0),
        Probe(expr: "let r = 1d6! in r + r", minimum: 2, maximum: nil),
        Probe(expr: "def twice(x) = x - x; twice(1d6!)", minimum: 0, maximum: 0),
        // Unique dice show different first faces; extra dice of explosions may repeat any.
        // Ends checked against a brute force over every set of first faces and chains 3 and
        // 5 extra dice deep (`xo`: one).
        Probe(expr: "2d6u!", minimum: 3, maximum: nil),
        Probe(expr: "3d6u!", minimum: 6, maximum: nil),
        // Every face shown, the 12 exploding: 1 + ... + 11 + 12 + 1.
        Probe(expr: "12d12u!", minimum: 79, maximum: nil),
        Probe(expr: "3d6r1u!", minimum: 9, maximum: nil),
        Probe(expr: "3dFu!", minimum: -1, maximum: nil),
        Probe(expr: "3d6u!p", minimum: 6, maximum: nil),
        Probe(expr: "3d6u!kh2", minimum: 5, maximum: 12),
        Probe(expr: "4d6u!dl1", minimum: 9, maximum: nil),
        // The 6's extra die shows 0: kept 0, 1, 2; at most 5, 6 and the 6's 5.
        Probe(expr: "4d6u!pkl3", minimum: 3, maximum: 11),
        // Counting that is not monotone in the face: only one first 3, others from chains.
        Probe(expr: "3d6u!cs=3kh2", minimum: 0, maximum: 1),
        // 6 and 5, the 6 adding one die of at most 6.
        Probe(expr: "2d6uxo", minimum: 3, maximum: 17),
        Probe(expr: "3d6uxokh2", minimum: 5, maximum: 12),
        Probe(expr: "3d6uxokl2", minimum: 2, maximum: 9),
        Probe(expr: "3d6u!!kh2", minimum: 5, maximum: nil),
        // Only 5 and a compounded 6 reach 5.
        Probe(expr: "3d6u!!cs>=5", minimum: 0, maximum: 2),
        Probe(expr: "(1d3+1)d6u!kh2", minimum: 3, maximum: 12),
        // Without explosions, ends taken from `ValueBounds` when another term's tail is cut.
        Probe(expr: "3d6u + 1d6!", minimum: 7, maximum: nil),
        Probe(expr: "3d6ukl2 + 1d6!", minimum: 4, maximum: nil),
        // A value between an exploding die's ends that it never shows: a 6 always explodes, so
        // 1d6! is never 12 or 1002, but 1000 (166 sixes and a 4) is reached past any cut.
        Probe(expr: "1d6! == 12", minimum: 0, maximum: 0),
        Probe(expr: "1d6! == 1002", minimum: 0, maximum: 0),
        Probe(expr: "1d6! == 1000", minimum: 0, maximum: 1),
        Probe(expr: "1d6! != 12", minimum: 1, maximum: 1),
        Probe(expr: "(1d6! == 12) + 1d2", minimum: 1, maximum: 2),
        Probe(expr: "not (1d6! == 12)", minimum: 1, maximum: 1),
        Probe(expr: "(1d6! == 12) or 1d2 == 3", minimum: 0, maximum: 0),
        Probe(expr: "1d6! != 12 and 1d6! != 18", minimum: 1, maximum: 1),
        Probe(expr: "1d6! == 12 and 1d6! > 3", minimum: 0, maximum: 0),
        Probe(expr: "if 1d6! == 18 then 10 else 1d4", minimum: 1, maximum: 4),
        Probe(expr: "let r = 1d6! in r == 12", minimum: 0, maximum: 0),
        Probe(expr: "1d6! * 2 + 1 == 13", minimum: 0, maximum: 0),
        Probe(expr: "1d6! - 1 == 11", minimum: 0, maximum: 0),
        Probe(expr: "{1d4!, 1d6!!} == 10", minimum: 0, maximum: 1),
        // `!>4`: a 5 explodes too; `!p`: the extra die counts one less; `xo`: one extra die.
        Probe(expr: "1d6!>4 == 5", minimum: 0, maximum: 0),
        Probe(expr: "1d6!p == 6", minimum: 0, maximum: 1),
        Probe(expr: "1d6xo == 13", minimum: 0, maximum: 0),
        Probe(expr: "2d6! == 12", minimum: 0, maximum: 1),
        // A point that varies: the values of each point's dice (`!=6` or no explosion).
        Probe(expr: "1d6!=(1d2+5) == 12", minimum: 0, maximum: 0),
        // `E given C`, C reading no name of E's: E's ends (`20d6! given 1d6 > 2` said max 286,
        // the end of the sum's cut tails). One that reads one is left to the distribution.
        Probe(expr: "20d6! given 1d6 > 2", minimum: 20, maximum: nil),
        Probe(expr: "(100d6! given 1d6! > 2) * 2", minimum: 200, maximum: nil),
        Probe(expr: "let r = 1d20 in 3d6!kh2 + r given 1d6 > 2", minimum: 3, maximum: 32),
        Probe(expr: "let r = 1d6! in r given r > 2", minimum: 3, maximum: nil),
        // Bounds that hold every value (0 to 2) give no end an outcome holds past a finer cut.
        Probe(expr: "count({1d6!, 2d6!}kh1, >0)", minimum: 1, maximum: 1),
    ]

    @Test(arguments: StatsBoundsTests.probes)
    func exactReportsStateTheTrueEnds(_ probe: Probe) throws {
        let report = try StatsHarness.report(probe.expr)
        #expect(Self.end(report.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(report.maximum) == .some(probe.maximum.map { .integer($0) }))
    }

    /// A simulation states the true ends, not its sample's.
    @Test(arguments: ["8d6!kh3", "6d6!<>4kh2", "2dF!pdh", "{2d6!, 1d12}kh1", "1d6!kh20", "3d6u!kh2", "2d6uxo",
                      "20d6! given 1d6 > 2"])
    func simulationsStateTheTrueEnds(_ text: String) throws {
        let probe = try #require(Self.probes.first { $0.expr == text })
        let (expr, environment) = try StatsHarness.prepare(text)
        let report = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 2_000)
        #expect(!report.exact)
        #expect(Self.end(report.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(report.maximum) == .some(probe.maximum.map { .integer($0) }))
    }

    /// `count` of a pool and `%` (LANGUAGE.md §7): the ends `ValueBounds` states are the exact
    /// distribution's least and greatest outcomes, and a simulation of a few rolls states them
    /// (it stated its sample's). The pool may be bound by `let`, its count read under the names
    /// the `let` saw (the last case's inner `n` does not change `p`'s three dice). So do a
    /// remainder of a `min` (1, 2 or 3: never 6, so never 0 by 5) and a square of -1 or 1.
    @Test(arguments: ["1d6 % 4", "1d2 % 4", "2d6 % -3", "(1d3 * 4) % 6", "3d6 % 5 + 1", "count(4d6kh2, =1)",
                      "count(3d6r<3, <=2)", "count(3d6mi3, >=3)", #"count((1d3)d{"a", "b"}, ="a")"#,
                      "let p = (1d2)d6 in count(p, =6)", "let p = (1d3 + 1)d6kh2 in count(p, >=1)",
                      "count(2d(1d2 + 4), =6)", "count(2d(1d2 + 4), >=1)", "count(4d6dl1, <=3) * 2 - 1",
                      "let n = 3 in let p = (n)d6 in let n = 1 in count(p, >=1) + n", "min(1d3, 1d6) % 5",
                      "(2 * 1d2 - 3)^2 + 1d2",
                      // A point rolled apart from the pool: any of its values may meet any roll.
                      "count(3d6, <(1d6))", "let p = 3d4 in count(p, =(1d4 + 2))", "let p = 2d6 in count(p, >(1d4 + 5))",
                      "count(3d6, !=(1d2 * 3))", "let p = 2d6 in count(p, <=(1d3 - 3))", "count(2d6kh1, >=(1d6))"])
    func countsAndRemaindersStateTheirEnds(_ text: String) throws {
        let (expr, environment) = try StatsHarness.prepare(text)
        let exact = try Stats.exactDistribution(of: expr, environment: environment)
        let low = try #require(exact.distribution.minimum), high = try #require(exact.distribution.maximum)
        let bounds = try #require(ValueBounds.of(expr, environment: environment, limits: .standard))
        #expect(bounds.low == BoundNumber(low) && bounds.high == BoundNumber(high), "\(bounds) against \(low)...\(high)")
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 20)
        #expect(simulated.minimum == .value(low) && simulated.maximum == .value(high))
    }

    /// Ends past 2^53 and fractions are exact, where `Double` bounds rounded them
    /// (`1d999999999 * 1d999999999` said max 999999998000000000).
    @Test(arguments: [
        ("1d999999999 * 1d999999999", Number.integer(1), Number.integer(999_999_999 * 999_999_999)),
        ("1d9007199254740993", .integer(1), .integer((1 << 53) + 1)),
        ("1d9223372036854775807", .integer(1), .integer(Int.max)),
        ("1d9223372036854775807 - 1d9223372036854775807", .integer(1 - Int.max), .integer(Int.max - 1)),
        ("1d7/3 + 1d1000000000000", Number(numerator: 4, denominator: 3) ?? .integer(0),
         Number(numerator: 3 * 1_000_000_000_000 + 7, denominator: 3) ?? .integer(0)),
    ])
    func simulatedEndsAreExact(_ text: String, _ minimum: Number, _ maximum: Number) throws {
        let (expr, environment) = try StatsHarness.prepare(text)
        let report = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 1_000)
        #expect(!report.exact)
        #expect(report.minimum == .value(minimum) && report.maximum == .value(maximum),
                "\(String(describing: report.minimum)), \(String(describing: report.maximum))")
    }

    /// The header the user reads.
    @Test func theHeaderShowsTheEnds() throws {
        let report = try StatsHarness.report("8d6!kh3")
        let text = DistributionRenderer().render(report, title: "8d6!kh3")
        #expect(text.contains("min 3, max 18"), "\(text)")
    }

    // MARK: - Against the brute force

    /// Small pools of the brute-force suite: the ends `Stats` states against every roll the
    /// roller could make with chains 4 and 6 dice deep. An end that moves between the two
    /// depths goes on moving: it is unbounded.
    @Test(arguments: StatsBruteForceTests.pools.filter { !$0.hasPrefix("4d") && !$0.hasPrefix("5d") })
    func endsAgreeWithTheBruteForce(_ text: String) throws {
        let pool = try BruteForcePool(text)
        let shallow = pool.ends(depth: 4), deep = pool.ends(depth: 6)
        let report = try StatsHarness.report(text)
        let wantMinimum: Number? = shallow.low == deep.low ? .integer(deep.low) : nil
        let wantMaximum: Number? = shallow.high == deep.high ? .integer(deep.high) : nil
        #expect(Self.end(report.minimum) == .some(wantMinimum), "min of \(text)")
        #expect(Self.end(report.maximum) == .some(wantMaximum), "max of \(text)")
    }

    /// Seeded random pools: faces, rerolls, clamps, an explosion of each kind with or without
    /// a point, one keep/drop step and counting, against the brute force's ends.
    @Test func endsOfGeneratedPoolsAgreeWithTheBruteForce() throws {
        var random = Xoshiro256StarStar(seed: 99)
        func pick<T>(_ options: [T]) -> T { options[random.roll(sides: options.count) - 1] }
        var checked = 0
        for _ in 0..<600 {
            var text = "\(random.roll(sides: 3))d" + pick(["2", "3", "4", "F", "{1,1,2,3}", "{0,2,5}", "{-1,1,3}"])
            text += pick(["", "", "", "r1", "ro<2", "mi2", "ma2"])
            text += pick(["!", "!", "!p", "!p", "!!", "!>=2", "!p<2", "!=2", "!p>=3", "xo", "xo<2", "xo>=1", ""])
            text += pick(["kh1", "kh2", "kl1", "kl2", "dh1", "dl1", "kh3", "dl2", ""])
            text += pick(["", "", "cs>=2", "cf<2", "df=1", "cs2df=3"])
            guard let pool = try? BruteForcePool(text), let report = try? StatsHarness.report(text) else { continue }
            let shallow = pool.ends(depth: 3), deep = pool.ends(depth: 5)
            let wantMinimum: Number? = shallow.low == deep.low ? .integer(deep.low) : nil
            let wantMaximum: Number? = shallow.high == deep.high ? .integer(deep.high) : nil
            #expect(Self.end(report.minimum) == .some(wantMinimum), "min of \(text)")
            #expect(Self.end(report.maximum) == .some(wantMaximum), "max of \(text)")
            checked += 1
        }
        #expect(checked > 200)
    }

    /// Generated expressions with exact, uncut distributions: the ends a cut or simulated
    /// report would take from `ValueBounds` never fall inside the outcomes (they are sound),
    /// and the report states the outcomes' own ends.
    @Test func generatedExpressionsHaveSoundEnds() throws {
        let environment = try ExpressionGenerator.environment()
        var generator = ExpressionGenerator(seed: 2_212, maxDepth: 3)
        var checked = 0
        for _ in 0..<1_500 {
            let expr = generator.expression()
            var budget = StatsBudget.standard
            budget.maxWork = 500_000
            guard let report = try? Stats.exactDistribution(of: expr, environment: environment, limits: Limits(stats: budget)),
                  report.truncatedMass == 0, !report.sumTailsCut,
                  let low = report.distribution.minimum, let high = report.distribution.maximum else { continue }
            #expect(report.minimum == .value(low) && report.maximum == .value(high), "\(expr.text)")
            if let bounds = ValueBounds.of(expr, environment: environment, limits: .standard) {
                #expect(bounds.low <= BoundNumber(low) && bounds.high >= BoundNumber(high),
                        "\(expr.text): \(bounds) inside \(low)...\(high)")
            }
            checked += 1
        }
        #expect(checked > 300)
    }

    /// Seeded random pools: the values `ValueBounds` states a pool can take, with its
    /// explosions' holes, against the brute force's. Every value of a pool of chains 3 dice
    /// deep is among them (they are sound); without keep/drop, they are those of the brute
    /// force's from the least up to half its `depth` above it, which no deeper chain reaches
    /// first (each extra die that counts adds at least 1; one that counts 0 can be left out).
    @Test func valuesOfGeneratedPoolsAgreeWithTheBruteForce() throws {
        var random = Xoshiro256StarStar(seed: 123)
        func pick<T>(_ options: [T]) -> T { options[random.roll(sides: options.count) - 1] }
        var sound = 0, exact = 0
        for _ in 0..<500 {
            var text = "\(random.roll(sides: 3))d" + pick(["2", "3", "4", "6", "F", "{1,1,2,3}", "{0,2,5}", "{-1,1,3}"])
            text += pick(["", "", "", "r1", "ro<2", "mi2", "ma2"])
            text += pick(["!", "!", "!p", "!p", "!!", "!>=2", "!p<2", "!=2", "!p>=3", "xo", ""])
            let keeps = pick(["kh1", "kl2", "dl1", "", "", ""])
            text += keeps + pick(["", "", "cs>=2", "cf<2", "df=1", "cs2df=3"])
            guard let pool = try? BruteForcePool(text), let expr = try? Parser.parseExpression(text),
                  let values = ValueBounds.of(expr, environment: Environment(), limits: .standard)?.values
            else { continue }
            for pool in pool.pools(depth: 3) {
                #expect(values.contains(pool.value), "\(text) leaves out \(pool.value)")
            }
            sound += 1
            guard keeps.isEmpty, let least = values.least else { continue }
            let depth = (1...9).last { deep in (0...deep).reduce(1) { product, _ in product * pool.faces.count } <= 30_000 } ?? 1
            let reached = pool.values(depth: depth)
            for value in least...(least + depth / 2) {
                #expect(values.contains(value) == reached.contains(value), "\(text) at \(value)")
            }
            exact += 1
        }
        #expect(sound > 150 && exact > 100, "\(sound) sound, \(exact) exact")
    }

    // MARK: - Exact numbers in distributions

    /// `/` is exact (issue 22: it was floating point, so 7/6 was two outcomes).
    @Test func quotientsAreExactOutcomes() throws {
        let test = try StatsHarness.report("1d6/3 + 1d6/6 == 7/6").distribution
        #expect(abs(test.probability(of: .integer(1)) - 1.0 / 12) < 1e-15)
        let sum = try StatsHarness.report("1d6/3 + 1d6/6").distribution
        #expect(sum.outcomes.filter { $0.value == .ratio(7, 6) }.count == 1)
        #expect(abs(sum.probability(of: .ratio(7, 6)) - 3.0 / 36) < 1e-15)
        #expect(sum.outcomes.count == 16)
        #expect(sum.minimum == .ratio(1, 2) && sum.maximum == .integer(3))
        let floored = try StatsHarness.report("floor(15 / 11 * 11) + 0 * 1d6").distribution
        #expect(floored.outcomes.map(\.value) == [.integer(15)])
        let tenths = try StatsHarness.report("1d10/10 + 1d10/10 == 0.3").distribution
        #expect(abs(tenths.probability(of: .integer(1)) - 0.02) < 1e-15)
    }
}

extension BruteForcePool {
    /// Every pool of chains at most `depth` extra dice deep, as sorted dice with their value.
    func pools(depth: Int) -> [(dice: [Int], value: Int)] {
        var options = Set<[Int]>()
        for (chain, _) in chains(depth: depth) { options.insert(chain.sorted()) }
        var pools: Set<[Int]> = [[]]
        for _ in 0..<count {
            var next = Set<[Int]>()
            for dice in pools {
                for chain in options { next.insert((dice + chain).sorted()) }
            }
            pools = next
        }
        return pools.map { ($0, value(of: $0)) }
    }

    /// The values of a pool without keep/drop whose chains are at most `depth` extra dice deep:
    /// the sums of `count` chains' values.
    func values(depth: Int) -> Set<Int> {
        let chainValues = Set(chains(depth: depth).map { value(of: $0.0) })
        var sums: Set<Int> = [0]
        for _ in 0..<count { sums = Set(sums.flatMap { sum in chainValues.map { sum + $0 } }) }
        return sums
    }

    /// The least and greatest value over every pool whose chains have at most `depth` extra dice.
    func ends(depth: Int) -> (low: Int, high: Int) {
        if unique && explosion == nil {
            // Unique dice without explosion: every pool the roller can make has positive probability.
            let values = uniqueDistribution(cutoff: 1).keys
            return (values.min() ?? 0, values.max() ?? 0)
        }
        if unique {
            // Different first faces, each with any chain from it (its extra dice may repeat faces).
            let faces = settle().filter { $0.value > 0 }.keys.sorted()
            var pools = Set<[Int]>()
            func choose(from start: Int, left: Int, _ dice: [Int]) {
                guard left > 0 else {
                    pools.insert(dice.sorted())
                    return
                }
                for index in start..<faces.count {
                    for (chain, _) in chains(from: faces[index], depth: depth) {
                        choose(from: index + 1, left: left - 1, dice + chain)
                    }
                }
            }
            choose(from: 0, left: count, [])
            let values = pools.map { value(of: $0) }
            return (values.min() ?? 0, values.max() ?? 0)
        }
        let values = pools(depth: depth).map(\.value)
        return (values.min() ?? 0, values.max() ?? 0)
    }

}

extension StatsBoundsTests {
    /// A `let` whose body reads its one roll several times, whose sum tails were cut or which
    /// was simulated: `let r = 1000d6! in r + r` said min 6834, the least sum its cut tails
    /// left, and a simulation stated no ends. A body that moves one way with every read takes
    /// its ends where the roll does; otherwise an end is known where the bounds of reads as
    /// rolls of their own meet the body's ends at one of the roll's ends (`ValueBounds.Ends`).
    static let readTwice = [
        Probe(expr: "let r = 1000d6! in r + r", minimum: 2000, maximum: nil),
        Probe(expr: "let r = 1000d6 in r * r", minimum: 1_000_000, maximum: 36_000_000),
        Probe(expr: "let r = 1000d6! in r * (0 - r)", minimum: nil, maximum: -1_000_000),
        Probe(expr: "let r = 300d6! in 2 * r - 1d6 + min(r, 900)", minimum: 894, maximum: nil),
        Probe(expr: "let n = 2 in let r = 1000d6 in r + r * n", minimum: 3000, maximum: 18000),
        // `given` comparing the roll with constants: its values between the ends it lets
        // through (said max 286, the end of the sum's cut tails), where its holes are known:
        // 1d6! never shows 12.
        Probe(expr: "let r = 20d6! in r given r > 100", minimum: 101, maximum: nil),
        Probe(expr: "let r = 20d6! in r given r < 300", minimum: 20, maximum: 299),
        Probe(expr: "let r = 20d6! in 2 * r given 300 > r and r >= 25", minimum: 50, maximum: 598),
        Probe(expr: "let r = 20d6! in r + r given r > 100", minimum: 202, maximum: nil),
        Probe(expr: "let r = 1d6! in r given r > 11", minimum: 13, maximum: nil),
    ]

    @Test(arguments: StatsBoundsTests.readTwice)
    func aRollReadTwiceHasItsEnds(_ probe: Probe) throws {
        let report = try StatsHarness.report(probe.expr)
        #expect(report.sumTailsCut || report.truncatedMass > 0, "nothing cut: the ends are the outcomes'")
        #expect(Self.end(report.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(report.maximum) == .some(probe.maximum.map { .integer($0) }))
        let (expr, environment) = try StatsHarness.prepare(probe.expr)
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 200)
        #expect(Self.end(simulated.minimum) == .some(probe.minimum.map { .integer($0) }))
        #expect(Self.end(simulated.maximum) == .some(probe.maximum.map { .integer($0) }))
    }

    /// Where the reads move the body both ways, an end is known only where the bounds meet:
    /// `max(r, 6000 - r)` is 6000 at most (r at either end reaches it) and at least 3000, which
    /// no end of r shows: a simulation does not know that end.
    @Test func anEndTheBoundsDoNotMeetOnIsNotKnown() throws {
        let text = "let r = 1000d6 in max(r, 6000 - r)"
        let (expr, environment) = try StatsHarness.prepare(text)
        #expect(ValueBounds.ends(of: expr, environment: environment, limits: .standard) == ValueBounds.Ends(low: nil, high: 6000))
        let simulated = try Stats.simulate(expr, environment: environment, limits: .standard, seed: 7, rolls: 200)
        #expect(simulated.minimum == nil && simulated.maximum == .value(.integer(6000)))
    }
}
