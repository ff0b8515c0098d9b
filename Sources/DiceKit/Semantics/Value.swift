/// A value of the dice language: a number, a text, or a tally of named counts.
///
/// ```swift
/// Value.integer(3)                            // 3
/// Value.text("weak hit")                      // weak hit
/// try Dice.roll("(hits: 2, glitch: 0)").value  // (hits: 2, glitch: 0), a tally
/// ```
public enum Value: Hashable, Sendable {
    /// An exact number.
    case number(Number)
    /// `"weak hit"`: a text.
    case text(String)
    /// `(hits: 3, glitch: 1)`: named counts.
    case tally(Tally)

    /// The whole number `value`: `roll.value == .integer(3)`.
    public static func integer(_ value: Int) -> Value { .number(.integer(value)) }

    /// `numerator / denominator` in lowest terms, with `denominator > 1`.
    package static func fraction(numerator: Int, denominator: Int) -> Value {
        .number(.fraction(numerator: numerator, denominator: denominator))
    }

    /// The number, when the value is one.
    public var number: Number? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The value when it is a whole 64-bit integer.
    public var integerValue: Int? { number?.integerValue }

    /// Whether the value is the number 0 (a text or a tally never is).
    var isZero: Bool { self == .integer(0) }

    /// Whether the value is a tally.
    var isTally: Bool {
        if case .tally = self { return true }
        return false
    }

    /// What kind of value it is, as error messages name it.
    var kindName: String {
        switch self {
        case .number: return "number"
        case .text: return "text"
        case .tally: return "tally"
        }
    }
}

extension Value: CustomStringConvertible {
    /// The value as a breakdown's end shows it: `3.5`, `weak hit`, `(success: 2, advantage: -1)`.
    public var description: String {
        switch self {
        case .number(let number): return number.description
        case .text(let text): return text
        case .tally(let tally): return tally.description
        }
    }

    /// The value as source that reads back as itself: `"weak hit"` quoted and escaped.
    package var literal: String {
        switch self {
        case .number(let number): return Printer.literal(number)
        case .text(let text): return Value.quoted(text)
        case .tally(let tally): return tally.literal
        }
    }

    /// `text` in double quotes, with `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        result.append("\"")
        return result
    }
}

/// Named counts, `(hits: 3, glitch: 1)`: the fields in the order they first appeared.
///
/// A field not listed is 0, so tallies that differ only by zero fields are equal:
/// `(s: 1) == (s: 1, a: 0)`.
public struct Tally: Sendable {
    /// The fields in order of first appearance, each once.
    public private(set) var fields: [(name: String, value: Number)]

    /// A tally of `fields`; a name given twice keeps its first place and its last value.
    package init(_ fields: [(String, Number)] = []) {
        self.fields = []
        for (name, value) in fields { self[name] = value }
    }

    /// The field's count, 0 when absent.
    public subscript(name: String) -> Number {
        get { fields.first { $0.name == name }?.value ?? .integer(0) }
        set {
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index].value = newValue
            } else {
                fields.append((name, newValue))
            }
        }
    }

    /// Field by field, `other`'s fields after those of `self` (`(s: 1) + (a: 2)` is `(s: 1, a: 2)`).
    func combined(with other: Tally,
                  _ operation: (Number, Number) throws(ArithmeticFault) -> Number) throws(ArithmeticFault) -> Tally {
        var result = self
        for (name, value) in other.fields { result[name] = try operation(result[name], value) }
        return result
    }

    /// Every field multiplied by `factor`.
    func scaled(by factor: Number) throws(ArithmeticFault) -> Tally {
        var result = self
        for index in result.fields.indices {
            result.fields[index].value = try result.fields[index].value.multiplying(by: factor)
        }
        return result
    }
}

extension Tally: Hashable {
    /// Equal when every field is equal, an absent field counting as 0.
    ///
    /// Field by field without building sorted copies: a tally has a few fields, and stats of
    /// tally sums compare and hash them in every step (F3's `genesys(3, 2)`: sorting copies
    /// was half its time).
    public static func == (lhs: Tally, rhs: Tally) -> Bool {
        var shown = 0
        for (name, value) in lhs.fields where !value.isZero {
            guard rhs[name] == value else { return false }
            shown += 1
        }
        return shown == rhs.fields.reduce(0) { $1.value.isZero ? $0 : $0 + 1 }
    }

    /// Hashes the fields that are not 0, in any order: a sum of a mix of each field's name
    /// bytes and value. A `Hasher` of each field (its name hashed as a `String`) was about a
    /// third of the instructions of Year Zero's `stats roll(10, 5, 5)`, whose outcomes are
    /// tallies filed by their hash (bench G13, callgrind, 2026-12-03).
    public func hash(into hasher: inout Hasher) {
        var sum: UInt64 = 0
        for (name, value) in fields where !value.isZero {
            var field = Tally.bytesHash(name)
            switch value {
            case .integer(let whole): field ^= UInt64(bitPattern: Int64(whole))
            case .fraction(let numerator, let denominator):
                field ^= Tally.mixed(UInt64(bitPattern: Int64(numerator))) &+ UInt64(bitPattern: Int64(denominator))
            }
            sum &+= Tally.mixed(field)
        }
        hasher.combine(sum)
    }

    /// FNV-1a over the UTF-8 bytes of `name` (over its storage where it has one).
    private static func bytesHash(_ name: String) -> UInt64 {
        func hashed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        return name.utf8.withContiguousStorageIfAvailable(hashed) ?? hashed(name.utf8)
    }

    /// The bits of `value` spread over the word (SplitMix64's finalizer).
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension Tally: CustomStringConvertible {
    /// `(success: 2, advantage: -1)`, fields in order of first appearance; `()` when empty.
    public var description: String {
        // Appended in place: a `stats` table labels each of its thousands of rows with one
        // (Genesys's `check(0, 5, 0, 5, 2, 2)`, 7,584 rows: about 3 ms of the process with
        // interpolations joined, about 2 ms so; perf's shares of a release build).
        var text = "("
        for (index, field) in fields.enumerated() {
            if index > 0 { text += ", " }
            text += field.name
            text += ": "
            text += field.value.description
        }
        return text + ")"
    }

    /// The tally as source that reads back as itself.
    var literal: String {
        "(" + fields.map { "\($0.name): \(Printer.literal($0.value))" }.joined(separator: ", ") + ")"
    }
}
