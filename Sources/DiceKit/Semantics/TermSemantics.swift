/// What a dice term means before anything is rolled, worked out from its syntax alone: its
/// modifiers in the order they apply, the conflict among them, and, where every part is a
/// literal, its count, faces, rules and roll plan. The roller and the stats engine each work
/// it out for the terms they meet (the AST keeps none of it). Immutable, and one reference:
/// a roll reads it without copying its parts.
final class TermSemantics: Sendable {
    /// The term.
    let term: DiceTerm
    /// The term's modifiers in the order they apply (`DiceModifier.inStageOrder`).
    let stageOrder: [DiceModifier]
    /// The error of modifiers that cannot go together (`cs>3cf<2`), raised when the term is
    /// rolled or its distribution asked for.
    let conflict: DiceError?
    /// The modifiers' rules when every argument is a valid number literal; `nil` when some
    /// argument is computed (or invalid, or the modifiers conflict).
    let literalRules: PoolRules?
    /// The count and faces when the count and sides are valid literals.
    let literalDice: LiteralDice?
    /// Whether the count, the sides or a modifier argument is an expression, not a literal:
    /// a roll then records the values they took (`DicePool.shownTerm`).
    let hasComputedParts: Bool
    /// The plan of a term whose parts are all literals, or the error of making it (its range
    /// is the term's where it is rolled).
    let plan: Result<PoolPlan, DiceError>?
    /// For at most 8 literal dice of `1...sides` that are only kept or dropped (`4d6kh3`,
    /// `2d20kh1`): the count, the sides and the ranks kept, for the value alone (see
    /// `Evaluator.keptSum`), and how many literals the count and sides are.
    let smallKeep: SmallKeep?
    /// The distinct faces of a die of texts or tallies (`Sides.symbols`); empty for numbered
    /// dice. Their dice show positions in it, and compare points compare positions.
    let symbols: [Value]

    init(_ term: DiceTerm) {
        self.term = term
        stageOrder = DiceModifier.inStageOrder(term.modifiers)
        symbols = term.sides.symbols
        conflict = PoolRules.conflict(in: stageOrder, onGroup: false)
            ?? TermSemantics.symbolConflict(term, symbols: symbols, stageOrder)
        // A compare point of a symbol die is worked out by the roller (its position in `symbols`).
        literalRules = conflict == nil && symbols.isEmpty ? PoolRules.literal(stageOrder) : nil
        literalDice = LiteralDice(count: term.count, sides: term.sides)
        hasComputedParts = DiceTerm.hasComputedParts(count: term.count, sides: term.sides, modifiers: term.modifiers)
        if let dice = literalDice, let rules = literalRules {
            plan = Result { () throws(DiceError) in try PoolPlan(faces: dice.faces, rules: rules, at: .at(0)) }
        } else {
            plan = nil
        }
        if let dice = literalDice, dice.count <= 8, case .range(let sides) = dice.faces,
           let rules = literalRules, rules.keepsOnly {
            smallKeep = (dice.count, sides, KeepDropStep.keptRange(rules.keeps, total: dice.count), dice.literals,
                         !term.modifiers.isEmpty)
        } else {
            smallKeep = nil
        }
    }
}

extension DiceTerm {
    /// `error`, thrown for this term at `range`, pointed at the modifier it is about: an
    /// explosion or a reroll that matches every face points at the first `!` or `r` that
    /// loops. Any other error, or one of a part of the term, is returned as it is.
    func pointingAtModifier(_ error: DiceError, termRange range: SourceRange) -> DiceError {
        guard error.range == range else { return error }
        let modifier: DiceModifier?
        switch error.kind {
        case .explosionMatchesEveryFace:
            modifier = modifiers.first { if case .explode(let kind, _) = $0.kind { kind != .once } else { false } }
        case .rerollMatchesEveryFace:
            modifier = modifiers.first { if case .reroll(once: false, _) = $0.kind { true } else { false } }
        default:
            return error
        }
        return modifier.map { DiceError(error.kind, at: $0.range) } ?? error
    }
}

extension TermSemantics {
    /// The error of a modifier text or tally dice cannot take: keep/drop, explosions, clamps,
    /// and compare points other than `=` and `!=` (`kh` on text dice).
    static func symbolConflict(_ term: DiceTerm, symbols: [Value], _ modifiers: [DiceModifier]) -> DiceError? {
        guard !symbols.isEmpty else { return nil }
        for modifier in modifiers {
            let what: String?
            switch modifier.kind {
            case .keep, .drop: what = "'\(modifier.modifierKind.rawValue)' (keep/drop)"
            case .explode: what = "an explosion"
            case .minimum, .maximum: what = "a clamp"
            case .sort: what = "sorting"
            case .reroll(_, let point):
                let ordered = point.map { $0.op != .equal && $0.op != .notEqual } ?? true
                what = ordered ? "'\(modifier.modifierKind.rawValue)' with an ordering" : nil
            case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point):
                let ordered = point.op != .equal && point.op != .notEqual
                // `df` subtracts from the pool's value: of text or tally dice, only a `cs` count.
                let counted = modifiers.contains { if case .countSuccesses = $0.kind { true } else { false } }
                if ordered {
                    what = "'\(modifier.modifierKind.rawValue)' with an ordering"
                } else if case .subtractFailures = modifier.kind, !counted {
                    what = "'df' without 'cs'"
                } else {
                    what = nil
                }
            case .unique: what = nil
            }
            if let what { return DiceError(.textDiceOperation(what), at: modifier.range) }
        }
        return nil
    }
}

/// At most 8 literal dice of `1...sides` only kept or dropped (`TermSemantics.smallKeep`).
/// `whole`: the pool has modifiers, and so is rolled whole before its kept dice are summed
/// (a plain pool's breakdown stops at the die whose sum overflows).
typealias SmallKeep = (count: Int, sides: Int, ranks: Range<Int>, literals: Int, whole: Bool)

/// The dice terms rolled lately, found by the term's identity (`DiceTerm.isIdentical(to:)`):
/// rolling the same term again (`-n`, a simulation, a macro body) skips working out what it
/// means. Each entry keeps its term alive, so an entry can never be mistaken for a new term.
/// Eight entries, replaced in turn.
struct TermCache: Sendable {
    private var entries: [TermSemantics] = []
    private var next = 0
    private static let capacity = 8

    /// `term`'s entry, made (and its meaning worked out) if it has none. The cache holds it and
    /// the reference is not retained: a caller that may roll another term before it is done
    /// (which may replace the entry) takes its own (`takeUnretainedValue()`).
    @inline(__always)
    mutating func semantics(of term: DiceTerm) -> Unmanaged<TermSemantics> {
        for index in entries.indices where entries[index].term.isIdentical(to: term) {
            return Unmanaged.passUnretained(entries[index])
        }
        let entry = TermSemantics(term)
        if entries.count < TermCache.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next = (next + 1) % TermCache.capacity
        }
        return Unmanaged.passUnretained(entry)
    }
}
