import DiceKit

/// The files `--svg FILE` writes: the first `stats` result of the run to FILE, the second to
/// FILE with `-2` before its extension (`chart.svg`, `chart-2.svg`, `chart-3.svg`, ...).
///
/// A reference, so that the copies of a `Runner` the REPL makes for each line count on
/// from each other; used by one statement at a time.
final class ChartFiles: @unchecked Sendable {
    let path: String
    private(set) var written = 0

    init(path: String) { self.path = path }

    /// The name of the next chart: `path`, then `path` numbered from 2.
    var nextPath: String { ChartFiles.numbered(path, written + 1) }

    /// `path` for the first chart; for the nth, `-n` before the extension of its last
    /// component (`out/chart.svg` -> `out/chart-2.svg`; `chart` -> `chart-2`).
    static func numbered(_ path: String, _ n: Int) -> String {
        guard n > 1 else { return path }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "-\(n)" }
        return String(path[..<dot]) + "-\(n)" + String(path[dot...])
    }

    /// Writes `outcome`'s chart to the next file; returns why it failed, or `nil`.
    func write(_ outcome: Outcome) -> (path: String, failure: String)? {
        guard let svg = ChartRenderer().svg(for: outcome) else { return nil }
        let target = nextPath
        if let failure = AtomicFile.write(svg, to: target) { return (target, failure) }
        written += 1
        return nil
    }
}

extension Runner {
    /// Prints a `stats` result (one distribution, a comparison or a sweep) as JSON, CSV, its
    /// means (`--total`; of tallies each field's, of texts the likeliest) or tables; then hands it to `onStats` and writes its chart
    /// (`--svg`). Returns why the chart could not be written, or `nil`.
    mutating func showStats(_ outcome: Outcome, input: String, in source: SourceFile) -> String? {
        if options.json {
            switch outcome {
            case .stats(_, let report):
                output.line(renderer.json(for: report, input: input))
            case .compare(let exprs, let reports):
                let entries = zip(exprs, reports).map { (expression: source.text(of: $0.range), report: $1) }
                output.line(renderer.json(comparing: entries, input: input))
            case .sweep(_, let sweep):
                output.line(renderer.json(for: sweep, input: input))
            case .roll, .assignment, .definition, .system, .systems:
                break
            }
        } else if options.csv, let csv = CSVRenderer().csv(for: outcome) {
            if printedCSV { output.line("") }
            output.write(csv)
            printedCSV = true
        } else if options.totalOnly {
            switch outcome {
            case .stats(_, let report): output.line(DistributionRenderer.total(report.distribution))
            case .compare(_, let reports): for report in reports { output.line(DistributionRenderer.total(report.distribution)) }
            case .sweep(_, let sweep): for row in sweep.rows { output.line(DistributionRenderer.total(row.report.distribution)) }
            case .roll, .assignment, .definition, .system, .systems: break
            }
        } else {
            switch outcome {
            case .stats(let expr, let report): output.line(statsRenderer.render(report, title: expr.text))
            case .compare(let exprs, let reports):
                output.line(statsRenderer.render(comparing: zip(exprs, reports).map { (title: $0.text, report: $1) }))
            case .sweep(let expr, let sweep): output.line(statsRenderer.render(sweep, of: expr))
            case .roll, .assignment, .definition, .system, .systems: break
            }
        }
        onStats?(outcome)
        guard let charts, let failed = charts.write(outcome) else { return nil }
        return "cannot write the chart \(TextEscaping.escapingControls(failed.path)): \(failed.failure)"
    }
}
