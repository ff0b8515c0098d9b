/// The faces a die can show before clamping.
enum DieFaces: Sendable {
    /// `1...sides`
    case range(Int)
    /// Custom or Fate faces, each equally likely.
    case list([Int])

    var count: Int {
        switch self {
        case .range(let sides): return sides
        case .list(let faces): return faces.count
        }
    }

    /// The face at a 1-based position from a `DieSource` (clamped into range).
    @inline(__always)
    func face(at position: Int) -> Int {
        switch self {
        case .range(let sides): return Swift.min(Swift.max(position, 1), sides)
        case .list(let faces): return faces[Swift.min(Swift.max(position, 1), faces.count) - 1]
        }
    }
}

extension Sides {
    /// The faces when they are not computed (`d%`, `dF`, `d{1,3,5}`), `nil` for `d(expr)` or
    /// no face at all (`d{}`). A die of texts or tallies shows the position of its face in
    /// `symbols` (0 for the first distinct one), so `d{"a", "b", "b"}` shows 0, 1 or 1.
    var fixedFaces: DieFaces? {
        switch self {
        case .number: return nil
        case .percentile: return .range(100)
        case .fate: return .list([-1, 0, 1])
        case .faces(let list): return list.isEmpty ? nil : .list(list)
        case .symbols(let values):
            guard !values.isEmpty else { return nil }
            let table = symbols
            return .list(values.map { value in table.firstIndex(of: value) ?? 0 })
        }
    }

    /// The distinct faces of a die of texts or tallies, in order of first appearance; empty
    /// for numbered dice.
    var symbols: [Value] {
        guard case .symbols(let values) = self else { return [] }
        var distinct: [Value] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        return distinct
    }
}

/// The count and faces of a dice term whose count and sides are literals a roll takes as
/// they are (`4d6`, `d%`, `3dF`, `2d{1,3,5}`): worked out once, when the term is made.
struct LiteralDice: Sendable {
    var count: Int
    var faces: DieFaces
    /// How many literal expressions the count and sides are (0 to 2).
    var literals: Int

    init?(count countExpr: Expr?, sides: Sides) {
        count = 1
        literals = 0
        if let countExpr {
            guard case .number(.integer(let literal)) = countExpr.kind, literal >= 0 else { return nil }
            count = literal
            literals += 1
        }
        switch sides {
        case .number(let sidesExpr):
            guard case .number(.integer(let literal)) = sidesExpr.kind, literal >= 1 else { return nil }
            faces = .range(literal)
            literals += 1
        case .percentile, .fate, .faces, .symbols:
            guard let fixed = sides.fixedFaces else { return nil }
            faces = fixed
        }
    }
}

/// The sum of several dice whose faces are texts or tallies (LANGUAGE.md §5b): tallies add
/// field by field, and the number 0 is the empty tally; a text, or another number among
/// tallies, has no sum. Decided from the die's faces, so rolled and in `stats` alike.
enum SymbolSum {
    /// Why several dice of `faces` do not add up; nil when they do.
    static func error(_ faces: [Value]) -> DiceError.Kind? {
        if faces.contains(where: { if case .text = $0 { true } else { false } }) {
            return .textDiceOperation("a sum of several text dice")
        }
        if faces.contains(where: { !$0.isTally && !$0.isZero }) {
            return .textDiceOperation("a sum of several dice whose faces mix tallies and numbers other than 0")
        }
        return nil
    }

    /// The value of no dice of `faces`: the empty tally when one is a tally, else 0.
    static func empty(_ faces: [Value]) -> Value {
        faces.contains(where: \.isTally) ? .tally(Tally()) : .integer(0)
    }
}
