/// The sum of a group's or repeat's member values in the order they come, as the tree adds
/// them: a sum past the range of numbers fails only once every member is rolled.
struct MemberSum {
    private var value = Value.integer(0)
    private var fault: ArithmeticFault?
    /// The members added so far, and which of them made `fault`.
    private var added = 0
    private var faultyMember = 0

    mutating func add(_ member: Value) {
        defer { added &+= 1 }
        guard fault == nil else { return }
        do {
            if case .number(let a) = value, case .number(let b) = member {
                value = .number(try a.adding(b))
            } else {
                value = try Value.apply(.add, value, member)
            }
        } catch {
            fault = error
            faultyMember = added
        }
    }

    /// The sum, or the first arithmetic fault at `range`.
    func total(at range: SourceRange) throws(DiceError) -> Value {
        if let fault { throw DiceError(fault.kind, at: range) }
        return value
    }

    /// The sum of the members of `sources`, or the first fault: a text member's at the
    /// member, any other at `range` (`MemberSources.sumError`).
    func total(of sources: MemberSources, at range: SourceRange) throws(DiceError) -> Value {
        if let fault { throw sources.sumError(fault.kind, member: faultyMember, whole: range) }
        return value
    }
}

/// The members of a group or `repeat` as written, for the error of adding them up: a text
/// member is no number that "a group's sum" (or "a repeat's sum") needs, named where it
/// stands, rolled and in `stats` alike; no `+` was typed, so none is named.
enum MemberSources: Sendable {
    /// `{a, b, ...}`: each member its own.
    case group([Expr])
    /// `repeat(n, body)`: every member is the body's.
    case repeatBody(Expr)

    /// Whether the members are a `repeat`'s.
    var isRepeat: Bool {
        if case .repeatBody = self { return true }
        return false
    }

    /// The error of keep/drop or counting over a group whose member `index` shows `value`, a
    /// text or tally: named where that member stands (its column, LANGUAGE.md §5b), rolled
    /// and in `stats` alike.
    func keepError(_ value: Value, member index: Int, whole: SourceRange) -> DiceError {
        DiceError(.notANumber(value, needed: "keep/drop and counting over members"), at: range(of: index, whole: whole))
    }

    /// The error `kind` of adding member `index` to those before it, in a group at `whole`.
    func sumError(_ kind: DiceError.Kind, member index: Int, whole: SourceRange) -> DiceError {
        guard case .notANumber(let value, _) = kind, case .text = value else { return DiceError(kind, at: whole) }
        return DiceError(.notANumber(value, needed: isRepeat ? "a repeat's sum" : "a group's sum"),
                         at: range(of: index, whole: whole))
    }

    /// Where member `index` is written: its own place in a group, the body in a `repeat`.
    private func range(of index: Int, whole: SourceRange) -> SourceRange {
        switch self {
        case .group(let members): return members.indices.contains(index) ? members[index].range : whole
        case .repeatBody(let body): return body.range
        }
    }
}
