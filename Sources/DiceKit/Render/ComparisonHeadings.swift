/// The titles of a comparison, shortened to fit their columns with an ellipsis in the
/// middle (`{1d20 +…5}kh1`: the start and the end of an expression, its dice and its
/// modifier or bonus, tell most). When two would read alike, or two expressions are the
/// same, every title is numbered everywhere: `#1 2d6`.
struct ComparisonHeadings {
    /// The titles of the lines of moments: whole, numbered if need be.
    private(set) var full: [String]
    /// The titles over the columns of numbers.
    private(set) var group: [String] = []
    /// The titles over the bars.
    private(set) var bar: [String] = []

    /// The widest title over a column of numbers.
    static let groupWidth = 15

    /// Headings for `titles`, whose bars are `barWidth` wide.
    init(_ titles: [String], barWidth: Int, unicode: Bool) {
        let ellipsis = unicode ? "…" : "~"
        func shortened(_ width: Int, numbered: Bool) -> [String] {
            titles.indices.map { index in
                guard numbered else { return Self.abbreviated(titles[index], width, ellipsis) }
                let number = "#\(index + 1)"
                guard width > number.count + 2 else { return number }
                return number + " " + Self.abbreviated(titles[index], width - number.count - 1, ellipsis)
            }
        }
        full = titles
        group = shortened(Self.groupWidth, numbered: false)
        bar = shortened(barWidth, numbered: false)
        let alike = Set(group).count < titles.count || Set(bar).count < titles.count
        if alike {
            full = titles.indices.map { "#\($0 + 1) \(titles[$0])" }
            group = shortened(Self.groupWidth, numbered: true)
            bar = shortened(barWidth, numbered: true)
        }
    }

    /// `text` in at most `width` characters, its middle replaced by `ellipsis` if need be.
    static func abbreviated(_ text: String, _ width: Int, _ ellipsis: String) -> String {
        guard text.count > width else { return text }
        guard width > 2 else { return String(text.prefix(width)) }
        let head = width / 2
        return String(text.prefix(head)) + ellipsis + String(text.suffix(width - 1 - head))
    }
}
