import Testing
@testable import DiceKit

/// The keep/drop dynamic program on flat rows (whole-number contributions, small tables)
/// against the general one on distributions: the same probabilities, added in the same
/// order, for kept positions counted from either end.
struct StatsKeepTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var probabilities: [Double]
        var contributions: [Int]
        var dice: Int
        var kept: Range<Int>
        var testDescription: String { "\(dice) dice of \(contributions), keeping \(kept)" }
    }

    static let d6 = [Double](repeating: 1.0 / 6, count: 6)
    static let cases: [Case] = [
        Case(probabilities: d6, contributions: [1, 2, 3, 4, 5, 6], dice: 4, kept: 1..<4),    // 4d6kh3
        Case(probabilities: d6, contributions: [1, 2, 3, 4, 5, 6], dice: 10, kept: 7..<10),  // 10d6kh3
        Case(probabilities: d6, contributions: [1, 2, 3, 4, 5, 6], dice: 10, kept: 0..<3),   // 10d6kl3
        Case(probabilities: d6, contributions: [1, 2, 3, 4, 5, 6], dice: 6, kept: 1..<5),    // 6d6dh1dl1
        Case(probabilities: d6, contributions: [1, 2, 3, 4, 5, 6], dice: 1, kept: 0..<1),
        Case(probabilities: [0.25, 0.5, 0.25], contributions: [-1, 0, 1], dice: 5, kept: 3..<5),  // 5dFkh2
        Case(probabilities: [0.5, 0.25, 0.25], contributions: [0, 0, 1], dice: 7, kept: 2..<7),   // counting
        Case(probabilities: [0.1, 0.2, 0.3, 0.4], contributions: [-7, 0, 3, 20], dice: 9, kept: 2..<6),
        Case(probabilities: [1], contributions: [4], dice: 3, kept: 0..<2),
    ]

    @Test(arguments: StatsKeepTableTests.cases)
    func flatRowsAgreeWithTheGeneralForm(_ c: Case) throws {
        var meter = WorkMeter(budget: .standard)
        let flat = try KeepDP.keptSum(probabilities: c.probabilities, contributions: c.contributions,
                                      dice: c.dice, kept: c.kept, meter: &meter, at: .at(0))
        let general = try KeepDP.keptSum(probabilities: c.probabilities,
                                         contributions: c.contributions.map { .integer($0) },
                                         dice: c.dice, kept: c.kept, meter: &meter, at: .at(0))
        #expect(flat.outcomes.map(\.value) == general.outcomes.map(\.value))
        for (a, b) in zip(flat.outcomes, general.outcomes) {
            #expect(abs(a.probability - b.probability) <= 1e-15, "P(\(a.value))")
        }
        #expect(abs(flat.totalProbability - 1) < 1e-12)
    }

    /// A table too large for flat rows falls back to the general form.
    @Test func wideTablesUseTheGeneralForm() throws {
        var meter = WorkMeter(budget: .standard)
        let wide = try KeepDP.keptSum(probabilities: [0.5, 0.5], contributions: [0, 1 << 40], dice: 3, kept: 1..<3,
                                      meter: &meter, at: .at(0))
        #expect(wide.outcomes.map(\.value) == [.integer(0), .integer(1 << 40), .integer(2 << 40)])
        #expect(abs(wide.probability(of: .integer(1 << 40)) - 0.375) < 1e-15)
    }
}
