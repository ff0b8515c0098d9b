/// Which entry of a `match` holds: one meaning for the roller and the stats engine.
extension MatchEntry {
    /// Whether `entry`, its bounds worked out as `bounds` (its `partCount` of them), holds for
    /// `value`, the value of the subject at `subject`. A pattern that orders (`>=3`, `7-9`,
    /// `10+`, `6-`) takes numbers, as `count`'s compare point does: a text or tally value is an
    /// error at the subject, a text or tally bound at that bound; `=`, `!=` and a pattern
    /// as written compare any values.
    func holds(_ bounds: ArraySlice<Value>, for value: Value, subject: SourceRange) throws(DiceError) -> Bool {
        func ordered(_ op: ComparisonOperator, _ bound: Value, part index: Int) throws(DiceError) -> Bool {
            try op.holds(value, bound) { (culprit) throws(DiceError) in
                // `holds` tries the value first: a culprit that is not it is the bound.
                ComparePoint.orderingError(culprit, at: culprit == value ? subject : part(index).range)
            }
        }
        guard let first = bounds.first else { return false }
        switch pattern {
        case .equal: return first == value
        case .between:
            guard bounds.count == 2, let high = bounds.last else { return false }
            // Both ends are checked, so a text at either is an error whatever the value.
            let above = try ordered(.greaterEqual, first, part: 0)
            let below = try ordered(.lessEqual, high, part: 1)
            return above && below
        case .orMore: return try ordered(.greaterEqual, first, part: 0)
        case .orLess: return try ordered(.lessEqual, first, part: 0)
        case .point(let point): return try ordered(point.op, first, part: 0)
        }
    }
}
