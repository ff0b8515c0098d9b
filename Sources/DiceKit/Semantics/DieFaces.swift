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
        case .percentile: faces = .range(100)
        case .fate: faces = .list([-1, 0, 1])
        case .faces(let list):
            guard !list.isEmpty else { return nil }
            faces = .list(list)
        }
    }
}
