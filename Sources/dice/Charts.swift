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
    ///
    /// Its text, JSON or CSV is held to the output cap (`Limits.maxOutputBytes`) like a roll's:
    /// past it nothing is printed and the statement fails (`stats 1d1000000` as JSON is 36 MB).
    mutating func showStats(_ outcome: Outcome, input: String, in source: SourceFile,
                            at range: SourceRange) throws(DiceError) -> String? {
        let cap = session.limits.maxOutputBytes
        var printed: [String] = []
        if options.json {
            switch outcome {
            case .stats(_, let report):
                printed = [renderer.json(for: report, input: input)]
            case .compare(let exprs, let reports):
                let entries = zip(exprs, reports).map { (expression: source.text(of: $0.range), report: $1) }
                printed = [renderer.json(comparing: entries, input: input)]
            case .sweep(_, let sweep):
                guard let json = renderer.json(for: sweep, input: input, maxBytes: cap) else {
                    throw DiceError(.outputTooLarge(limit: cap), at: range)
                }
                printed = [json]
            case .roll, .assignment, .definition, .system, .systems:
                break
            }
        } else if options.csv {
            guard let csv = CSVRenderer().csv(for: outcome, maxBytes: cap) else {
                throw DiceError(.outputTooLarge(limit: cap), at: range)
            }
            // The CSV ends in its own newline; a blank line parts it from the one before.
            printed = [(printedCSV ? "\n" : "") + String(csv.dropLast())]
        } else if options.totalOnly {
            switch outcome {
            case .stats(_, let report): printed = [DistributionRenderer.total(report.distribution)]
            case .compare(_, let reports): printed = reports.map { DistributionRenderer.total($0.distribution) }
            case .sweep(_, let sweep): printed = sweep.rows.map { DistributionRenderer.total($0.report.distribution) }
            case .roll, .assignment, .definition, .system, .systems: break
            }
        } else {
            switch outcome {
            case .stats(let expr, let report): printed = [statsRenderer.render(report, title: expr.text)]
            case .compare(let exprs, let reports):
                printed = [statsRenderer.render(comparing: zip(exprs, reports).map { (title: $0.text, report: $1) })]
            case .sweep(let expr, let sweep): printed = [statsRenderer.render(sweep, of: expr)]
            case .roll, .assignment, .definition, .system, .systems: break
            }
            // A chat keeps a table's columns only in a code block.
            if options.markdown { printed = printed.map(Runner.codeBlock) }
        }
        guard printed.reduce(0, { $0 + $1.utf8.count + 1 }) <= cap else {
            throw DiceError(.outputTooLarge(limit: cap), at: range)
        }
        for line in printed { output.line(line) }
        if options.csv && !options.json && !printed.isEmpty { printedCSV = true }
        onStats?(outcome)
        guard let charts, let failed = charts.write(outcome) else { return nil }
        return "cannot write the chart \(TextEscaping.escapingControls(failed.path)): \(failed.failure)"
    }

    /// `text` as a Markdown code block: fenced by more backticks than it has in a row (at least
    /// three), so that a backtick in a title the user wrote cannot end the block.
    static func codeBlock(_ text: String) -> String {
        var longest = 0, run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = Swift.max(longest, run)
        }
        let fence = String(repeating: "`", count: Swift.max(3, longest + 1))
        return fence + "\n" + text + "\n" + fence
    }
}
