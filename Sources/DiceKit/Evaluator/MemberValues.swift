/// The values of a repeat's members in the order rolled, each stored as the code of a
/// distinct value: one byte a member while there are at most 256 distinct values, two while
/// at most 65,536, then the values themselves.
///
/// Member values are few in practice (`repeat(n, 3d6)` has 16), so a huge repeat with
/// keep/drop or counting keeps a byte a member instead of a `Number` (16 bytes and more).
struct MemberValues {
    enum Storage {
        case narrow([UInt8])
        case wide([UInt16])
        /// Too many distinct values to code: the values themselves.
        case plain([Number])
    }

    private(set) var storage = Storage.narrow([])
    /// The distinct values, by code (empty once `plain`).
    private(set) var distinct: [Number] = []
    private var codes: [Number: Int] = [:]
    /// Codes of the small integers `-smallBias..<smallBias`, plus one (0: not seen yet).
    private var smallCodes: [Int32]
    private static let smallBias = 1024
    private(set) var count = 0

    init() {
        smallCodes = [Int32](repeating: 0, count: 2 * MemberValues.smallBias)
    }

    mutating func append(_ value: Number) {
        count += 1
        if case .plain(var values) = storage {
            storage = .narrow([])
            values.append(value)
            storage = .plain(values)
            return
        }
        var small = -1
        if case .integer(let whole) = value, whole >= -MemberValues.smallBias, whole < MemberValues.smallBias {
            small = whole + MemberValues.smallBias
        }
        var code: Int
        if small >= 0, smallCodes[small] > 0 {
            code = Int(smallCodes[small]) - 1
        } else if let known = codes[value] {
            code = known
        } else {
            code = distinct.count
            if code == 1 << 16 {
                makePlain(appending: value)
                return
            }
            distinct.append(value)
            codes[value] = code
            if small >= 0 { smallCodes[small] = Int32(code + 1) }
        }
        switch storage {
        case .narrow(var narrow):
            storage = .plain([])
            if code < 256 {
                narrow.append(UInt8(truncatingIfNeeded: code))
                storage = .narrow(narrow)
            } else {
                var wide = narrow.map { UInt16($0) }
                narrow = []
                wide.append(UInt16(truncatingIfNeeded: code))
                storage = .wide(wide)
            }
        case .wide(var wide):
            storage = .plain([])
            wide.append(UInt16(truncatingIfNeeded: code))
            storage = .wide(wide)
        case .plain:
            break
        }
    }

    /// Gives up coding: every member's value, then `value`.
    private mutating func makePlain(appending value: Number) {
        var values: [Number] = []
        switch storage {
        case .narrow(let narrow): values = narrow.map { distinct[Int($0)] }
        case .wide(let wide): values = wide.map { distinct[Int($0)] }
        case .plain(let plain): values = plain
        }
        storage = .narrow([])
        values.append(value)
        storage = .plain(values)
        distinct = []
        codes = [:]
    }
}
