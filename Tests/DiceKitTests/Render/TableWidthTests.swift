import Testing
@testable import DiceKit

/// A `stats` table in a narrow terminal: the bars take the columns the numbers leave, and
/// when too few are left for a bar to be read, the numbers come alone.
struct TableWidthTests {
    static let blocks = Set("█▏▎▍▌▋▊▉")

    /// The text of `statement`'s table at `width` columns.
    static func table(_ statement: String, width: Int) throws -> String {
        var session = Session(seed: 1)
        let outcome = try session.execute(try #require(try Parser.parseProgram(statement).first))
        let renderer = DistributionRenderer(width: width)
        switch outcome {
        case .stats(let expr, let report): return renderer.render(report, title: expr.text)
        case .sweep(let expr, let sweep): return renderer.render(sweep, of: expr)
        default: Issue.record("not a table: \(statement)"); return ""
        }
    }

    /// The widest bar of `text`'s lines, in block characters.
    static func widestBar(_ text: String) -> Int {
        text.split(separator: "\n").map { line in line.filter { blocks.contains($0) }.count }.max() ?? 0
    }

    @Test(arguments: ["stats 2d4", #"stats match 1d3 { 1: "miss", 2: "hit", else: "crit" }"#])
    func barsFillWhatTheColumnsLeave(statement: String) throws {
        // Five columns of label, then P, at least and at most (31 columns with their gaps).
        #expect(Self.widestBar(try Self.table(statement, width: 80)) == 80 - 5 - 31)
        #expect(Self.widestBar(try Self.table(statement, width: 40)) == 4)
        for width in [20, 30, 39] {
            let text = try Self.table(statement, width: width)
            #expect(Self.widestBar(text) == 0, "width \(width):\n\(text)")
            #expect(text.contains("at most"))
        }
    }

    /// The header breaks after a comma rather than pass the width: every line above the
    /// table fits, and every item is there (it wrapped under about 42 columns).
    @Test(arguments: [30, 40, 46, 80])
    func theHeaderFitsTheWidth(width: Int) throws {
        let text = try Self.table("stats 2d6", width: width)
        let header = text.split(separator: "\n").prefix { !$0.hasPrefix("value") }
        #expect(header.allSatisfy { $0.count <= width }, "\(text)")
        let items = header.joined(separator: " ").replacingOccurrences(of: ",", with: "")
        #expect(items == "2d6: mean 7.00 stdev 2.42 min 2 max 12 median 7 p10 4 p90 10", "\(text)")
    }

    /// A label's columns are its Unicode scalars, counted from its bytes.
    @Test(arguments: ["", "hit", "é🎲a", "(hits: 2, glitch: 0)", "\u{1b}", "e\u{301}", String(repeating: "ø", count: 40)])
    func columnsAreUnicodeScalars(text: String) {
        #expect(DistributionRenderer.columns(text) == text.unicodeScalars.count)
    }

    /// Labels of other lengths in one table line up: each row as wide as the widest label.
    @Test func labelsOfTextsLineUp() throws {
        let text = try Self.table(#"stats match 1d3 { 1: "é", 2: "🎲🎲", else: "crit" }"#, width: 80)
        let rows = text.split(separator: "\n").dropFirst(2)
        let starts = rows.map { row in row.unicodeScalars.firstIndex(of: "%").map { row.unicodeScalars.distance(from: row.unicodeScalars.startIndex, to: $0) } }
        #expect(rows.count == 3 && Set(starts).count == 1, "\(text)")
    }

    @Test func aSweepDrawsBarsInTheRoomLeft() throws {
        let statement = "stats 1d6 + x for x in 1..2"
        // `x  mean  stdev  median`: 24 columns with the gap before the bar.
        #expect(Self.widestBar(try Self.table(statement, width: 30)) == 6)
        #expect(Self.widestBar(try Self.table(statement, width: 27)) == 0)
    }

    @Test(arguments: [20, 36, 46, 80, 200])
    func noLineWithABarPassesTheWidth(width: Int) throws {
        for statement in ["stats 3d6", #"stats match 1d3 { 1: "miss", 2: "hit", else: "crit" }"#,
                          "stats 1d6 + x for x in 1..3"] {
            let text = try Self.table(statement, width: width)
            for line in text.split(separator: "\n") where line.contains(where: { Self.blocks.contains($0) }) {
                #expect(line.count <= width, "\(statement) at \(width): \(line)")
            }
        }
    }
}
