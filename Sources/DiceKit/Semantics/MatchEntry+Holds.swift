/// Which entry of a `match` holds: one meaning for the roller and the stats engine.
extension MatchEntry {
    /// Whether `entry`, its bounds worked out as `bounds` (its `partCount` of them), holds for `value`.
    func holds(_ bounds: ArraySlice<Value>, for value: Value) throws(DiceError) -> Bool {
        func ordered(_ op: ComparisonOperator, _ bound: Value) throws(DiceError) -> Bool {
            try op.holds(value, bound) { (culprit) throws(DiceError) in
                DiceError(.notANumber(culprit, needed: "a range pattern"), at: patternRange)
            }
        }
        switch pattern {
        case .equal: return bounds.first == value
        case .between:
            guard bounds.count == 2, let low = bounds.first, let high = bounds.last else { return false }
            if value.number == nil { return false }
            guard try ordered(.greaterEqual, low) else { return false }
            return try ordered(.lessEqual, high)
        case .orMore:
            guard value.number != nil, let bound = bounds.first else { return false }
            return try ordered(.greaterEqual, bound)
        case .orLess:
            guard value.number != nil, let bound = bounds.first else { return false }
            return try ordered(.lessEqual, bound)
        case .point(let point):
            guard let bound = bounds.first else { return false }
            if point.op != .equal && point.op != .notEqual && value.number == nil { return false }
            return try ordered(point.op, bound)
        }
    }
}
