/// The values a breakdown shows, and its short forms of a part: a bound value, a condition,
/// a table's subject.
extension Breakdown {
    /// A name or annotation the user wrote.
    func writeUser<Out: TextOutput>(_ text: String, into out: inout Out) {
        if escapes {
            out.write(user: text, markdown: Style.self == MarkdownStyle.self)
        } else {
            out.write(text: text)
        }
    }

    /// The value a breakdown ends in (`= 15`, `= hit`), marked up as the style's total.
    func total<Out: TextOutput>(_ value: Value, into out: inout Out) {
        if let markup = style.total {
            out.write(text: markup.open)
            endValue(value, into: &out)
            out.write(text: markup.close)
        } else {
            endValue(value, into: &out)
        }
    }

    /// ` (3)` after a name or formula; a tally, in parentheses of its own, is not put in more:
    /// ` (hits: 2, glitch: 0)`. A text is bare at the `end` of the breakdown, `x (hi)`, and
    /// quoted elsewhere, `x ("hi") == 1`.
    func shownValue<Out: TextOutput>(_ shown: Value, end: Bool = false, into out: inout Out) {
        if case .tally = shown {
            out.write(" ")
            return value(shown, into: &out)
        }
        out.write(" (")
        if end { endValue(shown, into: &out) } else { value(shown, into: &out) }
        out.write(")")
    }

    /// A value inside a breakdown: a text in quotes, with `"` and `\` escaped as the lexer
    /// reads them (`"1" == 1`, never `1 == 1`), then escaped like the user's other text; a
    /// tally's field names escaped so.
    @inline(__always)
    func value<Out: TextOutput>(_ value: Value, into out: inout Out) {
        switch value {
        case .number(let number): out.write(number)
        case .text(let text): writeUser(Value.quoted(text), into: &out)
        case .tally: out.write(value, escaping: escapes, markdown: Style.self == MarkdownStyle.self)
        }
    }

    /// A value as a breakdown ends in it (after `→` or `=`): a text bare, `strong hit`, as
    /// `-t` prints it; otherwise as `value(_:into:)`.
    @inline(__always)
    func endValue<Out: TextOutput>(_ value: Value, into out: inout Out) {
        if case .number(let number) = value { return out.write(number) }
        out.write(value, escaping: escapes, markdown: Style.self == MarkdownStyle.self)
    }

    /// A use of a macro that rolled nothing, by its arguments' values: `mod(16)`.
    func writeCall<Out: TextOutput>(_ name: String, _ arguments: [Roll], into out: inout Out) {
        writeUser(name, into: &out)
        if arguments.isEmpty { return }
        out.write("(")
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out.write(", ") }
            value(argument.value, into: &out)
        }
        out.write(")")
    }

    /// A part of a condition or a bound value, short: a roll with dice as its breakdown (and
    /// its value, when that is no single pool's), one without as its formula and its value,
    /// `r + bonus (15)`.
    func writeSide<Out: TextOutput>(_ roll: Roll, into out: inout Out) {
        switch roll.kind {
        // A text or tally as written (`"orc"`, `(s: 1)`) is its own value, as a literal number is;
        // a macro that rolled nothing already ends in its value (`h(2) (3)`).
        case .tally where roll.endsInItsValue, .macro where !roll.hasDice, .number, .variable, .pool, .group, .text:
            write(roll, atLeast: 1, into: &out)
        case _ where roll.hasDice:
            write(roll, atLeast: 1, into: &out)
            if roll.showsItsValue { return }
            out.write(" = ")
            value(roll.value, into: &out)
        default:
            write(roll, atLeast: 1, formula: true, into: &out)
            shownValue(roll.value, into: &out)
        }
    }

    /// A `match` pattern that rolled dice, each bound where it stands: a roll in parentheses
    /// as a bound value shows it (`>=(1d6 (4) + 10 = 14)`, `(1d4 (2))-(dc (12))`), a text
    /// literal as a value; number literals as written.
    func write<Out: TextOutput>(_ pattern: PatternRoll, into out: inout Out) {
        var standIns: [SourceRange: String] = [:]
        for bound in pattern.bounds {
            var text = ""
            if case .text = bound.roll.kind {
                value(bound.roll.value, into: &text)
            } else {
                text = "("
                writeSide(bound.roll, into: &text)
                text += ")"
            }
            standIns[bound.range] = text
        }
        // The rest is the pattern's operators and number literals: no user text to escape.
        var shape = ""
        Printer.write(pattern.pattern, arguments: standIns, into: &shape)
        out.write(text: shape)
    }
}
