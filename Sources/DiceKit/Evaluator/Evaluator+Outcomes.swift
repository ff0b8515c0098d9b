/// Texts, tables, tallies, logic, counting and `given` (LANGUAGE.md §5b).
extension Evaluator {
    mutating func outcomeNode(_ expr: Expr) throws(DiceError) -> Roll {
        throw DiceError(.internalError("not built yet"), at: expr.range)
    }
}
