/// The work of one exact distribution: the steps done against `StatsBudget`, the size of
/// each distribution made, and the host's requests to stop.
///
/// `StatsEngine` owns one and lends it, `inout`, to the algorithms (`PoolModel`, `KeepDP`,
/// `MultisetKeep`), which meter their work with it and know nothing else of the engine.
/// A struct, so that a small distribution does not pay for one more allocation; its checks
/// are `mutating` too, so that the engine's meter is used in place rather than copied.
struct WorkMeter {
    /// The budget; its explosion cutoff is made finer while a rare condition is worked out
    /// again (`StatsEngine.cutFiner`).
    private(set) var budget: StatsBudget
    /// The steps charged so far (saturating at `Int.max`).
    private(set) var work = 0
    /// The probability cut from the far tails of large sums (`LargeSum`), and whether any was.
    private(set) var cutMass = 0.0
    private(set) var cutTails = false
    /// Each mass cut, in order: a sweep replays those of the parts it shares.
    private(set) var cuts: [Double] = []
    /// The finest explosion cutoff the distribution since `clearCuts` was worked out with:
    /// the budget's, or a finer one where a rare `given` was worked out again
    /// (`StatsEngine.cutFiner`), which the report then states.
    private(set) var finestExplosionCutoff: Double
    /// The same for the far tails of sums.
    private(set) var finestSumTailCutoff: Double
    /// Asked each time about a million more steps are done; `true` stops with `.interrupted`.
    private let shouldStop: (@Sendable () -> Bool)?
    /// Where `.interrupted` points: the whole expression.
    private let statementRange: SourceRange

    init(budget: StatsBudget, shouldStop: (@Sendable () -> Bool)? = nil, statementRange: SourceRange = .at(0)) {
        self.budget = budget
        finestExplosionCutoff = budget.explosionCutoff
        finestSumTailCutoff = budget.sumTailCutoff
        self.shouldStop = shouldStop
        self.statementRange = statementRange
    }

    /// A meter of `budget` with nothing charged, stopping as this one does.
    func fresh(_ budget: StatsBudget) -> WorkMeter {
        WorkMeter(budget: budget, shouldStop: shouldStop, statementRange: statementRange)
    }

    /// Counts `units` of work, throwing `.tooExpensive` past the budget (and `.interrupted`
    /// when the host asks to stop).
    mutating func charge(_ units: Int) throws(StatsFailure) {
        let (total, overflow) = work.addingReportingOverflow(Swift.max(units, 0))
        let crossed = (total >> 20) != (work >> 20)
        work = overflow ? Int.max : total
        if crossed, let shouldStop, shouldStop() { throw .dice(DiceError(.interrupted, at: statementRange)) }
        if work > budget.maxWork {
            throw .tooExpensive("the exact distribution needs more than \(budget.maxWork) steps")
        }
    }

    /// Notes that `mass` was cut from the far tails of a sum.
    mutating func noteCut(_ mass: Double) {
        cutTails = true
        cutMass += mass
        cuts.append(mass)
    }

    /// Forgets the cuts noted so far: the next distribution's are its own.
    mutating func clearCuts() {
        cutTails = false
        cutMass = 0
        cuts.removeAll()
        finestExplosionCutoff = budget.explosionCutoff
        finestSumTailCutoff = budget.sumTailCutoff
    }

    /// Scales the cuts noted from the `first`-th on by `weight`: they were cut from a part
    /// that is mixed in at that weight (`StatsEngine.scalingCuts`).
    mutating func scaleCuts(from first: Int, by weight: Double) {
        guard first < cuts.count else { return }
        for index in first..<cuts.count {
            cutMass -= cuts[index] * (1 - weight)
            cuts[index] *= weight
        }
    }

    /// Forgets the cuts noted from the `first`-th on: their part is worked out again.
    mutating func dropCuts(from first: Int) {
        guard first < cuts.count else { return }
        cutMass -= cuts[first...].reduce(0, +)
        cuts.removeSubrange(first...)
        cutMass = Swift.max(0, cutMass)
        cutTails = !cuts.isEmpty
    }

    /// Sets the explosion and sum-tail cutoffs that pools and sums are built with from now on.
    mutating func setCutoffs(explosions: Double, sums: Double) {
        budget.explosionCutoff = explosions
        budget.sumTailCutoff = sums
        finestExplosionCutoff = Swift.min(finestExplosionCutoff, explosions)
        finestSumTailCutoff = Swift.min(finestSumTailCutoff, sums)
    }

    /// Throws `.tooExpensive` now when `units` more steps would pass the budget,
    /// so that hopeless work is not started (the steps are charged as they are done).
    mutating func ensureAffordable(_ units: Int) throws(StatsFailure) {
        let (total, overflow) = work.addingReportingOverflow(Swift.max(units, 0))
        if overflow || total > budget.maxWork {
            throw .tooExpensive("the exact distribution would need more than \(budget.maxWork) steps")
        }
    }

    /// Throws `.tooExpensive` when `distribution` is too large to carry on with.
    @discardableResult
    mutating func checkSize(_ distribution: Distribution) throws(StatsFailure) -> Distribution {
        if distribution.storageSize > budget.maxOutcomes {
            throw .tooExpensive("a distribution would have more than \(budget.maxOutcomes) outcomes")
        }
        return distribution
    }

    // MARK: - Costs

    /// `a * b`, saturating.
    static func product(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : p
    }

    /// The work charged for each pair of outcomes combined one by one (through a
    /// dictionary of results) rather than by a flat convolution: tens of times a step.
    static let sparsePairCost = 32

    /// The work charged for each pair of outcomes combined one by one when a side holds
    /// tallies that do not pack (`TallyTable`: fractions, texts beside them): each pair makes a new tally and finds its fields by name, and the results are
    /// sorted by their fields. Measured (release, 2026-12-02) on the sums of Genesys's
    /// `check(0, 5, 0, 5, 2, 2)`: at `sparsePairCost` a step took 15 to 32 ns (the budget
    /// assumes 5), and at six times it the exact attempt still ran 1.3 s of its 0.5 s; at
    /// sixteen times it stops within its share and the whole statement within its 1 s.
    static let tallyPairCost = 16 * sparsePairCost

    /// The work charged for each pair of packed tally outcomes added (`TallyTable.sum`): a
    /// multiply and an add into a list, a ring or a flat array (whose slots are charged one
    /// step each besides), and for each outcome a packed `let` body maps. Measured (release,
    /// 2026-12-02, a loaded machine): Genesys's `check(0, 5, 0, 5, 2, 2)` is charged about
    /// 2.1 million steps (it is exact from `--stats-seconds 0.022`) and its exact work took
    /// about 6 ms, 3 ns a step against the 5 ns the budget assumes.
    static let packedTallyPairCost = 2

    /// The same when the sum's range is too wide for a flat array or a ring and its keys are
    /// hashed (`[Int: Double]`, then sorted). Measured as above: `40d{(a: 1000000), (b: 1000),
    /// (c: 1), ()}`, hashed nearly all through, is charged about 17 million steps (exact from
    /// `--stats-seconds 0.18`) and took about 50 ms, 3 ns a step.
    static let hashedTallyPairCost = 8

    /// The work of adding `a` and `b`: a flat convolution when both are dense, else pair by pair.
    static func pairWork(_ a: Distribution, _ b: Distribution) -> Int {
        if case .dense = a.storage, case .dense = b.storage { return product(a.storageSize, b.storageSize) }
        return product(product(a.storageSize, b.storageSize), sparsePairCost)
    }
}
