import Foundation
import Testing
@testable import DiceKit

@Suite struct PropertyTests {
    /// Limits small enough that a generated `(10^9)d6` fails fast instead of rolling for seconds.
    static let limits = Limits(maxDice: 20_000)

    // MARK: - Print, then reparse

    @Test(arguments: [1, 2, 3] as [UInt64])
    func printedExpressionsParseBackToTheSameTree(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        var failures = 0
        for _ in 0..<1_000 {
            let expr = generator.expression()
            let text = expr.text
            let reparsed = diceError { () throws(DiceError) in try Parser.parseExpression(text) }
            if let error = reparsed {
                failures += 1
                if failures <= 5 { Issue.record("\(text) does not parse: \(error.message) (tree \(expr.dump))") }
                continue
            }
            let dump = try Parser.parseExpression(text).dump
            if dump != expr.dump {
                failures += 1
                if failures <= 5 { Issue.record("\(text) reparses as \(dump), not \(expr.dump)") }
            }
        }
        #expect(failures == 0)
    }

    /// Printing is a fixed point: the text of the reparsed tree is the same text.
    @Test func printingIsStable() throws {
        var generator = ExpressionGenerator(seed: 99)
        for _ in 0..<500 {
            let text = generator.expression().text
            #expect(try Parser.parseExpression(text).text == text)
        }
    }

    // MARK: - Evaluation never traps

    /// Every generated expression rolls to a value or throws a `DiceError`, and
    /// whatever it rolls renders as text and as valid JSON.
    @Test(arguments: [11, 12] as [UInt64])
    func evaluationEndsInAValueOrADiceError(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        let environment = try ExpressionGenerator.environment()
        var evaluator = Evaluator(environment: environment, limits: Self.limits,
                                  source: Xoshiro256StarStar(seed: seed))
        var values = 0
        var errors: [String: Int] = [:]
        for _ in 0..<1_000 {
            let expr = generator.expression()
            evaluator.startStatement()
            do {
                let roll = try evaluator.evaluate(expr)
                values += 1
                if case .number(.fraction(let n, let d)) = roll.value { #expect(d > 1 && Number.gcd(n, d) == 1, "\(expr.text)") }
                let text = RollRenderer.plain.render(roll)
                #expect(text.hasSuffix(roll.value.description), "\(expr.text) renders as \(text)")
                let json = OutcomeRenderer().json(for: .roll(roll), input: expr.text)
                #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "\(json)")
            } catch {
                errors["\(error.kind)".prefix(while: { $0 != "(" }).description, default: 0] += 1
                #expect(!error.message.isEmpty)
            }
        }
        // Most generated expressions are valid; a suite where everything fails proves nothing.
        #expect(values > 500, "errors: \(errors)")
    }

    /// `value(of:)`, the fast path of `--total`, rolls the same dice as `evaluate(_:)`
    /// and so gives the same value, or the same error.
    @Test(arguments: [31, 32] as [UInt64])
    func theValueFastPathAgreesWithTheFullEvaluation(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed)
        let environment = try ExpressionGenerator.environment()
        for _ in 0..<1_000 {
            let expr = generator.expression()
            var full = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: seed))
            var fast = full
            let expected = Result { () throws(DiceError) in try full.evaluate(expr).value }
            let actual = Result { () throws(DiceError) in try fast.value(of: expr) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(expr.text)")
            case (.failure(let a), .failure(let b)):
                #expect(a.kind == b.kind, "\(expr.text)")
            default:
                Issue.record("\(expr.text): evaluate gives \(expected), value(of:) gives \(actual)")
            }
            #expect(full.source.next() == fast.source.next(), "\(expr.text) rolled different dice")
        }
    }

    /// The same seed gives the same rolls.
    @Test func aSeedFixesTheRolls() throws {
        var generator = ExpressionGenerator(seed: 5)
        let environment = try ExpressionGenerator.environment()
        for _ in 0..<200 {
            let expr = generator.expression()
            func run() -> String {
                var evaluator = Evaluator(environment: environment, limits: Self.limits, source: Xoshiro256StarStar(seed: 42))
                do { return RollRenderer.plain.render(try evaluator.evaluate(expr)) } catch { return error.message }
            }
            #expect(run() == run(), "\(expr.text)")
        }
    }

    // MARK: - Values stay within their bounds

    @Test(arguments: [21, 22] as [UInt64])
    func poolsRollWithinTheirBounds(_ seed: UInt64) throws {
        var generator = ExpressionGenerator(seed: seed, maxDepth: 3)
        var source = Xoshiro256StarStar(seed: seed)
        let environment = try ExpressionGenerator.environment()
        var checked = 0
        for _ in 0..<1_000 {
            let expr = generator.boundedExpression()
            let bounds = try #require(Bounds.of(expr), "\(expr.text)")
            var evaluator = Evaluator(environment: environment, limits: Self.limits, source: source)
            defer { source = evaluator.source }
            do {
                for _ in 0..<3 {
                    let value = try evaluator.evaluate(expr).value
                    guard let whole = value.integerValue else {
                        Issue.record("\(expr.text) rolled \(value), not a whole number")
                        break
                    }
                    #expect(bounds.contains(whole), "\(expr.text) rolled \(whole), outside \(bounds)")
                }
                checked += 1
            } catch {
                // A reroll matching every face is an error, and allowed.
                #expect(error.kind == .rerollMatchesEveryFace, "\(expr.text): \(error.message)")
            }
        }
        #expect(checked > 800)
    }

    /// Bounds of known pools; where the extremes are likely enough, 2,000 seeded rolls reach them.
    @Test(arguments: [
        ("4d6kh3", 3...18, false), ("2d20kl1", 1...20, false), ("4dF", -4...4, true), ("4d6mi3ma5", 12...20, true),
        ("10d10cs>=8df=1", -10...10, false), ("6d6dl7", 0...0, true), ("2d{-5,5}", -10...10, true),
        ("d%", 1...100, false), ("-3d4 + 20", 8...17, true), ("3d6r<3", 3...18, false),
    ])
    func knownBounds(_ input: String, _ expected: ClosedRange<Int>, _ reachesExtremes: Bool) throws {
        let expr = try Parser.parseExpression(input)
        #expect(Bounds.of(expr) == expected)
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 8))
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            guard let value = try evaluator.evaluate(expr).value.integerValue else { continue }
            seen.insert(value)
        }
        #expect(seen.allSatisfy(expected.contains), "\(seen.sorted())")
        if reachesExtremes {
            #expect(seen.min() == expected.lowerBound && seen.max() == expected.upperBound, "\(seen.sorted())")
        }
    }

    // MARK: - Statistics

    /// 4d6 keep the highest 3: exact mean 12.2446, standard deviation 2.8468.
    @Test func fourD6KeepThreeHasTheRightMean() throws {
        let expr = try Parser.parseExpression("4d6kh3")
        var evaluator = Evaluator(environment: Environment(), source: Xoshiro256StarStar(seed: 20_240_601))
        let rolls = 100_000
        var sum = 0
        var histogram = [Int](repeating: 0, count: 19)
        for _ in 0..<rolls {
            evaluator.startStatement()
            guard let value = try evaluator.evaluate(expr).value.integerValue, (3...18).contains(value) else {
                Issue.record("4d6kh3 rolled outside 3...18")
                return
            }
            sum += value
            histogram[value] += 1
        }
        let mean = Double(sum) / Double(rolls)
        let standardError = 2.8468 / Double(rolls).squareRoot()
        #expect(abs(mean - 12.2446) < 5 * standardError, "mean \(mean)")
        // Exact: 18 comes up 21 times in 1296 (1.62%), 3 once (0.077%).
        #expect(abs(Double(histogram[18]) / Double(rolls) - 21.0 / 1296.0) < 0.002)
        #expect(histogram[3] > 0)
    }

    @Test(arguments: [("60000d6", 6), ("60000d20", 20), ("60000dF", 3), ("60000d{1,2,3,4}", 4)])
    func facesAreUniform(_ input: String, _ sides: Int) throws {
        let limits = Limits(maxRecordedDice: 60_000)
        let roll = try Dice.roll(input, seed: 77, limits: limits)
        let dice = try #require(roll.pools.first?.dice)
        #expect(dice.count == 60_000)
        var counts: [Int: Int] = [:]
        for die in dice { counts[die.value, default: 0] += 1 }
        #expect(counts.count == sides)
        let expected = Double(dice.count) / Double(sides)
        let chiSquare = counts.values.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        // The 0.999 quantiles of chi-square with 2, 3, 5 and 19 degrees of freedom.
        let critical: [Int: Double] = [3: 13.816, 4: 16.266, 6: 20.515, 20: 43.820]
        #expect(chiSquare < critical[sides]!, "chi-square \(chiSquare) for \(input): \(counts.sorted { $0.key < $1.key })")
    }

    @Test func differentSeedsGiveDifferentRolls() throws {
        let rolls = try (0..<20).map { try Dice.roll("10d20", seed: UInt64($0)).value }
        #expect(Set(rolls).count > 10)
        #expect(try Dice.roll("10d20", seed: 3).value == Dice.roll("10d20", seed: 3).value)
    }
}
