/// The result of evaluating an expression: its value and the tree of how it
/// came about, every die with its faces and flags. Renderers turn it into text or JSON
/// (`RollRenderer` in a `RollStyle` of your own, too); a program that shows a roll its own
/// way reads its `value`, the dice of its `pools` and its `labels`.
public struct Roll: Hashable, Sendable {
    /// What was evaluated, with the rolls of its parts.
    package indirect enum Kind: Hashable, Sendable {
        /// A literal.
        case number
        /// A variable or parameter, with its name.
        case variable(String)
        /// A dice term and its dice.
        case pool(DicePool)
        /// `{a, b}kh1` or `repeat(n, e)`: the members, each kept or dropped.
        case group(GroupRoll)
        /// `-x`, `+x`: the operator and its operand.
        case unary(UnaryOperator, Roll)
        /// `a + b - c`: the first roll, then each operator with its operand's roll.
        case chain(Chain)
        /// `a ^ b`: the base and the exponent.
        case power(Roll, Roll)
        /// `a >= b`: the value is 1 or 0.
        case comparison(ComparisonOperator, Roll, Roll)
        /// A built-in function and its arguments.
        case function(Function, [Roll])
        /// A macro use: its name, arguments, and the roll of its body. The arguments are
        /// those passed, then the defaults up to the last one that rolled dice.
        case macro(name: String, arguments: [Roll], body: Roll)
        /// `2d6 [fire]`: the roll and its label.
        case annotated(Roll, String)
        /// `if C then A else B`: the condition's roll and the roll of the branch taken
        /// (`then` when `taken`); the other branch was not rolled.
        case conditional(condition: Roll, branch: Roll, taken: Bool)
        /// `let name = E in BODY`: E's roll, bound to `name`, and the body's roll.
        case binding(name: String, value: Roll, body: Roll)
        /// A text literal.
        case text
        /// `match E {...}`: the roll of E, the patterns whose bounds rolled dice (every bound
        /// is worked out before the entries are tried), the entry chosen (its index, or `nil`
        /// for `else`), and the roll of its result.
        case match(subject: Roll, patterns: [PatternRoll], entry: Int?, result: Roll)
        /// `(hits: ..., glitch: ...)`: the fields' names and their rolls, in written order.
        case tally(names: [String], rolls: [Roll])
        /// `t.hits`: the tally's roll and the field read.
        case field(Roll, String)
        /// `a and b`, `a or b`: the left roll, and the right one when it was evaluated.
        case logical(LogicalOperator, Roll, Roll?)
        /// `not a`.
        case not(Roll)
        /// `count(p, cp)`: the roll counted (a pool, group or a bound name) and the compare point.
        case count(Roll, ComparePoint)
        /// `E given C`: the roll of E and C that held, after `tries` tries.
        case given(value: Roll, condition: Roll, tries: Int)
    }

    /// The rolls of `a + b - c`: the first operand's roll, then each operator with its
    /// operand's roll.
    package struct Chain: Hashable, Sendable {
        /// The roll of the first operand.
        package internal(set) var first: Roll
        /// Each operator after the first operand, with its operand's roll.
        package internal(set) var steps: [Step]
    }

    /// One step of a `chain`: an operator and the roll of its right operand.
    package struct Step: Hashable, Sendable {
        /// The operator.
        package internal(set) var op: BinaryOperator
        /// The roll of the operand on its right.
        package internal(set) var operand: Roll

        init(_ op: BinaryOperator, _ operand: Roll) {
            self.op = op
            self.operand = operand
        }
    }

    /// What was evaluated, and how.
    package internal(set) var kind: Kind
    /// The result: a number, a text or a tally.
    public internal(set) var value: Value

    init(_ kind: Kind, value: Value) {
        self.kind = kind
        self.value = value
    }

    /// The rolls of the parts, in the order they were rolled: a pool's computed count,
    /// sides and modifier arguments, a group's members and modifier arguments, operands,
    /// arguments, a macro's body.
    ///
    /// - Complexity: O(*k*) for *k* children.
    package var children: [Roll] {
        switch kind {
        case .number, .variable: return []
        case .pool(let pool): return [pool.countRoll, pool.sidesRoll].compactMap { $0 } + pool.argumentRolls.map(\.roll)
        case .group(let group):
            let members = group.members.map(\.roll)
            // Most groups: the members alone, no arrays joined.
            if group.rolledCount == nil && group.argumentRolls.isEmpty { return members }
            return (group.rolledCount.map { [$0.roll] } ?? []) + members + group.argumentRolls.map(\.roll)
        case .unary(_, let roll), .annotated(let roll, _): return [roll]
        case .chain(let chain): return [chain.first] + chain.steps.map(\.operand)
        case .power(let a, let b), .comparison(_, let a, let b), .conditional(let a, let b, _),
             .binding(_, let a, let b):
            return [a, b]
        case .function(_, let arguments): return arguments
        case .macro(_, let arguments, let body): return arguments + [body]
        case .text: return []
        case .match(let subject, let patterns, _, let result):
            // Most tables: no pattern rolled dice, no arrays joined.
            if patterns.isEmpty { return [subject, result] }
            return [subject] + patterns.flatMap { $0.bounds.map(\.roll) } + [result]
        case .tally(_, let rolls): return rolls
        case .field(let roll, _), .not(let roll), .count(let roll, _): return [roll]
        case .logical(_, let left, let right): return [left] + (right.map { [$0] } ?? [])
        case .given(let value, let condition, _): return [value, condition]
        }
    }

    /// Every dice pool in the tree, in the order they appear.
    ///
    /// - Complexity: O(*n*) for *n* nodes of the tree.
    public var pools: [DicePool] { countedPools.map(\.pool) }

    /// `pools`, each with whether its dice count towards the value: not inside a group
    /// member that keep/drop dropped (`{1d20 + 5, 1d20 + 5}kh1`); and the use of the macro
    /// whose whole body the pool is (`ability` of `def ability = d{...}`), if any.
    var countedPools: [(pool: DicePool, counts: Bool, macro: Roll?)] {
        var result: [(pool: DicePool, counts: Bool, macro: Roll?)] = []
        collectPools(into: &result, annotation: nil, counts: true)
        return result
    }

    private func collectPools(into result: inout [(pool: DicePool, counts: Bool, macro: Roll?)],
                              annotation: String?, counts: Bool, macro: Roll? = nil) {
        switch kind {
        case .pool(var pool):
            for part in children { part.collectPools(into: &result, annotation: annotation, counts: counts) }
            if pool.annotation == nil, let annotation { pool.annotation = annotation }
            result.append((pool, counts, macro))
        case .macro(_, let arguments, let body):
            for argument in arguments { argument.collectPools(into: &result, annotation: annotation, counts: counts) }
            let whole: Roll? = if case .pool = body.kind { self } else { nil }
            body.collectPools(into: &result, annotation: annotation, counts: counts, macro: whole)
        case .group(let group):
            group.rolledCount?.roll.collectPools(into: &result, annotation: annotation, counts: counts)
            for member in group.members {
                member.roll.collectPools(into: &result, annotation: annotation, counts: counts && member.kept)
            }
            for argument in group.argumentRolls {
                argument.roll.collectPools(into: &result, annotation: annotation, counts: counts)
            }
        case .annotated(let roll, let label):
            roll.collectPools(into: &result, annotation: label, counts: counts)
        default:
            for part in children { part.collectPools(into: &result, annotation: annotation, counts: counts) }
        }
    }

    /// The members of repeats in the tree rolled but not listed (`GroupRoll.omitted`): their
    /// values counted, their rolls and dice gone. (Past `Int.max`, `Int.max`.)
    ///
    /// - Complexity: O(*n*) for *n* nodes of the tree.
    package var omittedMembers: Int {
        var total = 0
        if case .group(let group) = kind { total = group.omitted }
        for part in children {
            let (sum, overflow) = total.addingReportingOverflow(part.omittedMembers)
            total = overflow ? Int.max : sum
        }
        return total
    }

    /// Every annotation in the tree, in the order they appear, with the roll it labels.
    ///
    /// - Complexity: O(*n*) for *n* nodes of the tree.
    public var labels: [(label: String, roll: Roll)] {
        var result: [(label: String, roll: Roll)] = []
        collectLabels(into: &result)
        return result
    }

    private func collectLabels(into result: inout [(label: String, roll: Roll)]) {
        for part in children { part.collectLabels(into: &result) }
        if case .annotated(let roll, let label) = kind { result.append((label, roll)) }
    }

    /// Whether any die was rolled anywhere in the tree.
    package var hasDice: Bool {
        switch kind {
        case .pool: return true
        case .group(let group) where group.isRepeat: return true
        default: return children.contains { $0.hasDice }
        }
    }
}

/// One rolled dice term: its dice as shown, its value, and what its computed parts rolled.
public struct DicePool: Hashable, Sendable {
    /// The term as written, for its notation (`4d6kh3`).
    package internal(set) var term: DiceTerm
    /// The dice as shown: at most `Limits.maxRecordedDice`, in rolled order unless sorted.
    public internal(set) var dice: [Die]
    /// Dice rolled but not recorded in `dice` (huge pools).
    public internal(set) var omitted: Int
    /// The lowest face a die of this pool can show (after clamping).
    public internal(set) var lowestFace: Int
    /// The highest face a die of this pool can show (after clamping).
    public internal(set) var highestFace: Int
    /// Whether `cs`/`cf` made the value a count.
    public internal(set) var isCount: Bool
    /// The pool's value: the sum of kept dice, or the count; a text or tally die's face.
    public internal(set) var value: Value
    /// What only some pools have (computed parts, an annotation, text faces), behind one
    /// reference, `nil` for most. A pool is copied into its roll and out of it to be shown:
    /// with these six fields inline a copy and its destroy took about 380 instructions
    /// (callgrind, bench A3's `4d6kh3+2`); behind one reference, bench C's parse-and-roll
    /// takes 16,300 instructions instead of 17,800.
    private var extras: Indirect<Extras>?

    /// The fields of `extras`.
    private struct Extras: Hashable, Sendable {
        var annotation: String?
        var countRoll: Roll?
        var sidesRoll: Roll?
        var argumentRolls: [ArgumentRoll] = []
        var symbols: [Value] = []
        var shownTerm: DiceTerm?
    }

    /// The label of an enclosing annotation, `2d6 [fire]`.
    public internal(set) var annotation: String? {
        get { extras?.value.annotation }
        set { changeExtras { $0.annotation = newValue } }
    }
    /// The roll of a computed count that rolled dice: the `1d4` of `(1d4)d6`.
    package internal(set) var countRoll: Roll? {
        get { extras?.value.countRoll }
        set { changeExtras { $0.countRoll = newValue } }
    }
    /// The roll of computed sides that rolled dice: the `1d4` of `2d(1d4)`.
    package internal(set) var sidesRoll: Roll? {
        get { extras?.value.sidesRoll }
        set { changeExtras { $0.sidesRoll = newValue } }
    }
    /// The rolls of modifier arguments that rolled dice, in the order they were rolled: `4d6kh(1d3)`.
    package internal(set) var argumentRolls: [ArgumentRoll] {
        get { extras?.value.argumentRolls ?? [] }
        set { changeExtras { $0.argumentRolls = newValue } }
    }
    /// The distinct faces of text or tally dice, which each die's `value` is a position in;
    /// empty for numbered dice.
    package internal(set) var symbols: [Value] {
        get { extras?.value.symbols ?? [] }
        set { changeExtras { $0.symbols = newValue } }
    }
    /// The term with its computed count, sides and modifier arguments written as the values
    /// they took (`2d6kh1` for `(n * 2)d6kh(k)`); nil when every part is a literal.
    var shownTerm: DiceTerm? {
        get { extras?.value.shownTerm }
        set { changeExtras { $0.shownTerm = newValue } }
    }

    /// Changes one field of `extras`; none set is `nil`, so that equal pools compare equal.
    private mutating func changeExtras(_ change: (inout Extras) -> Void) {
        var fields = extras?.value ?? Extras()
        change(&fields)
        extras = fields == Extras() ? nil : Indirect(fields)
    }

    init(term: DiceTerm, dice: [Die], omitted: Int, lowestFace: Int, highestFace: Int,
         annotation: String? = nil, isCount: Bool = false, value: Value, symbols: [Value] = []) {
        self.term = term
        self.dice = dice
        self.omitted = omitted
        self.lowestFace = lowestFace
        self.highestFace = highestFace
        self.isCount = isCount
        self.value = value
        if annotation != nil || !symbols.isEmpty {
            extras = Indirect(Extras(annotation: annotation, symbols: symbols))
        }
    }

    /// What `die` shows: its number, or for text and tally dice its face.
    public func faceValue(of die: Die) -> Value {
        symbols.isEmpty ? .integer(die.value) : (symbols.indices.contains(die.value) ? symbols[die.value] : .integer(die.value))
    }

    /// Whether a computed count, sides or modifier argument rolled dice.
    var hasPartRolls: Bool {
        guard let fields = extras?.value else { return false }
        return fields.countRoll != nil || fields.sidesRoll != nil || !fields.argumentRolls.isEmpty
    }
}

/// The roll of a modifier argument that rolled dice (the `1d3` of `4d6kh(1d3)` or of
/// `{1d6, 1d6}kh(1d3)`), or of a bound of a `match` pattern (`PatternRoll`), with the
/// argument's range: the breakdown shows the roll where the argument stands.
package struct ArgumentRoll: Hashable, Sendable {
    /// Where the argument stands in the term, the group's modifiers (as
    /// `DiceModifier.arguments` has it) or the pattern.
    package internal(set) var range: SourceRange
    /// The argument's roll.
    package internal(set) var roll: Roll
}

/// A `match` pattern whose bounds rolled dice (`>=(1d6 + 10)`): the pattern as written, and
/// the rolls of its bounds that are not number literals, in source order, with their ranges:
/// the breakdown shows each roll where its bound stands.
package struct PatternRoll: Hashable, Sendable {
    /// The pattern, for its shape (`>=`, `-`, `+`).
    package internal(set) var pattern: MatchEntry.Pattern
    /// The rolls of its bounds that are not number literals.
    package internal(set) var bounds: [ArgumentRoll]
}

/// One die of a pool: what it shows and what happened to it.
public struct Die: Hashable, Sendable {
    /// What happened to a die.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flags as bits.
        public let rawValue: UInt16
        /// The flags whose bits are set in `rawValue`.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Not counted: dropped by keep/drop.
        public static let dropped = Flags(rawValue: 1 << 0)
        /// Not counted: replaced by a reroll.
        public static let rerolled = Flags(rawValue: 1 << 1)
        /// It matched the explosion and caused another die.
        public static let exploded = Flags(rawValue: 1 << 2)
        /// It was added by an explosion.
        public static let extra = Flags(rawValue: 1 << 3)
        /// Its value is the sum of compounded rolls (`!!`).
        public static let compounded = Flags(rawValue: 1 << 4)
        /// It counts one less (`!p`).
        public static let penetrated = Flags(rawValue: 1 << 5)
        /// Its face was raised or lowered by `mi`/`ma`.
        public static let clamped = Flags(rawValue: 1 << 6)
        /// It matched `cs` (a success) or `cf` (a counted failure).
        public static let success = Flags(rawValue: 1 << 7)
        /// It matched `df` (subtracted one).
        public static let failure = Flags(rawValue: 1 << 8)
        /// Scratch mark while keep/drop picks dice; never left on a die.
        static let chosen = Flags(rawValue: 1 << 15)
    }

    /// The die's counted value: the face, the compounded sum, or the face less one for penetration.
    public internal(set) var value: Int
    /// What happened to it.
    public internal(set) var flags: Flags

    init(value: Int, flags: Flags = []) {
        self.value = value
        self.flags = flags
    }

    /// Whether it adds to the pool's value.
    public var isCounted: Bool { flags.isDisjoint(with: [.dropped, .rerolled]) }
}

/// The members of a group or `repeat`, each kept or dropped.
package struct GroupRoll: Hashable, Sendable {
    /// One member of the group and what happened to it.
    package struct Member: Hashable, Sendable {
        /// The member's roll.
        package internal(set) var roll: Roll
        /// Whether it counts towards the group's value (not dropped by keep/drop).
        package internal(set) var kept: Bool
        /// Whether it matched `cs` or `cf` (counted).
        package internal(set) var success: Bool
        /// Whether it matched `df` (subtracted).
        package internal(set) var failure: Bool
    }

    /// The members in the order they were rolled (or sorted, with `s`): at most
    /// `Limits.maxRecordedDice` of a huge repeat that is not sorted. A huge sorted repeat
    /// lists the first `Limits.maxRecordedDice` members in sorted order, then the other
    /// members rolled with breakdowns, sorted too: at most twice that.
    package internal(set) var members: [Member]
    /// Members rolled after those in `members` and not kept (huge repeats): their values
    /// are in the group's value, their rolls are gone.
    package internal(set) var omitted: Int = 0
    /// `true` for `repeat(n, e)`: show it as a repeat.
    package internal(set) var isRepeat: Bool
    /// Whether it was written d20's way, `(a, b)kh1`: shown so (LANGUAGE.md §3a).
    package internal(set) var parenthesized = false
    /// The modifiers as written, like `kh1`.
    package internal(set) var modifiers: [DiceModifier]
    /// Whether `cs`/`cf` made the value a count.
    package internal(set) var isCount: Bool
    /// A repeat whose count rolled dice: that roll, and the body, shown before the members.
    package internal(set) var rolledCount: RolledCount?
    /// The rolls of modifier arguments that rolled dice, in the order they were rolled
    /// (after the members): `{1d6, 1d6}kh(1d2)`.
    package internal(set) var argumentRolls: [ArgumentRoll] = []

    /// The count of `repeat(1d4, 1d6)` as rolled, and the body repeated.
    package struct RolledCount: Hashable, Sendable {
        /// The count's roll.
        package internal(set) var roll: Roll
        /// The expression each member evaluates.
        package internal(set) var body: Expr
    }
}

extension DicePool {
    /// The term's notation as rolled: `4d6kh3`; a computed count, sides or modifier argument
    /// shows its value (`(n * 2)d6` with `n = 1` is `2d6`).
    public var notation: String { (shownTerm ?? term).notation }
}

/// A value stored behind one reference (a box the language manages, copied on write as any
/// value): for fields that most values leave empty and that would make every copy longer.
struct Indirect<Wrapped: Hashable & Sendable>: Hashable, Sendable {
    private indirect enum Box: Hashable, Sendable { case value(Wrapped) }
    private var box: Box

    init(_ value: Wrapped) { box = .value(value) }

    var value: Wrapped {
        switch box { case .value(let value): return value }
    }
}
