#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the engine cuts from explosion tails and the far tails of sums, carried as the parts
/// are combined: a part mixed in at some chance brings that share of its cuts, and a `given`
/// whose condition is about as rare as the cut works the condition out again, cut finer.
extension StatsEngine {
    /// Where the cuts stood at some point of the walk: what was noted after it belongs to
    /// the part worked out since.
    struct CutMark {
        let explosions: Double
        let sumTails: Int
    }

    var cutMark: CutMark { CutMark(explosions: explosionCutBound, sumTails: meter.cuts.count) }

    /// Notes that explosion tails of `mass` were cut from a distribution of dice. A mass is
    /// noted each time its distribution is worked out or reused, and times the copies made
    /// of it (`repeat`); the part it was cut from, mixed in at some chance, scales it by that
    /// chance (`scalingCuts`): the sum is the probability that some roll reaches a cut tail,
    /// or a little more (two cut tails in one roll are counted twice).
    func noteExplosionCut(_ mass: Double) {
        cutExplosionTails = true
        explosionCutBound += Swift.max(0, mass)
    }

    /// Scales the cuts noted since `mark` by `weight`: they were cut from a part that is
    /// mixed in at that chance, or of which `weight` independent copies are made.
    func scaleCuts(since mark: CutMark, by weight: Double) {
        explosionCutBound = mark.explosions + (explosionCutBound - mark.explosions) * weight
        meter.scaleCuts(from: mark.sumTails, by: weight)
    }

    /// `body`'s part, mixed in at `weight`: a branch taken with that chance, a case of a
    /// `let`, a joint outcome of rolled arguments. Unscaled, the 1d6! of `if 1d10000 == 1
    /// then 1d6! else 0` counted its whole cut, 3.5e-13, where the statement cuts 3.5e-17.
    func scalingCuts<T>(by weight: Double, _ body: () throws(StatsFailure) -> T) throws(StatsFailure) -> T {
        let mark = cutMark
        defer { scaleCuts(since: mark, by: weight) }
        return try body()
    }

    /// The outcomes of `member`, of which `copies` independent copies are made, on average
    /// (`repeat`): the cuts its work notes count once for each copy.
    func outcomes(ofMember member: Expr, copies: Double) throws(StatsFailure) -> Distribution {
        try scalingCuts(by: copies) { () throws(StatsFailure) in try outcomes(of: member) }
    }

    // MARK: - Conditions

    /// `E given C`, or a `let` ending in one, inside the statement: rolled again, whole, until
    /// C holds, as the roller does (`Evaluator.retryingGiven`), so its distribution is E's
    /// where C holds divided by the chance that C holds; the statement's own is divided at the
    /// end (`report(of:)`). Left to the end, a `given` in a branch lost its branch's chance:
    /// `if 1d2 == 1 then (1d6 given 1d6 > 4) else 0` gave 0 three times in four, not half the
    /// time. Divided as `report(of:)` divides, by its total and the explosion tails cut in it,
    /// so that the cut is still reported (what is left out of it, beside it, is noted in place
    /// of the cut); the whole statement's (`depth` 1), by the report.
    func givenUnit(_ expr: Expr) throws(StatsFailure) -> Distribution {
        insideGivenUnit = true
        // Its own conditions, where they are written though it is inside a macro's body; the
        // statement's are the report's (`report(of:)`).
        let outerConditions = givenConditions, macroUse = givenMacroUse
        if depth > 1 { givenConditions = GivenConditions() }
        givenMacroUse = nil
        defer {
            insideGivenUnit = false
            if depth > 1 { givenConditions = outerConditions }
            givenMacroUse = macroUse
        }
        let mark = cutMark
        var part = try outcomes(of: expr)
        var cut = explosionCutBound - mark.explosions
        if cutsTooMuch(of: part, cut, since: mark), !neverHolds(expr, part) {
            (part, cut) = try cutFiner(expr, part, cut, since: mark)
        }
        if depth == 1 { return part }
        let total = part.totalProbability
        guard total > 0 else { throw .dice(impossible(expr)) }
        // Its cuts, explosions' and sums' tails, are divided as the rest is.
        scaleCuts(since: mark, by: 1 / (total + cut))
        return part.dividingProbabilities(by: total + cut)
    }

    /// Whether the tails cut in a `given` unit since `mark` are too much beside `part`, its
    /// mass where its condition holds, which it is divided by: explosion tails of mass `cut`
    /// more than a thousand times the cutoff of a statement without `given`, or the far tails
    /// of sums likewise beside theirs. The explosions' cut is noted as sure to meet the
    /// condition, so a condition about as rare as the cut came out wrong: `1d2 given 1d6! >=
    /// 90` showed 41.66% for each face and 17% not shown, and `1d6 given 1d6! >= 100` could
    /// never hold. A sum's tails are left out, so a condition in them could never hold:
    /// `1d2 given 2000d6 >= 7700` (about 1e-21).
    private func cutsTooMuch(of part: Distribution, _ cut: Double, since mark: CutMark) -> Bool {
        let mass = part.totalProbability + cut
        return cut > 0 && StatsEngine.tooMuch(cut, beside: mass, cutoff: limits.stats.explosionCutoff)
            || sumTailCut(since: mark).map { StatsEngine.tooMuch($0, beside: mass, cutoff: limits.stats.sumTailCutoff) } == true
    }

    /// Whether `cut`, something cut, is too much beside `mass`: more than a thousand times
    /// `cutoff` of it, or anything beside none held (a sum's underflowing tails cut as 0).
    private static func tooMuch(_ cut: Double, beside mass: Double, cutoff: Double) -> Bool {
        mass == 0 || cut > 1000 * cutoff * mass
    }

    /// The mass cut from the far tails of sums since `mark`; `nil` when none was.
    private func sumTailCut(since mark: CutMark) -> Double? {
        guard meter.cuts.count > mark.sumTails else { return nil }
        return meter.cuts[mark.sumTails...].reduce(0, +)
    }

    /// A `given` unit whose cut is too much (`cutsTooMuch`), worked out again with its tails
    /// cut finer, as much finer as its condition is rare (the cut of each pool or sum is at
    /// most its cutoff, and shrinks with it), until the cut is small beside what is left,
    /// within the work budget: `.tooExpensive` otherwise, and the simulation answers (a
    /// condition rarer than a `Double` holds, `1d2 given 2000d6 >= 11000`, did not hold).
    private func cutFiner(_ expr: Expr, _ first: Distribution, _ firstCut: Double,
                          since mark: CutMark) throws(StatsFailure) -> (Distribution, Double) {
        let coarse = (explosions: meter.budget.explosionCutoff, sums: meter.budget.sumTailCutoff)
        let base = (explosions: limits.stats.explosionCutoff, sums: limits.stats.sumTailCutoff)
        let conditions = givenConditions, tables = boundPoolTables, outerSharing = sharing
        // The bound pools' tables and a sweep's shared parts were cut at the coarse cutoff.
        sharing = nil
        defer {
            meter.setCutoffs(explosions: coarse.explosions, sums: coarse.sums)
            boundPoolTables = tables
            sharing = outerSharing
        }
        var part = first, cut = firstCut, cutoffs = coarse
        // While none held, the condition may be rarer still: finer by 1e-12, 1e-24, 1e-48...
        var unseen = base.explosions
        while true {
            let total = part.totalProbability, mass = total + cut
            var next = cutoffs
            if cut > 0, StatsEngine.tooMuch(cut, beside: mass, cutoff: base.explosions) {
                next.explosions = StatsEngine.finer(cutoffs.explosions, total > 0 ? base.explosions * total / cut : unseen)
            }
            if let sumCut = sumTailCut(since: mark), StatsEngine.tooMuch(sumCut, beside: mass, cutoff: base.sums) {
                next.sums = StatsEngine.finer(cutoffs.sums, total > 0 && sumCut > 0 ? base.sums * total / sumCut : unseen)
            }
            // Cut as finely as a `Double` tells: no finer cut can help.
            guard next.explosions < cutoffs.explosions || next.sums < cutoffs.sums else { break }
            cutoffs = next
            if total == 0 { unseen *= unseen }
            explosionCutBound = mark.explosions
            meter.dropCuts(from: mark.sumTails)
            givenConditions = conditions
            boundPoolTables = BoundPoolTables()
            meter.setCutoffs(explosions: cutoffs.explosions, sums: cutoffs.sums)
            part = try outcomes(of: expr)
            cut = explosionCutBound - mark.explosions
            if !cutsTooMuch(of: part, cut, since: mark) { return (part, cut) }
        }
        throw .tooExpensive("the condition after 'given' is too rare to work out exactly")
    }

    /// `cutoff` times `factor`, down to a power of ten, as the note states it (`1e-24`, not
    /// `2.6e-23`), and no finer than `finestExplosionCutoff`.
    private static func finer(_ cutoff: Double, _ factor: Double) -> Double {
        let finer = cutoff * factor
        guard finer > 0, finer.isFinite else { return finestExplosionCutoff }
        return Swift.max(finestExplosionCutoff, pow(10, log10(finer).rounded(.down)))
    }

    /// Whether a condition held nowhere is sure never to hold whatever its dice show
    /// (`ValueBounds`), so that cutting finer cannot help: `1d2 given 4d6!kh1 >= 90` (each die
    /// of a chain is kept or dropped alone) was worked out again and again, then simulated, to
    /// say it never held. Only where its names are the environment's: not inside the `let`
    /// of the unit, nor reading a parameter or bound name (which may hide a variable).
    private func neverHolds(_ expr: Expr, _ part: Distribution) -> Bool {
        guard part.totalProbability == 0, case .given(_, let condition) = expr.kind else { return false }
        if let frame = frames.last {
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: condition, of: Set(frame.names), weight: 1, into: &uses)
            guard uses.isEmpty else { return false }
        }
        let ends = ValueBounds.ends(of: condition, environment: environment, limits: limits)
        return ends.low == BoundNumber(0) && ends.high == BoundNumber(0)
    }

    /// The finest cutoff a rare condition is worked out with: the probabilities of the rolls
    /// beyond it are near the least a `Double` holds.
    static let finestExplosionCutoff = 1e-280

    /// The error of `given` unit `expr` whose condition never holds, at the condition that
    /// never held (`GivenConditions`): naming a value it reads that was fixed outside it
    /// (`namesFixedByGiven`), when there is one.
    private func impossible(_ expr: Expr) -> DiceError {
        let range = (expr.givenCondition ?? expr).range
        if let frame = frames.last {
            var uses: [String: Int] = [:]
            StatsEngine.countUses(in: expr, of: Set(frame.names), weight: 1, into: &uses)
            for name in frame.names.reversed() where uses[name] != nil {
                if case .value(let value) = frame[name] {
                    return givenConditions.error(.conditionImpossibleWhen(name: name, value: value), else: range)
                }
            }
        }
        return givenConditions.error(.conditionImpossible, else: range)
    }
}
