/// An expression of the dice language, with the source range it was parsed from.
///
/// To a library user it is opaque: parse it once (`Parser.parseExpression`), roll it many
/// times (`Session.roll(_:)`, `Session.value(of:)`), print it back as source with `text`.
/// Its tree (`kind`) is the package's own, for the evaluator, stats and the `dice` command.
///
/// ```swift
/// let expr = try Parser.parseExpression("4d6kh3+2")
/// print(expr.text)   // 4d6kh3 + 2
/// ```
public struct Expr: Hashable, Sendable {
    /// What the expression is, with its parts.
    package indirect enum Kind: Hashable, Sendable {
        /// `42`, `1.5`
        case number(Number)
        /// A variable, parameter, or macro used without arguments: `str`, `atk`.
        case name(String)
        /// A macro with arguments: `smite(2)`.
        case call(String, [Expr])
        /// A built-in function: `max(1d20, 1d20)`.
        case function(Function, [Expr])
        /// `-x`, `+x`
        case unary(UnaryOperator, Expr)
        /// A left-associative run at one precedence level: `a + b - c`, `a * b / c`.
        /// Kept flat so a sum of a million terms needs no deep recursion.
        case chain(Expr, [Operation])
        /// `a ^ b` (right-associative).
        case power(Expr, Expr)
        /// `a >= b`: 1 or 0.
        case comparison(ComparisonOperator, Expr, Expr)
        /// `4d6kh3`, `d20`, `(1d4)d6`, `2d{1,2,3}!`
        case dice(DiceTerm)
        /// `{1d20 + 5, 1d20 + 5}kh1`; `parenthesized`, written d20's way: `(1d20 + 5, 1d20 + 5)kh1`.
        case group([Expr], [DiceModifier], parenthesized: Bool)
        /// `repeat(6, 4d6kh3)`: a group of `count` evaluations of `body`.
        case `repeat`(count: Expr, body: Expr, modifiers: [DiceModifier])
        /// `2d6 [fire]`
        case annotated(Expr, String)
        /// `if C then A else B`: only the branch taken is evaluated.
        case conditional(condition: Expr, then: Expr, else: Expr)
        /// `let name = E in BODY`: E evaluated once, `name` bound to its value inside BODY.
        /// When E is a pool, group or `repeat`, `name` is bound to the roll: `count(name, cp)`
        /// counts its kept dice or members.
        case binding(name: String, value: Expr, body: Expr)
        /// `"weak hit"`: a text (its escapes resolved).
        case text(String)
        /// `match E { 6-: "miss", 7-9: "weak hit", else: "strong hit" }`: the result of the
        /// first entry whose pattern holds; only that result is evaluated.
        case match(Expr, [MatchEntry], otherwise: Expr?)
        /// `(hits: 3, glitch: 1)`: a tally, its fields in written order.
        case tally([TallyField])
        /// `t.hits`: a tally's field (0 when absent).
        case field(Expr, String)
        /// `a and b`, `a or b`: the right side evaluated only when needed; 1 or 0.
        case logical(LogicalOperator, Expr, Expr)
        /// `not a`: 1 when `a` is 0, else 0.
        case not(Expr)
        /// `count(p, >=5)`: the kept dice (or members) of a pool, group or `repeat`, or of a
        /// bound pool's name, that match the compare point.
        case count(Expr, ComparePoint)
        /// `E given C`: E conditioned on C not being 0 (rolled again until C holds).
        case given(Expr, condition: Expr)
    }

    /// What the expression is.
    package internal(set) var kind: Kind
    /// The source text it was parsed from.
    package internal(set) var range: SourceRange

    init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// One entry of a `match`: a pattern and the result it chooses.
package struct MatchEntry: Hashable, Sendable {
    /// When the entry holds.
    package enum Pattern: Hashable, Sendable {
        /// `7`, `"orc"`, `(dc)`: equal to the value.
        case equal(Expr)
        /// `7-9`: from the first to the second, inclusive.
        case between(Expr, Expr)
        /// `10+`: the value or more.
        case orMore(Expr)
        /// `6-`: the value or less.
        case orLess(Expr)
        /// `>=15`, `<3`, `!=1`: a compare point.
        case point(ComparePoint)
    }

    /// When the entry holds.
    package internal(set) var pattern: Pattern
    /// What the entry evaluates to when chosen.
    package internal(set) var result: Expr
    /// Where the pattern stands.
    package internal(set) var patternRange: SourceRange

    init(_ pattern: Pattern, _ result: Expr, patternRange: SourceRange) {
        self.pattern = pattern
        self.result = result
        self.patternRange = patternRange
    }

    /// How many expressions the pattern has: two for `7-9`, else one.
    var partCount: Int {
        if case .between = pattern { return 2 }
        return 1
    }

    /// The pattern's expression at `index` (of `0..<partCount`), in source order.
    func part(_ index: Int) -> Expr {
        switch pattern {
        case .equal(let value), .orMore(let value), .orLess(let value): return value
        case .between(let low, let high): return index == 0 ? low : high
        case .point(let point): return point.value
        }
    }

    /// The expressions of the pattern, in source order.
    var patternParts: [Expr] { (0..<partCount).map(part) }
}

/// One field of a tally literal: `hits: count(p, >=5)`.
package struct TallyField: Hashable, Sendable {
    /// The field's name.
    package internal(set) var name: String
    /// Its value, a number.
    package internal(set) var value: Expr

    init(_ name: String, _ value: Expr) {
        self.name = name
        self.value = value
    }
}

/// One step of a `chain`: an operator and its right operand.
package struct Operation: Hashable, Sendable {
    /// The operator before the operand.
    package internal(set) var op: BinaryOperator
    /// The right operand.
    package internal(set) var operand: Expr
    /// Where the operator stands, for errors like division by zero.
    package internal(set) var operatorRange: SourceRange

    init(_ op: BinaryOperator, _ operand: Expr, operatorRange: SourceRange) {
        self.op = op
        self.operand = operand
        self.operatorRange = operatorRange
    }
}

/// A dice term: how many dice, what dice, and their modifiers.
///
/// A value type whose parts live in one shared, immutable box: rolling a term a million
/// times copies one reference, not five, and the roller finds what it worked out for the
/// term by the box's identity (`isIdentical(to:)`).
package struct DiceTerm: Hashable, Sendable {
    private final class Storage: Sendable {
        let count: Expr?
        let sides: Sides
        let modifiers: [DiceModifier]
        let notation: String
        let spelling: Spelling

        init(count: Expr?, sides: Sides, modifiers: [DiceModifier], spelling: Spelling) {
            self.count = count
            self.sides = sides
            self.modifiers = modifiers
            self.spelling = spelling
            var text = ""
            Printer.writeDice(count: count, sides: sides, modifiers: modifiers, spelling: spelling, into: &text)
            notation = text
        }
    }

    private let storage: Storage

    /// `nil` for `d20` (one die).
    package var count: Expr? { storage.count }
    /// The kind of die: numbered sides, `%`, `F` or listed faces.
    package var sides: Sides { storage.sides }
    /// As written; whatever the written order, they apply in stages: clamp (`mi`, `ma`),
    /// reroll, explode, keep or drop, count, sort.
    package var modifiers: [DiceModifier] { storage.modifiers }
    /// The canonical notation, `4d6kh3`, printed once: every roll's breakdown shows it.
    package var notation: String { storage.notation }

    /// The same term, not merely an equal one: a roll can remember what it worked out for it.
    func isIdentical(to other: DiceTerm) -> Bool { storage === other.storage }

    /// How the `d` and the sides were typed (`1D20`, `4df`, `4dF.1`): the breakdown echoes it.
    package var spelling: Spelling { storage.spelling }

    init(count: Expr?, sides: Sides, modifiers: [DiceModifier] = [], spelling: Spelling = Spelling()) {
        storage = Storage(count: count, sides: sides, modifiers: modifiers, spelling: spelling)
    }

    /// Whether both terms have the same count, sides and modifiers, however spelt (`1D20` is
    /// `1d20`).
    package static func == (lhs: DiceTerm, rhs: DiceTerm) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.count == rhs.count && lhs.sides == rhs.sides && lhs.modifiers == rhs.modifiers)
    }

    /// Hashes the count, sides and modifiers.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(sides)
        hasher.combine(modifiers)
    }
}

/// What kind of die a dice term rolls.
package enum Sides: Hashable, Sendable {
    /// `d6`, `d(size)`: faces 1 through the value.
    case number(Expr)
    /// `d%`: faces 1 through 100.
    case percentile
    /// `dF`: faces -1, 0, +1.
    case fate
    /// `d{1,1,2,3}`: these faces, repeats allowed.
    case faces([Int])
    /// `d{"hit", "miss"}`, `d{(), (s: 1)}`: faces that are texts or tallies (a number may
    /// stand among them).
    case symbols([Value])
}

extension Expr {
    /// The expressions inside this one, in source order: operands, arguments, a dice term's
    /// count, sides and modifier arguments, a group's members and modifier arguments, both
    /// branches of an `if`. Walks that visit every part go through it.
    ///
    /// - Complexity: O(*k*) for *k* children.
    package var children: [Expr] {
        var all: [Expr] = []
        forEachChild { all.append($0) }
        return all
    }

    /// Calls `body` with each of `children` in turn, without making the array: the walks of
    /// `stats` that look for names and counts go through every node of a macro's body on each
    /// call, and an array a node was about a third of the 500,000 instructions of F2's
    /// `check(7, 20)` (callgrind, 2026-12-03).
    package func forEachChild(_ body: (Expr) -> Void) {
        func each(_ modifiers: [DiceModifier]) {
            for modifier in modifiers { if let argument = modifier.argument { body(argument) } }
        }
        switch kind {
        case .number, .name, .text: return
        case .call(_, let arguments), .function(_, let arguments): arguments.forEach(body)
        case .unary(_, let operand), .annotated(let operand, _), .not(let operand), .field(let operand, _): body(operand)
        case .chain(let first, let rest):
            body(first)
            for operation in rest { body(operation.operand) }
        case .power(let a, let b), .comparison(_, let a, let b), .binding(_, let a, let b), .logical(_, let a, let b),
             .given(let a, let b):
            body(a)
            body(b)
        case .dice(let term):
            if let count = term.count { body(count) }
            if case .number(let sides) = term.sides { body(sides) }
            each(term.modifiers)
        case .group(let members, let modifiers, _):
            members.forEach(body)
            each(modifiers)
        case .repeat(let count, let repeated, let modifiers):
            body(count)
            body(repeated)
            each(modifiers)
        case .conditional(let condition, let then, let otherwise):
            body(condition)
            body(then)
            body(otherwise)
        case .match(let subject, let entries, let otherwise):
            body(subject)
            for entry in entries {
                for index in 0..<entry.partCount { body(entry.part(index)) }
                body(entry.result)
            }
            if let otherwise { body(otherwise) }
        case .tally(let fields): for field in fields { body(field.value) }
        case .count(let pool, let point):
            body(pool)
            body(point.value)
        }
    }
}

extension Expr {
    /// The parts whose value becomes this expression's: a label's expression, the left side
    /// of `given`, a `let`'s body, the branches of `if`, the results of `match`; `nil` for
    /// any other expression.
    package var valueParts: [Expr]? {
        switch kind {
        case .annotated(let inner, _), .given(let inner, _), .binding(_, _, let inner): return [inner]
        case .conditional(_, let then, let otherwise): return [then, otherwise]
        case .match(_, let entries, let otherwise): return entries.map(\.result) + (otherwise.map { [$0] } ?? [])
        default: return nil
        }
    }

    /// The first read of one of `names` (a name, or a call of it), left to right, outside
    /// the `let`s inside that bind it again, and where it is written; `nil` when none.
    package func firstRead(of names: Set<String>) -> (name: String, range: SourceRange)? {
        switch kind {
        case .name(let name), .call(let name, _):
            if names.contains(name) { return (name, range) }
        case .binding(let name, let value, let body):
            if let read = value.firstRead(of: names) { return read }
            var inner = names
            inner.remove(name)
            return inner.isEmpty ? nil : body.firstRead(of: inner)
        default:
            break
        }
        var read: (name: String, range: SourceRange)?
        forEachChild { child in if read == nil { read = child.firstRead(of: names) } }
        return read
    }
}

extension Expr {
    /// The expression with each child (`children`) replaced by `transform(child)`, or `nil`
    /// when `transform` gives `nil` for one. A modifier's arguments and a dice term's sides
    /// are kept as written: the result is `nil` when `transform` would change one.
    package func mappingChildren(_ transform: (Expr) -> Expr?) -> Expr? {
        func each(_ exprs: [Expr]) -> [Expr]? {
            var mapped: [Expr] = []
            mapped.reserveCapacity(exprs.count)
            for part in exprs {
                guard let new = transform(part) else { return nil }
                mapped.append(new)
            }
            return mapped
        }
        func kept(_ modifiers: [DiceModifier]) -> Bool {
            modifiers.allSatisfy { $0.arguments.allSatisfy { transform($0) == $0 } }
        }
        var copy = self
        switch kind {
        case .number, .name, .text:
            return self
        case .call(let name, let arguments):
            guard let mapped = each(arguments) else { return nil }
            copy.kind = .call(name, mapped)
        case .function(let function, let arguments):
            guard let mapped = each(arguments) else { return nil }
            copy.kind = .function(function, mapped)
        case .unary(let op, let operand):
            guard let a = transform(operand) else { return nil }
            copy.kind = .unary(op, a)
        case .annotated(let operand, let label):
            guard let a = transform(operand) else { return nil }
            copy.kind = .annotated(a, label)
        case .not(let operand):
            guard let a = transform(operand) else { return nil }
            copy.kind = .not(a)
        case .field(let tally, let name):
            guard let a = transform(tally) else { return nil }
            copy.kind = .field(a, name)
        case .chain(let first, let rest):
            guard let head = transform(first), let operands = each(rest.map(\.operand)) else { return nil }
            var operations = rest
            for index in operations.indices { operations[index].operand = operands[index] }
            copy.kind = .chain(head, operations)
        case .power(let a, let b):
            guard let x = transform(a), let y = transform(b) else { return nil }
            copy.kind = .power(x, y)
        case .comparison(let op, let a, let b):
            guard let x = transform(a), let y = transform(b) else { return nil }
            copy.kind = .comparison(op, x, y)
        case .binding(let name, let value, let body):
            guard let x = transform(value), let y = transform(body) else { return nil }
            copy.kind = .binding(name: name, value: x, body: y)
        case .logical(let op, let a, let b):
            guard let x = transform(a), let y = transform(b) else { return nil }
            copy.kind = .logical(op, x, y)
        case .given(let a, let condition):
            guard let x = transform(a), let y = transform(condition) else { return nil }
            copy.kind = .given(x, condition: y)
        case .conditional(let condition, let then, let otherwise):
            guard let c = transform(condition), let t = transform(then), let o = transform(otherwise) else { return nil }
            copy.kind = .conditional(condition: c, then: t, else: o)
        case .dice(let term):
            if case .number(let sides) = term.sides, transform(sides) != sides { return nil }
            guard kept(term.modifiers) else { return nil }
            guard let count = term.count else { return self }
            guard let mapped = transform(count) else { return nil }
            copy.kind = .dice(DiceTerm(count: mapped, sides: term.sides, modifiers: term.modifiers, spelling: term.spelling))
        case .group(let members, let modifiers, let parenthesized):
            guard kept(modifiers), let mapped = each(members) else { return nil }
            copy.kind = .group(mapped, modifiers, parenthesized: parenthesized)
        case .repeat(let count, let body, let modifiers):
            guard kept(modifiers), let n = transform(count), let b = transform(body) else { return nil }
            copy.kind = .repeat(count: n, body: b, modifiers: modifiers)
        case .tally(let fields):
            guard let values = each(fields.map(\.value)) else { return nil }
            var mapped = fields
            for index in mapped.indices { mapped[index].value = values[index] }
            copy.kind = .tally(mapped)
        case .count(let pool, let point):
            guard let target = transform(pool), let value = transform(point.value) else { return nil }
            var mappedPoint = point
            mappedPoint.value = value
            copy.kind = .count(target, mappedPoint)
        case .match(let subject, let entries, let otherwise):
            guard let s = transform(subject) else { return nil }
            var mapped = entries
            for index in mapped.indices {
                guard let pattern = mapped[index].pattern.mapping(transform),
                      let result = transform(mapped[index].result) else { return nil }
                mapped[index].pattern = pattern
                mapped[index].result = result
            }
            var rest: Expr?
            if let otherwise {
                guard let o = transform(otherwise) else { return nil }
                rest = o
            }
            copy.kind = .match(s, mapped, otherwise: rest)
        }
        return copy
    }
}

extension MatchEntry.Pattern {
    /// The pattern with each of its expressions replaced by `transform`'s, or `nil`.
    func mapping(_ transform: (Expr) -> Expr?) -> MatchEntry.Pattern? {
        switch self {
        case .equal(let value): return transform(value).map { .equal($0) }
        case .orMore(let value): return transform(value).map { .orMore($0) }
        case .orLess(let value): return transform(value).map { .orLess($0) }
        case .between(let low, let high):
            guard let a = transform(low), let b = transform(high) else { return nil }
            return .between(a, b)
        case .point(let point):
            guard let value = transform(point.value) else { return nil }
            var mapped = point
            mapped.value = value
            return .point(mapped)
        }
    }
}
