/// Renders a distribution for people: the moments, then a table of outcome,
/// probability, "at least" and "at most", with a bar per outcome.
///
/// ```
/// 4d6kh3: mean 12.24, stdev 2.85, min 3, max 18
///  value       P  at least  at most
///      3   0.08%   100.00%    0.08%  ▏
///     ...
/// ```
/// A 0/1 expression (a comparison) prints its probability: `P = 55.00%`.
public struct DistributionRenderer: Sendable {
    /// Columns available for a line (the terminal's width).
    public var width: Int
    /// Unicode block bars; `#` otherwise.
    public var unicode: Bool
    /// Tables longer than this are trimmed of their far tails, then grouped into ranges.
    public var maxRows: Int

    /// A renderer for lines of `width` columns.
    public init(width: Int = 80, unicode: Bool = true, maxRows: Int = 50) {
        self.width = width
        self.unicode = unicode
        self.maxRows = maxRows
    }

    /// The whole report, lines joined by newlines (no trailing newline).
    ///
    /// - Complexity: O(*k*) for *k* outcomes.
    public func render(_ report: DistributionReport, title: String) -> String {
        let distribution = report.distribution
        var lines: [String] = []
        if !report.exact, let rolls = report.sampleCount {
            lines.append(DistributionRenderer.estimateNote(rolls: rolls, standardError: report.standardError))
        }
        if distribution.isIndicator {
            lines.append("\(title): P = \(DistributionRenderer.percent(distribution.probability(of: .integer(1))))")
        } else {
            var header = "\(title): mean \(DistributionRenderer.fixed(distribution.mean, 2))"
            header += ", stdev \(DistributionRenderer.fixed(distribution.standardDeviation, 2))"
            header += DistributionRenderer.extreme("min", report.minimum, sample: distribution.minimum)
            header += DistributionRenderer.extreme("max", report.maximum, sample: distribution.maximum)
            lines.append(header)
            lines += table(distribution)
        }
        if report.sumTailsCut {
            let mass = report.truncatedMass > 0 ? DistributionRenderer.scientific(report.truncatedMass) : "under 1e-15"
            lines.append("(far tails cut where the probability left was below 1e-15 for sums, 1e-12 for explosions; "
                         + "\(mass) of the total is not shown)")
        } else if report.truncatedMass > 0 {
            lines.append("(explosions cut where the probability left was below 1e-12; "
                         + "\(DistributionRenderer.scientific(report.truncatedMass)) of the total is not shown)")
        }
        return lines.joined(separator: "\n")
    }

    /// The first line of an estimate: how it was made and how precise it is.
    static func estimateNote(rolls: Int, standardError: Double?) -> String {
        var note = "(estimated, not exact: the exact distribution is beyond reach; \(rolls) simulated rolls"
        if rolls < Stats.simulationRolls { note += ", fewer than \(Stats.simulationRolls) to stay within the time bound" }
        if let standardError { note += "; each probability ±\(percent(standardError)) at most (one standard error)" }
        return note + ")"
    }

    /// `, min 3`; `, max unbounded`; `, sample min 1690` when the true end is not known.
    static func extreme(_ name: String, _ value: DistributionReport.Extreme?, sample: Number?) -> String {
        switch value {
        case .value(let number): return ", \(name) \(number)"
        case .unbounded: return ", \(name) unbounded"
        case nil: return sample.map { ", sample \(name) \($0)" } ?? ""
        }
    }

    // MARK: - Table

    private struct Row {
        var label: String
        var probability: Double
        var atLeast: Double
        var atMost: Double
    }

    private func table(_ distribution: Distribution) -> [String] {
        let outcomes = distribution.outcomes
        var cumulative: [Double] = []
        var running = 0.0
        for outcome in outcomes {
            running += outcome.probability
            cumulative.append(running)
        }
        let total = running
        var first = 0
        var last = outcomes.count - 1
        var notes: [String] = []
        if outcomes.count > maxRows {
            // Trim far tails that would print as 0.00% anyway.
            while first < last && cumulative[first] < 0.00005 { first += 1 }
            while last > first && total - cumulative[last - 1] < 0.00005 { last -= 1 }
            let trimmed = first + (outcomes.count - 1 - last)
            if trimmed > 0 {
                notes.append("(\(trimmed) outcomes in the far tails, together under 0.01%, are not shown)")
            }
        }
        var rows: [Row] = []
        let shown = last - first + 1
        let groupSize = shown > maxRows ? (shown + maxRows - 1) / maxRows : 1
        var index = first
        while index <= last {
            let end = Swift.min(index + groupSize - 1, last)
            var probability = 0.0
            for i in index...end { probability += outcomes[i].probability }
            let below = index > 0 ? cumulative[index - 1] : 0
            let label = index == end ? outcomes[index].value.description
                : "\(outcomes[index].value)–\(outcomes[end].value)"
            rows.append(Row(label: label, probability: probability,
                            atLeast: Swift.max(0, total - below), atMost: cumulative[end]))
            index = end + 1
        }
        if groupSize > 1 { notes.append("(outcomes grouped \(groupSize) to a row)") }
        let labelWidth = Swift.max(5, rows.map { $0.label.count }.max() ?? 0)
        let largest = rows.map { $0.probability }.max() ?? 1
        let barWidth = Swift.max(10, width - labelWidth - 31)
        var lines = [DistributionRenderer.pad("value", labelWidth) + "        P  at least   at most"]
        for row in rows {
            var line = DistributionRenderer.pad(row.label, labelWidth)
            line += DistributionRenderer.pad(DistributionRenderer.percent(row.probability), 9)
            line += DistributionRenderer.pad(DistributionRenderer.percent(row.atLeast), 10)
            line += DistributionRenderer.pad(DistributionRenderer.percent(row.atMost), 10)
            line += "  " + bar(largest > 0 ? row.probability / largest : 0, width: barWidth)
            lines.append(line)
        }
        return lines + notes
    }

    func bar(_ fraction: Double, width: Int) -> String {
        let eighths = Int((fraction * Double(width) * 8).rounded())
        if !unicode { return String(repeating: "#", count: (eighths + 4) / 8) }
        let blocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var text = String(repeating: "█", count: eighths / 8) + blocks[eighths % 8]
        if text.isEmpty && fraction > 0 { text = "▏" }
        return text
    }

    // MARK: - Numbers

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - text.count)) + text
    }

    /// `55.00%`; a positive probability that rounds to zero shows as `<0.01%`.
    static func percent(_ probability: Double) -> String {
        if probability > 0 && probability < 0.00005 { return "<0.01%" }
        return fixed(probability * 100, 2) + "%"
    }

    /// `value` with `places` decimals, without Foundation.
    public static func fixed(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int(scaled)
        let integerPart = whole / Int(scale)
        var fraction = String(whole % Int(scale))
        fraction = String(repeating: "0", count: Swift.max(0, places - fraction.count)) + fraction
        let sign = value < 0 && whole != 0 ? "-" : ""
        return places > 0 ? "\(sign)\(integerPart).\(fraction)" : "\(sign)\(integerPart)"
    }

    /// `1.2e-13`
    static func scientific(_ value: Double) -> String {
        guard value > 0, value.isFinite else { return "0" }
        var exponent = 0
        var mantissa = value
        while mantissa < 1 { mantissa *= 10; exponent -= 1 }
        while mantissa >= 10 { mantissa /= 10; exponent += 1 }
        return "\(fixed(mantissa, 1))e\(exponent)"
    }
}
