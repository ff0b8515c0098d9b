#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// What the terminal on the other end can show.
enum Terminal {
    /// Colour when `descriptor` is a terminal, `NO_COLOR` is unset or empty, and TERM is not `dumb`.
    static func wantsColour(descriptor: Int32) -> Bool {
        guard isatty(descriptor) != 0 else { return false }
        if let noColour = environment("NO_COLOR"), !noColour.isEmpty { return false }
        if environment("TERM") == "dumb" { return false }
        return true
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// The terminal's width in columns (`COLUMNS`, the tty, or 80), within 20...1000: a
    /// larger width is taken as 1000, so `COLUMNS=100000000` cannot make lines of gigabytes,
    /// and a narrower one (1 to 19) as 20. A `COLUMNS` that is no positive number is ignored.
    static func columns() -> Int {
        columns(environment: environment("COLUMNS"))
    }

    /// `columns()` with `COLUMNS` set to `text` (nil: unset).
    static func columns(environment text: String?) -> Int {
        if let text, let columns = Int(text), columns > 0 { return DistributionRenderer.clamped(columns) }
        var size = winsize()
        if isatty(1) != 0, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return DistributionRenderer.clamped(Int(size.ws_col))
        }
        return 80
    }

    /// Whether the locale's character set is UTF-8 (for block-character bars).
    static var isUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment(name), !value.isEmpty { return namesUTF8(value) }
        }
        return false
    }

    /// Whether a locale name like `en_GB.UTF-8` or `C.utf8` names UTF-8, case aside. A scan
    /// of bytes: `String.contains` costs as much as the rest of start-up (generic string
    /// searching instantiates its types on first use).
    static func namesUTF8(_ locale: String) -> Bool {
        var matched = 0  // how much of "utf" then an optional "-" then "8" is matched
        for byte in locale.utf8 {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            switch (matched, lower) {
            case (0, UInt8(ascii: "u")), (1, UInt8(ascii: "t")), (2, UInt8(ascii: "f")): matched += 1
            case (3, UInt8(ascii: "-")): matched = 4
            case (3, UInt8(ascii: "8")), (4, UInt8(ascii: "8")): return true
            default: matched = lower == UInt8(ascii: "u") ? 1 : 0
            }
        }
        return false
    }
}
