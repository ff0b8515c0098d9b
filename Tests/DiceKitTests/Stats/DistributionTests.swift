import Foundation
import Testing
@testable import DiceKit

struct DistributionTests {
    let d6 = Distribution(uniformSides: 6)

    @Test func constructionMergesAndSorts() {
        let die = Distribution(faces: [3, 1, 1, 2])
        #expect(die.outcomes == [.init(.integer(1), 0.5), .init(.integer(2), 0.25), .init(.integer(3), 0.25)])
        let listed = Distribution([.init(.ratio(5, 2), 0.5), .init(.integer(1), 0.25), .init(.integer(1), 0.25)])
        #expect(listed.outcomes == [.init(.integer(1), 0.5), .init(.ratio(5, 2), 0.5)])
        #expect(Distribution(constant: .integer(4)).constantValue == .integer(4))
        #expect(Distribution(faces: [1, 2, 3, 4, 5, 6]) == d6)
    }

    @Test func sparseAndDenseStorageAreCanonical() throws {
        // Far-apart whole numbers are stored sparsely; equal content means equal values.
        let wide = Distribution(faces: [1, 1_000_000_000])
        guard case .sparse = wide.storage else { Issue.record("expected sparse storage"); return }
        let viaSum = try Distribution(constant: .integer(0)).adding(wide)
        #expect(viaSum == wide)
        #expect(try wide.adding(wide).outcomes.map(\.value) == [.integer(2), .integer(1_000_000_001), .integer(2_000_000_000)])
    }

    @Test func sumsAndDifferences() throws {
        let twoD6 = try d6.adding(d6)
        #expect(twoD6.minimum == .integer(2) && twoD6.maximum == .integer(12))
        #expect(abs(twoD6.probability(of: .integer(7)) - 1.0 / 6) < 1e-15)
        #expect(abs(twoD6.mean - 7) < 1e-12)
        #expect(abs(twoD6.variance - 35.0 / 6) < 1e-12)
        let difference = try d6.subtracting(d6)
        #expect(difference.minimum == .integer(-5) && difference.maximum == .integer(5))
        #expect(abs(difference.probability(of: .integer(0)) - 1.0 / 6) < 1e-15)
        // The flat convolution agrees with the general pairwise path.
        let general = try d6.combined(with: d6) { (a, b) throws(ArithmeticFault) in try a.adding(b) }
        #expect(differences(twoD6, general.outcomes.map { ($0.value, $0.probability) }, tolerance: 1e-15).isEmpty)
        let threeD6 = try d6.sum(ofCopies: 3)
        #expect(abs(threeD6.probability(of: .integer(10)) - 27.0 / 216) < 1e-15)
        #expect(try d6.sum(ofCopies: 0) == Distribution(constant: .integer(0)))
    }

    @Test func arithmeticFaultsOnOutcomesThatHappen() {
        let big = Distribution(constant: .integer(Int.max))
        #expect(throws: ArithmeticFault.overflow) { try big.adding(d6) }
        #expect(throws: ArithmeticFault.overflow) { try Distribution(constant: .integer(Int.min)).negated() }
        let maybeZero = Distribution(faces: [0, 1])
        #expect(throws: ArithmeticFault.divisionByZero) {
            try d6.combined(with: maybeZero) { (a, b) throws(ArithmeticFault) in try a.dividing(by: b) }
        }
        #expect(throws: Never.self) { try Distribution(constant: .integer(Int.max - 6)).adding(d6) }
    }

    @Test func orderAndComparisons() {
        let best = d6.maximum(with: d6)
        #expect(abs(best.probability(of: .integer(6)) - 11.0 / 36) < 1e-15)
        let worst = d6.minimum(with: d6)
        #expect(abs(worst.probability(of: .integer(1)) - 11.0 / 36) < 1e-15)
        let halves = Distribution([.init(.ratio(1, 2), 0.5), .init(.integer(3), 0.5)])
        let mixed = halves.maximum(with: Distribution(faces: [1, 2]))
        #expect(mixed.outcomes.map(\.value) == [.integer(1), .integer(2), .integer(3)])
        #expect(abs(mixed.probability(of: .integer(3)) - 0.5) < 1e-15)
        let atLeastFour = d6.comparing(.greaterEqual, to: Distribution(constant: .integer(4)))
        #expect(atLeastFour.outcomes.map(\.value) == [.integer(0), .integer(1)])
        #expect(abs(atLeastFour.probability(of: .integer(1)) - 0.5) < 1e-15)
        for op in ComparisonOperator.allCases {
            let exact = d6.comparing(op, to: d6)
            var count = 0
            for a in 1...6 { for b in 1...6 where op.holds(a, b) { count += 1 } }
            #expect(abs(exact.probability(of: .integer(1)) - Double(count) / 36) < 1e-15, "\(op)")
            #expect(abs(exact.totalProbability - 1) < 1e-15)
        }
    }

    @Test func mixtureAndScaling() {
        let coin = Distribution.mixture([(0.5, Distribution(constant: .integer(0))), (0.5, Distribution(constant: .integer(1)))])
        #expect(coin == Distribution(faces: [0, 1]))
        #expect(abs(d6.scaled(by: 0.5).totalProbability - 0.5) < 1e-15)
        #expect(d6.probability(atMost: .integer(2)) == 2.0 / 6)
    }

    /// Property: every reference distribution sums to 1 less the reported cut.
    @Test(arguments: StatsReferenceTests.cases.map(\.program) + ["12d6cs>=5!", "(1d4)d6!kh2", "repeat(1d3, 2d6!)"])
    func probabilitiesSumToOne(_ program: String) throws {
        let report = try StatsHarness.report(program)
        #expect(abs(report.distribution.totalProbability + report.truncatedMass - 1) < 1e-12)
        #expect(report.truncatedMass >= 0 && report.truncatedMass < 1e-11)
        #expect(report.distribution.outcomes.allSatisfy { $0.probability > 0 })
    }

    /// `truncated` is the mass the explosions cut, carried through mixtures and conditions,
    /// not 1 less the outcomes' total, which rounding swamps: `if 1d10000 == 1 then 1d6!
    /// else 0` said 9.4e-14 where it cuts 1e-4 of 1d6!'s 6^-16, 3.5e-17; with 1d1000 it said
    /// nothing, nor did `1d10000!!`, which cuts (1e-4)^4. A `given` that holds half the time
    /// cuts from 1d6! what 1d6! cuts: it said twice that. The note is there whenever
    /// something was cut, JSON and text alike.
    static let d6Cut: Double = pow(6, -16)
    static let cuts: [(String, Double)] = [
        ("if 1d10000 == 1 then 1d6! else 0", 1e-4 * d6Cut),
        ("if 1d1000 == 1 then 1d6! else 0", 1e-3 * d6Cut),
        ("1d10000!!", 1e-16),
        ("1d6!", d6Cut),
        ("1d6! given 1d2 == 1", d6Cut),
        ("let x = 1d2 in if x == 1 then 1d6! else 0", 0.5 * d6Cut),
        // Unique dice and bound pools took 1 less their total too: `1d10000u!!` and
        // `1d10000u!` noted nothing.
        ("1d10000u!!", 1e-16),
        ("1d10000u!", 1e-16),
        ("1d6u!", d6Cut),
        ("let p = 1d6!! in count(p, =6) + p", d6Cut),
    ]

    @Test(arguments: cuts)
    func theCutIsTheMassCut(program: String, cut: Double) throws {
        let report = try StatsHarness.report(program)
        #expect(abs(report.truncatedMass - cut) < 1e-6 * cut, "\(program): \(report.truncatedMass)")
        let json = OutcomeRenderer().json(for: report, input: "stats x")
        #expect(json.contains("\"truncated\":"), "\(program)")
        let text = DistributionRenderer(width: 80, unicode: true).render(report, title: "x")
        #expect(text.contains("(explosions cut where the probability left was below 1e-12; "
                              + "\(DistributionRenderer.scientific(cut)) of the total is not shown)"), "\(program)")
    }

    /// A single outcome does not vary: its standard deviation is 0, not the rounding of its
    /// chance (`2d{1,1,2}u` is always 3, its chance a sum of draws a hair from 1).
    @Test(arguments: ["2d{1,1,2}u", "3dFu", "1d6 * 0 + 7/3"])
    func aSingleOutcomeHasNoDeviation(_ program: String) throws {
        let report = try StatsHarness.report(program)
        #expect(report.distribution.count == 1)
        #expect(report.distribution.standardDeviation == 0)
    }
}
