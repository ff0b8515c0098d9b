import Testing
@testable import DiceKit

/// `--csv`: a header row, then one row an outcome, for one distribution, a comparison and a
/// sweep; fields quoted where CSV needs it.
struct CSVRendererTests {
    static func outcome(_ program: String) throws -> Outcome {
        var session = Session(seed: 1)
        var last: Outcome?
        for statement in try Parser.parseProgram(program) { last = try session.execute(statement) }
        return try #require(last)
    }

    /// "At least" sums the outcomes from the last: the last row's is its own probability, and
    /// none is below its row's (the total less what came before gave 0 in a long tally tail).
    @Test func atLeastIsNeverBelowTheOutcome() throws {
        let csv = try #require(CSVRenderer().csv(for: try Self.outcome(
            "stats let p = 40d10 in (a: count(p, >=5), b: count(p, =1), c: count(p, =10))")))
        let rows = csv.split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",").suffix(3).map { Double(String($0)) ?? -1 }
        }
        #expect(rows.count > 1_000)
        for row in rows { #expect(row[1] >= row[0], "\(row)") }
        let last = try #require(rows.last)
        #expect(last[1] == last[0])
    }

    @Test func oneDistribution() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome("stats 1d4")) == """
            outcome,p,at_least,at_most
            1,0.25,1,0.25
            2,0.25,0.75,0.5
            3,0.25,0.5,0.75
            4,0.25,0.25,1

            """)
        // Fractions as their nearest doubles, probabilities to 12 significant digits.
        #expect(CSVRenderer().csv(for: try Self.outcome("stats 1d3 / 2")) == """
            outcome,p,at_least,at_most
            0.5,0.333333333333,1,0.333333333333
            1,0.333333333333,0.666666666667,0.666666666667
            1.5,0.333333333333,0.333333333333,1

            """)
    }

    /// Over the union of the outcomes: an outcome one expression cannot roll has p 0 there,
    /// and its "at least" and "at most" carry on.
    @Test func aComparison() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome("stats 1d2, 1d2 + 1")) == """
            outcome,p (1d2),at_least (1d2),at_most (1d2),p (1d2 + 1),at_least (1d2 + 1),at_most (1d2 + 1)
            1,0.5,1,0.5,0,1,0
            2,0.5,0.5,1,0.5,1,0.5
            3,0,0,1,0.5,0.5,1

            """)
    }

    /// Texts and tallies are rows too, after the numbers, in the order of `stats`; each
    /// column reads as that expression's own CSV, "at least" and "at most" running over that
    /// order, and carries on over the rows it lacks.
    @Test func aComparisonListsTextsAndTallies() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome(#"stats d{"a", "b"}, d{"b", "c"}"#)) == """
            outcome,"p (d{""a"", ""b""})","at_least (d{""a"", ""b""})","at_most (d{""a"", ""b""})",\
            "p (d{""b"", ""c""})","at_least (d{""b"", ""c""})","at_most (d{""b"", ""c""})"
            a,0.5,1,0.5,0,1,0
            b,0.5,0.5,1,0.5,1,0.5
            c,0,0,1,0.5,0.5,1

            """)
        #expect(CSVRenderer().csv(for: try Self.outcome(#"stats 1d2, d{"b", "c"}"#)) == """
            outcome,p (1d2),at_least (1d2),at_most (1d2),"p (d{""b"", ""c""})","at_least (d{""b"", ""c""})",\
            "at_most (d{""b"", ""c""})"
            1,0.5,1,0.5,0,1,0
            2,0.5,0.5,1,0,1,0
            b,0,0,1,0.5,1,0.5
            c,0,0,1,0.5,0.5,1

            """)
        #expect(CSVRenderer().csv(for: try Self.outcome("stats 1d2, (x: 1d2)")) == """
            outcome,p (1d2),at_least (1d2),at_most (1d2),p ((x: 1d2)),at_least ((x: 1d2)),at_most ((x: 1d2))
            1,0.5,1,0.5,0,1,0
            2,0.5,0.5,1,0,1,0
            (x: 1),0,0,1,0.5,1,0.5
            (x: 2),0,0,1,0.5,0.5,1

            """)
        // One expression's column is its own CSV's.
        let own = try #require(CSVRenderer().csv(for: try Self.outcome(#"stats d{"b", "c"}"#)))
        #expect(own == "outcome,p,at_least,at_most\nb,0.5,1,0.5\nc,0.5,0.5,1\n")
    }

    @Test func aSweepInLongForm() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome("stats 1d2 + x for x in 0..1")) == """
            x,mean,outcome,p,at_least,at_most
            0,1.5,1,0.5,1,0.5
            0,1.5,2,0.5,0.5,1
            1,2.5,2,0.5,1,0.5
            1,2.5,3,0.5,0.5,1

            """)
        // A 0/1 test's mean is its probability, to 12 significant digits.
        let hits = try #require(CSVRenderer().csv(for: try Self.outcome("stats 1d20 >= dc for dc in 19..19")))
        #expect(hits == "dc,mean,outcome,p,at_least,at_most\n19,0.1,0,0.9,1,0.9\n19,0.1,1,0.1,0.1,1\n")
    }

    /// Texts have no mean: the field is empty, as JSON's is null.
    @Test func aSweepOfTextsHasNoMean() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome(#"stats if 1d2 >= x then "hit" else "miss" for x in 2..3"#)) == """
            x,mean,outcome,p,at_least,at_most
            2,,hit,0.5,1,0.5
            2,,miss,0.5,0.5,1
            3,,miss,1,1,1

            """)
    }

    @Test func fieldsAreQuotedWhereCSVNeedsIt() throws {
        #expect(CSVRenderer.field("p (1d6)") == "p (1d6)")
        #expect(CSVRenderer.field("p (max(1d6, 2))") == "\"p (max(1d6, 2))\"")
        #expect(CSVRenderer.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVRenderer.field(" padded") == "\" padded\"")
        #expect(CSVRenderer.field("a\u{1b}[31m\nb") == "a\\u{1b}[31m\\u{a}b")
        let header = try #require(CSVRenderer().csv(for: try Self.outcome("stats max(1d2, 2), 1d2"))?.split(separator: "\n").first)
        #expect(header == #"outcome,"p (max(1d2, 2))","at_least (max(1d2, 2))","at_most (max(1d2, 2))",p (1d2),at_least (1d2),at_most (1d2)"#)
    }

    @Test func onlyStatsHaveCSV() throws {
        #expect(CSVRenderer().csv(for: try Self.outcome("1d6")) == nil)
        #expect(CSVRenderer().csv(for: try Self.outcome("def a = 1")) == nil)
    }
}
