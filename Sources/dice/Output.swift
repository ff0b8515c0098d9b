#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// Buffered output to a file descriptor: one `write` per 64 KiB, not per line.
///
/// A closed pipe (`dice -n 1000000 -e 1d6 | head -1`) ends the program quietly.
/// Used from one thread only; `@unchecked Sendable` lets the two shared instances be globals.
final class Output: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    static let standard = Output(descriptor: 1)
    static let error = Output(descriptor: 2)

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func line(_ text: String) {
        write(text)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    /// A number and a newline, with no intermediate String for integers.
    func line(_ number: Number) {
        guard case .integer(let value) = number else { return line(number.description) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            buffer.append(contentsOf: raw[(24 - count)...])
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                systemWrite(descriptor, raw.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                if descriptor == 1 {
                    // The reader went away: nothing more to say to anyone.
                    exit(0)
                }
                return
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
