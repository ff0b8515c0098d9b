import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import DiceKit

/// The SVG charts of `--svg` and `:svg`: each parses as XML (Foundation's `XMLParser`), and
/// has the bars, points, labels and legend entries its data says, counted.
struct ChartRendererTests {
    /// One element of a parsed SVG: its name, attributes and text.
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        /// The element's `<title>` child, which browsers show on hover.
        var tooltip = ""
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
        func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
    }

    /// The elements of an XML document, in order; fails the test when it does not parse.
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        private var open: [Int] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            open.append(elements.count)
            elements.append(Element(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let last = open.last else { return }
            elements[last].text += string
            // A title inside a mark is its tooltip.
            if elements[last].name == "title", open.count >= 2, elements[open[open.count - 2]].name != "svg" {
                elements[open[open.count - 2]].tooltip += string
            }
        }
    }

    static func parse(_ svg: String) throws -> [Element] {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else {
            throw ChartTestFailure.notXML(parser.parserError.map { "\($0)" } ?? "?")
        }
        return collector.elements
    }

    enum ChartTestFailure: Error { case notXML(String), noChart }

    static func chart(_ program: String) throws -> [Element] {
        var session = Session(seed: 1)
        var last: Outcome?
        for statement in try Parser.parseProgram(program) { last = try session.execute(statement) }
        guard let outcome = last, let svg = ChartRenderer().svg(for: outcome) else { throw ChartTestFailure.noChart }
        return try parse(svg)
    }

    static func texts(_ elements: [Element], _ className: String) -> [String] {
        elements.filter { $0.name == "text" && $0.classes.contains(className) }.map(\.text)
    }

    @Test func oneExpressionIsBars() throws {
        let elements = try Self.chart("stats 1d8")
        let root = try #require(elements.first)
        #expect(root.name == "svg" && root.attributes["width"] == "800" && root.attributes["height"] == "500")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        let bars = elements.filter { $0.name == "rect" && $0.classes.contains("bar") }
        #expect(bars.count == 8)
        #expect(bars.allSatisfy { $0.attributes["fill"] == "#4e79a7" })
        // Equal chances, equal heights, side by side from left to right.
        #expect(Set(bars.map { $0.number("height") }).count == 1)
        #expect(bars.map { $0.number("x") } == bars.map { $0.number("x") }.sorted())
        #expect(Self.texts(elements, "x-tick") == (1...8).map(String.init))
        #expect(Self.texts(elements, "title") == ["stats 1d8"])
        #expect(Self.texts(elements, "subtitle") == ["mean 4.50, stdev 2.29, median 4"])
        #expect(Self.texts(elements, "axis-title") == ["outcome", "probability"])
        let ticks = Self.texts(elements, "y-tick")
        #expect(ticks.first == "0%" && ticks.count >= 3 && ticks.allSatisfy { $0.hasSuffix("%") })
        #expect(bars.map(\.tooltip) == (1...8).map { "\($0): 12.50%" })
    }

    /// The tallest bar reaches the height its probability has on the axis.
    @Test func barHeightsFollowTheProbabilities() throws {
        let elements = try Self.chart("stats 2d6")
        let bars = elements.filter { $0.name == "rect" && $0.classes.contains("bar") }
        #expect(bars.count == 11)
        let heights = bars.map { $0.number("height") }
        // 7 is six times as likely as 2: so is its bar tall.
        #expect(abs(heights[5] / heights[0] - 6) < 0.05)
        #expect(heights.firstIndex(of: heights.max() ?? 0) == 5)
    }

    @Test func aComparisonIsGroupedBarsWithALegend() throws {
        let elements = try Self.chart("stats 1d4, 1d6 + 2")
        let bars = elements.filter { $0.name == "rect" && $0.classes.contains("bar") }
        let first = bars.filter { $0.classes.contains("series-0") }, second = bars.filter { $0.classes.contains("series-1") }
        #expect(first.count == 4 && second.count == 6 && bars.count == 10)
        #expect(first.allSatisfy { $0.attributes["fill"] == "#4e79a7" })
        #expect(second.allSatisfy { $0.attributes["fill"] == "#f28e2b" })
        #expect(Self.texts(elements, "legend") == ["1d4: mean 2.50, stdev 1.12, median 2",
                                                  "1d6 + 2: mean 5.50, stdev 1.71, median 5"])
        #expect(elements.filter { $0.classes.contains("swatch") }.map { $0.attributes["fill"] } == ["#4e79a7", "#f28e2b"])
        // The union of the outcomes, 1 to 8, one label each.
        #expect(Self.texts(elements, "x-tick") == (1...8).map(String.init))
    }

    @Test func aSweepIsALine() throws {
        let elements = try Self.chart("stats 1d20 >= dc for dc in 18..21")
        let line = try #require(elements.first { $0.name == "polyline" && $0.classes.contains("line") })
        #expect((line.attributes["points"] ?? "").split(separator: " ").count == 4)
        let points = elements.filter { $0.name == "circle" && $0.classes.contains("point") }
        #expect(points.count == 4)
        // Higher DCs, lower chances: each point is lower on the page than the last.
        #expect(points.map { $0.number("cy") } == points.map { $0.number("cy") }.sorted())
        #expect(points.map(\.tooltip) == ["dc = 18: 15.00%", "dc = 19: 10.00%", "dc = 20: 5.00%", "dc = 21: 0.00%"])
        #expect(Self.texts(elements, "axis-title") == ["dc", "probability"])
        #expect(Self.texts(elements, "title") == ["stats 1d20 >= dc for dc in 18..21"])
        // A test has no spread to show, and one line needs no legend.
        #expect(!elements.contains { $0.classes.contains("band") || $0.classes.contains("legend") })
    }

    @Test func aSweepOfNumbersHasItsPercentileBand() throws {
        let elements = try Self.chart("stats 1d6 + x for x in 1..3")
        #expect(elements.filter { $0.classes.contains("band") }.count == 1)
        #expect(Self.texts(elements, "legend") == ["mean", "10th to 90th percentile"])
        #expect(Self.texts(elements, "x-tick") == ["1", "2", "3"])
        #expect(elements.filter { $0.classes.contains("point") }.map(\.tooltip) == ["x = 1: 4.50", "x = 2: 5.50", "x = 3: 6.50"])
    }

    /// Texts (degrees of success): a line an outcome, its chance by the value, as the text
    /// table's columns; no mean, no band.
    @Test func aSweepOfTextsIsALineAnOutcome() throws {
        let elements = try Self.chart(#"stats if 1d4 >= dc then "hit" else "miss" for dc in 2..4"#)
        let lines = elements.filter { $0.name == "polyline" && $0.classes.contains("line") }
        #expect(lines.count == 2)
        #expect(Self.texts(elements, "legend") == ["hit", "miss"])
        #expect(Self.texts(elements, "axis-title") == ["dc", "probability"])
        #expect(!elements.contains { $0.classes.contains("band") })
        let hits = elements.filter { $0.classes.contains("point") && $0.classes.contains("series-0") }
        #expect(hits.map(\.tooltip) == ["dc = 2: 75.00%", "dc = 3: 50.00%", "dc = 4: 25.00%"])
        let misses = elements.filter { $0.classes.contains("point") && $0.classes.contains("series-1") }
        #expect(misses.map(\.tooltip) == ["dc = 2: 25.00%", "dc = 3: 50.00%", "dc = 4: 75.00%"])
    }

    /// Every series is in the legend: six expressions with long titles took a line each, and
    /// the legend stopped at four lines, so two coloured series had no name. Past four lines
    /// the entries go in columns; the plot keeps at least half the height.
    @Test func theLegendNamesEverySeries() throws {
        let elements = try Self.chart("stats 1d6 + 1 [a long label for this one], 2d6 [another long label here], "
                                      + "3d4 + 2 [x], 1d20 [y], 4d6kh3 [z], 3d6 [w]")
        let legend = Self.texts(elements, "legend")
        #expect(legend.count == 6)
        #expect(["4d6kh3 [z]", "3d6 [w]"].allSatisfy { title in legend.contains { $0.hasPrefix(title) } })
        #expect(elements.filter { $0.classes.contains("swatch") }.map { $0.attributes["fill"] }
                == (0..<6).map { ChartRenderer.colour($0) })
        for text in elements where text.name == "text" && text.classes.contains("legend") {
            #expect(text.number("x") + ChartFrame.textWidth(text.text, size: ChartFrame.labelSize) <= 800, "\(text.text)")
        }
        let plotTop = elements.filter { $0.classes.contains("axis") }.map { min($0.number("y1"), $0.number("y2")) }.min() ?? 0
        #expect(plotTop < 436 - 372 / 2)
    }

    /// A sweep of many texts names each line, in columns (a sweep draws 40 at most:
    /// `WideSweepTests`); past what fits, as for 50 expressions compared, the legend says how
    /// many more there are.
    @Test func aLegendTooLongForItsPlaceSaysHowManyMore() throws {
        let faces = (1...13).map { "\"outcome number \($0) is long\"" }.joined(separator: ", ")
        let elements = try Self.chart("stats d{\(faces)} for x in 1..2")
        #expect(Self.texts(elements, "legend").count == 13)
        let many = (2...51).map { "1d\($0)" }.joined(separator: ", ")
        let crowded = try Self.chart("stats \(many)")
        let legend = Self.texts(crowded, "legend")
        #expect(legend.count < 50 && legend.last == "+ \(50 - legend.count + 1) more")
        #expect(crowded.filter { $0.classes.contains("swatch") }.count == legend.count - 1)
    }

    /// Past the palette's ten colours, a line is dashed: the eleventh outcome of a sweep was
    /// drawn just like the first, so a rising line read as another outcome's.
    @Test func noTwoLinesLookAlike() throws {
        let faces = (1...13).map { "\"o\($0)\"" }.joined(separator: ", ")
        let elements = try Self.chart("stats d{\(faces)} for x in 1..2")
        let lines = elements.filter { $0.name == "polyline" && $0.classes.contains("line") }
        let looks = lines.map { "\($0.attributes["stroke"] ?? "") \($0.attributes["stroke-dasharray"] ?? "solid")" }
        #expect(lines.count == 13 && Set(looks).count == 13, "\(looks)")
        let swatches = elements.filter { $0.name == "line" && $0.classes.contains("swatch") }
        #expect(swatches.map { "\($0.attributes["stroke"] ?? "") \($0.attributes["stroke-dasharray"] ?? "solid")" } == looks)
    }

    /// A long distribution is trimmed and grouped, at most `maxBars` bars, with a note.
    @Test func longDistributionsAreGrouped() throws {
        let elements = try Self.chart("stats 100d6")
        let bars = elements.filter { $0.classes.contains("bar") }
        #expect(bars.count <= 100 && bars.count > 50)
        #expect(Self.texts(elements, "note").first?.contains("grouped") == true)
        // The labels that fit: none overlaps the next.
        let labels = elements.filter { $0.classes.contains("x-tick") }
        #expect(labels.count >= 5 && labels.count < bars.count)
    }

    /// The far tails a table leaves out, the chart leaves out too: `1d6!` has about 95
    /// outcomes, and its chart drew bars to 94 that no one could see; the table stops at 34.
    @Test func farTailsAreTrimmedAsInTheTable() throws {
        let elements = try Self.chart("stats 1d6!")
        let bars = elements.filter { $0.name == "rect" && $0.classes.contains("bar") }
        let table = DistributionRenderer().render(try StatsHarness.report("1d6!"), title: "1d6!")
        let rows = table.split(separator: "\n").filter { Int($0.split(separator: " ").first ?? "") != nil }
        #expect(bars.count == rows.count && bars.count < 40, "\(bars.count) bars, \(rows.count) rows")
        #expect(Self.texts(elements, "note").contains { $0.contains("far tails") })
    }

    /// Texts are categories: each bar has its label, cut with `…` to its slot, however long
    /// another label is (one long text left only two of fourteen bars labelled, none a text).
    @Test func everyTextBarHasItsLabel() throws {
        let elements = try Self.chart(#"stats match 1d20 { 1-5: "junk", 6-12: "potion of greater healing and more", "#
                                      + #"13-19: 2d6 * 10, 20: "flame tongue" }"#)
        let labels = Self.texts(elements, "x-tick")
        #expect(labels.count == 14)
        #expect(labels.contains("junk") && labels.contains { $0.hasPrefix("pot") && $0.hasSuffix("…") })
        #expect(labels.contains { $0.hasPrefix("flame") })
        #expect(labels.first == "20" && labels.contains("120"))
    }

    /// Forty texts: across, each label was cut to "…". Upright, each is read whole (up to
    /// about 15 characters), inside the chart and above the axis title; ninety texts label
    /// every other bar.
    @Test func crowdedTextLabelsStandUpright() throws {
        let faces = (1...40).map { "\"t\($0)\"" }.joined(separator: ", ")
        let elements = try Self.chart("stats d{\(faces), \"a long name for the last one\"}")
        let ticks = elements.filter { $0.name == "text" && $0.classes.contains("x-tick") }
        #expect(ticks.map(\.text) == (1...40).map { "t\($0)" } + ["a long name fo…"])
        let title = try #require(elements.first { $0.classes.contains("axis-title") && $0.text == "outcome" })
        for tick in ticks {
            #expect(tick.attributes["transform"]?.hasPrefix("rotate(-90") == true)
            let length = ChartFrame.textWidth(tick.text, size: ChartFrame.labelSize)
            #expect(tick.number("y") - length >= 0 && tick.number("y") < title.number("y") - 13, "\(tick.text)")
        }
        let many = (1...90).map { "\"t\($0)\"" }.joined(separator: ", ")
        let labels = Self.texts(try Self.chart("stats d{\(many)}"), "x-tick")
        #expect(labels == stride(from: 1, through: 90, by: 2).map { "t\($0)" })
        // A few short texts stay across.
        let few = try Self.chart(#"stats d{"hit", "miss", "graze"}"#)
        #expect(few.filter { $0.classes.contains("x-tick") }.allSatisfy { $0.attributes["transform"] == nil })
    }

    /// Past the palette's ten colours, a comparison's bars are light and outlined, then only
    /// outlined: the eleventh expression's bars looked like the first's.
    @Test func noTwoBarSeriesLookAlike() throws {
        let exprs = (0..<23).map { "1d6 + \($0)" }.joined(separator: ", ")
        let elements = try Self.chart("stats \(exprs)")
        func look(_ element: Element) -> String {
            ["fill", "fill-opacity", "stroke"].map { element.attributes[$0] ?? "-" }.joined(separator: " ")
        }
        var looks: [String: String] = [:]
        for bar in elements where bar.name == "rect" && bar.classes.contains("bar") {
            let series = try #require(bar.classes.first { $0.hasPrefix("series-") })
            #expect(looks[series, default: look(bar)] == look(bar), "one look a series")
            looks[series] = look(bar)
        }
        #expect(looks.count == 23 && Set(looks.values).count == 23)
        let swatches = elements.filter { $0.name == "rect" && $0.classes.contains("swatch") }
        // The legend's swatches as their bars (past what fits, "+ N more").
        #expect(swatches.count > 10 && Set(swatches.map(look)).isSubset(of: Set(looks.values)))
        #expect(swatches.map(look) == (0..<swatches.count).map { looks["series-\($0)"] ?? "" })
    }

    /// No label runs past the chart's edges: a long range at the right end is cut with `…`.
    @Test func labelsStayInsideTheChart() throws {
        let elements = try Self.chart("stats 6d20 - 60, 10d10 - 55, 3d6 * 1000000, 1d2")
        let ticks = elements.filter { $0.name == "text" && $0.classes.contains("x-tick") }
        #expect(!ticks.isEmpty)
        for tick in ticks {
            let half = ChartFrame.textWidth(tick.text, size: ChartFrame.labelSize) / 2
            #expect(tick.number("x") - half >= 0 && tick.number("x") + half <= 800, "\(tick.text)")
        }
    }

    /// The user's text is escaped as XML: markup characters and control characters, which
    /// XML cannot hold at all, do not break the document.
    @Test func userTextIsEscaped() throws {
        let elements = try Self.chart("stats 1d6 [<fire> & \"ice\" 'x' \u{1b}[31m]")
        #expect(Self.texts(elements, "title") == ["stats 1d6 [<fire> & \"ice\" 'x' \\u{1b}[31m]"])
        #expect(SVGWriter.escaped("a<b&c>\"d'\u{7}\u{FFFE}é") == "a&lt;b&amp;c&gt;&quot;d&apos;\\u{7}\\u{fffe}é")
    }

    @Test func onlyStatsHaveCharts() throws {
        var session = Session(seed: 1)
        for text in ["1d6", "x = 2", "def a = 1"] {
            let outcome = try session.execute(try #require(try Parser.parseProgram(text).first))
            #expect(ChartRenderer().svg(for: outcome) == nil)
        }
    }

    /// Axes tick at round steps that cover the data.
    @Test func axesHaveRoundTicks() {
        let percent = ChartAxis(covering: 0, 0.133, percent: true)
        #expect(percent.ticks.map(percent.label) == ["0%", "5%", "10%", "15%"])
        let small = ChartAxis(covering: 0, 0.07, percent: true)
        #expect(small.ticks.map(small.label) == ["0%", "2%", "4%", "6%", "8%"])
        let values = ChartAxis(covering: 10, 30, count: 8, whole: true, tight: true)
        #expect(values.ticks == [10, 15, 20, 25, 30])
        #expect(values.low < 10 && values.high > 30 && values.ticks.first ?? 0 >= 10 && values.ticks.last ?? 99 <= 30)
        let single = ChartAxis(covering: 4, 4, whole: true, tight: true)
        #expect(single.ticks.contains(4) && single.low < 4 && single.high > 4)
    }
}
