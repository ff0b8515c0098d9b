@testable import DiceKit

/// The least and greatest value an expression can roll, worked out from its tree
/// alone, for the expressions `ExpressionGenerator.boundedExpression` builds:
/// integers, dice pools without explosions, unary minus, `+` and `-`.
///
/// A pool of N dice keeps K of them (keep/drop in written order); each kept die
/// shows a face between the lowest and highest face after `mi`/`ma`, whatever
/// the rerolls do. `cs`/`cf` make the value a count in `0...K`, and `df`
/// subtracts up to K more.
enum Bounds {
    /// `nil` when the tree holds something this calculator does not bound.
    static func of(_ expr: Expr) -> ClosedRange<Int>? {
        switch expr.kind {
        case .number(.integer(let value)):
            return value...value
        case .unary(.negate, let operand):
            guard let inner = of(operand) else { return nil }
            return -inner.upperBound...(-inner.lowerBound)
        case .unary(.plus, let operand):
            return of(operand)
        case .chain(let first, let rest):
            guard var total = of(first) else { return nil }
            for operation in rest {
                guard let operand = of(operation.operand) else { return nil }
                switch operation.op {
                case .add:
                    total = (total.lowerBound + operand.lowerBound)...(total.upperBound + operand.upperBound)
                case .subtract:
                    total = (total.lowerBound - operand.upperBound)...(total.upperBound - operand.lowerBound)
                default:
                    return nil
                }
            }
            return total
        case .dice(let term):
            return pool(term)
        default:
            return nil
        }
    }

    static func pool(_ term: DiceTerm) -> ClosedRange<Int>? {
        var count = 1
        if let countExpr = term.count {
            guard case .number(.integer(let n)) = countExpr.kind else { return nil }
            count = n
        }
        let faces: [Int]
        switch term.sides {
        case .number(let sides):
            guard case .number(.integer(let n)) = sides.kind, n >= 1 else { return nil }
            faces = Array(1...n)
        case .percentile: faces = Array(1...100)
        case .fate: faces = [-1, 0, 1]
        case .faces(let list): faces = list
        case .symbols: return nil
        }
        var clamps: [(minimum: Bool, value: Int)] = []
        var kept = count
        var counting = false
        var subtracting = false
        for modifier in term.modifiers {
            switch modifier.kind {
            case .minimum(let value), .maximum(let value):
                guard case .number(.integer(let n)) = value.kind else { return nil }
                if case .minimum = modifier.kind { clamps.append((true, n)) } else { clamps.append((false, n)) }
            case .keep(_, let n), .drop(_, let n):
                var amount = 1
                if let n {
                    guard case .number(.integer(let value)) = n.kind else { return nil }
                    amount = value
                }
                if case .keep = modifier.kind { kept = min(kept, amount) } else { kept = max(0, kept - amount) }
            case .countSuccesses, .countFailures: counting = true
            case .subtractFailures: subtracting = true
            case .reroll, .sort: break
            case .explode, .unique: return nil
            }
        }
        let shown = faces.map { face in
            clamps.reduce(face) { $1.minimum ? max($0, $1.value) : min($0, $1.value) }
        }
        guard let lowest = shown.min(), let highest = shown.max() else { return nil }
        var range = counting ? 0...kept : (kept * lowest)...(kept * highest)
        if subtracting { range = (range.lowerBound - kept)...range.upperBound }
        return range
    }
}
