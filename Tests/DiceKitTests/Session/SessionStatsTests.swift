import Testing
@testable import DiceKit

/// `Session.stats(_:)`, the library's one way in to odds: the report a `stats` statement gets,
/// with the session's names, limits and seed.
@Suite struct SessionStatsTests {
    static func statementReport(_ session: inout Session, _ text: String) throws -> DistributionReport? {
        guard case .stats(_, let report) = try session.execute(try Parser.parseProgram("stats " + text)[0]) else {
            return nil
        }
        return report
    }

    @Test func anEstimateIsTheStatementsAndFixedByTheSeed() throws {
        var session = Session(seed: 5)
        session.limits.stats = StatsBudget(maxWork: 1)   // no exact work: a simulation
        // Each estimate is 1,000,000 rolls (seconds in a debug build): three of them.
        let estimate = try session.stats("2d6")
        #expect(!estimate.exact && estimate.sampleCount == Stats.simulationRolls)
        #expect(abs(estimate.distribution.mean - 7) < 0.02)
        #expect(try Self.statementReport(&session, "2d6") == estimate)

        var other = Session(seed: 6)
        other.limits = session.limits
        #expect(try other.stats("2d6") != estimate)
    }

    @Test func itSeesTheSessionsNamesAndRollsNone() throws {
        var session = Session(seed: 9)
        for statement in try Parser.parseProgram("bonus = 2\ndef hit(dc) = 1d20 + bonus >= dc") {
            _ = try session.execute(statement)
        }
        let before = session
        let report = try session.stats("hit(15)")
        #expect(report.exact && abs(report.distribution.mean - 0.4) < 1e-12)   // 8 faces of 20
        var after = session
        var untouched = before
        #expect(try after.roll("1d1000") == (try untouched.roll("1d1000")))
    }

    /// The kind of error `session.stats(text)` throws, or nil.
    static func errorKind(_ session: Session, _ text: String) -> DiceError.Kind? {
        do {
            _ = try session.stats(text)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func errorsAreTheExpressions() {
        let session = Session()
        #expect(Self.errorKind(session, "1d6 / 0") == .divisionByZero)
        #expect(Self.errorKind(session, "2d6 +") == .expected(.expression, found: .end))
        guard case .unknownName("nope", _)? = Self.errorKind(session, "nope + 1") else {
            Issue.record("an unknown name is no unknownName error")
            return
        }
        #expect(Self.errorKind(session, "4d6kh3") == nil)
    }
}
