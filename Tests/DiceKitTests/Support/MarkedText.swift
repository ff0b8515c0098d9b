/// Test input with the expected error position marked inside it, the way
/// swift-format's `MarkedText` does: `"1 + ‸* 2"` is the text `"1 + * 2"`
/// with the error expected at line 1, column 5.
///
/// The marker `‸` (U+2038, CARET INSERTION POINT) never occurs in dice input.
/// Columns count characters, as the contract's diagnostics do, so in
/// `"1d6 + ‸é"` the error is at column 7 although `é` starts at byte 6.
struct MarkedText: Sendable {
    static let marker: Character = "‸"

    /// The input with the marker removed.
    var text: String
    /// The 1-based line and column of the marker, if there was one.
    var line: Int?
    var column: Int?

    init(_ marked: String) {
        var text = ""
        var line = 1
        var column = 1
        for character in marked {
            if character == MarkedText.marker {
                precondition(self.column == nil, "more than one marker in \(marked)")
                self.line = line
                self.column = column
                continue
            }
            text.append(character)
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        self.text = text
    }
}
