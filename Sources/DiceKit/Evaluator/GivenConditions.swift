/// The conditions of the `given`s inside one `E given C` that is rolled again whole until C
/// holds (LANGUAGE.md §7), and whether each ever held: where the error of one that never holds
/// points, alike for the roller (`Evaluator.retryingGiven`, over its tries) and for `stats`
/// (over the outcomes it works out).
///
/// A `given` inside another is tried with it, so its condition failing fails the whole try:
/// `(1d6 given 0) given 1` never holds because of its inner `0`, and says so there. The roller
/// pointed at the outer `1`, `stats` at the inner `0`. When each condition held somewhere and
/// only together they never do (`let r = 1d6 in (r given r > 3) given r < 3`), the error points
/// at the outer condition, which the retried `given` is.
struct GivenConditions {
    /// Where a condition is: written in the retried expression, or inside a macro it uses,
    /// then at that use (the outermost) in the name of the macro whose body has it (the
    /// innermost), as `DiceError.atMacroUse` names an error of a macro's body.
    struct Place: Hashable {
        var range: SourceRange
        var macro: String? = nil
    }

    /// The places of conditions found not to hold, in the order first found.
    private var failed: [Place] = []
    private var known: Set<Place> = []
    private var held: Set<Place> = []

    /// Notes that the condition at `place` held (or did not) once.
    mutating func note(_ place: Place, held holds: Bool) {
        if holds {
            held.insert(place)
        } else if known.insert(place).inserted {
            failed.append(place)
        }
    }

    /// Adds what `other` noted, as if noted after these.
    mutating func merge(_ other: GivenConditions) {
        for place in other.failed { note(place, held: false) }
        held.formUnion(other.held)
    }

    /// These and what `other` noted after them.
    func merging(_ other: GivenConditions) -> GivenConditions {
        var result = self
        result.merge(other)
        return result
    }

    /// The error `kind` at the condition that never held and comes first in the text (the
    /// first found among those at one place), or at `fallback` when each held somewhere.
    func error(_ kind: DiceError.Kind, else fallback: SourceRange) -> DiceError {
        error(kind, else: Place(range: fallback))
    }

    /// The error `kind` at the condition that never held and comes first in the text, or at
    /// the condition `fallback` (in its macro, if any) when each held somewhere.
    func error(_ kind: DiceError.Kind, else fallback: Place) -> DiceError {
        var first = fallback, found = false
        for place in failed where !held.contains(place) {
            if !found || place.range.lowerBound < first.range.lowerBound { first = place }
            found = true
        }
        let error = DiceError(kind, at: first.range)
        return first.macro.map { error.atMacroUse($0, at: first.range) } ?? error
    }
}

/// The roller's tries of the `given`s inside one `E given C` rolled again whole: each
/// condition has its own budget of tries (`Evaluator.givenTries`) for each time it is reached.
///
/// A `given` inside another is tried with it (`GivenConditions`), so one try of the whole
/// fails when any condition fails. Counting every such try against one budget spent the
/// outer's tries on the inner's misses: `(1 given 1d20 == 1) given 1d10 == 1` holds one try
/// in 200 and failed after 1,000 about one time in 150, though each condition alone holds
/// often. So a failed try is charged to the first condition that failed in it, as if that
/// `given` alone were rolled again; the conditions that held before it were reached and
/// passed, and start afresh, as an inner `given` does each time its outer one is tried again.
/// The tries stay bounded: each failed try is charged as a die (`Evaluator.spend`).
struct GivenTries {
    /// The failed tries charged to each condition since it last held before another failed.
    private var spent: [GivenConditions.Place: Int] = [:]
    /// In the current try: the conditions that held before the first that failed, and that one.
    private var passed: [GivenConditions.Place] = []
    private var firstFailed: GivenConditions.Place?

    /// Starts a try of the whole.
    mutating func startTry() {
        passed.removeAll(keepingCapacity: true)
        firstFailed = nil
    }

    /// Notes that the condition at `place` held (or did not) in the current try.
    mutating func note(_ place: GivenConditions.Place, held: Bool) {
        guard firstFailed == nil else { return }
        if held { passed.append(place) } else { firstFailed = place }
    }

    /// Ends a failed try: the condition it is charged to when that has now failed `limit`
    /// tries in a row, else nil.
    mutating func endFailedTry(limit: Int) -> GivenConditions.Place? {
        guard let failed = firstFailed else { return nil }
        for place in passed where place != failed { spent[place] = 0 }
        let count = (spent[failed] ?? 0) &+ 1
        spent[failed] = count
        return count >= limit ? failed : nil
    }
}
