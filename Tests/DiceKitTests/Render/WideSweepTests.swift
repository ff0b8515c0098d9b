import Foundation
import Testing
@testable import DiceKit

/// Sweeps with many outcomes: `match 1d(n) { 1: "fumble", else: 1d(n) } for n in 1..N` has a
/// text among its numbers, so a column an outcome, N + 1 of them. Its text table keeps to the
/// width, its chart to 40 lines, each saying what it leaves out; CSV and JSON keep them all.
///
/// The chances, worked out by hand: for n ≥ 2, fumble is 1/n and each k from 1 to n is
/// (1 − 1/n)/n, largest at n = max(k, 2) (it falls as n grows): 25% for 1 and 2, 22.22% for 3,
/// 8/81 = 9.88% for 9, 39/1600 = 2.44% for 40. For n = 1 the one roll is fumble.
struct WideSweepTests {
    static func sweep(_ last: Int) throws -> (Outcome, Expr, SweepReport) {
        var session = Session(seed: 1)
        let outcome = try session.execute(try Parser.parseProgram(
            #"stats match 1d(n) { 1: "fumble", else: 1d(n) } for n in 1..\#(last)"#)[0])
        guard case .sweep(let expr, let sweep) = outcome else { throw Failure.notASweep }
        return (outcome, expr, sweep)
    }

    enum Failure: Error { case notASweep }

    /// The likeliest columns that fit 80: after the label (`100`, `1000`), fumble (its
    /// `100.00%` and the gap before it take 9) and 1 to 8 (their `25.00%`, 8 each), 73 or 77
    /// in all; 9, next, would pass 80.
    @Test(arguments: [100, 1000])
    func theTableKeepsToTheWidth(last: Int) throws {
        let (_, expr, sweep) = try Self.sweep(last)
        let lines = DistributionRenderer(width: 80).render(sweep, of: expr).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= 80 }, "\(lines.prefix(3))")
        #expect(lines[1].split(separator: " ") == ["n", "1", "2", "3", "4", "5", "6", "7", "8", "fumble"])
        let none: [Substring] = Array(repeating: "0.00%", count: 5)
        #expect(lines[2].split(separator: " ") == ["1", "0.00%", "0.00%", "0.00%"] + none + ["100.00%"])
        #expect(lines[4].split(separator: " ") == ["3", "22.22%", "22.22%", "22.22%"] + none + ["33.33%"])
        #expect(lines.count == 2 + last + 1)
        #expect(lines.last == "(… and \(last + 1 - 9) more outcomes, not shown: at most 9.88% each, for any n)")
    }

    /// However narrow, the likeliest column is shown; without UTF-8 the note has `...`. At
    /// 20 columns, the narrowest, after the label `12`'s 2, fumble takes 9 and 1 takes 8 (2
    /// would pass 20); after `1000`'s 4, fumble alone fits.
    @Test func aNarrowTableShowsTheLikeliest() throws {
        let (_, expr, sweep) = try Self.sweep(12)
        let narrow = DistributionRenderer(width: 20, unicode: false).render(sweep, of: expr)
            .split(separator: "\n").map(String.init)
        #expect(narrow[1].split(separator: " ") == ["n", "1", "fumble"])
        #expect(narrow.last == "(... and 11 more outcomes, not shown: at most 25.00% each, for any n)")
        let (_, longExpr, long) = try Self.sweep(1000)
        let narrowest = DistributionRenderer(width: 20).render(long, of: longExpr).split(separator: "\n").map(String.init)
        #expect(narrowest[1].split(separator: " ") == ["n", "fumble"])
        // Every line of the table: not the title or the note, which are not broken.
        #expect(narrowest.dropFirst().dropLast().allSatisfy { $0.unicodeScalars.count <= 20 })
    }

    /// A table that fits is whole, with no note: 1 and 2 and fumble, n from 1 to 2.
    @Test func aTableThatFitsIsWhole() throws {
        let (_, expr, sweep) = try Self.sweep(2)
        #expect(DistributionRenderer(width: 80).render(sweep, of: expr) == """
            match 1d(n) { 1: "fumble", else: 1d(n) } for n in 1..2
            n       1       2   fumble
            1   0.00%   0.00%  100.00%
            2  25.00%  25.00%   50.00%
            """)
    }

    /// The chart draws 40 lines, the likeliest (fumble and 1 to 39), and says what it left out.
    @Test func theChartDrawsFortyLines() throws {
        let (outcome, _, _) = try Self.sweep(1000)
        let elements = try ChartRendererTests.parse(try #require(ChartRenderer().svg(for: outcome)))
        let lines = elements.filter { $0.name == "polyline" && $0.classes.contains("line") }
        #expect(lines.count == 40)
        #expect(ChartRendererTests.texts(elements, "legend") == (1...39).map(String.init) + ["fumble"])
        #expect(ChartRendererTests.texts(elements, "subtitle") == ["the chance of each outcome by n: the 40 likeliest of 1001"])
        #expect(ChartRendererTests.texts(elements, "note") == ["(… and 961 more outcomes, not drawn: at most 2.44% each, for any n)"])
        // Each line has a point for each value: fumble, the last, falls from 100% at n = 1.
        #expect(lines.allSatisfy { ($0.attributes["points"] ?? "").split(separator: " ").count == 1000 })
    }

    /// CSV and JSON list every chance: a row (an entry) for fumble at n = 1, and for fumble
    /// and each k up to n at every n from 2: 1 + (3 + 4 + … + 101) = 5,149 for n up to 100.
    @Test func csvAndJSONKeepEveryOutcome() throws {
        let (outcome, _, sweep) = try Self.sweep(100)
        let csv = try #require(CSVRenderer().csv(for: outcome)).split(separator: "\n")
        #expect(csv.count == 1 + 5_149)
        #expect(csv.contains("100,,fumble,0.01,0.01,1") && csv.contains("100,,100,0.0099,0.0199,0.99"))
        let json = try #require(OutcomeRenderer().json(for: sweep, input: "stats"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rows = try #require(object["sweep"] as? [[String: Any]])
        #expect(rows.count == 100)
        #expect(rows.reduce(0) { $0 + (($1["distribution"] as? [Any])?.count ?? 0) } == 5_149)
    }

    /// The table and the chart read each chance once: a column at a time, through each
    /// value's distribution, they took 24 s and 47 s in a debug build; now about a second.
    @Test func aWideSweepRendersAtOnce() throws {
        let (outcome, expr, sweep) = try Self.sweep(1000)
        let clock = ContinuousClock()
        let start = clock.now
        _ = DistributionRenderer(width: 200).render(sweep, of: expr)
        _ = ChartRenderer().svg(for: outcome)
        #expect(clock.now - start < .seconds(10))  // a debug build on a loaded machine
    }

    /// Many texts: the table shows those that fit, the chart 40 of 60, each named in its
    /// legend (all fit in it, in columns).
    @Test func manyTextsAreCutAlike() throws {
        let faces = (1...60).map { "\"o\($0)\"" }.joined(separator: ", ")
        var session = Session(seed: 1)
        let outcome = try session.execute(try Parser.parseProgram("stats d{\(faces)} for x in 1..2")[0])
        guard case .sweep(let expr, let sweep) = outcome else { Issue.record("not a sweep"); return }
        // Every face is as likely (1/60 = 1.67%): the first ones that fit, in the order written.
        let table = DistributionRenderer(width: 80).render(sweep, of: expr).split(separator: "\n").map(String.init)
        #expect(table[1].split(separator: " ") == ["x"] + (1...11).map { "o\($0)" })
        #expect(table.last == "(… and 49 more outcomes, not shown: at most 1.67% each, for any x)")
        let elements = try ChartRendererTests.parse(try #require(ChartRenderer().svg(for: outcome)))
        #expect(elements.filter { $0.name == "polyline" }.count == 40)
        #expect(ChartRendererTests.texts(elements, "legend") == (1...40).map { "o\($0)" })
        #expect(ChartRendererTests.texts(elements, "note") == ["(… and 20 more outcomes, not drawn: at most 1.67% each, for any x)"])
    }
}
