#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// Buffered output to a file descriptor: one `write` per 64 KiB, not per line.
///
/// A closed pipe (`dice -n 1000000 -e 1d6 | head -1`) ends the program quietly.
/// An `Output` made with a closure hands it each flushed chunk instead, so tests can
/// run a REPL session in-process and read what it printed, in the order it was flushed.
/// Used from one thread only; `@unchecked Sendable` lets the two shared instances be globals.
final class Output: @unchecked Sendable {
    private enum Destination {
        case descriptor(Int32)
        case handler((UnsafeBufferPointer<UInt8>) -> Void)
    }

    private let destination: Destination
    /// 64 KiB, allocated once; `count` bytes of it are waiting to be written.
    private let storage: UnsafeMutablePointer<UInt8>
    private static let capacity = 1 << 16
    /// One thread only: no dynamic exclusivity checks on every byte counted.
    @exclusivity(unchecked) private var count = 0

    static let standard = Output(descriptor: 1)
    static let error = Output(descriptor: 2)

    init(descriptor: Int32) {
        destination = .descriptor(descriptor)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: Output.capacity)
    }

    /// An output whose flushed bytes go to `handler`, not to a file descriptor.
    init(handler: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        destination = .handler(handler)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: Output.capacity)
    }

    deinit { storage.deallocate() }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in append(bytes) }
    }

    func line(_ text: String) {
        write(text)
        append(UInt8(ascii: "\n"))
    }

    /// A value and a newline: a text or tally as a breakdown's end shows it.
    func line(_ value: Value) {
        guard case .number(let number) = value else { return line(RollRenderer.plain.text(of: value)) }
        line(number)
    }

    /// A number and a newline, with no intermediate String for integers.
    func line(_ number: Number) {
        guard case .integer(let value) = number else { return line(number.description) }
        // At most 20 digits, a sign and a newline.
        if count > Output.capacity - 22 { flush() }
        count += Output.writeLine(value, into: storage + count)
    }

    /// Writes `value` in decimal and a newline at `start` (room for 22 bytes), two digits at
    /// a time from the right; returns how many bytes it wrote.
    static func writeLine(_ value: Int, into start: UnsafeMutablePointer<UInt8>) -> Int {
        // Most totals of dice: one or two digits.
        if UInt(bitPattern: value) < 10 {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            start[1] = UInt8(ascii: "\n")
            return 2
        }
        if UInt(bitPattern: value) < 100 {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            start[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            start[2] = UInt8(ascii: "\n")
            return 3
        }
        var magnitude = value.magnitude
        let sign = value < 0 ? 1 : 0
        start[0] = UInt8(ascii: "-")
        var digits = 1
        var bound: UInt = 10
        while digits < 20 && magnitude >= bound {
            digits += 1
            bound &*= 10
        }
        var position = sign + digits
        start[position] = UInt8(ascii: "\n")
        while magnitude >= 100 {
            let pair = magnitude % 100
            magnitude /= 100
            position -= 2
            start[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
            start[position + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
        }
        if magnitude >= 10 {
            start[position - 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10)
            start[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        } else {
            start[position - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        return sign + digits + 1
    }

    private func append(_ byte: UInt8) {
        if count == Output.capacity { flush() }
        storage[count] = byte
        count += 1
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) { append(bytes) }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < bytes.count {
            if count == Output.capacity { flush() }
            let chunk = Swift.min(bytes.count - offset, Output.capacity - count)
            if let base = bytes.baseAddress {
                (storage + count).update(from: base + offset, count: chunk)
            }
            count += chunk
            offset += chunk
        }
        if count == Output.capacity { flush() }
    }

    func flush() {
        switch destination {
        case .descriptor(let descriptor):
            writeBuffered(to: descriptor)
        case .handler(let handler):
            if count > 0 { handler(UnsafeBufferPointer(start: storage, count: count)) }
            count = 0
        }
    }

    /// Writes the waiting bytes to `descriptor`. A reader of standard output that went away
    /// (`| head -1`) ends the program quietly; any other failure to write it (a full disk,
    /// a closed descriptor) ends it with a message and status 1, as other Unix tools do.
    private func writeBuffered(to descriptor: Int32) {
        var offset = 0
        while offset < count {
            let written = systemWrite(descriptor, storage + offset, count - offset)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                count = 0
                guard descriptor == 1 else { return }
                if code == EPIPE { exit(0) }
                Output.error.line("dice: write error: \(Files.describe(code))")
                Output.error.flush()
                exit(1)
            }
            offset += written
        }
        count = 0
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
