/// The ends of a report whose tails were cut (LANGUAGE.md §7: min and max are never wrong).
extension StatsEngine {
    /// `known` with the ends `ValueBounds.ends` could not tell worked out otherwise, for
    /// `expr` whose tails were cut from `distribution`, by `endsCutFiner` and bounds that hold
    /// every value, maybe more (`loose`). Where the tails of sums were cut, the outcomes left
    /// are no ends: a finite loose end is sound (`let r = 100000d6 in r given r % 2 == 0` said
    /// min 345520, the least sum its cut tails left, where it is 100000). Where only explosion
    /// tails were cut, an outcome is the end where cutting finer does not move it (`count({1d6!,
    /// 2d6!}kh1, >0)` is 1, its loose bounds 0 to 2), and where it moves, a finite loose end is.
    /// An unbounded loose end may be no end at all (`r - r` for `r` read twice): not taken.
    func unknownEnds(_ known: ValueBounds.Ends, _ expr: Expr, _ distribution: Distribution) -> ValueBounds.Ends {
        let loose = ValueBounds.of(expr, environment: environment, limits: limits, sound: true)
        var finer: ValueBounds??
        func cutFiner() -> ValueBounds? {
            if finer == nil { finer = .some(endsCutFiner(expr, distribution)) }
            return finer ?? nil
        }
        func end(_ loose: BoundNumber?, _ finer: () -> BoundNumber?) -> BoundNumber? {
            guard let loose, loose.isFinite else { return finer() }
            if meter.cutTails { return loose }
            return finer().map { $0.isFinite ? $0 : loose } ?? loose
        }
        var ends = known
        if ends.low == nil { ends.low = end(loose?.low) { cutFiner()?.low } }
        if ends.high == nil { ends.high = end(loose?.high) { cutFiner()?.high } }
        // Values the expression is known to take, which a cut may have left out: `let r =
        // 1000d6! in max(r, 5000) - r` is 4000 at r = 1000, whose chance underflows (it said
        // max 1583).
        if let reached = known.reached {
            ends.low = ends.low.map { Swift.min($0, reached.low) }
            ends.high = ends.high.map { Swift.max($0, reached.high) }
        }
        return ends
    }

    /// The ends of `expr`, whose explosion or sum tails were cut from `distribution`, when
    /// `ValueBounds` cannot tell them (`count(3d6!, =6)`, a bound pool, `given`): worked out
    /// again with the tails cut 10,000 times finer, an end that moves is taken to go on without
    /// end (each explosion is a few times less likely than the one before, so 10,000 times
    /// reaches several more), and one that stays is the end. `nil` when that is too costly.
    /// Both cuts go finer: with the explosions' alone, the sum tails of `let r = 20d6! in r
    /// given r % 2 == 0` stayed at 286, taken for its max, where it has none.
    private func endsCutFiner(_ expr: Expr, _ distribution: Distribution) -> ValueBounds? {
        // Texts and tallies alone have no ends to find: not worked out again (shadowrun's `push`).
        guard let low = distribution.minimum, let high = distribution.maximum else { return nil }
        var finer = limits
        finer.stats.explosionCutoff = limits.stats.explosionCutoff * 1e-4
        finer.stats.sumTailCutoff = limits.stats.sumTailCutoff * 1e-4
        let engine = StatsEngine(environment: environment, limits: finer, meter: meter.fresh(finer.stats))
        guard let deeper = try? engine.outcomes(of: expr), let deeperLow = deeper.minimum,
              let deeperHigh = deeper.maximum else { return nil }
        return ValueBounds(low: deeperLow < low ? -.infinity : BoundNumber(low),
                           high: deeperHigh > high ? .infinity : BoundNumber(high))
    }
}
