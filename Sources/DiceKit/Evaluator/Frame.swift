/// The names one frame of a walk binds (a `let`'s name over those around it, a macro's
/// parameters) and what each is bound to: the roller's values, the stats engine's
/// parameters, the value bounds' intervals.
///
/// A frame holds a handful of names, so they are kept in a list and compared, not hashed:
/// bench G10 (Shadowrun's `push(20, 7)`, whose macros are walked once per outcome) spent a
/// third of its 413 M instructions hashing names and copying hash tables (callgrind,
/// 2026-12-02); with frames as lists, 331 M, and F2's first `check(7, 20)` 839,000 -> 732,000.
/// Names and bounds are two lists, so that a search reads names alone (one list of pairs
/// copied each pair it compared: 540 M).
package struct Frame<Bound> {
    package private(set) var names: [String] = []
    private var bounds: [Bound] = []

    package init() {}

    /// What `name` is bound to; setting replaces it, `nil` removes it.
    package subscript(name: String) -> Bound? {
        get { index(of: name).map { bounds[$0] } }
        set {
            if let index = index(of: name) {
                if let newValue {
                    bounds[index] = newValue
                } else {
                    names.remove(at: index)
                    bounds.remove(at: index)
                }
            } else if let newValue {
                names.append(name)
                bounds.append(newValue)
            }
        }
    }

    private func index(of name: String) -> Int? {
        names.firstIndex(of: name)
    }

    package var isEmpty: Bool { names.isEmpty }
}

extension Frame: Sequence {
    package func makeIterator() -> Zip2Sequence<[String], [Bound]>.Iterator {
        zip(names, bounds).makeIterator()
    }
}

extension Frame: ExpressibleByDictionaryLiteral {
    package init(dictionaryLiteral elements: (String, Bound)...) {
        for (name, bound) in elements { self[name] = bound }
    }
}

extension Frame: Sendable where Bound: Sendable {}

extension Array {
    /// Pushes a frame of names: the innermost frame's, with `name` bound to `bound` on top
    /// (a `let`: the roller's values, the stats engine's parameters, the value bounds).
    mutating func pushBinding<Bound>(_ name: String, _ bound: Bound) where Element == Frame<Bound> {
        var frame = last ?? Frame()
        frame[name] = bound
        append(frame)
    }
}
