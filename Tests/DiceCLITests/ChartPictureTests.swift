import Foundation
import Testing

/// The charts `--svg` writes, drawn: `rsvg-convert` (Debian's librsvg2-bin, which `.ci/run`
/// installs) renders each to PNG, and `scripts/check-chart-png.py` reads the picture back:
/// not blank, and at the centre of every bar and point its own colour. The three pictures in
/// `docs/` (the README shows one) are these, written with `RECORD_SNAPSHOTS=1`; they are
/// checked against the charts as they are now, so a chart that changed shape fails until
/// they are drawn again.
@Suite struct ChartPictureTests {
    struct Chart: Sendable, CustomTestStringConvertible {
        /// The picture's name in docs/.
        var name: String
        var statements: [String]
        /// Bars or points in the chart.
        var marks: Int
        /// Those big enough to have a pixel of their own colour, at least.
        var checked: Int
        var colours: [String]
        var testDescription: String { name }
    }

    static let attack = "def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
        + "else if r + bonus >= ac then 1d8 + 3 else 0"

    static let charts: [Chart] = [
        // 4d6kh3's 3 and 4 are under half a pixel high: 14 of its 16 bars are checked.
        Chart(name: "chart-bars", statements: ["stats 4d6kh3"], marks: 16, checked: 14, colours: ["#4e79a7"]),
        Chart(name: "chart-compare", statements: ["stats 2d20kh1 + 5, 1d20 + 8"], marks: 40, checked: 38,
              colours: ["#4e79a7", "#f28e2b"]),
        Chart(name: "chart-sweep", statements: [attack, "stats attack(ac, 7) for ac in 10..30"], marks: 21,
              checked: 21, colours: ["#4e79a7"]),
    ]

    /// An executable on the PATH.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let hasRenderer = tool("rsvg-convert") != nil && tool("python3") != nil

    /// Runs `executable` with `arguments`; its status and standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The chart `dice --svg` writes for `chart`, in `directory`.
    static func svg(_ chart: Chart, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent(chart.name + ".svg")
        let result = try DiceProcess.run(["--svg", file.path] + chart.statements.flatMap { ["-e", $0] })
        #expect(result.status == 0, "\(result.stderr)")
        return file
    }

    /// What `scripts/check-chart-png.py` reads in `png` against `svg`.
    static func check(_ svg: URL, _ png: URL) throws -> [String: Any] {
        let python = try #require(tool("python3"), "python3 reads the picture")
        let script = DiceProcess.packageRoot.appendingPathComponent("scripts/check-chart-png.py").path
        let (status, output) = try run(python, [script, svg.path, png.path])
        #expect(status == 0, "\(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static func expectPicture(_ report: [String: Any], of chart: Chart) {
        #expect(report["width"] as? Int == 800 && report["height"] as? Int == 500)
        #expect(report["marks"] as? Int == chart.marks)
        #expect((report["checked"] as? Int ?? 0) >= chart.checked)
        #expect((report["wrong"] as? [Any])?.isEmpty == true, "pixels not of their bar's colour: \(report["wrong"] ?? "")")
        #expect(report["colours"] as? [String] == chart.colours)
        // Not blank, not a wash: bars, axes and text on white.
        let inked = (report["inked"] as? NSNumber)?.doubleValue ?? 0
        #expect(inked > 0.05 && inked < 0.8, "\(inked) of the pixels are not white")
    }

    @Test(.enabled(if: ChartPictureTests.hasRenderer, "rsvg-convert (Debian: librsvg2-bin) or python3 is not installed"),
          arguments: ChartPictureTests.charts)
    func aChartDrawsItsBarsInTheirColours(_ chart: Chart) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dice-picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = try Self.svg(chart, in: directory)
        let png = directory.appendingPathComponent(chart.name + ".png")
        let renderer = try #require(Self.tool("rsvg-convert"))
        let (status, _) = try Self.run(renderer, ["-w", "800", "-h", "500", "-b", "white", svg.path, "-o", png.path])
        #expect(status == 0)
        Self.expectPicture(try Self.check(svg, png), of: chart)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            let kept = DiceProcess.packageRoot.appendingPathComponent("docs/\(chart.name).png")
            try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = try? FileManager.default.removeItem(at: kept)
            try FileManager.default.copyItem(at: png, to: kept)
        }
    }

    /// The pictures in docs/ are the charts as they are drawn now (python3 alone reads them).
    @Test(.enabled(if: ChartPictureTests.tool("python3") != nil, "python3 is not installed"),
          arguments: ChartPictureTests.charts)
    func theDocsPicturesAreTheChartsOfNow(_ chart: Chart) throws {
        let png = DiceProcess.packageRoot.appendingPathComponent("docs/\(chart.name).png")
        try #require(FileManager.default.fileExists(atPath: png.path),
                     "docs/\(chart.name).png is missing: draw it with RECORD_SNAPSHOTS=1 (needs rsvg-convert)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dice-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        Self.expectPicture(try Self.check(try Self.svg(chart, in: directory), png), of: chart)
    }
}
