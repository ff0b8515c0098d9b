/// Renders a `Roll` as the human breakdown: `4d6kh3 (6, 4, 3, ~~1~~) + 2 = 15`.
///
/// Plain style marks dropped and rerolled dice `~~struck~~`, explosions `6!`,
/// compounding `8!!`, penetration `3p`, successes `9*` and failures `1_`.
/// ANSI style uses colour instead: struck dice dim and crossed out, the highest
/// face green, the lowest red.
public struct RollRenderer: Sendable {
    public enum Style: Sendable {
        case plain, ansi
    }

    public var style: Style
    /// Dice of one pool (and members of one group) shown before `… and N more`.
    public var maxShown: Int

    public init(style: Style = .plain, maxShown: Int = 100) {
        self.style = style
        self.maxShown = maxShown
    }

    public static let plain = RollRenderer(style: .plain)
    public static let ansi = RollRenderer(style: .ansi)

    /// The breakdown and the total: `2d6 (3, 4) + 1 = 8`; a bare number is just itself.
    public func render(_ roll: Roll) -> String {
        switch roll.kind {
        case .number:
            return roll.value.description
        default:
            return breakdown(roll) + " = " + total(roll.value)
        }
    }

    /// The breakdown without the total.
    public func breakdown(_ roll: Roll) -> String {
        var out = ""
        write(roll, into: &out)
        return out
    }

    func total(_ value: Number) -> String {
        style == .ansi ? "\u{1B}[1m\(value)\u{1B}[0m" : value.description
    }

    // MARK: - Tree

    private func level(_ roll: Roll) -> Int {
        switch roll.kind {
        case .macro where !roll.hasDice: return 7
        case .comparison, .macro: return 0
        case .chain(_, let rest): return rest.first?.op.isAdditive == false ? 2 : 1
        case .unary: return 3
        case .power: return 4
        case .annotated: return 5
        case .number, .variable, .pool, .group, .function: return 7
        }
    }

    private func write(_ roll: Roll, atLeast minimum: Int = 0, into out: inout String) {
        if level(roll) < minimum {
            out += "("
            write(roll, into: &out)
            out += ")"
            return
        }
        switch roll.kind {
        case .number:
            out += roll.value.description
        case .variable(let name):
            out += "\(name) (\(roll.value))"
        case .pool(let pool):
            write(pool, into: &out)
        case .group(let group):
            write(group, into: &out)
        case .unary(let op, let operand):
            out += op.rawValue
            write(operand, atLeast: 3, into: &out)
        case .chain(let first, let rest):
            let level = self.level(roll)
            write(first, atLeast: level + 1, into: &out)
            for step in rest {
                out += " "
                out += step.op.rawValue
                out += " "
                write(step.operand, atLeast: level + 1, into: &out)
            }
        case .power(let base, let exponent):
            write(base, atLeast: 5, into: &out)
            out += "^"
            write(exponent, atLeast: 3, into: &out)
        case .comparison(let op, let lhs, let rhs):
            write(lhs, atLeast: 1, into: &out)
            out += " \(op.rawValue) "
            write(rhs, atLeast: 1, into: &out)
        case .function(let function, let arguments):
            out += function.rawValue + "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ", " }
                write(argument, into: &out)
            }
            out += ")"
        case .macro(let name, let arguments, _) where !roll.hasDice:
            // A macro that rolled nothing shows its result, not its workings: `mod(16) (3)`.
            out += name
            if !arguments.isEmpty { out += "(" + arguments.map { $0.value.description }.joined(separator: ", ") + ")" }
            out += " (\(roll.value))"
        case .macro(let name, let arguments, let body):
            out += name
            if !arguments.isEmpty {
                out += "("
                for (index, argument) in arguments.enumerated() {
                    if index > 0 { out += ", " }
                    write(argument, into: &out)
                }
                out += ")"
            }
            out += ": "
            write(body, into: &out)
        case .annotated(let inner, let label):
            write(inner, atLeast: 5, into: &out)
            out += " [\(label)]"
        }
    }

    private func write(_ pool: DicePool, into out: inout String) {
        if pool.countRoll != nil || pool.sidesRoll != nil {
            // Show the roll of a computed count or sides in place: `(1d4 (3))d6`.
            Printer.writeDice(pool.term, count: pool.countRoll.map { "(" + breakdown($0) + ")" },
                              sides: pool.sidesRoll.map { "(" + breakdown($0) + ")" }, into: &out)
        } else {
            out += pool.notation
        }
        out += " ("
        let shown = Swift.min(pool.dice.count, maxShown)
        for index in 0..<shown {
            if index > 0 { out += ", " }
            write(pool.dice[index], in: pool, into: &out)
        }
        let more = pool.dice.count - shown + pool.omitted
        if more > 0 { out += shown > 0 ? ", … and \(more) more" : "… \(more) dice" }
        out += ")"
    }

    private func write(_ die: Die, in pool: DicePool, into out: inout String) {
        var text = String(die.value)
        if die.flags.contains(.compounded) {
            text += "!!"
        } else if die.flags.contains(.exploded) {
            text += "!"
        }
        if die.flags.contains(.penetrated) { text += "p" }
        if die.flags.contains(.success) { text += "*" }
        if die.flags.contains(.failure) { text += "_" }
        switch style {
        case .plain:
            if die.isCounted {
                out += text
            } else {
                out += "~~"
                out += text
                out += "~~"
            }
        case .ansi:
            if !die.isCounted {
                out += "\u{1B}[2;9m\(text)\u{1B}[0m"
            } else if die.flags.contains(.success) {
                out += "\u{1B}[1;32m\(text)\u{1B}[0m"
            } else if die.flags.contains(.failure) {
                out += "\u{1B}[1;31m\(text)\u{1B}[0m"
            } else if pool.highestFace != pool.lowestFace && !die.flags.contains(.compounded)
                        && die.value == pool.highestFace {
                out += "\u{1B}[1;32m\(text)\u{1B}[0m"
            } else if pool.highestFace != pool.lowestFace && die.value == pool.lowestFace {
                out += "\u{1B}[1;31m\(text)\u{1B}[0m"
            } else {
                out += text
            }
        }
    }

    private func write(_ group: GroupRoll, into out: inout String) {
        out += "{"
        let shown = Swift.min(group.members.count, maxShown)
        for index in 0..<shown {
            if index > 0 { out += ", " }
            let member = group.members[index]
            var text = ""
            write(member.roll, into: &text)
            if member.roll.hasDice { text += " = \(member.roll.value)" }
            if member.success { text += "*" }
            if member.failure { text += "_" }
            if member.kept {
                out += text
            } else {
                out += style == .ansi ? "\u{1B}[2;9m\(text)\u{1B}[0m" : "~~\(text)~~"
            }
        }
        let more = group.members.count - shown
        if more > 0 { out += ", … and \(more) more" }
        out += "}"
        Printer.writeModifiers(group.modifiers, into: &out)
    }
}
