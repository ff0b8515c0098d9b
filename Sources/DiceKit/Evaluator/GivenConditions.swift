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
        var first: Place?
        for place in failed where !held.contains(place) {
            if first.map({ place.range.lowerBound < $0.range.lowerBound }) ?? true { first = place }
        }
        guard let first else { return DiceError(kind, at: fallback) }
        let error = DiceError(kind, at: first.range)
        return first.macro.map { error.atMacroUse($0, at: first.range) } ?? error
    }
}
