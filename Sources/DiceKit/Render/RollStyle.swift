/// How a breakdown marks dice, dropped group members and the total: plain text, ANSI
/// colour, Markdown for chat. A new output style is one new type; `RollRenderer` walks
/// the roll and asks its style only what to write around each piece.
///
/// ```swift
/// struct Brackets: RollStyle {
///     func markup(for die: Die, in pool: DicePool) -> RollMarkup? {
///         die.isCounted ? nil : RollMarkup(open: "[", close: "]")
///     }
/// }
/// RollRenderer(style: Brackets()).render(roll)   // 4d6kh3 (6, 4, 3, [1]) + 2 = 15
/// ```
public protocol RollStyle: Sendable {
    /// What to write around a die's text (its value and marks, `6!`, `9*`), or `nil` for nothing.
    func markup(for die: Die, in pool: DicePool) -> RollMarkup?
    /// What to write around a group member that was not kept. Default: `~~`…`~~`.
    var droppedMember: RollMarkup { get }
    /// What to write around the total after ` = `, or `nil` for nothing (the default).
    var total: RollMarkup? { get }
    /// The mark after a die or member counted as a success. Default: `*`.
    var successMark: String { get }
    /// The mark after a die or member subtracted as a failure. Default: `_`.
    var failureMark: String { get }
}

extension RollStyle {
    /// `~~`…`~~`.
    public var droppedMember: RollMarkup { .struck }
    /// Nothing.
    public var total: RollMarkup? { nil }
    /// `*`.
    public var successMark: String { "*" }
    /// `_`.
    public var failureMark: String { "_" }
}

/// Text written before and after a piece of a breakdown: `**` and `**` for bold in Markdown,
/// ANSI escapes for a colour.
public struct RollMarkup: Hashable, Sendable {
    /// Written before the piece.
    public var open: String
    /// Written after the piece.
    public var close: String

    /// Markup that writes `open` before a piece and `close` after it.
    public init(open: String, close: String) {
        self.open = open
        self.close = close
    }

    /// Struck through in plain text and Markdown: `~~1~~`.
    public static let struck = RollMarkup(open: "~~", close: "~~")
}

extension DicePool {
    /// Whether `die` shows this pool's highest face (and the pool has more than one face).
    /// A compounded die's sum is not a face; text and tally faces have no highest.
    func showsHighestFace(_ die: Die) -> Bool {
        symbols.isEmpty && highestFace != lowestFace && die.value == highestFace && !die.flags.contains(.compounded)
    }

    /// Whether `die` shows this pool's lowest face (and the pool has more than one face);
    /// text and tally faces have no lowest.
    func showsLowestFace(_ die: Die) -> Bool {
        symbols.isEmpty && highestFace != lowestFace && die.value == lowestFace
    }
}

// MARK: - The built-in styles

/// Marks in plain text: dropped and rerolled dice struck (`~~1~~`), successes `9*`, failures `1_`.
@usableFromInline package struct PlainStyle: RollStyle {
    /// The plain style.
    @usableFromInline package init() {}

    /// `~~`…`~~` for a die that does not count, nothing otherwise.
    @usableFromInline package func markup(for die: Die, in pool: DicePool) -> RollMarkup? {
        die.isCounted ? nil : RollMarkup(open: "~~", close: "~~")
    }
}

/// ANSI colours for a terminal: dice that do not count dim and crossed out, successes and
/// the highest face green, failures and the lowest face red, the total bold.
package struct ANSIStyle: RollStyle {
    /// The ANSI style.
    package init() {}

    /// The colour of a die, or `nil` for a die shown as it is.
    package func markup(for die: Die, in pool: DicePool) -> RollMarkup? {
        let colour: String
        if !die.isCounted {
            colour = "\u{1B}[2;9m"
        } else if die.flags.contains(.success) {
            colour = "\u{1B}[1;32m"
        } else if die.flags.contains(.failure) {
            colour = "\u{1B}[1;31m"
        } else if pool.showsHighestFace(die) {
            colour = "\u{1B}[1;32m"
        } else if pool.showsLowestFace(die) {
            colour = "\u{1B}[1;31m"
        } else {
            return nil
        }
        return RollMarkup(open: colour, close: "\u{1B}[0m")
    }

    /// Dim and crossed out.
    package var droppedMember: RollMarkup { RollMarkup(open: "\u{1B}[2;9m", close: "\u{1B}[0m") }
    /// Bold.
    package var total: RollMarkup? { RollMarkup(open: "\u{1B}[1m", close: "\u{1B}[0m") }
}

/// Markdown for chat (Discord, Matrix), as Avrae's d20 does: dropped and rerolled dice struck
/// (`~~1~~`), a kept die showing its pool's highest or lowest face bold (`**20**`, `**1**`).
/// The success and failure marks are escaped (`9\*`, `1\_`) so that they stay marks.
package struct MarkdownStyle: RollStyle {
    /// The Markdown style.
    package init() {}

    /// `~~`…`~~` for a die that does not count, `**`…`**` for a kept highest or lowest face.
    package func markup(for die: Die, in pool: DicePool) -> RollMarkup? {
        if !die.isCounted { return RollMarkup(open: "~~", close: "~~") }
        if pool.showsHighestFace(die) || pool.showsLowestFace(die) { return RollMarkup(open: "**", close: "**") }
        return nil
    }

    /// `\*`.
    package var successMark: String { "\\*" }
    /// `\_`.
    package var failureMark: String { "\\_" }
}

extension RollStyle where Self == PlainStyle {
    /// Marks in plain text: `~~1~~`, `6!`, `9*`.
    @usableFromInline package static var plain: PlainStyle { PlainStyle() }
}

extension RollStyle where Self == ANSIStyle {
    /// ANSI colours and attributes, for a terminal.
    package static var ansi: ANSIStyle { ANSIStyle() }
}

extension RollStyle where Self == MarkdownStyle {
    /// Markdown for chat: `~~1~~`, `**20**`.
    package static var markdown: MarkdownStyle { MarkdownStyle() }
}
