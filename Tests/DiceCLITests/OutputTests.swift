import Testing

import DiceKit
@testable import dice

/// `Output.line(_: Number)`, which `--total` prints every value with: integers written two
/// digits at a time straight into the buffer, the same text as `description`.
@Suite struct OutputTests {
    static let integers: [Int] = [
        0, 1, 5, 9, 10, 11, 19, 20, 42, 99, 100, 101, 109, 110, 999, 1_000, 1_001, 9_999, 10_000, 12_345, 99_999,
        100_000, 1_000_000, 123_456_789, 999_999_999_999, 1_000_000_000_000_000_000, 999_999_999_999_999_999,
        Int.max, Int.max - 1, -1, -5, -9, -10, -11, -99, -100, -101, -1_000, -12_345, -1_000_000_000_000_000_000,
        Int.min + 1, Int.min,
    ]

    @Test(arguments: integers)
    func writesIntegersAsTheirDescription(_ value: Int) {
        #expect(printed([.integer(value)]) == "\(value)\n")
    }

    /// Powers of ten and their neighbours, where the digit count changes.
    @Test func writesEveryDigitCount() {
        var values: [Int] = []
        var power = 1
        for exponent in 0...18 {
            values += [power - 1, power, power + 1, -power, -(power - 1)]
            if exponent < 18 { power *= 10 }
        }
        #expect(printed(values.map { .integer($0) }) == values.map { "\($0)\n" }.joined())
    }

    /// Fractions keep their text.
    @Test func writesDecimalsAsTheirDescription() {
        let decimals: [Number] = [.fraction(numerator: 3, denominator: 2), .fraction(numerator: -1, denominator: 4),
                                  .fraction(numerator: 1, denominator: 3), .fraction(numerator: Int.max, denominator: 7)]
        #expect(printed(decimals) == decimals.map { "\($0.description)\n" }.joined())
    }

    /// Lines that straddle the 64 KiB buffer come out whole and in order.
    @Test func flushesBetweenLines() {
        let values = (0..<40_000).map { Number.integer($0 % 3 == 0 ? -$0 * 1_000_003 : $0) }
        #expect(printed(values) == values.map { "\($0.description)\n" }.joined())
    }

    private func printed(_ numbers: [Number]) -> String {
        var bytes: [UInt8] = []
        let output = Output { bytes.append(contentsOf: $0) }
        for number in numbers { output.line(number) }
        output.flush()
        return String(decoding: bytes, as: UTF8.self)
    }
}
