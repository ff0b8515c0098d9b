@testable import DiceKit

// Tests written when every value was a number read values as numbers: these say so.

/// Whether `lhs` is the number `rhs`.
func == (lhs: Value, rhs: Number) -> Bool { lhs == .number(rhs) }

/// Whether `lhs` is not the number `rhs`.
func != (lhs: Value, rhs: Number) -> Bool { lhs != .number(rhs) }

extension Value {
    /// The nearest double of a number; NaN for a text or tally, which no test of a number expects.
    var doubleValue: Double { number?.doubleValue ?? .nan }
}
