/// An environment written as a `.dice` script that, run in an empty session,
/// gives back the same variables and macros, with their descriptions (the REPL's `:save`).
package enum SessionScript {
    /// Variables first (as exact literals), then macros, each sorted by name.
    package static func text(of environment: Environment) -> String {
        var lines = ["# dice session: variables and macros"]
        for (name, value) in environment.variables {
            if case .number(let number) = value {
                lines.append("\(name) = \(literal(number))")
            } else {
                lines.append("\(name) = \(value.literal)")
            }
        }
        for macro in environment.macros {
            // Its description as the doc comment that gives it back (one line, whatever it holds).
            if let summary = macro.summary {
                lines.append("#: " + summary.map { $0.isNewline ? " " : String($0) }.joined())
            }
            lines.append(macro.definitionText)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text that evaluates to exactly `value` (the smallest integer has no literal).
    static func literal(_ value: Number) -> String {
        let smallest = "(-9223372036854775807 - 1)"
        if value == .integer(Int.min) { return smallest }
        if case .fraction(Int.min, let denominator) = value { return "(\(smallest) / \(denominator))" }
        return Printer.literal(value)
    }
}
