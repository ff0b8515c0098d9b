/// Renders a `Roll` as the human breakdown: `4d6kh3 (6, 4, 3, ~~1~~) + 2 = 15`.
///
/// The style marks the dice (`RollStyle`): `.plain` strikes dropped and rerolled dice
/// (`~~1~~`); `.ansi` uses colour instead, struck dice dim and crossed out, the highest
/// face green, the lowest red; `.markdown` strikes dropped dice and bolds a kept highest or
/// lowest face (`**20**`), for chat. Every style marks explosions `6!`, compounding `8!!`,
/// penetration `3p`, successes `9*` and failures `1_`.
///
/// ```swift
/// let roll = try Dice.roll("4d6kh3 + 2", seed: 42)
/// RollRenderer.markdown.render(roll)    // 4d6kh3 (**6**, 4, 3, ~~1~~) + 2 = 15
/// ```
public struct RollRenderer: Sendable {
    /// How dice are marked.
    package var style: any RollStyle {
        didSet { builtIn = BuiltIn(style) }
    }
    /// Dice of one pool (and members of one group) shown before `… and N more`.
    public var maxShown: Int
    /// Whether the user's text (annotations, names) is escaped (`TextEscaping`): control
    /// characters always, Markdown's marks in the `.markdown` style. JSON turns it off, as
    /// JSON's own escaping keeps the text exact.
    package var escapesUserText = true
    /// The style when it is one of DiceKit's own, whose rendering is specialized for it.
    private var builtIn: BuiltIn?

    /// A renderer in `style` that lists up to `maxShown` dice of a pool.
    public init(style: any RollStyle = .plain, maxShown: Int = 100, escapesUserText: Bool = true) {
        self.style = style
        self.maxShown = maxShown
        self.escapesUserText = escapesUserText
        builtIn = BuiltIn(style)
    }

    /// Plain text, the default number of dice shown.
    public static let plain = RollRenderer(style: .plain)
    /// ANSI colours, the default number of dice shown.
    public static let ansi = RollRenderer(style: .ansi)
    /// Markdown for chat, the default number of dice shown.
    public static let markdown = RollRenderer(style: .markdown)

    /// The built-in styles: the one `switch` per roll that lets each be rendered by code
    /// specialized for it, with no dynamic call per die.
    private enum BuiltIn: Sendable {
        case plain, ansi, markdown

        /// By the style's type alone: a comparison of metadata, not a dynamic cast, as the
        /// JSON of every roll makes a renderer.
        init?(_ style: any RollStyle) {
            let type = ObjectIdentifier(Swift.type(of: style))
            if type == ObjectIdentifier(PlainStyle.self) {
                self = .plain
            } else if type == ObjectIdentifier(ANSIStyle.self) {
                self = .ansi
            } else if type == ObjectIdentifier(MarkdownStyle.self) {
                self = .markdown
            } else {
                return nil
            }
        }
    }

    /// The breakdown and the total: `2d6 (3, 4) + 1 = 8`; a bare number is just itself.
    ///
    /// - Complexity: O(*n* + *m*) for *n* nodes of the tree and *m* dice and members shown
    ///   (at most `maxShown` a pool or group).
    public func render(_ roll: Roll) -> String {
        var bytes: [UInt8] = []
        render(roll, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A value as the end of a breakdown shows it (`3.5`, `weak hit`, `(hits: 2)`), the user's
    /// text escaped in this renderer's way.
    package func text(of value: Value) -> String {
        var out = ""
        out.write(value, escaping: escapesUserText, markdown: style is MarkdownStyle)
        return out
    }

    /// `render(_:)` appended to UTF-8 bytes: the fast path of a program printing many rolls.
    public func render(_ roll: Roll, into bytes: inout [UInt8]) {
        ByteWriter.appending(to: &bytes) { writer in renderText(roll, into: &writer) }
    }

    /// `render(_:into:)` that stops once `bytes` would hold more than `maxBytes`: false then,
    /// with `bytes` cut short (the output cap, `Limits.maxOutputBytes`).
    package func render(_ roll: Roll, into bytes: inout [UInt8], maxBytes: Int) -> Bool {
        ByteWriter.appending(to: &bytes, limit: maxBytes) { writer in renderText(roll, into: &writer) }
    }

    /// `render(_:)` into any text output.
    func renderText<Out: TextOutput>(_ roll: Roll, into out: inout Out) {
        let escapes = escapesUserText
        switch builtIn {
        case .plain: Breakdown(style: PlainStyle(), maxShown: maxShown, escapes: escapes).renderText(roll, into: &out)
        case .ansi: Breakdown(style: ANSIStyle(), maxShown: maxShown, escapes: escapes).renderText(roll, into: &out)
        case .markdown: Breakdown(style: MarkdownStyle(), maxShown: maxShown, escapes: escapes).renderText(roll, into: &out)
        case nil: Self.renderText(roll, style: style, maxShown: maxShown, escapes: escapesUserText, into: &out)
        }
    }

    /// A style of the caller's own, opened once per roll.
    private static func renderText<S: RollStyle, Out: TextOutput>(_ roll: Roll, style: S, maxShown: Int,
                                                                   escapes: Bool, into out: inout Out) {
        Breakdown(style: style, maxShown: maxShown, escapes: escapes).renderText(roll, into: &out)
    }

    private static func breakdown<S: RollStyle, Out: TextOutput>(_ roll: Roll, style: S, maxShown: Int, escapes: Bool,
                                                                  into out: inout Out) {
        Breakdown(style: style, maxShown: maxShown, escapes: escapes).breakdown(roll, into: &out)
    }

    /// The breakdown without the total.
    package func breakdown(_ roll: Roll) -> String {
        var out = ""
        Self.breakdown(roll, style: style, maxShown: maxShown, escapes: escapesUserText, into: &out)
        return out
    }

    /// The breakdown without the total, cut short (nil) past `maxBytes` bytes.
    func breakdown(_ roll: Roll, maxBytes: Int) -> String? {
        var bytes: [UInt8] = []
        let whole = ByteWriter.appending(to: &bytes, limit: maxBytes) { writer in
            Self.breakdown(roll, style: style, maxShown: maxShown, escapes: escapesUserText, into: &writer)
        }
        return whole ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

extension BinaryOperator {
    /// `rawValue`, as the renderer's own text.
    fileprivate var symbol: StaticString {
        switch self {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        case .floorDivide: return "//"
        case .modulo: return "%"
        }
    }
}

/// The walk of a roll's tree in one style: a breakdown's text.
struct Breakdown<Style: RollStyle> {
    let style: Style
    let maxShown: Int
    /// Whether the user's text is escaped (`RollRenderer.escapesUserText`).
    let escapes: Bool

    func renderText<Out: TextOutput>(_ roll: Roll, into out: inout Out) {
        switch roll.kind {
        case .number:
            value(roll.value, into: &out)
        default:
            // A breakdown that ends in its value (`→ strong hit`) is not followed by `= strong hit`,
            // and shows it bare, as ` = ` would.
            let ends = roll.showsItsValue
            write(roll, atLeast: Printer.loosest, end: ends, into: &out)
            if ends { return }
            out.write(" = ")
            total(roll.value, into: &out)
        }
    }

    func breakdown<Out: TextOutput>(_ roll: Roll, into out: inout Out) {
        write(roll, atLeast: Printer.loosest, into: &out)
    }

    func breakdownText(_ roll: Roll) -> String {
        var out = ""
        breakdown(roll, into: &out)
        return out
    }

    // MARK: - Tree

    private func level(_ roll: Roll) -> Int {
        switch roll.kind {
        case .macro where !roll.hasDice: return 7
        case .conditional, .binding, .match: return Printer.loosest
        case .given: return -4
        case .logical(let op, _, _): return op == .or ? -3 : -2
        case .not: return -1
        case .comparison, .macro: return 0
        case .chain(let chain): return chain.steps.first?.op.isAdditive == false ? 2 : 1
        case .unary: return 3
        case .power: return 4
        case .annotated: return 5
        case .number, .variable, .pool, .group, .function, .text, .tally, .field, .count: return 7
        }
    }

    /// `roll` as a breakdown, in parentheses when it binds looser than `minimum`; as a
    /// `formula`, a roll without dice reads as the expression it came from (names, not their
    /// values), down through its operators. At the `end` of the breakdown (the value it ends
    /// in, `Roll.endsInItsValue`) a text shows bare, `→ strong hit`; anywhere else in quotes,
    /// as written, so that `"1" == 1` does not read `1 == 1`.
    func write<Out: TextOutput>(_ roll: Roll, atLeast minimum: Int = 0, formula: Bool = false, end: Bool = false,
                                into out: inout Out) {
        // The leaves, most of a tree, bind tighter than any operator: no level to work out.
        switch roll.kind {
        case .number: return value(roll.value, into: &out)
        case .pool(let pool): return write(pool, into: &out)
        default: break
        }
        // Past the output cap the rest of the tree is not walked.
        if out.isCut { return }
        let level = self.level(roll)
        if level < minimum {
            out.write("(")
            write(roll, atLeast: Printer.loosest, formula: formula, into: &out)
            out.write(")")
            return
        }
        switch roll.kind {
        case .number, .text:
            if end { endValue(roll.value, into: &out) } else { value(roll.value, into: &out) }
        case .variable(let name):
            writeUser(name, into: &out)
            if formula { return }
            shownValue(roll.value, end: end, into: &out)
        case .pool(let pool):
            write(pool, into: &out)
        case .group(let group):
            write(group, into: &out)
        case .unary(let op, let operand):
            out.write(text: op.rawValue)
            write(operand, atLeast: 3, formula: formula, into: &out)
        case .chain(let chain):
            write(chain.first, atLeast: level + 1, formula: formula, into: &out)
            // By index: `for step in` copied each step, retaining and releasing its operand
            // (bench C, callgrind of DiceBench cached-roll: 16,350 -> 15,900 instructions a call).
            for index in chain.steps.indices {
                out.write(" ")
                out.write(chain.steps[index].op.symbol)
                out.write(" ")
                write(chain.steps[index].operand, atLeast: level + 1, formula: formula, into: &out)
            }
        case .power(let base, let exponent):
            write(base, atLeast: 5, formula: formula, into: &out)
            out.write("^")
            write(exponent, atLeast: 3, formula: formula, into: &out)
        case .comparison(let op, let lhs, let rhs):
            write(lhs, atLeast: 1, formula: formula, into: &out)
            out.write(" ")
            out.write(text: op.rawValue)
            out.write(" ")
            write(rhs, atLeast: 1, formula: formula, into: &out)
        case .function(let function, let arguments):
            out.write(text: function.rawValue)
            out.write("(")
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out.write(", ") }
                write(argument, formula: formula, into: &out)
            }
            out.write(")")
        case .macro(let name, let arguments, _) where !roll.hasDice:
            // A macro that rolled nothing shows its result, not its workings: `mod(16) (3)`.
            writeCall(name, arguments, into: &out)
            shownValue(roll.value, end: end, into: &out)
        case .macro(let name, let arguments, let body):
            writeUser(name, into: &out)
            // One die of texts or tallies reads as its face under the macro's name
            // (`ability: (s: 1, a: 1)`), not as its list of faces again for every die.
            if case .pool(let pool) = body.kind, let die = pool.onlyFace {
                writeArguments(arguments, into: &out)
                out.write(": ")
                return write(die, in: pool, fate: false, bare: end, into: &out)
            }
            writeArguments(arguments, into: &out)
            out.write(": ")
            write(body, atLeast: Printer.loosest, end: end, into: &out)
        case .annotated(let inner, let label):
            write(inner, atLeast: 5, into: &out)
            out.write(" [")
            writeUser(label, into: &out)
            out.write("]")
        case .conditional(var condition, var branch, var taken):
            // As a sentence: the condition that decided, true as shown (a comparison that
            // failed shows its opposite, anything else `not ...`), then the branch taken.
            // Conditions that failed on the way down an `else if` chain are left out, unless
            // they rolled dice (every die rolled is shown: `1d20 (3) < 15 → 1d20 (12) >= 10 → 2`).
            while !taken, !condition.hasDice, case .conditional(let next, let nextBranch, let nextTaken) = branch.kind {
                (condition, branch, taken) = (next, nextBranch, nextTaken)
            }
            if case .comparison(let op, let lhs, let rhs) = condition.kind {
                writeSide(lhs, into: &out)
                out.write(" ")
                out.write(text: taken ? op.rawValue : op.opposite.rawValue)
                out.write(" ")
                writeSide(rhs, into: &out)
            } else {
                if !taken { out.write("not ") }
                writeSide(condition, into: &out)
            }
            out.write(" → ")
            write(branch, atLeast: Printer.loosest, end: end, into: &out)
        case .binding(let name, let value, let body):
            out.write("let ")
            writeUser(name, into: &out)
            out.write(" = ")
            writeSide(value, into: &out)
            out.write(" in ")
            write(body, atLeast: Printer.loosest, end: end, into: &out)
        case .match(let subject, let patterns, _, let result):
            // The patterns that rolled dice, after the subject: `1d20 (11) vs >=(1d6 (4) + 10 = 14)`.
            writeSide(subject, into: &out)
            for (index, pattern) in patterns.enumerated() {
                out.write(index == 0 ? " vs " : ", ")
                write(pattern, into: &out)
            }
            out.write(" → ")
            write(result, atLeast: Printer.loosest, end: end, into: &out)
        case .tally(let names, let rolls):
            out.write("(")
            for (index, (name, field)) in zip(names, rolls).enumerated() {
                if index > 0 { out.write(", ") }
                writeUser(name, into: &out)
                out.write(": ")
                if field.isConstant { value(field.value, into: &out) } else { writeSide(field, into: &out) }
            }
            out.write(")")
        case .field(let base, let name):
            // A field of a macro's result reads as the call's (`t.s`, not `t (s: 2).s`).
            if case .macro(let call, let arguments, _) = base.kind, !base.hasDice {
                writeCall(call, arguments, into: &out)
            } else {
                write(base, atLeast: 7, formula: true, into: &out)
            }
            out.write(".")
            writeUser(name, into: &out)
        case .logical(let op, let lhs, let rhs):
            write(lhs, atLeast: level, formula: formula, into: &out)
            out.write(" ")
            out.write(text: op.rawValue)
            out.write(" ")
            // The right side is shown only when it was evaluated.
            if let rhs { write(rhs, atLeast: level + 1, formula: formula, into: &out) } else { out.write("…") }
        case .not(let operand):
            out.write("not ")
            write(operand, atLeast: -1, formula: formula, into: &out)
        case .count(let target, let point):
            out.write("count(")
            write(target, formula: true, into: &out)
            out.write(", ")
            var text = ""
            Printer.write(point, explicit: true, into: &text)
            out.write(text: text)
            out.write(")")
            // A count of a bound pool shows its value, as the pool's name does: nothing
            // else in the breakdown says it (`p (10) + count(p, =6) (0)`).
            if !formula, case .variable = target.kind { shownValue(roll.value, into: &out) }
        case .given(let value, let condition, let tries):
            write(value, atLeast: -3, into: &out)
            out.write(" given ")
            switch condition.kind {
            case .comparison, .logical, .not:
                // A test that held is 1: `given (1d6 (5) > 2)`, not `given (1d6 (5) > 2) = 1 = 1`;
                // without dice, as written (`given (r >= 15)`).
                write(condition, atLeast: 1, formula: !condition.hasDice, into: &out)
            default:
                writeSide(condition, into: &out)
            }
            if tries > 1 {
                out.write(" (")
                out.write(tries)
                out.write(" tries)")
            }
        }
    }

}

extension Roll {
    /// Whether the roll is a number as written: a literal, perhaps signed (`-1`).
    var isConstant: Bool {
        switch kind {
        case .number: return true
        case .unary(_, let operand): return operand.isConstant
        default: return false
        }
    }

    /// Whether the breakdown already ends in the roll's text or tally, which ` = value` would
    /// only repeat.
    var showsItsValue: Bool { value.number == nil && endsInItsValue }

    /// Whether the breakdown ends in the roll's value: the text or tally a table chose, or
    /// a literal one (`→ strong hit`), through macros, `let`, `if` and `given`; or in its
    /// value in parentheses, as a name or a macro that rolled nothing shows it (`x (hi)`,
    /// `degree(15, 22, 20) (success)`). `E given C` ends in C: ` = hit` follows. A tally
    /// with worked-out fields (`(hits: count(p, >=5) (3))`) does not: ` = (hits: 3)` follows;
    /// nor does an annotated roll, which ends in its label (`orc [x] = orc`, as `1d6 (5) [fire] = 5`).
    var endsInItsValue: Bool {
        switch kind {
        case .text: return true
        case .tally(_, let fields): return fields.allSatisfy(\.isConstant)
        case .match(_, _, _, let result): return result.endsInItsValue
        case .macro(_, _, let body):
            // A macro that rolled nothing shows its value: `result(1) (hits: 1, glitch: 0)`.
            if !hasDice { return true }
            if case .pool(let pool) = body.kind { return pool.onlyFace != nil }
            return body.endsInItsValue
        case .binding(_, _, let body): return body.endsInItsValue
        case .conditional(_, let branch, _): return branch.endsInItsValue
        case .variable: return true
        default: return false
        }
    }
}
