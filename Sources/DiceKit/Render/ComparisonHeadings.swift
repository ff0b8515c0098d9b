/// The titles of a comparison, never cut: a title is shown whole or not at all.
///
/// Each column is headed by its expression when every title fits whole over its columns
/// of numbers and over its bars, and the titles differ. Otherwise every expression gets a
/// number, everywhere: each row of headings reads `#1 2d20kh1 + 5`, `#2 …` when all of
/// its titles fit so, else `#1`, `#2`, …; when the columns of numbers show only numbers, the lines of
/// moments (`#1 {1d20, 1d20}kh1 + 8: mean …`), which say what the numbers stand for,
/// follow the table instead of leading it.
struct ComparisonHeadings {
    /// The titles of the lines of moments: whole, numbered if the columns are.
    private(set) var full: [String]
    /// The titles over the columns of numbers.
    private(set) var group: [String]
    /// The titles over the bars.
    private(set) var bar: [String]
    /// Whether a column of numbers is headed by its number alone, so that the lines of
    /// moments go under the table as its legend.
    private(set) var listedBelow = false

    /// The widest title over a column of numbers.
    static let groupWidth = 15

    /// Headings for `titles`, whose bars are `barWidth` wide; only those that `haveColumns`
    /// (all, by default; not the probabilities of a mix) head columns.
    init(_ titles: [String], barWidth: Int, haveColumns: [Bool]? = nil) {
        let fits = titles.indices.allSatisfy { index in
            haveColumns?[index] == false || (titles[index].count <= Self.groupWidth && titles[index].count <= barWidth)
        }
        guard !fits || Set(titles).count < titles.count else {
            (full, group, bar) = (titles, titles, titles)
            return
        }
        let numbers = titles.indices.map { "#\($0 + 1)" }
        let numbered = titles.indices.map { "\(numbers[$0]) \(titles[$0])" }
        full = numbered
        group = numbered.allSatisfy { $0.count <= Self.groupWidth } ? numbered : numbers
        bar = numbered.allSatisfy { $0.count <= barWidth } ? numbered : numbers
        listedBelow = group == numbers
    }
}
