extension PoolModel {
    /// The least and greatest value one die of the pool adds, a chain's total for explosions
    /// (for keep/drop among the dice of `!`, `!p` and `xo` chains, see `KeepOverChains`); `nil`
    /// when a contribution cannot be worked out.
    ///
    /// A chain goes on while its die explodes, so only a face that does not explode ends it:
    /// with `!` a chain is `c(f)` for a face `f` that stops and `c(f)` plus another chain for
    /// one that explodes (`c` what a die showing a face counts: itself, or 0 or 1 for `cs`, less
    /// 1 for a `df` match); its least is the least stopping face's `c` unless an exploding face
    /// counts below 0 (then none: the chain can go down and down), and its greatest alike.
    /// `!p` counts each extra die one less; `!!` adds the faces into one die, counted once.
    var chainBounds: ValueBounds? {
        var failed = false
        func counted(_ value: Int) -> BoundNumber { self.counted(value, failed: &failed) }
        guard let explosion = rules.explosion, someFaceExplodes else {
            let faces = ends(counted).stop
            return failed || faces.low > faces.high ? nil : faces
        }
        if explosion.kind == .compound && !rules.counting.isSum { return compoundCountBounds(chain { BoundNumber($0) }) }
        let result: ValueBounds
        switch explosion.kind {
        case .explode:
            result = chain(counted)
        case .compound:
            result = chain { BoundNumber($0) }
        case .once:
            // A die that explodes adds one die of any face, which does not explode.
            let (stop, go) = ends(counted)
            let any = stop.union(go)
            result = go.low <= go.high ? stop.union(ValueBounds(low: go.low + any.low, high: go.high + any.high)) : stop
        case .penetrate:
            // The first die counts in full, each extra die one less.
            let extras = chain { face in face == Int.min ? -.infinity : counted(face - 1) }
            let (stop, go) = ends(counted)
            result = go.low <= go.high
                ? stop.union(ValueBounds(low: go.low + extras.low, high: go.high + extras.high)) : stop
        }
        guard !failed, result.low <= result.high, !result.low.isNaN, !result.high.isNaN else { return nil }
        return result
    }

    /// The values one die of the pool adds, a chain's total for explosions, as `chainBounds`
    /// works out their ends, with the holes between them: a chain of `!` is a face that stops
    /// after any number of faces that explode, so `1d6!` adds 1–5, 7–11, 13–17, … but never 12.
    /// `nil` when they cannot be worked out: a count that is not whole, or below 0 where a
    /// chain repeats it, `!!` with counting, or too many values (`WholeSet.maxWindow`).
    var chainValues: WholeSet? {
        var failed = false
        func counted(_ face: Int) -> BoundNumber { self.counted(face, failed: &failed) }
        /// `values` as whole numbers; `nil` when one is not whole.
        func whole(_ values: [BoundNumber]) -> [Int]? {
            let whole = values.compactMap(\.whole)
            return whole.count == values.count ? whole : nil
        }
        /// A chain: a face that stops after any number of faces that explode.
        func chain(_ faces: (stop: [BoundNumber], go: [BoundNumber])) -> WholeSet? {
            guard let stop = whole(faces.stop).flatMap(WholeSet.init), let go = whole(faces.go),
                  let explosions = WholeSet.sums(of: go) else { return nil }
            return stop + explosions
        }
        let faces = stopAndGo(counted)
        guard let stops = whole(faces.stop).flatMap(WholeSet.init) else { return nil }
        /// A face that stops, or a face that explodes and then `extra`.
        func stopOrExplode(then extra: WholeSet?) -> WholeSet? {
            guard let extra, let first = whole(faces.go).flatMap(WholeSet.init), let after = first + extra else { return nil }
            return stops.union(after)
        }
        let result: WholeSet?
        switch someFaceExplodes ? rules.explosion?.kind : nil {
        case nil:
            result = stops
        case .explode?:
            result = chain(faces)
        case .compound?:
            result = rules.counting.isSum ? chain(stopAndGo { BoundNumber($0) }) : nil
        case .once?:
            // A die that explodes adds one die of any face, which does not explode.
            result = stopOrExplode(then: whole(faces.stop + faces.go).flatMap(WholeSet.init))
        case .penetrate?:
            // The first die counts in full, each extra die one less.
            result = stopOrExplode(then: chain(stopAndGo { face in face == Int.min ? .nan : counted(face - 1) }))
        }
        return failed ? nil : result
    }

    /// For each face of `die` ascending, the least and greatest value one die adds when it
    /// first settles on that face, as in `chainBounds`: what the face counts, and for a face
    /// that explodes, what its extra dice add (`!!`: the count of the sum). Unique dice
    /// (`UniqueBounds`) choose their first faces; `nil` when a contribution cannot be worked out.
    var firstFaceBounds: [ValueBounds]? {
        var failed = false
        func counted(_ value: Int) -> BoundNumber { self.counted(value, failed: &failed) }
        var result: [ValueBounds] = []
        var explosion = rules.explosion
        if !someFaceExplodes { explosion = nil }
        // What the extra dice after a face that explodes add, but for `!!` with counting.
        var extras = ValueBounds.empty
        switch explosion?.kind {
        case .explode?: extras = chain(counted)
        case .compound?: extras = chain { BoundNumber($0) }
        case .once?:
            let (stop, go) = ends(counted)
            extras = stop.union(go)
        case .penetrate?: extras = chain { face in face == Int.min ? -.infinity : counted(face - 1) }
        case nil: break
        }
        var faces: [Int] = []
        die.forEachWholeOutcome { face, _ in faces.append(face) }
        for face in faces.sorted() {
            guard let kind = explosion?.kind, explodes(face) else {
                result.append(.constant(counted(face)))
                continue
            }
            if kind == .compound && !rules.counting.isSum {
                let sums = ValueBounds(low: BoundNumber(face) + extras.low, high: BoundNumber(face) + extras.high)
                guard let counts = compoundCountBounds(sums, first: face) else { return nil }
                result.append(counts)
            } else {
                let first = counted(face)
                result.append(ValueBounds(low: first + extras.low, high: first + extras.high))
            }
        }
        guard !failed, result.allSatisfy({ $0.low <= $0.high && !$0.low.isNaN && !$0.high.isNaN }) else { return nil }
        return result
    }

    /// The ends of what the faces that stop and the faces that explode count, `value`
    /// giving what a face counts (without explosions, every face stops).
    func ends(_ value: (Int) -> BoundNumber) -> (stop: ValueBounds, go: ValueBounds) {
        let (stop, go) = stopAndGo(value)
        func interval(_ values: [BoundNumber]) -> ValueBounds { values.reduce(.empty) { $0.union(.constant($1)) } }
        return (interval(stop), interval(go))
    }

    /// What each face that stops and each face that explodes counts, `value` giving what a
    /// face counts (without explosions, every face stops).
    func stopAndGo(_ value: (Int) -> BoundNumber) -> (stop: [BoundNumber], go: [BoundNumber]) {
        var stop: [BoundNumber] = [], go: [BoundNumber] = []
        die.forEachWholeOutcome { face, _ in
            if explodes(face) { go.append(value(face)) } else { stop.append(value(face)) }
        }
        return (stop, go)
    }

    /// The ends of a chain of dice each counting `value(face)`, going on while a die explodes.
    func chain(_ value: (Int) -> BoundNumber) -> ValueBounds {
        let (stop, go) = ends(value)
        guard go.low <= go.high else { return stop }
        return ValueBounds(low: go.low < 0 ? -.infinity : stop.low, high: go.high > 0 ? .infinity : stop.high)
    }

    /// What a compounded die counts for `cs`/`cf`/`df`, given the bounds of its sum: the counts
    /// of the sums it may show (`compoundSums`), and without end where `df` alone counts an
    /// unbounded sum. With `first`, of a die whose first face is `first`, which explodes.
    private func compoundCountBounds(_ sums: ValueBounds, first: Int? = nil) -> ValueBounds? {
        guard let reached = compoundSums(first: first) else { return nil }
        var result = ValueBounds.empty
        for sum in reached {
            guard let counted = try? rules.counting.contribution(of: .integer(sum)) else { return nil }
            result = result.union(.constant(BoundNumber(counted)))
        }
        guard result.low <= result.high else { return nil }
        if rules.counting.successes == nil {
            // `df` only: the sum less at most one.
            if !sums.low.isFinite { result.low = -.infinity }
            if !sums.high.isFinite { result.high = .infinity }
        }
        return result
    }

    /// The sums a compounded die may show: its chains at least 8 explosions deep, and deeper
    /// until every sum of the deepest is past every point of counting (beyond, each sum is
    /// too, and counts as they do: `1d6!!cs=100` said max 0, 8 sixes never reaching 100), all
    /// of them or, with `first`, those whose first face is `first` (one that explodes); `nil`
    /// when there are too many, or the sums do not pass the points.
    func compoundSums(first: Int? = nil) -> Set<Int>? {
        let points = [rules.counting.successes, rules.counting.failures].compactMap { $0?.value }
        let past = points.map { BoundNumber($0) }.max() ?? -.infinity
        var stops: [Int] = [], goes: [Int] = []
        die.forEachWholeOutcome { face, _ in if explodes(face) { goes.append(face) } else { stops.append(face) } }
        var reached = Set(stops), partial: Set<Int> = [0]
        if let first {
            reached = Set(stops.compactMap { face in
                let (total, overflow) = first.addingReportingOverflow(face)
                return overflow ? nil : total
            })
            partial = [first]
        }
        for level in 0... {
            if level >= 8 {
                // The sums of the next level are at least the least of this one's plus a face.
                guard level < 4096, goes.allSatisfy({ $0 > 0 }), stops.allSatisfy({ $0 > 0 }) else { return nil }
                if let least = partial.min(), BoundNumber(least) > past { break }
            }
            var next = Set<Int>()
            for sum in partial {
                for face in goes {
                    let (total, overflow) = sum.addingReportingOverflow(face)
                    if !overflow { next.insert(total) }
                }
            }
            guard next.count * Swift.max(1, stops.count) <= 10_000 else { return nil }
            for sum in next {
                for face in stops {
                    let (total, overflow) = sum.addingReportingOverflow(face)
                    if !overflow { reached.insert(total) }
                }
            }
            partial = next
        }
        return reached
    }

    /// What a die showing `face` counts (itself, or 0 or 1 for `cs`, less 1 for a `df` match):
    /// 0 with `failed` set when that cannot be worked out.
    func counted(_ face: Int, failed: inout Bool) -> BoundNumber {
        guard let number = try? rules.counting.contribution(of: .integer(face)) else {
            failed = true
            return 0
        }
        return BoundNumber(number)
    }
}
