/// A position in a source text: a UTF-8 byte offset from its start.
public struct SourceLocation: Hashable, Comparable, Sendable {
    /// Bytes from the start of the source.
    public var offset: Int

    /// The location `offset` bytes from the start.
    package init(offset: Int) { self.offset = offset }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.offset < rhs.offset
    }
}

/// The half-open span of source text a token, node or error covers.
public typealias SourceRange = Range<SourceLocation>

extension Range where Bound == SourceLocation {
    /// An empty range at `offset`.
    static func at(_ offset: Int) -> SourceRange {
        SourceLocation(offset: offset)..<SourceLocation(offset: offset)
    }

    /// The smallest range covering both.
    func merged(with other: SourceRange) -> SourceRange {
        Swift.min(lowerBound, other.lowerBound)..<Swift.max(upperBound, other.upperBound)
    }
}
