/// Texts, tables, tallies, logic, counting and `given` (LANGUAGE.md §5b).
extension StatsEngine {
    func outcomeDistribution(_ expr: Expr) throws(StatsFailure) -> Distribution {
        throw .dice(DiceError(.internalError("not built yet"), at: expr.range))
    }
}
