/// Renders a distribution for people: the moments, then a table of outcome,
/// probability, "at least" and "at most", with a bar per outcome.
///
/// ```
/// 4d6kh3: mean 12.24, stdev 2.85, min 3, max 18, median 12, p10 9, p90 16
///  value       P  at least  at most
///      3   0.08%   100.00%    0.08%  ▏
///     ...
/// ```
/// A test (a comparison, `and`, `or`, `not`: `Stats.isTest`) prints its probability: `P = 55.00%`.
public struct DistributionRenderer: Sendable {
    /// Columns available for a line (the terminal's width), kept within `widths`.
    package var width: Int {
        didSet { width = DistributionRenderer.clamped(width) }
    }

    /// The widths a renderer draws at: a width outside is taken as its nearest end.
    package static let widths = 20...1_000

    /// `width`, or the nearest end of `widths` when it is outside.
    package static func clamped(_ width: Int) -> Int { Swift.min(Swift.max(width, widths.lowerBound), widths.upperBound) }
    /// Unicode block bars; `#` otherwise.
    package var unicode: Bool
    /// Tables longer than this are trimmed of their far tails, then grouped into ranges.
    package var maxRows: Int
    /// The rows of a table unless a renderer is given others (the default of `init`); a chart
    /// trims from the same count, so that it leaves out the tails its table leaves out.
    package static let tableRows = 50

    /// A renderer for lines of `width` columns.
    public init(width: Int = 80, unicode: Bool = true, maxRows: Int = 50) {
        self.width = DistributionRenderer.clamped(width)
        self.unicode = unicode
        self.maxRows = maxRows
    }

    /// The whole report, lines joined by newlines (no trailing newline). `title`, the
    /// expression as the user wrote it, shows its control characters as `\u{1b}`-style escapes.
    ///
    /// - Complexity: O(*k*) for *k* outcomes.
    public func render(_ report: DistributionReport, title: String) -> String {
        let title = TextEscaping.escapingControls(title)
        // Built as UTF-8 bytes: in a process that prints one table (`dice --stats -e 3d6`),
        // String concatenation and interpolation cost more than the distribution itself.
        return DistributionRenderer.text { out in write(report, title: title, into: &out) }
    }

    private func write(_ report: DistributionReport, title: String, into out: inout ByteWriter) {
        let distribution = report.distribution
        if !report.exact, let rolls = report.sampleCount {
            out.write(text: DistributionRenderer.estimateNote(rolls: rolls, standardError: report.standardError))
            out.write("\n")
        }
        if distribution.hasSymbolic {
            writeValues(report, title: title, into: &out)
        } else {
        out.write(text: title)
        if report.isTest {
            out.write(": P = ")
            DistributionRenderer.appendPercent(distribution.probability(of: .integer(1)), to: &out)
        } else {
            let moments = ": mean " + DistributionRenderer.fixed(distribution.mean, 2)
                + ", stdev " + DistributionRenderer.fixed(distribution.standardDeviation, 2)
                + DistributionRenderer.extreme("min", report.minimum, sample: distribution.minimum)
                + DistributionRenderer.extreme("max", report.maximum, sample: distribution.maximum)
            // Lines of at most the width, broken after a comma: the percentiles on a line of
            // their own when the header would pass it, and the moments too in a narrow terminal.
            let percentiles = DistributionRenderer.percentiles(distribution)
            var line = DistributionRenderer.columns(title)
            if line + moments.count + percentiles.count > width {
                DistributionRenderer.writeBroken(moments, width: width, line: &line, into: &out)
                out.write("\n")
                line = 0
                DistributionRenderer.writeBroken(String(percentiles.dropFirst(2)), width: width, line: &line, into: &out)
            } else {
                out.write(text: moments + percentiles)
            }
            table(distribution, into: &out)
        }
        }
        if let note = DistributionRenderer.cutNote(report) {
            // The far tails' note is 100 columns: in 80 it broke mid-word, so it breaks after a comma.
            out.write("\n")
            var line = 0
            DistributionRenderer.writeBroken("(\(note))", width: width, line: &line, into: &out)
        }
    }

    /// What a report whose tails were cut says of them, at the cutoffs it was cut with (finer
    /// than 1e-12 where a rare `given` was worked out again: `1d2 given 1d6! >= 90` said 1e-12
    /// where it was cut at 1e-24); `nil` when nothing was cut.
    static func cutNote(_ report: DistributionReport) -> String? {
        let explosions = cutoff(report.explosionCutoff), sums = cutoff(report.sumTailCutoff)
        let mass = scientific(report.truncatedMass)
        if report.sumTailsCut {
            return "far tails cut where the probability left was below \(sums) for sums, \(explosions) for explosions; "
                + "\(report.truncatedMass > 0 ? mass : "under " + sums) of the total is not shown"
        }
        guard report.truncatedMass > 0 else { return nil }
        return "explosions cut where the probability left was below \(explosions); \(mass) of the total is not shown"
    }

    /// A cutoff as the note states it: `1e-12` for a power of ten, else as `scientific`.
    private static func cutoff(_ value: Double) -> String {
        guard value > 0, value.isFinite else { return "0" }
        let (mantissa, exponent) = decimalExponent(value)
        if Swift.abs(mantissa - 1) < 1e-9 { return "1e\(exponent)" }
        if Swift.abs(mantissa - 10) < 1e-8 { return "1e\(exponent + 1)" }
        return scientific(value)
    }

    /// `text`, items separated by `", "`, with a line break after the comma before each item
    /// that would pass `width` columns; `line` is the columns the line already holds.
    static func writeBroken(_ text: String, width: Int, line: inout Int, into out: inout ByteWriter) {
        for (index, item) in text.split(separator: ", ", omittingEmptySubsequences: false).enumerated() {
            let item = String(item)
            if index > 0 {
                if line + 2 + item.count > width {
                    out.write(",\n")
                    line = 0
                } else {
                    out.write(", ")
                    line += 2
                }
            }
            out.write(text: item)
            line += item.count
        }
    }

    /// The text `body` writes.
    static func text(_ body: (inout ByteWriter) -> Void) -> String {
        var bytes: [UInt8] = []
        ByteWriter.appending(to: &bytes, body)
        return String(decoding: bytes, as: UTF8.self)
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

    /// `, median 13, p10 6, p90 20`: the least outcomes whose "at most" reaches 50%, 10%, 90%.
    static func percentiles(_ distribution: Distribution) -> String {
        guard let marks = distribution.percentiles else { return "" }
        return ", median \(OutcomeText.label(marks.median)), p10 \(OutcomeText.label(marks.p10)), "
            + "p90 \(OutcomeText.label(marks.p90))"
    }

    // MARK: - Table

    /// One line of the table: the outcomes `first...last` (one, or a group of them).
    private struct Row {
        var first: Int
        var last: Int
        var probability: Double
        var atLeast: Double
        var atMost: Double
    }

    /// The table's lines, each after a newline.
    private func table(_ distribution: Distribution, into out: inout ByteWriter) {
        let outcomes = distribution.outcomes
        let probabilities = outcomes.map(\.probability)
        let cumulative = Distribution.sumsFromStart(probabilities), fromEnd = Distribution.sumsFromEnd(probabilities)
        var first = 0
        var last = outcomes.count - 1
        var trimmed = 0
        if outcomes.count > maxRows {
            // Trim far tails that would print as 0.00% anyway.
            while first < last && cumulative[first] < 0.00005 { first += 1 }
            while last > first && fromEnd[last] < 0.00005 { last -= 1 }
            trimmed = first + (outcomes.count - 1 - last)
        }
        var rows: [Row] = []
        let shown = last - first + 1
        let groupSize = shown > maxRows ? (shown + maxRows - 1) / maxRows : 1
        rows.reserveCapacity((shown + groupSize - 1) / groupSize)
        var index = first
        var labelWidth = 5
        var largest = 0.0
        while index <= last {
            let end = Swift.min(index + groupSize - 1, last)
            var probability = 0.0
            for i in index...end { probability += outcomes[i].probability }
            let row = Row(first: index, last: end, probability: probability,
                          atLeast: fromEnd[index], atMost: cumulative[end])
            labelWidth = Swift.max(labelWidth, DistributionRenderer.labelColumns(row, outcomes))
            largest = Swift.max(largest, probability)
            rows.append(row)
            index = end + 1
        }
        let barWidth = DistributionRenderer.barColumns(width - labelWidth - 31)
        out.write("\n")
        DistributionRenderer.appendPadded("value", labelWidth, to: &out)
        out.write("        P  at least   at most")
        for row in rows {
            out.write("\n")
            DistributionRenderer.appendLabel(row, outcomes, width: labelWidth, to: &out)
            DistributionRenderer.appendPercent(row.probability, width: 9, to: &out)
            DistributionRenderer.appendPercent(row.atLeast, width: 10, to: &out)
            DistributionRenderer.appendPercent(row.atMost, width: 10, to: &out)
            guard let barWidth else { continue }
            out.write("  ")
            appendBar(largest > 0 ? row.probability / largest : 0, width: barWidth, to: &out)
        }
        if trimmed > 0 {
            out.write("\n(")
            out.write(trimmed)
            out.write(" outcomes in the far tails, together under 0.01%, are not shown)")
        }
        if groupSize > 1 {
            out.write("\n(outcomes grouped ")
            out.write(groupSize)
            out.write(" to a row)")
        }
    }

    /// The columns of a table's bars, given the `room` its other columns leave on a line:
    /// all of it, or none (`nil`) below 4 columns, too few to read, so that a narrow terminal
    /// gets the numbers alone.
    static func barColumns(_ room: Int) -> Int? { room >= 4 ? room : nil }

    /// A row's label: its outcome (`7`), or the first and last of its group (`3–9`).
    private static func label(_ row: Row, _ outcomes: [Distribution.Outcome]) -> String {
        row.first == row.last ? outcomes[row.first].value.description
            : "\(outcomes[row.first].value)–\(outcomes[row.last].value)"
    }

    /// The columns of a row's label; a single integer outcome is counted, not printed.
    private static func labelColumns(_ row: Row, _ outcomes: [Distribution.Outcome]) -> Int {
        if row.first == row.last, case .integer(let value) = outcomes[row.first].value {
            return decimalColumns(value)
        }
        return columns(label(row, outcomes))
    }

    /// A row's label right-aligned in `width` columns.
    private static func appendLabel(_ row: Row, _ outcomes: [Distribution.Outcome], width: Int, to out: inout ByteWriter) {
        if row.first == row.last, case .integer(let value) = outcomes[row.first].value {
            appendSpaces(width - decimalColumns(value), to: &out)
            out.write(value)
        } else {
            appendPadded(label(row, outcomes), width, to: &out)
        }
    }

    /// How many characters `value` takes in decimal, its sign included.
    static func decimalColumns(_ value: Int) -> Int {
        var columns = value < 0 ? 2 : 1
        var rest = value / 10
        while rest != 0 {
            columns += 1
            rest /= 10
        }
        return columns
    }

    static func appendSpaces(_ count: Int, to out: inout ByteWriter) {
        for _ in 0..<Swift.max(0, count) { out.write(" ") }
    }

    func bar(_ fraction: Double, width: Int) -> String {
        DistributionRenderer.text { appendBar(fraction, width: width, to: &$0) }
    }

    /// A bar of `fraction` of `width` columns: block characters in eighths, or `#`s.
    private func appendBar(_ fraction: Double, width: Int, to out: inout ByteWriter) {
        let eighths = Int((fraction * Double(width) * 8).rounded())
        if !unicode {
            for _ in 0..<Swift.max(0, (eighths + 4) / 8) { out.write("#") }
            return
        }
        for _ in 0..<Swift.max(0, eighths / 8) { out.write("█") }
        switch eighths % 8 {
        case 1: out.write("▏")
        case 2: out.write("▎")
        case 3: out.write("▍")
        case 4: out.write("▌")
        case 5: out.write("▋")
        case 6: out.write("▊")
        case 7: out.write("▉")
        default: if eighths <= 0 && fraction > 0 { out.write("▏") }
        }
    }

    // MARK: - Numbers

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - text.count)) + text
    }

    /// `text` right-aligned in `width` columns (one column a Unicode scalar).
    static func appendPadded(_ text: String, _ width: Int, to out: inout ByteWriter) {
        appendSpaces(width - columns(text), to: &out)
        out.write(text: text)
    }

    /// The columns `text` takes in a table: one a Unicode scalar, counted from its UTF-8
    /// bytes (those that start a scalar). Through `unicodeScalars.count`, the labels of
    /// Genesys' `check(0, 5, 0, 5, 2, 2)` (7,584 tallies) took a tenth of its instructions
    /// (bench G5, callgrind, 2026-12-03).
    static func columns(_ text: String) -> Int {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
            return count
        } ?? text.unicodeScalars.count
    }

    /// `55.00%`; a positive probability that rounds to zero shows as `<0.01%`.
    static func percent(_ probability: Double) -> String {
        text { appendPercent(probability, to: &$0) }
    }

    /// `percent(probability)` right-aligned in `width` columns, its length worked out
    /// rather than measured on a `String`.
    static func appendPercent(_ probability: Double, width: Int, to out: inout ByteWriter) {
        // The same arithmetic as appendFixed(probability * 100, 2), so the count matches.
        let scaled = (abs(probability * 100) * 100).rounded()
        guard probability.isFinite, scaled < 9e15 else {
            return appendPadded(percent(probability), width, to: &out)
        }
        let columns: Int
        if probability > 0 && probability < 0.00005 {
            columns = 6  // <0.01%
        } else {
            let whole = Int(scaled)
            // The integer part, a point, two decimals, the sign; then `%`.
            columns = decimalColumns(whole / 100) + 3 + (probability < 0 && whole != 0 ? 1 : 0) + 1
        }
        appendSpaces(width - columns, to: &out)
        appendPercent(probability, to: &out)
    }

    static func appendPercent(_ probability: Double, to out: inout ByteWriter) {
        if probability > 0 && probability < 0.00005 { return out.write("<0.01%") }
        appendFixed(probability * 100, 2, to: &out)
        out.write("%")
    }

    /// `value` with `places` decimals, without Foundation.
    package static func fixed(_ value: Double, _ places: Int) -> String {
        text { appendFixed(value, places, to: &$0) }
    }

    /// A mean as `--total` prints it, like any other number: at most 4 decimals, without
    /// trailing zeros (`3.5`, `12.2446`, `7`).
    package static func mean(_ value: Double) -> String {
        var text = fixed(value, 4)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func appendFixed(_ value: Double, _ places: Int, to out: inout ByteWriter) {
        guard value.isFinite else { return out.write(text: "\(value)") }
        var places = Swift.max(0, Swift.min(places, 15))
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        // A double holds about 15 significant digits: fewer decimals as the value grows (a
        // huge mean printed as 3500000000000000.5), and past 9e15 (where doubles are no longer
        // whole numbers apart) or a fraction past 1e15, 10 significant digits
        // (`9.223372037e18`, `3.5e15`; LANGUAGE.md §1).
        while places > 0 && abs(value) * Double(scale) >= 1e15 {
            places -= 1
            scale /= 10
        }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e15 && (abs(value) < 1e15 || value == value.rounded()) else {
            return out.write(text: significant(value))
        }
        let whole = Int(scaled)
        if value < 0 && whole != 0 { out.write("-") }
        out.write(whole / scale)
        guard places > 0 else { return }
        out.write(".")
        // The fraction's leading zeros, then its digits.
        let fraction = whole % scale
        var digits = 1
        var rest = fraction / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        for _ in digits..<Swift.max(digits, places) { out.write("0") }
        out.write(fraction)
    }

    /// `value`, at least 9e15 in size, to 10 significant digits: `-9.223372037e18`.
    private static func significant(_ value: Double) -> String {
        let (mantissa, power) = decimalExponent(abs(value))
        var exponent = power
        var digits = fixed(mantissa, 9)
        if digits.hasPrefix("10") {
            // 9.9999999996 rounds up to the next power of ten.
            digits = "1"
            exponent += 1
        }
        while digits.contains(".") && (digits.hasSuffix("0") || digits.hasSuffix(".")) { digits.removeLast() }
        return (value < 0 ? "-" : "") + digits + "e\(exponent)"
    }

    /// `1.2e-13`
    static func scientific(_ value: Double) -> String {
        guard value > 0, value.isFinite else { return "0" }
        var (mantissa, exponent) = decimalExponent(value)
        // 9.99e-13 rounds up to the next power: it printed "10.0e-13" (`stats 1d1000!`).
        if (mantissa * 10).rounded() >= 100 { (mantissa, exponent) = (1, exponent + 1) }
        return "\(fixed(mantissa, 1))e\(exponent)"
    }

    /// `value` (positive and finite) as a mantissa from 1 to 10 times a power of ten.
    private static func decimalExponent(_ value: Double) -> (mantissa: Double, exponent: Int) {
        var exponent = 0
        var mantissa = value
        while mantissa < 1 { mantissa *= 10; exponent -= 1 }
        while mantissa >= 10 { mantissa /= 10; exponent += 1 }
        return (mantissa, exponent)
    }
}
