/// Where renderers write text: a `String`, or UTF-8 bytes (`ByteWriter`, over a `[UInt8]`)
/// for a program that writes them straight to a file without making a `String` per line.
protocol TextOutput {
    /// A piece of the renderer's own text: `" = "`, `", "`.
    mutating func write(_ text: StaticString)
    /// Text made at run time: a notation, a name, a label.
    mutating func write(text: String)
    /// A whole number in decimal.
    mutating func write(_ value: Int)
    /// Text the user wrote, escaped as `TextEscaping` says.
    mutating func write(user text: String, markdown: Bool)
    /// Whether the output was cut short at its limit: a renderer then stops its walk.
    var isCut: Bool { get }
}

extension TextOutput {
    /// A number as `Number.description` shows it; integers without an intermediate `String`.
    @inline(__always)
    mutating func write(_ number: Number) {
        if case .integer(let value) = number { write(value) } else { write(text: number.description) }
    }

    /// A value as a breakdown's end shows it: a number, a text (the user's, escaped), a tally
    /// `(success: 2, advantage: -1)`.
    mutating func write(_ value: Value, escaping: Bool, markdown: Bool) {
        switch value {
        case .number(let number): write(number)
        case .text(let text):
            if escaping { write(user: text, markdown: markdown) } else { write(text: text) }
        case .tally(let tally):
            write("(")
            for (index, field) in tally.fields.enumerated() {
                if index > 0 { write(", ") }
                if escaping { write(user: field.name, markdown: markdown) } else { write(text: field.name) }
                write(": ")
                write(field.value)
            }
            write(")")
        }
    }
}

extension String: TextOutput {
    var isCut: Bool { false }

    mutating func write(user text: String, markdown: Bool) {
        self += TextEscaping.escaped(text, markdown: markdown)
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { self += String(decoding: $0, as: UTF8.self) }
    }

    mutating func write(text: String) { self += text }

    mutating func write(_ value: Int) { self += String(value) }
}

/// UTF-8 bytes gathered in a small buffer on the stack and appended to a `[UInt8]` a
/// buffer at a time: a breakdown is dozens of short pieces, and appending each to the
/// array on its own costs more than writing it.
struct ByteWriter: TextOutput {
    /// The bytes flushed so far.
    private(set) var bytes: [UInt8]
    /// The most `bytes` may hold: past it nothing more is appended, and `isCut` is true.
    private var limit = Int.max
    /// Whether some text was dropped for `limit`.
    private(set) var isCut = false
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var used = 0
    /// The room a decimal `Int` needs: a sign and 19 digits, or 20 digits for the magnitude of `Int.min`.
    private static let numberRoom = 21

    /// Runs `body` with a writer that appends to `bytes`.
    /// Returns false if `bytes` would have held more than `limit` bytes: then they hold less.
    @discardableResult
    static func appending(to bytes: inout [UInt8], limit: Int = .max, _ body: (inout ByteWriter) -> Void) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var writer = ByteWriter(bytes: [], buffer: buffer)
            writer.limit = limit
            // Moved in and out, so the array is never copied.
            swap(&writer.bytes, &bytes)
            body(&writer)
            writer.flush()
            swap(&writer.bytes, &bytes)
            return !writer.isCut
        }
    }

    private init(bytes: [UInt8], buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = bytes
        self.buffer = buffer
    }

    /// Appends what the buffer holds to `bytes`.
    mutating func flush() {
        guard used > 0 else { return }
        if used > limit &- bytes.count {
            isCut = true
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<used]))
        }
        used = 0
    }

    @inline(__always)
    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write(bytes: $0) }
    }

    mutating func write(text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// A text past the limit is not even looked at: it is cut.
    mutating func write(user text: String, markdown: Bool) {
        guard text.utf8.count <= limit &- bytes.count &- used else {
            isCut = true
            return
        }
        write(text: TextEscaping.escaped(text, markdown: markdown))
    }

    /// `source`, through the buffer when it fits.
    @inline(__always)
    private mutating func write(bytes source: UnsafeBufferPointer<UInt8>) {
        if source.count > buffer.count - used {
            flush()
            if source.count > buffer.count {
                if source.count > limit &- bytes.count {
                    isCut = true
                } else {
                    bytes.append(contentsOf: source)
                }
                return
            }
        }
        // Pieces are short: a loop, not a call of memcpy.
        for byte in source {
            buffer[used] = byte
            used &+= 1
        }
    }

    mutating func write(_ value: Int) {
        if buffer.count - used < ByteWriter.numberRoom { flush() }
        if value < 0 {
            buffer[used] = UInt8(ascii: "-")
            used += 1
        }
        var magnitude = value.magnitude
        if magnitude < 10 {
            buffer[used] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            used += 1
            return
        }
        if magnitude < 100 {
            buffer[used] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 10)
            buffer[used + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            used += 2
            return
        }
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var index = used + digits
        used = index
        while index > used - digits {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
    }
}
