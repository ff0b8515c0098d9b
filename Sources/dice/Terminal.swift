#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
}
