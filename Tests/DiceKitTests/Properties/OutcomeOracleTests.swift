import Testing
@testable import DiceKit

/// The roller against the exact engine for the forms of LANGUAGE.md §5b and §7's `given`:
/// generated expressions (`ExpressionGenerator.outcomes`) either roll values inside their exact
/// distribution's support or fail where `stats` fails too, mostly with the same kind of error
/// (an expression with several faults may meet another first); and 20,000 seeded rolls
/// of a handful of expressions pass a chi-square test against their exact distribution.
@Suite struct OutcomeOracleTests {
    static let limits = Limits(maxDice: 10_000)
    /// A small exact budget: expressions past it are left out.
    static var statsLimits: Limits {
        var limits = Self.limits
        limits.stats = StatsBudget(maxWork: 200_000, maxOutcomes: 5_000)
        return limits
    }

    /// What the oracle saw, so that a run that checks nothing fails.
    struct Counts {
        var supported = 0, failedAlike = 0, exact = 0, expressions = 0
        /// Rolls that failed with the kind of error `stats` failed with.
        var sameKind = 0
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func generatedExpressionsRollInsideTheirSupport(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed, maxDepth: 3)
        generator.outcomes = true
        let environment = try ExpressionGenerator.environment()
        var counts = Counts()
        for index in 0..<400 {
            let expr = generator.expression()
            counts.expressions += 1
            check(expr, environment: environment, seed: seed &* 1_000 &+ UInt64(index), counts: &counts)
        }
        // Enough of each kind of check that the run proves something.
        #expect(counts.exact > 100, "\(counts)")
        #expect(counts.supported > 500, "\(counts)")
        #expect(counts.failedAlike > 10, "\(counts)")
        // Expressions with several faults may meet them in another order rolled than in
        // `stats` (which works out every branch), so only most must agree on the kind.
        #expect(counts.sameKind * 3 >= counts.failedAlike * 2, "\(counts)")
        print("OutcomeOracleTests seed \(seed): \(counts)")
    }

    func check(_ expr: Expr, environment: Environment, seed: UInt64, counts: inout Counts) {
        let exact: Result<DistributionReport, DiceError>
        do {
            exact = .success(try Stats.exactDistribution(of: expr, environment: environment, limits: Self.statsLimits))
        } catch let error as DiceError {
            exact = .failure(error)
        } catch {
            return  // Beyond the small budget.
        }
        counts.exact += 1
        var evaluator = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: seed))
        for _ in 0..<8 {
            evaluator.startStatement()
            var flat = evaluator
            let rolled = Result { () throws(DiceError) in try evaluator.evaluate(expr).value }
            let value = Result { () throws(DiceError) in try flat.value(of: expr) }
            switch (rolled, value) {
            case (.success(let a), .success(let b)) where a == b: break
            case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
            default: Issue.record("`\(expr.text)`: the breakdown gives \(rolled), value(of:) \(value)")
            }
            switch (rolled, exact) {
            case (.success(let value), .success(let report)):
                guard report.truncatedMass == 0 else { break }
                counts.supported += 1
                #expect(report.distribution.probability(ofValue: value) > 0,
                        "`\(expr.text)` rolled \(value), which has probability 0")
            case (.failure(let error), .success):
                if !Self.isResourceError(error.kind) {
                    Issue.record("`\(expr.text)` has an exact distribution but the roll failed: \(error.message)")
                }
            case (.failure(let error), .failure(let statsError)):
                counts.failedAlike += 1
                if Self.isResourceError(error.kind) || Self.sameKind(error.kind, statsError.kind) { counts.sameKind += 1 }
            case (.success, .failure):
                // Stats fails when some roll of positive probability fails; this one did not.
                break
            }
        }
    }

    /// Whether two errors are of one kind: `notANumber` of the same value whatever needed it
    /// (each walker words that), a given that never holds and a condition of probability 0.
    static func sameKind(_ a: DiceError.Kind, _ b: DiceError.Kind) -> Bool {
        switch (a, b) {
        case (.notANumber(let x, _), .notANumber(let y, _)): return x == y
        case (.conditionNeverHeld, .conditionImpossible): return true
        case (.inMacro(let m, let x), .inMacro(let n, let y)): return m == n && sameKind(x, y)
        default: return a == b
        }
    }

    static func isResourceError(_ kind: DiceError.Kind) -> Bool {
        switch kind.innermost {
        case .tooManyDice, .resultTooLarge, .evaluationTooDeep, .macroRecursion: return true
        default: return false
        }
    }

    // MARK: - Chi-square

    static let chiSquarePrograms = [
        "d{\"goblin\", \"orc\", \"orc\", \"troll\"}",
        "4d{\"hit\", \"miss\", \"miss\"}cs=\"hit\"",
        "3d{(), (h: 1), (h: 1, c: 1)}",
        "def ability = d{(), (s: 1), (s: 1), (s: 2), (a: 1), (a: 1), (s: 1, a: 1), (a: 2)}\n"
            + "def difficulty = d{(), (f: 1), (f: 2), (t: 1), (t: 1), (t: 1), (t: 2), (f: 1, t: 1)}\n"
            + "repeat(2, ability) + difficulty",
        "let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 3)",
        "4d8u", "3d6r1u", "5d10ukh2", "3d{1, 1, 2, 3, 4}u",
        "match 1d20 { 1-5: \"junk\", 6-12: \"potion\", 13-19: 2d6 * 10, 20: \"flame tongue\" }",
        "match 2d6 + 1 { 6-: \"miss\", 7-9: \"weak hit\", 10+: \"strong hit\" }",
        "let r = 1d20 in let w = 1d20 in r <= 5 and w <= 5 or r == 20",
        "let r = 1d20 + 5 in r given r >= 15",
    ]

    @Test(arguments: chiSquarePrograms)
    func rollsFollowTheExactDistribution(_ program: String) throws {
        let (expr, environment) = try StatsHarness.prepare(program)
        let report = try Stats.exactDistribution(of: expr, environment: environment)
        try #require(report.exact)
        let exact = report.distribution.valueOutcomes
        var session = Session(environment: environment, seed: 20_261_202)
        let rolls = 20_000
        var counts: [Value: Int] = [:]
        for _ in 0..<rolls { counts[try session.value(of: expr), default: 0] += 1 }
        for value in counts.keys {
            #expect(report.distribution.probability(ofValue: value) > 0, "rolled \(value), which has probability 0")
        }
        // Pearson's chi-square over bins of expected count >= 5 (merged in the contract's order).
        var statistic = 0.0, bins = 0
        var expected = 0.0, observed = 0
        for outcome in exact {
            expected += outcome.probability * Double(rolls)
            observed += counts[outcome.value] ?? 0
            if expected >= 5 {
                statistic += (Double(observed) - expected) * (Double(observed) - expected) / expected
                bins += 1
                expected = 0
                observed = 0
            }
        }
        #expect(bins >= 2, "too few bins to test")
        let freedom = Double(Swift.max(bins - 1, 1))
        // About 5 standard deviations above the mean of the chi-square distribution.
        #expect(statistic < freedom + 5 * (2 * freedom).squareRoot() + 10,
                "chi-square \(statistic) with \(Int(freedom)) degrees of freedom")
    }
}
