/// Something worth telling about a statement that runs without error: a word for a habit of
/// another roller that means something else here, or a name that changes what it is.
/// Notices are data, like errors; `message` renders them (the `dice` command on stderr, and
/// in `--json` as `"notes"` and `"replaced"`).
public struct Notice: Hashable, Sendable {
    /// What is worth telling.
    public enum Kind: Hashable, Sendable {
        /// A pool of several dice compared with a number, no space between (`10d10>=8`): the
        /// comparison of the total stands (§3a), and `suggestion` counts successes (`10d10cs>=8`).
        case comparesTotal(suggestion: String)
        /// `def name` replaced the variable `name`, or `name = ...` the macro `name`
        /// (`wasMacro`).
        case replaced(name: String, wasMacro: Bool)
    }

    /// What is worth telling.
    public package(set) var kind: Kind
    /// The part of the statement it is about.
    public package(set) var range: SourceRange

    /// A notice of `kind` about `range`.
    package init(_ kind: Kind, at range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The words for people.
    public var message: String {
        switch kind {
        case .comparesTotal(let suggestion):
            return "this compares the total of the dice; to count the dice that match, write \(suggestion)"
        case .replaced(let name, let wasMacro):
            return wasMacro ? "'\(name)' was a macro: it is now a variable" : "'\(name)' was a variable: it is now a macro"
        }
    }

    /// What a `replaced` notice replaced, as JSON's `"replaced"` names it: `"variable"` or
    /// `"macro"`; `nil` for other notices.
    package var replacedKind: String? {
        guard case .replaced(_, let wasMacro) = kind else { return nil }
        return wasMacro ? "macro" : "variable"
    }
}

extension Session {
    /// What is worth telling about `statement` if it runs now, in this session's environment:
    /// ask before `execute`, which may change the names.
    public func notices(for statement: Stmt) -> [Notice] {
        var notices: [Notice] = []
        switch statement.kind {
        case .definition(let name, _, _, _):
            if case .variable = environment[name] {
                notices.append(Notice(.replaced(name: name, wasMacro: false), at: statement.range))
            }
        case .assignment(let name, _):
            if case .macro = environment[name] {
                notices.append(Notice(.replaced(name: name, wasMacro: true), at: statement.range))
            }
        default:
            break
        }
        if case .expression(let expr) = statement.kind, let notice = Notice.comparesTotal(expr) {
            notices.append(notice)
        }
        return notices
    }
}

extension Notice {
    /// The notice for `10d10>=8` written as a whole statement: a literal pool of two dice or
    /// more, touching its comparison with a number, and no count of its own.
    static func comparesTotal(_ expr: Expr) -> Notice? {
        guard case .comparison(let op, let lhs, let rhs) = expr.kind, case .dice(let term) = lhs.kind,
              case .number(let number) = rhs.kind, lhs.range.upperBound.offset + op.rawValue.utf8.count == rhs.range.lowerBound.offset,
              case .number(.integer(let count))? = term.count?.kind, count >= 2,
              !term.modifiers.contains(where: { $0.stage == .count }) else { return nil }
        let point = op == .equal ? "=" : op.rawValue
        return Notice(.comparesTotal(suggestion: term.notation + "cs" + point + Printer.literal(number)), at: expr.range)
    }
}
