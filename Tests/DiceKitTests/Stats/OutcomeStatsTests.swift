import Foundation
import Testing
@testable import DiceKit

/// Exact distributions of the forms of LANGUAGE.md §5b and §7's `given` through the API:
/// every form the contract calls exact is exact with the standard budget, and a few are
/// checked against closed forms worked out here (multinomials, subsets), independent of
/// the engine and of `Reference/outcomes.json`.
@Suite struct OutcomeStatsTests {
    static let move = "def move(stat) = match 2d6 + stat { 6-: \"miss\", 7-9: \"weak hit\", 10+: \"strong hit\" }\n"
    static let check = "def check(mod, dc) = let r = 1d20 in let t = r + mod in "
        + "match (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1) { "
        + "<=-1: \"critical failure\", 0: \"failure\", 1: \"success\", else: \"critical success\" }\n"
    static let genesys = "def ability = d{(), (s: 1), (s: 1), (s: 2), (a: 1), (a: 1), (s: 1, a: 1), (a: 2)}\n"
        + "def difficulty = d{(), (f: 1), (f: 2), (t: 1), (t: 1), (t: 1), (t: 2), (f: 1, t: 1)}\n"
        + "def genesys(n, k) = let g = repeat(n, ability) + repeat(k, difficulty) in "
        + "(success: g.s - g.f, advantage: g.a - g.t)\n"

    /// The forms §5b says `stats` gives exactly.
    static let exactForms = [
        // Bands and tables.
        move + "move(1)", "match 1d20 { 1-5: \"junk\", 6-12: \"potion\", 13-19: 2d6 * 10, 20: \"flame tongue\" }",
        check + "check(7, 20)", "match 1d20 { >=(5 + 10): \"hit\", <=1: \"fumble\", else: \"miss\" }",
        // Text dice.
        "d{\"goblin\", \"orc\", \"troll\"}", "4d{\"hit\", \"miss\", \"miss\"}cs=\"hit\"",
        "12d{\"hit\", \"miss\", \"miss\"}r=\"miss\"cs=\"hit\"", "count(4d{\"hit\", \"miss\"}, =\"hit\")",
        // Tallies and tally dice.
        genesys + "genesys(3, 2)", "3d{(), (h: 1), (h: 1, c: 1)}", "(s: 1d4, a: 1d4 - 2)",
        // Bound pools counted several ways.
        "let p = 20d6 in (hits: count(p, >=5), glitch: count(p, =1) > 10)",
        "let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 6)",
        "let p = 8d6 in p + count(p, =6) - count(p, =1)", "let p = 10d10 in count(p, >=8) - count(p, =1)",
        "count(repeat(6, 4d6kh3), >=15)",
        // and/or/not.
        "let r = 1d20 in let w = 1d20 in r == 1 and w == 1 or r == 20", "not 1d6 == 6 and 1d4 > 1",
        // Unique dice.
        "10d20u", "3d6r1u", "5d6ukh2", "4d10ukl2",
        // Defaults and given.
        "def atk(bonus = 0) = 1d20 + 5 + bonus\natk", "let r = 1d20 + 5 in r given r >= 15",
        move + "let m = move(1) in m given m != \"miss\"",
    ]

    @Test(arguments: exactForms)
    func isExact(_ program: String) throws {
        let report = try StatsHarness.report(program)
        #expect(report.exact)
        #expect(report.truncatedMass == 0)
        let total = report.distribution.valueOutcomes.reduce(0) { $0 + $1.probability }
        #expect(abs(total - 1) < 1e-9)
        #expect(report.distribution.valueOutcomes.allSatisfy { $0.probability > 0 })
    }

    /// Genesys with no dice of a kind: an empty `repeat` is the number 0, the empty tally,
    /// whose fields are 0 (LANGUAGE.md §5b), exactly as rolling says; any other number has none.
    @Test func aFieldOfZeroIsZero() throws {
        func tally(_ success: Int, _ advantage: Int) -> Value {
            .tally(DiceKit.Tally([("success", .integer(success)), ("advantage", .integer(advantage))]))
        }
        let none = try StatsHarness.report(Self.genesys + "genesys(0, 0)")
        #expect(none.exact)
        #expect(none.distribution.probability(ofValue: tally(0, 0)) == 1)
        // One difficulty die: its faces netted, each 1/8 ((f: 1, t: 1) is (-1, -1)).
        let difficulty = try StatsHarness.report(Self.genesys + "genesys(0, 1)")
        #expect(difficulty.distribution.probability(ofValue: tally(-1, -1)) == 0.125)
        #expect(difficulty.distribution.probability(ofValue: tally(0, -1)) == 0.375)
        let ability = try StatsHarness.report(Self.genesys + "genesys(1, 0)")
        #expect(ability.distribution.probability(ofValue: tally(1, 1)) == 0.125)
        #expect(ability.distribution.probability(ofValue: tally(0, 1)) == 0.25)
        // 0 and tallies among the outcomes of one expression.
        let mixed = try StatsHarness.report("(if 1d2 == 1 then 0 else (s: 1)).s")
        #expect(mixed.distribution.probability(ofValue: .integer(0)) == 0.5)
        #expect(mixed.distribution.probability(ofValue: .integer(1)) == 0.5)
        #expect(throws: (any Error).self) { try StatsHarness.report("(1d2).s") }
    }

    /// The joint counts of a bound pool are a multinomial over the classes of faces.
    @Test(arguments: [(12, 6), (20, 10), (5, 2)])
    func boundPoolIsAMultinomial(_ dice: Int, _ glitch: Int) throws {
        let report = try StatsHarness.report("let p = \(dice)d6 in (hits: count(p, >=5), ones: count(p, =1), glitch: count(p, =1) > \(glitch))")
        var total = 0.0
        for hits in 0...dice {
            for ones in 0...(dice - hits) {
                let rest = dice - hits - ones
                let ways: Double = exp(Self.logFactorial(dice) - Self.logFactorial(hits) - Self.logFactorial(ones)
                                       - Self.logFactorial(rest))
                let p: Double = ways * pow(1.0 / 3, Double(hits)) * pow(1.0 / 6, Double(ones)) * pow(0.5, Double(rest))
                let tally = Value.tally(DiceKit.Tally([("hits", .integer(hits)), ("ones", .integer(ones)),
                                                       ("glitch", .integer(ones > glitch ? 1 : 0))]))
                let mine = report.distribution.probability(ofValue: tally)
                #expect(abs(mine - p) < 1e-12, "P(\(tally)) = \(mine), want \(p)")
                total += mine
            }
        }
        #expect(abs(total - 1) < 1e-9, "every outcome is one of the multinomial's")
    }

    static func logFactorial(_ n: Int) -> Double { lgamma(Double(n + 1)) }

    /// `NdSu` of a die of S different faces: every set of N faces equally likely.
    @Test(arguments: [(10, 20), (3, 8), (6, 6), (1, 4), (4, 12)])
    func uniqueDiceAreSubsets(_ count: Int, _ sides: Int) throws {
        let report = try StatsHarness.report("\(count)d\(sides)u")
        // ways[k][s]: sets of k faces from those seen so far with sum s.
        var ways = Array(repeating: [Double](repeating: 0, count: count * sides + 1), count: count + 1)
        ways[0][0] = 1
        for face in 1...sides {
            for k in stride(from: count, through: 1, by: -1) {
                for s in stride(from: count * sides, through: face, by: -1) { ways[k][s] += ways[k - 1][s - face] }
            }
        }
        let sets = ways[count].reduce(0, +)
        for (sum, n) in ways[count].enumerated() {
            let want = n / sets
            let mine = report.distribution.probability(of: .integer(sum))
            #expect(abs(mine - want) < 1e-12, "P(\(sum)) = \(mine), want \(want)")
        }
    }

    /// `3d6r1u`: rerolls first, so three different faces of 2...6, every such set equally likely.
    @Test func uniqueAfterRerolls() throws {
        let distribution = try StatsHarness.report("3d6r1u").distribution
        var counts: [Int: Double] = [:]
        for a in 2...6 { for b in (a + 1)...7 where b <= 6 { for c in (b + 1)...7 where c <= 6 { counts[a + b + c, default: 0] += 1 } } }
        for (sum, n) in counts {
            #expect(abs(distribution.probability(of: .integer(sum)) - n / 10) < 1e-12, "P(\(sum))")
        }
        #expect(distribution.outcomes.count == counts.count)
    }

    /// `and`/`or` are 0/1 and agree with the probabilities of their sides.
    @Test func logicIsExact() throws {
        let both = try StatsHarness.report("1d6 >= 4 and 1d6 >= 4").distribution
        #expect(abs(both.probability(of: .integer(1)) - 0.25) < 1e-15)
        let either = try StatsHarness.report("1d6 >= 4 or 1d6 >= 4").distribution
        #expect(abs(either.probability(of: .integer(1)) - 0.75) < 1e-15)
        // One bound roll on both sides: not independent.
        let same = try StatsHarness.report("let r = 1d20 in r >= 10 and r <= 10").distribution
        #expect(abs(same.probability(of: .integer(1)) - 0.05) < 1e-15)
        let not = try StatsHarness.report("not 1d6 == 6").distribution
        #expect(abs(not.probability(of: .integer(1)) - 5.0 / 6) < 1e-15)
    }

    /// Explosion tails cut under `given` are reported as they are without it (§7): the
    /// conditioned distribution was divided by its total, so `1 - total` no longer told the
    /// cut from the mass the condition left out, and nothing was said. At top level, under
    /// `let` and in a macro, the cut is stated (JSON `truncated`, the text's note), small, and
    /// the outcomes shown and the cut make 1.
    @Test(arguments: [
        "1d6! given 1d6 > 3", "let r = 1d6! in r given r > 3", "let r = 1d20 in (r + 1d6!) given r >= 15",
        "def hit = let x = 1d6! in x given x > 3\nhit", "3d6! given 3d6! >= 18",
    ])
    func explosionCutsUnderGivenAreReported(_ program: String) throws {
        try StatsHarness.expectCutStated(try StatsHarness.report(program), program)
    }

    /// The outcomes shown under a cut `given` stay within the cut of the true conditional
    /// probabilities: P(r = 4 | r > 3) = 1/3 and P(r = 9 | r > 3) = 1/18 for r = 1d6!.
    @Test func aCutGivenKeepsItsProbabilities() throws {
        let distribution = try StatsHarness.report("let r = 1d6! in r given r > 3").distribution
        #expect(abs(distribution.probability(of: .integer(4)) - 1.0 / 3) < 1e-11)
        #expect(abs(distribution.probability(of: .integer(9)) - 1.0 / 18) < 1e-11)
    }

    /// A condition about as rare as the explosion cut (1e-12) is worked out with its tails cut
    /// finer: the cut was taken as meeting it, so `1d2 given 1d6! >= 90` (the condition has
    /// nothing to do with the 1d2) showed 41.66% for each face and 17% not shown, and
    /// `1d6 given 1d6! >= 100` could "never hold". For x = 1d6!, x >= 95 is fifteen sixes
    /// then a 5 or a 6, and x = 95 half of that; x = 97 is a twelfth (a 6, then a 1).
    static let rareConditions: [(String, [(Int, Double)])] = [
        ("1d2 given 1d6! >= 90", [(1, 0.5), (2, 0.5)]),
        ("1d6 given 1d6! >= 100", (1...6).map { ($0, 1.0 / 6) }),
        ("let x = 1d6! in x given x >= 95", [(95, 0.5), (96, 0), (97, 1.0 / 12)]),
        ("if 1d2 == 1 then (1d2 given 1d6! >= 90) else 0", [(0, 0.5), (1, 0.25), (2, 0.25)]),
        ("1d2 given 1d6! >= 2000", [(1, 0.5), (2, 0.5)]),
        // Unique dice and bound pools took their cut as 1 less their total, rounding under a
        // finer cutoff, so it never shrank: the simulation said these "did not hold".
        ("1d2 given 1d6u! >= 90", [(1, 0.5), (2, 0.5)]),
        ("1d2 given (let p = 1d6! in count(p, =6) + p) >= 90", [(1, 0.5), (2, 0.5)]),
        ("1d2 given (let p = 3d6!p in count(p, =6) + p) >= 90", [(1, 0.5), (2, 0.5)]),
        ("1d2 given (let p = 2d6u! in count(p, =6) + p) >= 90", [(1, 0.5), (2, 0.5)]),
    ]

    @Test(arguments: rareConditions)
    func aConditionAsRareAsTheCutIsCutFiner(program: String, expected: [(Int, Double)]) throws {
        let report = try StatsHarness.report(program)
        for (value, p) in expected {
            #expect(abs(report.distribution.probability(of: .integer(value)) - p) < 1e-9, "\(program): \(value)")
        }
        #expect(report.truncatedMass > 0 && report.truncatedMass < 1e-9, "\(program): \(report.truncatedMass)")
    }

    /// A condition rarer than a `Double` can tell from 0 is no exact answer and no impossible
    /// one either: the exact engine gives up, and the simulation says it never held. One that
    /// cannot hold whatever the dice show (each die of a chain is kept alone) still cannot.
    @Test func aConditionBeyondReachIsLeftToSimulation() {
        let error = StatsHarness.error("1d2 given 1d6! >= 4000")
        #expect(error as? StatsError == .tooExpensive("the condition after 'given' is too rare to work out exactly"))
        for program in ["1d2 given 4d6!kh1 >= 90", "if 1d2 == 1 then (1d2 given 4d6!kh1 >= 90) else 0"] {
            #expect((StatsHarness.error(program) as? DiceError)?.kind == .conditionImpossible, "\(program)")
        }
    }

    /// A condition in the far tails of a large sum, cut there, held nowhere and so "could
    /// never hold": `2000d6 >= 11000` (about 1e-728) and `<= 3000` can, though more rarely
    /// than a `Double` tells, and `>= 7700` (about 1e-21) lies below the rounding of the
    /// sum's products. Worked out again cut finer, they are still beyond reach: left to the
    /// simulation. One past the sum's greatest value still cannot hold.
    @Test func aConditionInASumsCutTailIsNotImpossible() {
        for program in ["1d2 given 2000d6 >= 11000", "1d2 given 2000d6 <= 3000", "1d2 given 2000d6 >= 7700"] {
            let error = StatsHarness.error(program)
            #expect(error as? StatsError == .tooExpensive("the condition after 'given' is too rare to work out exactly"),
                    "\(program): \(String(describing: error))")
        }
        #expect((StatsHarness.error("1d2 given 2000d6 >= 12001") as? DiceError)?.kind == .conditionImpossible)
    }

    /// A `given` inside the statement is rolled again on its own until its condition holds,
    /// so it keeps the chance of the branch, argument or binding it stands in: left for the
    /// statement's end, `if 1d2 == 1 then (1d6 given 1d6 > 4) else 0` gave 0 three times in
    /// four, though a roll gives it half the time.
    @Test(arguments: [
        "if 1d2 == 1 then (1d6 given 1d6 > 4) else 0",
        "let x = 1d6 given 1d6 > 4 in if 1d2 == 1 then x else 0",
        "def f(x) = if 1d2 == 1 then x else 0\nf(1d6 given 1d6 > 4)",
        "def hit = let r = 1d6 in r given 1d6 > 4\nif 1d2 == 1 then hit else 0",
    ])
    func aGivenInsideKeepsItsBranchsChance(_ program: String) throws {
        let distribution = try StatsHarness.report(program).distribution
        #expect(abs(distribution.probability(of: .integer(0)) - 0.5) < 1e-12, "\(program)")
        for face in 1...6 { #expect(abs(distribution.probability(of: .integer(face)) - 1.0 / 12) < 1e-12) }
    }

    /// A macro's argument is rolled once, before its body: a body `x given x > 3` cannot roll
    /// it again, so a roll of `hit(1d6!)` fails where the argument is 3 or less, and `stats`
    /// says so, in the macro (it gave 1d6! on condition that it is over 3).
    @Test func aGivenOnAnArgumentCannotRollItAgain() {
        let error = StatsHarness.error("def hit(x) = x given x > 3\nhit(1d6!)") as? DiceError
        #expect(error?.kind == .inMacro(name: "hit", .conditionImpossibleWhen(name: "x", value: .integer(1))))
    }

    /// A name bound outside a `given` and read once inside it is fixed while the `given` is
    /// rolled again, in `stats` as in a roll: `let r = 1d20 in 1 + (5 given r > 10)` fails to
    /// roll when r is 10 or less, and `stats` says so. It gave 6 every time: r was read as
    /// its distribution at its one use, and the `given` conditioned that.
    @Test(arguments: [
        ("let r = 1d20 in 1 + (5 given r > 10)", "r", 5, 15),
        ("def h(x) = 5 given x > 10\nh(1d20)", "x", 5, 15),
        ("def h(x) = 1 + (5 given x > 10)\nh(1d20)", "x", 5, 15),
        ("let p = 3d6 in 1 + (5 given p > 10)", "p", 1, 6),
    ])
    func aNameReadOnceInAGivenIsFixedAsTheRollerFixesIt(program: String, name: String, failing: Int, holding: Int) throws {
        let error = StatsHarness.error(program) as? DiceError
        let kind = DiceError.Kind.conditionImpossibleWhen(name: name, value: .integer(name == "p" ? 3 : 1))
        #expect(error?.kind == kind || error?.kind == .inMacro(name: "h", kind), "\(String(describing: error?.message))")
        let fails = diceError { () throws(DiceError) in
            _ = try ScriptedProgram(program, faces: [failing, failing, failing])
        }
        #expect(fails?.kind == .conditionNeverHeld(tries: 1000) || fails?.kind == .inMacro(name: "h", .conditionNeverHeld(tries: 1000)))
        let holds = try ScriptedProgram(program, faces: [holding, holding, holding])
        #expect(holds.roll.value == .integer(program.hasPrefix("def h(x) = 5") ? 5 : 6))
    }

    /// Fixing such a name changes nothing where the condition holds for every value, or where
    /// the `let` itself ends in the `given` (the roller then rolls the `let` again, whole).
    @Test func aNameFixedInAGivenThatAlwaysHoldsKeepsItsDistribution() throws {
        let always = try StatsHarness.report("let r = 1d20 in 1 + (5 given r > 0)").distribution
        #expect(abs(always.probability(of: .integer(6)) - 1) < 1e-12)
        let whole = try StatsHarness.report("1 + (let r = 1d20 in r given r > 10)").distribution
        for total in 12...21 { #expect(abs(whole.probability(of: .integer(total)) - 0.1) < 1e-12) }
        #expect(whole.probability(of: .integer(11)) == 0)
    }

    /// E is rolled before C, so an error in E is one where C rules the roll out: stats gave
    /// `let r = 1d2 in 1 / (r - 1) given r == 2` as 1 every time, while rolling it fails
    /// whenever r is 1 (helper-36's differential, 2026-12-04). A match with no entry for a
    /// value C rules out, alike.
    @Test(arguments: [
        ("let r = 1d2 in 1 / (r - 1) given r == 2", DiceError.Kind.divisionByZero, 1),
        (#"let r = 1d3 in (match r { 1: "a", 2: "b" }) given r < 3"#, .noMatchingEntry(.integer(3)), 3),
    ])
    func anErrorInEIsOneWhereCRulesItOut(program: String, kind: DiceError.Kind, failing: Int) throws {
        let error = StatsHarness.error(program) as? DiceError
        #expect(error?.kind == kind, "\(String(describing: error?.message))")
        let rolled = diceError { () throws(DiceError) in
            _ = try ScriptedProgram(program, faces: [failing, 2, 2])
        }
        #expect(rolled?.kind == kind)
        #expect(rolled?.range == error?.range)
    }

    /// `given` with a condition of probability 0 is an error, not a division by 0.
    @Test func anImpossibleConditionIsAnError() {
        let error = StatsHarness.error("1d6 given 1d6 > 6") as? DiceError
        #expect(error?.kind == .conditionImpossible)
    }

    /// A simulated `given` tries until C holds, as long as the budget lasts: with the
    /// roller's 1,000 tries a roll, `1d6 given 1d400 == 1` failed about one roll in 12.
    @Test func aSimulatedGivenTriesWithinTheBudget() throws {
        var limits = Limits.standard
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 10_000_000)
        let expr = try Parser.parseExpression("1d6 given 1d400 == 1")
        let report = try Stats.simulate(expr, environment: Environment(), limits: limits, seed: 7, rolls: 600)
        #expect(report.sampleCount == 600 && !report.exact)
        for face in 1...6 {
            // 600 rolls: each face's share within 4.5 standard deviations (about 0.068) of 1/6.
            #expect(abs(report.distribution.probability(of: .integer(face)) - 1.0 / 6) < 0.068)
        }
        // A C that did not hold within the budget (it holds one time in 10^9, and 1d6 == 7,
        // never, is said to be impossible): the tries the budget allowed, not a time estimate.
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 100_000)
        let never = try #require(try givenNeverHeld("1d6 given 1d1000000000 == 7", limits: limits, seed: 7, rolls: 3_000))
        #expect(never.tries > 1_000)
    }

    /// The tries a simulation of `text` made before it failed with `.conditionNeverHeld`, and
    /// where that error points; `nil` (an issue recorded) when it failed otherwise or not at all.
    private func givenNeverHeld(_ text: String, limits: Limits, seed: UInt64,
                                rolls: Int) throws -> (tries: Int, offset: Int)? {
        let expr = try Parser.parseExpression(text)
        let error = diceError { () throws(DiceError) in
            _ = try Stats.simulate(expr, environment: Environment(), limits: limits, seed: seed, rolls: rolls)
        }
        guard let error, case .conditionNeverHeld(let tries) = error.kind else {
            Issue.record("expected conditionNeverHeld, got \(String(describing: error?.message))")
            return nil
        }
        return (tries, error.range.lowerBound.offset)
    }

    /// A simulated roll whose `given` fails until the roll passes a bound of a statement
    /// (here its dice) says the condition did not hold, where the condition is: it used to say
    /// one roll made too many parts, and asked whether a macro used itself.
    @Test func aSimulatedGivenThatPassesARollsBoundNamesTheCondition() throws {
        var limits = Limits.standard
        limits.maxDice = 20_000
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 100_000_000)
        let failed = try #require(try givenNeverHeld("1d6 given 1d1000000000 == 7", limits: limits, seed: 7, rolls: 3_000))
        // Each try rolls two dice and counts one more.
        #expect(failed.tries > 6_000 && failed.tries < 7_000)
        #expect(failed.offset == 10)
    }

    /// A simulation's budget counts the nodes each failed try of `given` walks, not only its
    /// dice: `let r = 1d1000000000 in r given r >= 999999990` took 3 s against a 1 s bound.
    @Test func aSimulationsBudgetSeesTheNodesOfFailedTries() throws {
        var limits = Limits.standard
        limits.stats = StatsBudget(maxWork: 10, maxSimulationWork: 300_000)
        let failed = try #require(try givenNeverHeld("let r = 1d1000000000 in r given r >= 999999990", limits: limits,
                                                     seed: 3, rolls: 10))
        // A try is a die, the try itself and at least the nodes of `r >= 999999990` and `r`:
        // counting dice and tries alone allowed about 150,000 of them.
        #expect(failed.tries > 10_000 && failed.tries < 100_000)
    }

    /// Tries of `given` that failed hold no part of the breakdown: with a breakdown bound of
    /// 200 parts, 100 dice (12 parts) tried about 50 times used to fail as too large a result.
    @Test func failedTriesOfGivenHoldNoParts() throws {
        var limits = Limits.standard
        limits.maxResultParts = 200
        for seed in UInt64(1)...20 {
            var session = Session(limits: limits, seed: seed)
            let outcome = try session.execute(Parser.parseProgram("100d6 given 1d50 == 1")[0])
            guard case .roll(let roll) = outcome else {
                Issue.record("expected a roll, got \(outcome)")
                return
            }
            #expect((100...600).contains(roll.value.number?.integerValue ?? 0))
        }
    }

    /// Outcome order: numbers ascending, then texts in order of first appearance.
    @Test func outcomesComeInTheContractsOrder() throws {
        let distribution = try StatsHarness.report(
            "match 1d6 { 1: \"zeta\", 2: 3, 3: \"alpha\", 4: (a: 2), 5: (a: 1), else: 1 }").distribution
        #expect(distribution.valueOutcomes.map(\.value) == [
            .integer(1), .integer(3), .text("zeta"), .text("alpha"),
            .tally(DiceKit.Tally([("a", .integer(1))])), .tally(DiceKit.Tally([("a", .integer(2))])),
        ])
        #expect(abs(distribution.probability(ofValue: .text("alpha")) - 1.0 / 6) < 1e-15)
        #expect(distribution.probability(ofValue: .text("beta")) == 0)
    }
}
