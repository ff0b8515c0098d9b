/// Canonical source text: `parse(expr.text)` gives back the same tree.
extension Expr {
    /// The expression as source text, with the fewest parentheses that keep its meaning.
    public var text: String {
        var out = ""
        Printer.write(self, atLeast: Printer.loosest, into: &out)
        return out
    }

    /// How tightly the expression binds, loosest first (the grammar's levels).
    var level: Int {
        switch kind {
        case .conditional, .binding, .match: return Printer.loosest
        case .given: return -4
        case .logical(let op, _, _): return op == .or ? -3 : -2
        case .not: return -1
        case .comparison: return 0
        case .chain(_, let rest): return rest.first?.op.isAdditive == false ? 2 : 1
        case .unary: return 3
        case .power: return 4
        case .annotated: return 5
        case .dice: return 6
        case .number, .name, .call, .function, .group, .repeat, .text, .tally, .count, .field: return 7
        }
    }
}

extension Stmt {
    /// The statement as source text.
    package var text: String {
        switch kind {
        case .expression(let expr): return expr.text
        case .assignment(let name, let expr): return "\(name) = \(expr.text)"
        case .update(let name, let op, let expr): return "\(name) \(op.rawValue)= \(expr.text)"
        case .definition(let name, let parameters, let defaults, let body):
            return Macro(name: name, parameters: parameters, defaults: defaults, body: body).definitionText
        case .stats(let expr): return "stats \(expr.text)"
        case .compare(let exprs): return "stats " + exprs.map(\.text).joined(separator: ", ")
        case .sweep(let expr, let name, let from, let to): return "stats \(expr.text) for \(name) in \(from.text)..\(to.text)"
        case .use(let name): return name.map { "use \($0)" } ?? "use"
        }
    }
}

enum Printer {
    /// The level of `if`, `let` and `match`, looser than every operator: elsewhere they take
    /// parentheses. Then `given` (-4), `or` (-3), `and` (-2), `not` (-1), comparison (0).
    static let loosest = -5

    static func write(_ expr: Expr, atLeast minimum: Int = 0, into out: inout String) {
        if expr.level < minimum {
            out += "("
            write(expr, atLeast: loosest, into: &out)
            out += ")"
            return
        }
        switch expr.kind {
        case .number(let number):
            out += literal(number)
        case .name(let name):
            out += name
        case .call(let name, let arguments):
            writeCall(name, arguments, into: &out)
        case .function(let function, let arguments):
            writeCall(function.rawValue, arguments, into: &out)
        case .unary(let op, let operand):
            out += op.rawValue
            write(operand, atLeast: 3, into: &out)
        case .chain(let first, let rest):
            let level = expr.level
            write(first, atLeast: level + 1, into: &out)
            for operation in rest {
                out += " \(operation.op.rawValue) "
                write(operation.operand, atLeast: level + 1, into: &out)
            }
        case .power(let base, let exponent):
            write(base, atLeast: 5, into: &out)
            out += "^"
            write(exponent, atLeast: 3, into: &out)
        case .comparison(let op, let lhs, let rhs):
            write(lhs, atLeast: 1, into: &out)
            out += " \(op.rawValue) "
            write(rhs, atLeast: 1, into: &out)
        case .dice(let term):
            writeDice(term, into: &out)
        case .group(let members, let modifiers, let parenthesized):
            out += parenthesized ? "(" : "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                write(member, into: &out)
            }
            out += parenthesized ? ")" : "}"
            writeModifiers(modifiers, into: &out)
        case .repeat(let count, let body, let modifiers):
            writeCall("repeat", [count, body], into: &out)
            writeModifiers(modifiers, into: &out)
        case .annotated(let inner, let label):
            write(inner, atLeast: 5, into: &out)
            out += " [\(label)]"
        case .conditional(let condition, let then, let otherwise):
            out += "if "
            write(condition, atLeast: loosest, into: &out)
            out += " then "
            write(then, atLeast: loosest, into: &out)
            out += " else "
            write(otherwise, atLeast: loosest, into: &out)
        case .binding(let name, let value, let body):
            out += "let \(name) = "
            write(value, atLeast: loosest, into: &out)
            out += " in "
            write(body, atLeast: loosest, into: &out)
        case .text(let text):
            out += Value.quoted(text)
        case .match(let subject, let entries, let otherwise):
            out += "match "
            write(subject, atLeast: loosest + 1, into: &out)
            out += " { "
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += ", " }
                write(entry.pattern, into: &out)
                out += ": "
                write(entry.result, atLeast: loosest, into: &out)
            }
            if let otherwise {
                out += entries.isEmpty ? "else: " : ", else: "
                write(otherwise, atLeast: loosest, into: &out)
            }
            out += " }"
        case .tally(let fields):
            out += "("
            for (index, field) in fields.enumerated() {
                if index > 0 { out += ", " }
                out += "\(field.name): "
                write(field.value, atLeast: loosest, into: &out)
            }
            out += ")"
        case .field(let tally, let name):
            // The `.` touches a name or a `)`: a number, a text, a group or a `repeat` with
            // modifiers takes parentheses.
            switch tally.kind {
            case .name, .call, .function, .tally, .count, .field, .repeat(_, _, modifiers: []):
                write(tally, into: &out)
            default:
                out += "("
                write(tally, atLeast: loosest, into: &out)
                out += ")"
            }
            out += ".\(name)"
        case .logical(let op, let lhs, let rhs):
            let level = expr.level
            write(lhs, atLeast: level, into: &out)
            out += " \(op.rawValue) "
            write(rhs, atLeast: level + 1, into: &out)
        case .not(let operand):
            out += "not "
            write(operand, atLeast: -1, into: &out)
        case .count(let pool, let point):
            out += "count("
            write(pool, into: &out)
            out += ", "
            write(point, explicit: true, into: &out)
            out += ")"
        case .given(let value, let condition):
            write(value, atLeast: -3, into: &out)
            out += " given "
            write(condition, atLeast: -3, into: &out)
        }
    }

    /// A `match` pattern: `7`, `"orc"`, `7-9`, `10+`, `6-`, `>=(dc + 10)`; `arguments`, by
    /// range, stand in for its bounds (a breakdown's rolls, `>=(1d6 (4) + 10 = 14)`).
    static func write(_ pattern: MatchEntry.Pattern, arguments: [SourceRange: String] = [:], into out: inout String) {
        switch pattern {
        case .equal(let value): writeBound(value, arguments, into: &out)
        case .between(let low, let high):
            // Numbers out of order come from a parenthesised end (`(3)-1`; `(-3)` is a negation,
            // no number): written bare they would be an empty range, which does not parse.
            if case .number(let a) = low.kind, case .number(let b) = high.kind, a > b {
                out += "("
                write(low, into: &out)
                out += ")"
            } else {
                writeBound(low, arguments, into: &out)
            }
            out += "-"
            writeBound(high, arguments, into: &out)
        case .orMore(let value):
            writeBound(value, arguments, into: &out)
            out += "+"
        case .orLess(let value):
            writeBound(value, arguments, into: &out)
            out += "-"
        case .point(let point): write(point, explicit: true, arguments: arguments, into: &out)
        }
    }

    /// A pattern's bound: the text standing in for it in `arguments`, if any; else a number
    /// literal (negative too), a text, or a parenthesised expression.
    static func writeBound(_ value: Expr, _ arguments: [SourceRange: String] = [:], into out: inout String) {
        if let standIn = arguments[value.range] { return out += standIn }
        switch value.kind {
        case .number(let number): out += literal(number)
        case .text(let text): out += Value.quoted(text)
        default:
            out += "("
            write(value, into: &out)
            out += ")"
        }
    }

    static func writeCall(_ name: String, _ arguments: [Expr], into out: inout String) {
        // `d(` reads as a die with computed sides: a call of a macro named `d` keeps a space.
        out += name == "d" ? "d (" : name + "("
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out += ", " }
            write(argument, into: &out)
        }
        out += ")"
    }

    /// The term; `count` and `sides`, when given, stand in for its count and sides, and
    /// `arguments` for the modifier arguments at their ranges.
    static func writeDice(_ term: DiceTerm, count: String? = nil, sides: String? = nil,
                          arguments: [SourceRange: String] = [:], into out: inout String) {
        guard count != nil || sides != nil || !arguments.isEmpty else {
            out += term.notation
            return
        }
        if let count {
            out += count
        } else if let count = term.count {
            writeAtom(count, into: &out)
        }
        out += term.spelling.dice
        if let sides {
            out += sides
        } else {
            writeSides(term.sides, spelling: term.spelling, into: &out)
        }
        writeModifiers(term.modifiers, arguments: arguments, into: &out)
    }

    static func writeDice(count: Expr?, sides: Sides, modifiers: [DiceModifier],
                          spelling: DiceTerm.Spelling = DiceTerm.Spelling(), into out: inout String) {
        if let count { writeAtom(count, into: &out) }
        out += spelling.dice
        writeSides(sides, spelling: spelling, into: &out)
        writeModifiers(modifiers, into: &out)
    }

    static func writeSides(_ sides: Sides, spelling: DiceTerm.Spelling = DiceTerm.Spelling(), into out: inout String) {
        if let fate = spelling.fateSides {
            out += fate
            return
        }
        switch sides {
        case .number(let sides): writeAtom(sides, into: &out)
        case .percentile: out += "%"
        case .fate: out += "F"
        case .faces(let faces): out += "{" + faces.map(String.init).joined(separator: ",") + "}"
        case .symbols(let faces): out += "{" + faces.map(\.literal).joined(separator: ", ") + "}"
        }
    }

    /// `number` as a literal that reads back: `0.125` exactly, and a fraction whose decimals
    /// do not end as a quotient in parentheses (`(1/3)`).
    static func literal(_ number: Number) -> String {
        guard case .fraction(let numerator, let denominator) = number else { return number.description }
        // A decimal only when the lexer reads it back (`Number(decimal:fractionDigits:)`):
        // `0.5^40` is exactly a decimal of 40 places, which no literal holds;
        // `9223.372036854775036` has 19 digits and fits.
        if let decimal = number.exactDecimal, let point = decimal.firstIndex(of: "."),
           let whole = Int(decimal[..<point].drop(while: { $0 == "-" })),
           let read = Number(decimal: whole, fractionDigits: decimal.utf8[decimal.utf8.index(after: point)...]),
           read.denominator == denominator, read.numerator.magnitude == numerator.magnitude {
            return decimal
        }
        return "(\(numerator) / \(denominator))"
    }

    /// A non-negative literal as is; anything else in parentheses.
    static func writeAtom(_ expr: Expr, into out: inout String) {
        if case .number(let number) = expr.kind, number >= .integer(0) {
            out += literal(number)
        } else {
            out += "("
            write(expr, into: &out)
            out += ")"
        }
    }

    /// The modifiers; `arguments`, by range, stand in for the arguments they hold.
    static func writeModifiers(_ modifiers: [DiceModifier], arguments: [SourceRange: String] = [:],
                               into out: inout String) {
        for (index, modifier) in modifiers.enumerated() {
            // A bare `r` before another `r...` is written `rr`: `r` then `r5` would read as `rr5`.
            if case .reroll(once: false, nil) = modifier.kind, modifier.spelling.isEmpty || modifier.spelling == "r",
               index + 1 < modifiers.count {
                var next = ""
                write(modifiers[index + 1], into: &next)
                if next.hasPrefix("r") && !next.hasPrefix("ro") {
                    out += "rr"
                    continue
                }
            }
            write(modifier, arguments: arguments, into: &out)
        }
    }

    /// The modifier; `arguments`, by range, stand in for the argument it holds.
    static func write(_ modifier: DiceModifier, arguments: [SourceRange: String] = [:], into out: inout String) {
        if !modifier.spelling.isEmpty {
            out += modifier.spelling
            switch modifier.kind {
            case .keep(_, let count), .drop(_, let count):
                if let count { writeArgument(count, arguments, into: &out) }
            case .minimum(let value), .maximum(let value):
                writeArgument(value, arguments, into: &out)
            case .explode(_, let point), .reroll(_, let point):
                if let point { write(point, arguments: arguments, into: &out) }
            case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point):
                write(point, arguments: arguments, into: &out)
            case .sort, .unique:
                break
            }
            return
        }
        switch modifier.kind {
        case .keep(let extreme, let count):
            out += extreme == .highest ? "kh" : "kl"
            if let count { writeArgument(count, arguments, into: &out) }
        case .drop(let extreme, let count):
            out += extreme == .highest ? "dh" : "dl"
            if let count { writeArgument(count, arguments, into: &out) }
        case .explode(let explosion, let point):
            out += explosion.rawValue
            if let point { write(point, arguments: arguments, into: &out) }
        case .reroll(let once, let point):
            out += once ? "ro" : "r"
            if let point { write(point, arguments: arguments, into: &out) }
        case .minimum(let value):
            out += "mi"
            writeArgument(value, arguments, into: &out)
        case .maximum(let value):
            out += "ma"
            writeArgument(value, arguments, into: &out)
        case .countSuccesses(let point):
            out += "cs"
            write(point, arguments: arguments, into: &out)
        case .countFailures(let point):
            out += "cf"
            write(point, arguments: arguments, into: &out)
        case .subtractFailures(let point):
            out += "df"
            write(point, arguments: arguments, into: &out)
        case .sort(let ascending):
            out += ascending ? "sa" : "sd"
        case .unique:
            out += "u"
        }
    }

    /// A modifier's count or bound: the text standing in for it in `arguments`, if any, or the atom.
    private static func writeArgument(_ expr: Expr, _ arguments: [SourceRange: String], into out: inout String) {
        if let text = arguments[expr.range] { out += text } else { writeAtom(expr, into: &out) }
    }

    /// A compare point; `explicit` writes `=` before a bare value (in `match` and `count`);
    /// `arguments`, by range, stand in for its value (texts in parentheses).
    static func write(_ point: ComparePoint, explicit: Bool = false, arguments: [SourceRange: String] = [:],
                      into out: inout String) {
        let standIn = arguments.isEmpty ? nil : arguments[point.value.range]
        // A bare value means `=`: a literal goes without it, and so does a stand-in (a
        // breakdown's roll, in parentheses), as `r(1d3)` was written: `r(1d3 (2))`.
        if !explicit, point.op == .equal, point.spelling.isEmpty {
            if let standIn { return out += standIn }
            if case .number(let number) = point.value.kind, number >= .integer(0) { return out += literal(number) }
        }
        switch point.op {
        case _ where !point.spelling.isEmpty: out += point.spelling
        case .equal: out += "="
        case .notEqual: out += "<>"
        default: out += point.op.rawValue
        }
        if let standIn {
            out += standIn
        } else if case .number(let number) = point.value.kind {
            out += literal(number)
        } else if case .text(let text) = point.value.kind {
            out += Value.quoted(text)
        } else {
            out += "("
            write(point.value, into: &out)
            out += ")"
        }
    }
}
