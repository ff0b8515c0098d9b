import Testing
@testable import DiceKit

/// Probabilities as JSON and CSV write them (LANGUAGE.md §6): at most 12 significant digits,
/// read back as the value rounded to 12 digits, no trailing zeros, exponent form below 1e-4.
struct ProbabilityTextTests {
    @Test(arguments: [
        (0.45, "0.45"), (0.44999999999999996, "0.45"), (1.0, "1"), (0.5, "0.5"),
        (1.0 / 6, "0.166666666667"), (1.0 / 216, "0.00462962962963"), (0.0001, "0.0001"),
        (0.9800000000000004, "0.98"), (350.0, "350"), (10.500000000000002, "10.5"),
        (1.0 / 3 * 1e-6, "3.33333333333e-7"), (0.0, "0"),
    ])
    func writesTwelveDigits(_ value: Double, _ expected: String) {
        #expect(JSONWriter.probabilityText(value) == expected)
    }

    /// The cut mass under a table: one decimal, and a mantissa that rounds up to 10 moves to
    /// the next power (`stats 1d1000!` printed "10.0e-13").
    @Test(arguments: [(9.99e-13, "1.0e-12"), (3.5e-13, "3.5e-13"), (9.94e-13, "9.9e-13"), (1e-16, "1.0e-16")])
    func cutMassesHaveOneDecimal(_ value: Double, _ expected: String) {
        #expect(DistributionRenderer.scientific(value) == expected)
    }

    /// Random values over many magnitudes: the text has at most 12 significant digits, no
    /// trailing zero after a point, and reads back as the value rounded to 12 digits.
    @Test func roundTripsToTwelveDigits() {
        var generator = Xoshiro256StarStar(seed: 7)
        for _ in 0..<20_000 {
            let exponent = Double(generator.next() % 20) - 8
            let value = Double(generator.next() >> 11) / Double(1 << 53) * Number.pow(10, exponent)
            guard value > 0 else { continue }
            let text = JSONWriter.probabilityText(value)
            let mantissa = text.split(separator: "e").first.map(String.init) ?? text
            if mantissa.contains(".") { #expect(!mantissa.hasSuffix("0"), "\(value): \(text)") }
            let significant = mantissa.filter(\.isNumber).drop { $0 == "0" }
            #expect(significant.count <= 12, "\(value): \(text)")
            guard let back = Double(text) else {
                Issue.record("\(value): \(text) is no number")
                continue
            }
            // Rounded to 12 significant digits, the value is within half a unit of the 12th
            // digit (and the rounding error of scaling it, a few units of its last bit).
            let unit = Number.pow(10, (Number.log10(value)).rounded(.down) - 11)
            #expect(Swift.abs(back - value) <= unit / 2 + value * 1e-15, "\(value): \(text)")
        }
    }

    /// Means, standard deviations and every other statistic of JSON follow the same rule
    /// (LANGUAGE.md §6): `3`, not `2.9999999999999996`; either sign; null when not finite.
    @Test(arguments: [
        (2.9999999999999996, "3"), (0.002499999999999993, "0.0025"), (-6.500000000000001, "-6.5"),
        (18.825000000000003, "18.825"), (1.118033988749895, "1.11803398875"), (-Double.infinity, "null"),
        (Double.nan, "null"), (3.5460523406e-13, "3.5460523406e-13"),
        // From 10^12 on, the whole digits count: the nearest double (its shortest digits), not
        // 9223372036850001000.
        (9223372036854775806.5, "9223372036854776000"), (3500000000000000.5, "3500000000000000.5"),
        (-1234567890123.25, "-1234567890123.25"),
    ])
    func statisticsHaveTwelveDigits(_ value: Double, _ expected: String) {
        var json = JSONWriter()
        json.number(nil, value)
        #expect(json.text == expected)
    }

    @Test(arguments: [
        ("stats 2d{1,1,2}u", #""mean":3,"#),
        ("stats 1d20 == 1 and 1d20 == 1", #""mean":0.0025,"#),
        ("stats 9223372036854775807 - 1d2", #""mean":9223372036854776000,"stdev":0.5,"#),
        ("stats let p = 3d6 in if count(p, =6) == 0 then (a: 1) else (b: 1)",
         #""fields":{"a":{"mean":0.578703703704,"stdev":0.493766875178},"b":{"mean":0.421296296296,"#),
    ])
    func reportsWriteTheirMeansToTwelveDigits(_ program: String, _ expected: String) throws {
        var session = Session(seed: 1)
        var json = ""
        for statement in try Parser.parseProgram(program) {
            guard case .stats(_, let report) = try session.execute(statement) else { continue }
            json = OutcomeRenderer().json(for: report, input: program)
        }
        #expect(json.contains(expected), "\(json)")
    }

    /// The text's means and standard deviations: at most about 15 significant digits, and past
    /// 9e15, or a fraction past 1e15, 10 significant digits (LANGUAGE.md §1's for a number).
    @Test(arguments: [
        (10.5, 2, "10.50"), (1234567890123.456, 2, "1234567890123.46"), (12345678901234.56, 2, "12345678901234.6"),
        (3500000000000000.5, 2, "3.5e15"), (3500000000000000, 2, "3500000000000000"),
        (9223372036854775806.5, 2, "9.223372037e18"), (-9.3e18, 4, "-9.3e18"), (9.9999999999e17, 2, "1e18"),
    ])
    func hugeValuesKeepTheirDigits(_ value: Double, _ places: Int, _ expected: String) {
        #expect(DistributionRenderer.fixed(value, places) == expected)
    }

    /// The spread of values past 2^53, a double apart no more: `9223372036854775807 - 1d2`
    /// had a stdev of 0.00; it is 0.5. Means and spreads are measured from the smallest outcome.
    @Test func hugeValuesHaveTheirSpread() throws {
        let report = try StatsHarness.report("9223372036854775807 - 1d2")
        #expect(report.distribution.standardDeviation == 0.5)
        #expect(report.distribution.mean == 9223372036854775806.5)
        let text = DistributionRenderer().render(report, title: "x")
        #expect(text.hasPrefix("x: mean 9.223372037e18, stdev 0.50,"), "\(text)")
        #expect(try StatsHarness.report("3d6").distribution.mean == 10.5)
    }
}
