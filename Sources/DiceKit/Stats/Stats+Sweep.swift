/// `stats E for NAME in A..B`: the exact distribution of E for each whole value of NAME
/// from A to B, in order.
///
/// ```swift
/// let sweep = try Stats.sweep(Parser.parseExpression("1d20 >= dc"), name: "dc",
///                             from: Parser.parseExpression("18"), to: Parser.parseExpression("21"),
///                             environment: Environment())
/// sweep.rows.map(\.report.distribution.mean)   // [0.15, 0.1, 0.05, 0]
/// ```
public struct SweepReport: Hashable, Sendable {
    /// One value of the swept name, and the expression's distribution for it.
    public struct Row: Hashable, Sendable {
        /// The value of the name.
        public package(set) var value: Int
        /// The exact distribution of the expression with the name bound to `value`.
        public package(set) var report: DistributionReport
    }

    /// The name swept.
    public package(set) var name: String
    /// One row a value, the values increasing by 1.
    public package(set) var rows: [Row]
    /// Whether the expression is a test (`Stats.isTest`): each row shows its probability.
    package var isTest = false
}

extension Stats {
    /// The most values one sweep takes (`for x in 1..1000`).
    package static let maxSweepValues = 1_000

    /// The sweep of `expr` over `name` from `from` to `to`: NAME is a variable for each value,
    /// so macros see it too. Every value is exact: one engine does them all, its work bounded
    /// by `limits.stats` for the whole sweep (no value falls back to simulation). A part of
    /// `expr` that cannot depend on `name` (`SweepSharing`) is worked out once for them all.
    ///
    /// - Complexity: the work of each value's distribution, less what the values share, at
    ///   most `maxSweepValues` of them.
    /// - Throws: `DiceError` for bounds that are no fixed whole numbers, in the wrong order or
    ///   too far apart; a value's own error, saying which value (`.inSweep`);
    ///   `.sweepTooExpensive` when the exact work would pass `limits.stats`, `.sweepTooLarge`
    ///   when the distributions together would hold more outcomes than one may.
    package static func sweep(
        _ expr: Expr, name: String, from: Expr, to: Expr, environment: Environment, limits: Limits = .standard,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(DiceError) -> SweepReport {
        let range = from.range.lowerBound..<Swift.max(from.range.upperBound, to.range.upperBound)
        let engine = StatsEngine(environment: environment, limits: limits,
                                 meter: WorkMeter(budget: limits.stats, shouldStop: shouldStop, statementRange: range))
        let first = try bound(from, engine: engine, limits: limits)
        let last = try bound(to, engine: engine, limits: limits)
        guard first <= last else { throw DiceError(.sweepBackwards(from: first, to: last), at: range) }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span < maxSweepValues else {
            throw DiceError(.sweepTooLong(from: first, to: last, limit: maxSweepValues), at: range)
        }
        // What does not depend on the name is worked out once for all the values.
        engine.sharing = SweepSharing(name: name)
        // NAME is a variable, the same for every value: one answer for them all.
        var swept = environment
        swept.setVariable(name, to: .integer(first))
        let test = isTest(expr, environment: swept)
        var rows: [SweepReport.Row] = []
        rows.reserveCapacity(span + 1)
        // Every value's distribution is kept: together no more than one distribution may hold.
        var kept = 0
        for value in first...last {
            var bound = environment
            bound.setVariable(name, to: .integer(value))
            engine.environment = bound
            var report: DistributionReport
            do {
                report = try engine.report(of: expr)
            } catch {
                throw failure(error, name: name, value: value, at: expr.range, limits: limits)
            }
            kept += report.distribution.storageSize
            guard kept <= limits.stats.maxOutcomes else {
                throw DiceError(.sweepTooLarge(limit: limits.stats.maxOutcomes), at: expr.range)
            }
            report.isTest = test
            rows.append(SweepReport.Row(value: value, report: report))
        }
        return SweepReport(name: name, rows: rows, isTest: test)
    }

    /// The value of a sweep's bound: a fixed whole number.
    private static func bound(_ expr: Expr, engine: StatsEngine, limits: Limits) throws(DiceError) -> Int {
        let distribution: Distribution
        do {
            distribution = try engine.distribution(of: expr)
        } catch {
            throw failure(error, name: nil, value: nil, at: expr.range, limits: limits)
        }
        guard let value = distribution.constantValue else { throw DiceError(.sweepBoundRolled, at: expr.range) }
        guard case .integer(let whole) = value else { throw DiceError(.sweepBoundNotWhole(value), at: expr.range) }
        return whole
    }

    /// The error a sweep reports for `error`, met with `name` bound to `value` (if any).
    private static func failure(_ error: StatsFailure, name: String?, value: Int?, at range: SourceRange,
                                limits: Limits) -> DiceError {
        switch error.recovery(at: range) {
        case .simulate:
            return DiceError(.sweepTooExpensive(seconds: limits.stats.seconds), at: range)
        case .fail(let failure):
            guard let name, let value, failure.kind != .interrupted else { return failure }
            // A name defined nowhere is missing whatever the value: the value is no part of it.
            if case .unknownName = failure.kind { return failure }
            return DiceError(.inSweep(name: name, value: value, failure.kind), at: failure.range)
        }
    }
}
