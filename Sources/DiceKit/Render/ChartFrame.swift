/// The frame of a chart: its title, legend, plot area and axes with ticks, gridlines and
/// labels. `ChartRenderer` draws the data inside it.
struct ChartFrame {
    /// One entry of the legend: a colour and what it stands for.
    struct LegendEntry {
        var colour: String
        var label: String
        /// Drawn as a line (a sweep's mean) rather than a filled square.
        var isLine = false
        /// The line's dashes (`nil`: solid).
        var dash: String? = nil
        /// The swatch's opacity (a band is drawn light).
        var opacity = 1.0
        /// The swatch's outline, if any (a bar series past the palette's first round).
        var outline: String? = nil
        /// Whether a swatch is drawn: not for the note of the entries left out.
        var hasSwatch = true
    }

    let width: Double
    let height: Double
    /// The plot area, inside the axes.
    private(set) var left = 72.0
    private(set) var right: Double
    private(set) var top = 64.0
    private(set) var bottom: Double
    /// The legend's lines, each a list of entries with their x.
    private var legendLines: [[(entry: LegendEntry, x: Double)]] = []

    static let titleSize = 18.0
    static let labelSize = 12.0
    static let noteSize = 10.0
    static let axisColour = "#333333"
    static let gridColour = "#e3e3e3"
    static let textColour = "#333333"
    static let noteColour = "#666666"
    /// The colour of each series, in order (Tableau 10): distinct, and readable on white.
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
    /// The dashes of a line series, by how many times its colour came before: the eleventh
    /// line has the first one's colour, dashed, so no two of the first 40 look alike.
    static let dashes: [String?] = [nil, "9 4", "2 3", "9 3 2 3"]

    /// The dashes of line series `index` (`nil`: solid).
    static func dash(_ index: Int) -> String? {
        dashes[(index / palette.count) % dashes.count]
    }

    /// How bar series `index` is filled: the eleventh bar series has the first one's colour,
    /// light and outlined, the 21st only outlined, so no two of the first 30 look alike.
    static func barLook(_ index: Int) -> (colour: String, opacity: Double?, outline: String?) {
        let colour = palette[index % palette.count]
        switch (index / palette.count) % 3 {
        case 0: return (colour, nil, nil)
        case 1: return (colour, 0.35, colour)
        default: return (colour, 0, colour)
        }
    }

    /// The longest an upright label under the axis may be (about 15 characters).
    static let uprightLabelLength = 110.0

    /// A frame `width` × `height` with room above the plot for `legend`, and below it for
    /// upright labels up to `uprightLabels` long (0: labels across).
    init(width: Int, height: Int, legend: [LegendEntry], uprightLabels: Double = 0) {
        self.width = Double(width)
        self.height = Double(height)
        right = self.width - 28
        // A label across takes about 20 of the 64 under the plot; an upright one its length.
        bottom = self.height - 64 - Swift.max(0, Swift.min(uprightLabels, ChartFrame.uprightLabelLength) - 20)
        // The plot keeps at least half of the height under the title.
        let maxLines = Swift.min(8, Swift.max(1, Int((bottom - top) / 2 / 18)))
        legendLines = ChartFrame.legendLines(legend, left: left, right: right, maxLines: maxLines)
        top += Double(legendLines.count) * 18
    }

    /// `legend` laid out in lines between `left` and `right`: one after another while that
    /// takes at most 4 lines (and `maxLines`); else in columns, the fewest that take 4 lines or
    /// as many as are at least 110 pixels wide, each label cut with `…` to its column. Every
    /// entry is listed; past `maxLines` lines of columns, the last place says how many more
    /// there are (`+ 13 more`).
    static func legendLines(_ legend: [LegendEntry], left: Double, right: Double,
                            maxLines: Int) -> [[(entry: LegendEntry, x: Double)]] {
        var lines: [[(entry: LegendEntry, x: Double)]] = []
        var line: [(entry: LegendEntry, x: Double)] = []
        var x = left
        for entry in legend {
            var fitted = entry
            fitted.label = ChartFrame.fitted(entry.label, width: right - left - 24, size: ChartFrame.labelSize)
            let itemWidth = 22 + ChartFrame.textWidth(fitted.label, size: ChartFrame.labelSize) + 18
            if !line.isEmpty && x + itemWidth > right {
                lines.append(line)
                line = []
                x = left
            }
            line.append((fitted, x))
            x += itemWidth
        }
        if !line.isEmpty { lines.append(line) }
        guard lines.count > Swift.min(4, maxLines) else { return lines }
        // Columns: the fewest that take 4 lines, as many as fit when that is not enough.
        let widest = Swift.max(1, Int((right - left) / 110))
        let rows = Swift.min(4, maxLines)
        let columns = Swift.max(1, Swift.min(widest, (legend.count + rows - 1) / rows))
        let places = columns * maxLines
        let columnWidth = (right - left) / Double(columns)
        var entries = legend
        if entries.count > places {
            let more = entries.count - (places - 1)
            entries = Array(entries.prefix(places - 1))
            entries.append(LegendEntry(colour: "none", label: "+ \(more) more", hasSwatch: false))
        }
        lines = []
        for (index, entry) in entries.enumerated() {
            var fitted = entry
            fitted.label = ChartFrame.fitted(entry.label, width: columnWidth - (entry.hasSwatch ? 40 : 26),
                                             size: ChartFrame.labelSize)
            if index % columns == 0 { lines.append([]) }
            lines[lines.count - 1].append((fitted, left + Double(index % columns) * columnWidth))
        }
        return lines
    }

    /// The plot's width and height.
    var plotWidth: Double { right - left }
    var plotHeight: Double { bottom - top }

    /// Draws the title, the subtitle, the legend and the axes' titles.
    func drawLabels(_ svg: inout SVGWriter, title: String, subtitle: String, xTitle: String, yTitle: String,
                    notes: [String]) {
        svg.text(ChartFrame.fitted(title, width: width - 40, size: ChartFrame.titleSize), x: width / 2, y: 28,
                 size: ChartFrame.titleSize, anchor: .middle, bold: true, fill: ChartFrame.textColour, className: "title")
        svg.text(ChartFrame.fitted(subtitle, width: width - 40, size: 13), x: width / 2, y: 48, size: 13,
                 anchor: .middle, fill: ChartFrame.noteColour, className: "subtitle")
        for (index, line) in legendLines.enumerated() {
            let y = 66 + Double(index) * 18
            for (entry, x) in line {
                if entry.hasSwatch && entry.isLine {
                    svg.line(x1: x, y1: y - 4, x2: x + 16, y2: y - 4, stroke: entry.colour, width: 3, dash: entry.dash,
                             className: "swatch")
                } else if entry.hasSwatch {
                    svg.rect(x: x, y: y - 10, width: 16, height: 12, fill: entry.colour, className: "swatch",
                             opacity: entry.opacity < 1 ? entry.opacity : nil, outline: entry.outline)
                }
                svg.text(entry.label, x: x + 22, y: y, size: ChartFrame.labelSize, fill: ChartFrame.textColour,
                         className: "legend")
            }
        }
        svg.text(xTitle, x: left + plotWidth / 2, y: height - 22, size: 13, anchor: .middle,
                 fill: ChartFrame.textColour, className: "axis-title")
        svg.text(yTitle, x: 18, y: top + plotHeight / 2, size: 13, anchor: .middle, fill: ChartFrame.textColour,
                 rotated: true, className: "axis-title")
        if !notes.isEmpty {
            svg.text(ChartFrame.fitted(notes.joined(separator: " "), width: width - 16, size: ChartFrame.noteSize),
                     x: width - 8, y: height - 5, size: ChartFrame.noteSize, anchor: .end, fill: ChartFrame.noteColour,
                     className: "note")
        }
    }

    /// The vertical axis: a gridline and a label at each tick, then the axis line.
    func drawYAxis(_ svg: inout SVGWriter, _ axis: ChartAxis) {
        for tick in axis.ticks {
            let y = self.y(tick, axis)
            svg.line(x1: left, y1: y, x2: right, y2: y, stroke: ChartFrame.gridColour, className: "grid")
            svg.text(axis.label(tick), x: left - 8, y: y + 4, size: ChartFrame.labelSize, anchor: .end,
                     fill: ChartFrame.textColour, className: "y-tick")
        }
        svg.line(x1: left, y1: top, x2: left, y2: bottom, stroke: ChartFrame.axisColour, className: "axis")
    }

    /// The horizontal axis line, at the foot of the plot.
    func drawXAxisLine(_ svg: inout SVGWriter) {
        svg.line(x1: left, y1: bottom, x2: right, y2: bottom, stroke: ChartFrame.axisColour, className: "axis")
    }

    /// A label under the horizontal axis at `x`, with its tick mark; `upright`, read from the
    /// bottom up, its end at the tick.
    func drawXTick(_ svg: inout SVGWriter, _ label: String, at x: Double, upright: Bool = false) {
        svg.line(x1: x, y1: bottom, x2: x, y2: bottom + 5, stroke: ChartFrame.axisColour, className: "tick")
        if upright {
            // Turned a quarter left about its end: the glyphs' middle, not their baseline, on the tick.
            svg.text(label, x: x + ChartFrame.labelSize * 0.35, y: bottom + 8, size: ChartFrame.labelSize, anchor: .end,
                     fill: ChartFrame.textColour, rotated: true, className: "x-tick")
        } else {
            svg.text(label, x: x, y: bottom + 19, size: ChartFrame.labelSize, anchor: .middle,
                     fill: ChartFrame.textColour, className: "x-tick")
        }
    }

    /// The height in the plot of `value` on `axis`.
    func y(_ value: Double, _ axis: ChartAxis) -> Double {
        bottom - axis.fraction(value) * plotHeight
    }

    /// The horizontal place in the plot of `value` on `axis`.
    func x(_ value: Double, _ axis: ChartAxis) -> Double {
        left + axis.fraction(value) * plotWidth
    }

    // MARK: - Text

    /// About how wide `text` is at `size` (an average glyph of a sans-serif font).
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }

    /// `text`, cut with `…` to fit `width` at `size`.
    static func fitted(_ text: String, width: Double, size: Double) -> String {
        let fits = Swift.max(1, Int(width / (size * 0.6)))
        guard text.count > fits else { return text }
        return String(text.prefix(Swift.max(0, fits - 1))) + "…"
    }
}

/// A linear axis from `low` to `high` with evenly spaced, round ticks.
struct ChartAxis {
    var low: Double
    var high: Double
    var ticks: [Double]
    /// Whether labels are percentages of probabilities (0.25 is `25%`).
    var percent: Bool

    /// An axis over at least `low...high`, widened to round ticks about `count` apart;
    /// `whole`: ticks only at whole numbers; `tight`: not widened to the ticks (the round
    /// ticks inside), only by a small margin at each end, so that no end is empty.
    init(covering low: Double, _ high: Double, count: Int = 5, whole: Bool = false, percent: Bool = false,
         tight: Bool = false) {
        self.percent = percent
        var low = low.isFinite ? low : 0
        var high = high.isFinite ? high : 1
        if high <= low {
            low -= whole ? 1 : Swift.max(1e-9, Swift.abs(low) * 0.1)
            high += whole ? 1 : Swift.max(1e-9, Swift.abs(high) * 0.1)
            if !whole, low < 0, high > 0, self.percent || low >= -1e-9 { low = 0 }
        }
        let raw = (high - low) / Double(Swift.max(1, count))
        let magnitude = Number.pow(10, Number.log10(raw).rounded(.down))
        var step = magnitude * 10
        // Whole ticks step by 1, 2 or 5 times a power of ten, never 2.5.
        let multiples: [Double] = whole && magnitude < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10]
        for multiple in multiples where magnitude * multiple >= raw {
            step = magnitude * multiple
            break
        }
        if whole { step = Swift.max(1, step.rounded(.up)) }
        let first = (low / step).rounded(tight ? .up : .down) * step
        let last = (high / step).rounded(tight ? .down : .up) * step
        var ticks: [Double] = []
        var tick = first
        // A bounded loop: the step divides the span into about `count` parts.
        while tick <= last + step * 1e-9 && ticks.count <= 4 * count + 4 {
            ticks.append(Swift.abs(tick) < step * 1e-9 ? 0 : tick)
            tick += step
        }
        self.ticks = ticks
        if tight {
            let margin = (high - low) * 0.03
            self.low = low - margin
            self.high = high + margin
        } else {
            self.low = first
            self.high = Swift.max(last, first + step)
        }
    }

    /// Where `value` falls between `low` (0) and `high` (1).
    func fraction(_ value: Double) -> Double {
        high > low ? (value - low) / (high - low) : 0
    }

    /// A tick's label: `25%` for a probability, `2.5` for a number.
    func label(_ value: Double) -> String {
        percent ? SVGWriter.number(value * 100) + "%" : SVGWriter.number(value)
    }
}
