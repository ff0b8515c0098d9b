/// A small SVG builder: the elements a chart needs, attributes and text escaped as XML.
///
/// ```swift
/// var svg = SVGWriter(width: 800, height: 500, title: "stats 1d8")
/// svg.rect(x: 10, y: 20, width: 30, height: 40, fill: "#4e79a7", className: "bar")
/// svg.text("1", x: 25, y: 480, anchor: .middle)
/// let text = svg.finished()
/// ```
/// Coordinates are written with at most two decimals. User text (titles, labels) goes
/// through `escaped(_:)`: `&`, `<`, `>`, quotes, and characters XML cannot hold at all
/// (control characters, U+FFFE, U+FFFF), which are written as `\u{1b}`-style escapes.
struct SVGWriter {
    private(set) var text = ""

    /// Where a text is anchored on its `x`.
    enum Anchor: String {
        case start, middle, end
    }

    /// A document `width` × `height` with a white background and `title` (for screen readers
    /// and as the file's name in viewers).
    init(width: Int, height: Int, title: String) {
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
        text += "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(SVGWriter.escaped(title))\" "
        text += "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        text += "<title>\(SVGWriter.escaped(title))</title>\n"
        text += "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>\n"
    }

    /// The document, closed.
    func finished() -> String { text + "</svg>\n" }

    /// A rectangle; `tooltip` becomes its `<title>`, which browsers show on hover.
    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, className: String? = nil,
                       opacity: Double? = nil, outline: String? = nil, tooltip: String? = nil) {
        text += "<rect"
        if let className { text += " class=\"\(className)\"" }
        text += " x=\"\(SVGWriter.number(x))\" y=\"\(SVGWriter.number(y))\""
        text += " width=\"\(SVGWriter.number(width))\" height=\"\(SVGWriter.number(height))\" fill=\"\(fill)\""
        if let opacity { text += " fill-opacity=\"\(SVGWriter.number(opacity))\"" }
        if let outline { text += " stroke=\"\(outline)\" stroke-width=\"1.5\"" }
        if let tooltip {
            text += "><title>\(SVGWriter.escaped(tooltip))</title></rect>\n"
        } else {
            text += "/>\n"
        }
    }

    /// A straight line.
    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil, className: String? = nil) {
        text += "<line"
        if let className { text += " class=\"\(className)\"" }
        text += " x1=\"\(SVGWriter.number(x1))\" y1=\"\(SVGWriter.number(y1))\""
        text += " x2=\"\(SVGWriter.number(x2))\" y2=\"\(SVGWriter.number(y2))\""
        text += " stroke=\"\(stroke)\" stroke-width=\"\(SVGWriter.number(width))\""
        if let dash { text += " stroke-dasharray=\"\(dash)\"" }
        text += "/>\n"
    }

    /// Connected line segments through `points`, dashed as `dash` says (`"8 4"`) when given.
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double, dash: String? = nil,
                           className: String? = nil) {
        text += "<polyline"
        if let className { text += " class=\"\(className)\"" }
        text += " points=\"\(SVGWriter.points(points))\" fill=\"none\" stroke=\"\(stroke)\""
        text += " stroke-width=\"\(SVGWriter.number(width))\" stroke-linejoin=\"round\""
        if let dash { text += " stroke-dasharray=\"\(dash)\"" }
        text += "/>\n"
    }

    /// A filled shape through `points`.
    mutating func polygon(_ points: [(x: Double, y: Double)], fill: String, opacity: Double, className: String? = nil) {
        text += "<polygon"
        if let className { text += " class=\"\(className)\"" }
        text += " points=\"\(SVGWriter.points(points))\" fill=\"\(fill)\" fill-opacity=\"\(SVGWriter.number(opacity))\"/>\n"
    }

    /// A dot; `tooltip` becomes its `<title>`.
    mutating func circle(x: Double, y: Double, radius: Double, fill: String, className: String? = nil,
                         tooltip: String? = nil) {
        text += "<circle"
        if let className { text += " class=\"\(className)\"" }
        text += " cx=\"\(SVGWriter.number(x))\" cy=\"\(SVGWriter.number(y))\" r=\"\(SVGWriter.number(radius))\""
        text += " fill=\"\(fill)\""
        if let tooltip {
            text += "><title>\(SVGWriter.escaped(tooltip))</title></circle>\n"
        } else {
            text += "/>\n"
        }
    }

    /// A line of text; `rotated` turns it a quarter left around its anchor (a vertical axis title).
    mutating func text(_ content: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start,
                       bold: Bool = false, fill: String = "#333333", rotated: Bool = false, className: String? = nil) {
        text += "<text"
        if let className { text += " class=\"\(className)\"" }
        text += " x=\"\(SVGWriter.number(x))\" y=\"\(SVGWriter.number(y))\" font-size=\"\(SVGWriter.number(size))\""
        if anchor != .start { text += " text-anchor=\"\(anchor.rawValue)\"" }
        if bold { text += " font-weight=\"bold\"" }
        if rotated { text += " transform=\"rotate(-90 \(SVGWriter.number(x)) \(SVGWriter.number(y)))\"" }
        text += " fill=\"\(fill)\">\(SVGWriter.escaped(content))</text>\n"
    }

    // MARK: - Text

    /// `points` as an SVG `points` attribute: `x,y x,y ...`.
    static func points(_ points: [(x: Double, y: Double)]) -> String {
        points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
    }

    /// `value` with at most two decimals, without trailing zeros: `12`, `3.5`, `-0.25`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = DistributionRenderer.fixed(value, 2)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// `text` as XML character data or an attribute value: markup characters as entities;
    /// control characters (C0 but tab and newline, DEL, C1) and the non-characters U+FFFE and
    /// U+FFFF, which XML 1.0 cannot hold at all, as `\u{...}` escapes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF {
                    result += "\\u{" + String(value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
