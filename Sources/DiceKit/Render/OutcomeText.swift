/// How an outcome of `stats` (or a swept value) is written: the one place every view of
/// distributions (tables, sweeps, CSV, charts) takes it from.
enum OutcomeText {
    /// For people: `7`, `-2`, `0.3333333333` (a fraction to 10 significant digits).
    static func label(_ value: Number) -> String { value.description }

    /// For people: a number as above, a text as written (control characters escaped), a tally
    /// `(hits: 2, glitch: 0)`.
    static func label(_ value: Value) -> String {
        switch value {
        case .number(let number): return label(number)
        default: return TextEscaping.escapingControls(value.description)
        }
    }

    /// For programs (a CSV cell): an integer as is, a fraction as the nearest double, as in JSON.
    static func cell(_ value: Number) -> String { JSONWriter.numberText(value) }

    /// For programs: a number as above, a text as written, a tally `(hits: 2, glitch: 0)`.
    static func cell(_ value: Value) -> String {
        if case .number(let number) = value { return cell(number) }
        return value.description
    }
}
