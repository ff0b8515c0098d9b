import Testing
@testable import DiceKit

/// Exact distributions of generated expressions against seeded rolls: the mean
/// within 5 standard errors, every rolled value inside the support, and the
/// probabilities summing to one less any reported explosion cut.
struct StatsPropertyTests {
    @Test func generatedExpressionsAgreeWithTheirRolls() throws {
        let environment = try ExpressionGenerator.environment()
        var generator = ExpressionGenerator(seed: 4_242, maxDepth: 3)
        var checked = 0
        var attempts = 0
        while checked < 60 && attempts < 600 {
            attempts += 1
            let expr = generator.expression()
            let report: DistributionReport
            do {
                var budget = StatsBudget.standard
                budget.maxWork = 2_000_000
                report = try Stats.exactDistribution(of: expr, environment: environment, limits: Limits(stats: budget))
            } catch {
                continue  // an error for some roll, or too expensive: other tests cover those
            }
            let distribution = report.distribution
            #expect(abs(distribution.totalProbability + report.truncatedMass - 1) < 1e-12, "\(expr.text)")
            var evaluator = Evaluator(environment: environment, source: Xoshiro256StarStar(seed: UInt64(attempts)))
            let rolls = 5_000
            var sum = 0.0
            var rolled = 0
            for _ in 0..<rolls {
                evaluator.startStatement()
                guard let value = try? evaluator.value(of: expr) else { continue }
                if report.truncatedMass == 0 {
                    #expect(distribution.probability(ofValue: value) > 0, "\(expr.text) rolled \(value)")
                }
                sum += value.doubleValue
                rolled += 1
            }
            guard rolled == rolls else { continue }
            let standardError = distribution.standardDeviation / Double(rolls).squareRoot()
            let mean = sum / Double(rolls)
            #expect(abs(mean - distribution.mean) <= 5 * standardError + 1e-9,
                    "\(expr.text): rolled mean \(mean), exact \(distribution.mean) ± \(standardError)")
            checked += 1
        }
        #expect(checked >= 40, "only \(checked) generated expressions had an exact distribution")
    }
}
