/// A breakdown's pools, dice and groups: `4d6kh3 (6, 4, 3, ~~1~~)`, `{1d20 (14) + 5 = 19, …}kh1`.
extension Breakdown {
    func write<Out: TextOutput>(_ pool: DicePool, into out: inout Out) {
        writeNotation(of: pool, into: &out)
        // An empty pool has no dice to list: `0d6`, worth 0.
        if pool.dice.isEmpty && pool.omitted == 0 { return }
        out.write(" (")
        let shown = Swift.min(pool.dice.count, maxShown)
        // Fate dice show their faces as players read them: `[+] [ ] [-]`.
        let fate = pool.term.isFate
        for index in 0..<shown {
            if index > 0 { out.write(fate ? " " : ", ") }
            write(pool.dice[index], in: pool, fate: fate, into: &out)
        }
        let more = pool.dice.count - shown + pool.omitted
        if more > 0 {
            out.write(shown > 0 ? ", … and " : "… ")
            out.write(more)
            out.write(shown > 0 ? " more" : " dice")
        }
        out.write(")")
    }

    /// A pool's notation, `4d6kh3`; the roll of a computed count, sides or modifier argument
    /// in place, `(1d4 (3))d6`, `4d6dl(1d3 (1))`. The faces of text or tally dice and their
    /// compare points are the user's text, escaped like the rest of it: `d{"\u{1b}x"}`, and for
    /// Markdown `d{"\*x\*"}`; the roll of an argument among them is shown plain and escaped
    /// with them. (Their sides are never computed: only a computed count comes before them.)
    private func writeNotation<Out: TextOutput>(of pool: DicePool, into out: inout Out) {
        let term = pool.shownTerm ?? pool.term
        guard term.hasUserText || pool.hasPartRolls else { return out.write(text: term.notation) }
        if let countRoll = pool.countRoll {
            out.write("(")
            breakdown(countRoll, into: &out)
            out.write(")")
        }
        var notation = ""
        Printer.writeDice(term, count: pool.countRoll.map { _ in "" }, sides: pool.sidesRoll.map { "(" + breakdownText($0) + ")" },
                          arguments: texts(of: pool.argumentRolls, plain: term.hasUserText), into: &notation)
        if term.hasUserText { writeUser(notation, into: &out) } else { out.write(text: notation) }
    }

    /// The breakdowns of modifier arguments that rolled dice, `(1d3 (1))`, by the arguments'
    /// ranges, for `Printer.writeModifiers` to show in place of those arguments (a pool's
    /// and a group's alike). `plain`: shown plain and unescaped, for notation that is
    /// escaped as a whole (the user's text of text dice).
    func texts(of argumentRolls: [ArgumentRoll], plain: Bool = false) -> [SourceRange: String] {
        var texts: [SourceRange: String] = [:]
        for argument in argumentRolls {
            let text = plain ? Breakdown<PlainStyle>(style: PlainStyle(), maxShown: maxShown, escapes: false)
                .breakdownText(argument.roll) : breakdownText(argument.roll)
            texts[argument.range] = "(" + text + ")"
        }
        return texts
    }

    /// A die's value and its marks: `6!`, `8!!`, `3p`, `9*`, `1_`; a Fate die's face `[+]`,
    /// `[ ]` or `[-]` (its value, with `mi`/`ma` or `!p`, when that is no Fate face); a text
    /// face in quotes, `"hit"*`, or `bare` where the breakdown ends in it (`ability: hit`).
    func writeMarked<Out: TextOutput>(_ die: Die, in pool: DicePool, fate: Bool, bare: Bool = false, into out: inout Out) {
        if !pool.symbols.isEmpty {
            if bare { endValue(pool.faceValue(of: die), into: &out) } else { value(pool.faceValue(of: die), into: &out) }
        } else {
        switch die.value {
        case 1 where fate: out.write("[+]")
        case 0 where fate: out.write("[ ]")
        case -1 where fate: out.write("[-]")
        default: out.write(die.value)
        }
        }
        if die.flags.isDisjoint(with: [.compounded, .exploded, .penetrated, .success, .failure]) { return }
        if die.flags.contains(.compounded) {
            out.write("!!")
        } else if die.flags.contains(.exploded) {
            out.write("!")
        }
        if die.flags.contains(.penetrated) { out.write("p") }
        if die.flags.contains(.success) { out.write(text: style.successMark) }
        if die.flags.contains(.failure) { out.write(text: style.failureMark) }
    }

    func write<Out: TextOutput>(_ die: Die, in pool: DicePool, fate: Bool, bare: Bool = false, into out: inout Out) {
        // The built-in styles' marks as the renderer's own text (the same as their `markup`).
        if Style.self == PlainStyle.self {
            guard !die.isCounted else { return writeMarked(die, in: pool, fate: fate, bare: bare, into: &out) }
            out.write("~~")
            writeMarked(die, in: pool, fate: fate, bare: bare, into: &out)
            out.write("~~")
            return
        }
        guard let markup = style.markup(for: die, in: pool) else {
            return writeMarked(die, in: pool, fate: fate, bare: bare, into: &out)
        }
        out.write(text: markup.open)
        writeMarked(die, in: pool, fate: fate, bare: bare, into: &out)
        out.write(text: markup.close)
    }

    /// A macro's arguments as they rolled, `(2, 1d4 (3))`; nothing when it has none.
    func writeArguments<Out: TextOutput>(_ arguments: [Roll], into out: inout Out) {
        if arguments.isEmpty { return }
        out.write("(")
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out.write(", ") }
            write(argument, into: &out)
        }
        out.write(")")
    }

    /// A group's members and modifiers, `{1d20 (14) + 5 = 19, …}kh1`; a repeat whose count
    /// rolled dice after that roll in place, `repeat(1d4 (2), 1d6) {1d6 (5) = 5, 1d6 (3) = 3}`,
    /// and a modifier argument that rolled dice as a pool's, `{…}kh(1d2 (1))`.
    func write<Out: TextOutput>(_ group: GroupRoll, into out: inout Out) {
        if let rolledCount = group.rolledCount {
            out.write("repeat(")
            breakdown(rolledCount.roll, into: &out)
            out.write(", ")
            writeUser(rolledCount.body.text, into: &out)
            out.write(") ")
        }
        out.write(group.parenthesized ? "(" : "{")
        let shown = Swift.min(group.members.count, maxShown)
        for index in 0..<shown {
            if index > 0 { out.write(", ") }
            let member = group.members[index]
            if !member.kept { out.write(text: style.droppedMember.open) }
            write(member.roll, into: &out)
            if member.roll.hasDice && !member.roll.showsItsValue {
                out.write(" = ")
                value(member.roll.value, into: &out)
            }
            if member.success { out.write(text: style.successMark) }
            if member.failure { out.write(text: style.failureMark) }
            if !member.kept { out.write(text: style.droppedMember.close) }
        }
        let more = group.members.count + group.omitted - shown
        if more > 0 {
            out.write(", … and ")
            out.write(more)
            out.write(" more")
        }
        out.write(group.parenthesized ? ")" : "}")
        var modifiers = ""
        Printer.writeModifiers(group.modifiers, arguments: texts(of: group.argumentRolls), into: &modifiers)
        out.write(text: modifiers)
    }
}

extension DicePool {
    /// The one die of a pool of text or tally dice that shows just its face: rolled once,
    /// nothing rerolled, counted or computed, the pool's value its face. `nil` otherwise.
    var onlyFace: Die? {
        guard !symbols.isEmpty, dice.count == 1, omitted == 0, !isCount, !hasPartRolls, let die = dice.first, die.flags.isEmpty, value == faceValue(of: die) else { return nil }
        return die
    }
}

extension RollRenderer {
    /// A macro's use as the breakdown names it, `face(2)`; nil for a roll that is no macro.
    func call(of macro: Roll) -> String? {
        guard case .macro(let name, let arguments, _) = macro.kind else { return nil }
        var out = ""
        let breakdown = Breakdown(style: PlainStyle(), maxShown: maxShown, escapes: escapesUserText)
        breakdown.writeUser(name, into: &out)
        breakdown.writeArguments(arguments, into: &out)
        return out
    }
}
