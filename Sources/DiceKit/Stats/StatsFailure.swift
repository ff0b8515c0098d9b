/// Why the exact engine stopped: the one error type of its internals, thrown typed.
///
/// Three channels, kept apart so that none passes for another:
/// - `dice`: the expression fails as a roll would (a division by zero, an invalid count):
///   the user's error, reported as it is.
/// - `tooExpensive`: the exact work is beyond the budget or the engine's reach:
///   `Stats.distribution` simulates instead.
/// - `invariant`: the engine broke one of its own invariants: a bug, never simulated over,
///   so that tests and the fuzzer see it and a user is told.
enum StatsFailure: Error, Hashable {
    case dice(DiceError)
    case tooExpensive(String)
    case invariant(String)

    /// Runs an arithmetic step, reporting its fault as the `DiceError` at `range`.
    static func arithmetic<T>(at range: SourceRange,
                              _ body: () throws(ArithmeticFault) -> T) throws(StatsFailure) -> T {
        do {
            return try body()
        } catch {
            throw .dice(DiceError(error.kind, at: range))
        }
    }
}

// MARK: - At the boundary

/// A broken invariant of the exact engine, as `Stats.exactDistribution` throws it: a bug in
/// DiceKit. Not a `StatsError`, so that a caller that simulates on `StatsError` does not
/// hide it.
struct StatsInvariantFailure: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String
    var description: String { "a broken invariant of the exact distribution: \(message)" }
}

extension StatsFailure {
    /// What `Stats.exactDistribution` throws for this failure.
    var publicError: any Error {
        switch self {
        case .dice(let error): return error
        case .tooExpensive(let reason): return StatsError.tooExpensive(reason)
        case .invariant(let message): return StatsInvariantFailure(message: message)
        }
    }

    /// What `Stats.distribution` does after the exact engine stopped this way.
    enum Recovery: Hashable {
        /// Estimate the distribution by simulation.
        case simulate
        /// Fail with this error.
        case fail(DiceError)
    }

    /// What `Stats.distribution` does next; a broken invariant becomes an
    /// `.internalError` at `range` (the whole expression), not a simulation.
    func recovery(at range: SourceRange) -> Recovery {
        switch self {
        case .dice(let error): return .fail(error)
        case .tooExpensive: return .simulate
        case .invariant(let message):
            return .fail(DiceError(.internalError("the exact distribution broke an invariant: \(message)"), at: range))
        }
    }
}
