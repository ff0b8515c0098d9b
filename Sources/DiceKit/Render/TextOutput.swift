/// Where renderers write text: a `String`, or UTF-8 bytes (`[UInt8]`) for a program that
/// writes them straight to a file without making a `String` per line.
protocol TextOutput {
    mutating func write(_ text: String)
    /// A whole number in decimal.
    mutating func write(_ value: Int)
}

extension TextOutput {
    /// A number as `Number.description` shows it; integers without an intermediate `String`.
    @inline(__always)
    mutating func write(_ number: Number) {
        if case .integer(let value) = number { write(value) } else { write(number.description) }
    }
}

extension String: TextOutput {
    mutating func write(_ value: Int) { self += String(value) }
}

extension Array: TextOutput where Element == UInt8 {
    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    mutating func write(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while true {
            append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude / divisor))
            magnitude %= divisor
            if divisor == 1 { break }
            divisor /= 10
        }
    }
}
