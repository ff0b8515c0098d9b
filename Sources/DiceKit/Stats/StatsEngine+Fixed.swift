/// A body that rolls nothing, under names bound to one value each, has one outcome: the
/// roller's walk finds it with one `Value` a node, where `outcomes(of:)` builds a distribution
/// a node. Loops that work a body out once per value of a name (`let` names used more than
/// once, macro parameters used more than once, bound pools' joint counts) ask for it first.
///
/// What it buys (release build, warm, DiceBench `stats-statement`, one loaded machine on
/// 2026-12-02): F2's PF2e `check(7, 20)` (twenty values of `r`, a `match` of five comparisons
/// each) from about 310 µs to about 95 µs; with tallies compared without sorted copies, F3's
/// `genesys(3, 2)` (a tally body for each of its tallies) from about 17 ms to about 7 ms.
extension StatsEngine {
    /// The most work (macro uses, repeat members, dice) one attempt may do before it gives up.
    static let fixedAttemptWork = 4_096

    /// The steps charged for each node the roller's walk visits: F2's body (about 25 nodes)
    /// took 3 to 4 µs a value in a release build, about 150 ns a node, 30 steps of
    /// `StatsBudget.exactStepsPerSecond`.
    static let fixedNodeCost = 32

    /// Why a name is no value to the roller's walk: the attempt fails, and the distribution's
    /// walk takes over (it never shows).
    private static let notFixed = DiceError(.interrupted, at: SourceLocation(offset: 0)..<SourceLocation(offset: 0))

    /// The one outcome of `body` when it rolls no dice and reads only names bound to one value
    /// in the innermost frame (or variables and macros); `nil` otherwise, or when the walk
    /// fails (the distribution's walk then says why, with the same error). Charges the nodes
    /// walked (`fixedNodeCost` each).
    func fixedValue(of body: Expr) throws(StatsFailure) -> Value? {
        var frame = rollerFrame()
        var evaluator = fixedEvaluator()
        return try walk(body, in: &frame, with: &evaluator)
    }

    /// One walk of `expr` by `evaluator` under `frame`, charged by the nodes walked: its value,
    /// or `nil` when the walk failed or asked for a die. The frame comes back, held once, so
    /// that the next walk changes it in place.
    func walk(_ expr: Expr, in frame: inout Frame<Bound>,
              with evaluator: inout Evaluator<NoDiceSource>) throws(StatsFailure) -> Value? {
        evaluator.startStatement()
        evaluator.frames.append(frame)
        let value = try? evaluator.value(of: expr)
        try meter.charge(WorkMeter.product(evaluator.nodes, StatsEngine.fixedNodeCost))
        frame = evaluator.frames.first ?? frame
        evaluator.frames.removeAll(keepingCapacity: true)
        guard let value, !evaluator.source.asked else { return nil }
        return value
    }

    /// A roller for `walk` here: no dice, at most `fixedAttemptWork` of work, the
    /// depths left below this one; its frames empty.
    func fixedEvaluator() -> Evaluator<NoDiceSource> {
        var bounds = limits
        bounds.maxDice = Swift.min(bounds.maxDice, Self.fixedAttemptWork)
        bounds.maxEvaluationDepth = Swift.max(0, bounds.maxEvaluationDepth - depth)
        bounds.maxMacroDepth = Swift.max(0, bounds.maxMacroDepth - macroDepth)
        return Evaluator(environment: environment, limits: bounds, source: NoDiceSource())
    }

    /// The innermost frame's names as the roller binds them: values, constant distributions,
    /// bound pools shown as their dice (`BoundPoolOutcome.shown`, up to `shownDiceLimit`
    /// dice); any other name fails the roller's walk where it is read.
    func rollerFrame() -> Frame<Bound> {
        var frame: Frame<Bound> = [:]
        for (name, parameter) in frames.last ?? [:] {
            switch parameter {
            case .value(let value):
                frame[name] = Bound(value: value)
            case .distribution(let distribution):
                frame[name] = distribution.fixedOutcome.map { Bound(value: $0) }
                    ?? Bound(value: .integer(0), valueError: Self.notFixed)
            case .pool(let pool):
                frame[name] = pool.shown.map { Bound(value: pool.value, pool: $0) }
                    ?? Bound(value: .integer(0), valueError: Self.notFixed)
            }
        }
        return frame
    }

    /// The distribution of `body` under the current bindings: its one outcome when
    /// `fixedValue` finds it (while `tryFixed`), else the distribution's walk, after which
    /// `tryFixed` is false (a body that rolls dice for one value rolls them for the next).
    func outcomes(ofEach body: Expr, tryFixed: inout Bool) throws(StatsFailure) -> Distribution {
        if tryFixed {
            if let value = try fixedValue(of: body) { return Distribution(only: value) }
            tryFixed = false
        }
        return try outcomes(of: body)
    }
}

extension Distribution {
    /// The one outcome of a distribution that has one, with all the mass (none cut from a tail).
    var fixedOutcome: Value? { totalProbability == 1 ? constantOutcome : nil }

    /// Whether some outcome is a tally.
    var holdsTallies: Bool { symbolicOutcomes.holdsTallies }
}
