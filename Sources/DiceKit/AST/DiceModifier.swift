/// A modifier on a dice term or group, as written: `kh3`, `!>=5`, `ro<3`, `cs>=8`.
package struct DiceModifier: Hashable, Sendable {
    /// What the modifier does, with its arguments as written.
    package enum Kind: Hashable, Sendable {
        /// `khN`, `kN`: keep the N highest; `klN`: the N lowest (N defaults to 1).
        case keep(Extreme, count: Expr?)
        /// `dhN`: drop the N highest; `dlN`, `dN`: the N lowest (N defaults to 1).
        case drop(Extreme, count: Expr?)
        /// `!`, `!!`, `!p`, with an optional compare point (default: the highest face).
        case explode(Explosion, ComparePoint?)
        /// `r` (until it no longer matches) or `ro` (once), default: the lowest face.
        case reroll(once: Bool, ComparePoint?)
        /// `miN`: a face below N counts as N.
        case minimum(Expr)
        /// `maN`: a face above N counts as N.
        case maximum(Expr)
        /// `cs`: the value is the number of kept dice matching.
        case countSuccesses(ComparePoint)
        /// `cf`: the value is the number of kept dice matching.
        case countFailures(ComparePoint)
        /// `df`: subtract one from the value for each kept die matching.
        case subtractFailures(ComparePoint)
        /// `s`/`sa` ascending, `sd` descending: the shown order only.
        case sort(ascending: Bool)
        /// `u`: each die showing a face already shown is rolled again until it shows a new one.
        case unique
    }

    /// Which end of the dice a keep or drop takes.
    package enum Extreme: String, Hashable, Sendable {
        /// The highest values.
        case highest
        /// The lowest values.
        case lowest
    }

    /// How an explosion adds its extra rolls.
    package enum Explosion: String, Hashable, Sendable {
        /// `!`: each extra roll is a new die.
        case explode = "!"
        /// `!!`: extra rolls add into the same die.
        case compound = "!!"
        /// `!p`: like `!`, each extra die counts one less.
        case penetrate = "!p"
        /// `xo`: each matching die adds one extra die, which does not explode (Foundry's).
        case once = "xo"
    }

    /// When a modifier applies: whatever the written order, stages go in this order.
    enum Stage: Int, Comparable, Sendable {
        case clamp, reroll, unique, explode, keep, count, sort

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the modifier does.
    package internal(set) var kind: Kind
    /// Where the modifier stands in the source.
    package internal(set) var range: SourceRange
    /// The modifier's word as typed (`k`, `rr`, `x`, `min`), which the breakdown echoes;
    /// empty for the canonical word of `kind`.
    package internal(set) var spelling: String

    init(_ kind: Kind, _ range: SourceRange, spelling: String = "") {
        self.kind = kind
        self.range = range
        self.spelling = spelling
    }

    /// Whether both do the same at the same place, however spelt (`k3` is `kh3`).
    package static func == (lhs: DiceModifier, rhs: DiceModifier) -> Bool {
        lhs.kind == rhs.kind && lhs.range == rhs.range
    }

    /// Hashes what the modifier does and where, not its spelling.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(range)
    }

    /// `modifiers` in the order they apply: by stage, and as written within a stage.
    static func inStageOrder(_ modifiers: [DiceModifier]) -> [DiceModifier] {
        var inOrder = true
        for index in modifiers.indices.dropFirst() where modifiers[index].stage < modifiers[index - 1].stage {
            inOrder = false
        }
        if inOrder { return modifiers }
        return modifiers.enumerated().sorted {
            $0.element.stage != $1.element.stage ? $0.element.stage < $1.element.stage : $0.offset < $1.offset
        }.map { $0.element }
    }

    /// The expressions the modifier takes: its count, bound or compare point's value.
    var arguments: [Expr] { argument.map { [$0] } ?? [] }

    /// The modifier's one argument, if it has one.
    var argument: Expr? {
        switch kind {
        case .keep(_, let count), .drop(_, let count): return count
        case .minimum(let bound), .maximum(let bound): return bound
        case .explode(_, let point), .reroll(_, let point): return point?.value
        case .countSuccesses(let point), .countFailures(let point), .subtractFailures(let point): return point.value
        case .sort, .unique: return nil
        }
    }

    /// When the modifier applies.
    var stage: Stage {
        switch kind {
        case .minimum, .maximum: return .clamp
        case .reroll: return .reroll
        case .explode: return .explode
        case .keep, .drop: return .keep
        case .countSuccesses, .countFailures, .subtractFailures: return .count
        case .sort: return .sort
        case .unique: return .unique
        }
    }
}

/// A compare point: `=N`, `>N`, `>=N`, `<N`, `<=N`, `!=N` (or `<>N`); a bare `N` means `=N`.
package struct ComparePoint: Hashable, Sendable {
    /// How a face compares with `value`.
    package internal(set) var op: ComparisonOperator
    /// The number a face is compared with.
    package internal(set) var value: Expr
    /// The operator as typed (`=`, `==`, `!=`, `<>`), which the breakdown echoes; empty for
    /// a bare number (`cs8`) or the canonical spelling of `op`.
    package internal(set) var spelling: String

    init(_ op: ComparisonOperator, _ value: Expr, spelling: String = "") {
        self.op = op
        self.value = value
        self.spelling = spelling
    }

    /// Whether both compare alike, however spelt (`=1` is `1`, `<>` is `!=`).
    package static func == (lhs: ComparePoint, rhs: ComparePoint) -> Bool {
        lhs.op == rhs.op && lhs.value == rhs.value
    }

    /// Hashes the operator and the value, not their spelling.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(op)
        hasher.combine(value)
    }
}
