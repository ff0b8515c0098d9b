@testable import DiceKit

extension Number {
    /// `numerator / denominator` in lowest terms, for expectations (`.ratio(7, 2)` is 3.5).
    static func ratio(_ numerator: Int, _ denominator: Int) -> Number {
        Number(numerator: numerator, denominator: denominator) ?? .integer(Int.min)
    }
}

extension Number {
    /// The fraction with the smallest denominator (up to 1000) whose nearest double is
    /// `value`: how an outcome written as a JSON number in a conformance case reads back.
    static func nearest(to value: Double) -> Number? {
        for denominator in 1...1000 {
            let numerator = (value * Double(denominator)).rounded()
            guard Swift.abs(numerator) < 9.0e15 else { return nil }
            let number = Number.ratio(Int(numerator), denominator)
            if number.doubleValue == value { return number }
        }
        return nil
    }
}
