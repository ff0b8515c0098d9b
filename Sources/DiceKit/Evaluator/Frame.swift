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

    /// Where `name` is bound in the frame, for `setBound(_:at:)`.
    package func index(of name: String) -> Int? {
        names.firstIndex(of: name)
    }

    /// Binds `name` to `bound` at `index`, where `index(of: name)` found it: the frame's
    /// names are not searched again (a `stats` walks a macro's body once for each of
    /// thousands of cases, its parameters set anew each time).
    package mutating func setBound(_ bound: Bound, at index: Int) {
        bounds[index] = bound
    }

    /// Binds `name`, which the frame does not bind yet, to `bound`, without searching the
    /// names: a macro's parameters, distinct by the grammar. Binding them through the
    /// subscript compared each with all before it, and was about a tenth of the
    /// instructions of Shadowrun's `stats push(20, 7)` (bench G10, callgrind, 2026-12-03).
    package mutating func bindNew(_ name: String, _ bound: Bound) {
        assert(index(of: name) == nil, "\(name) is bound already")
        names.append(name)
        bounds.append(bound)
    }

    /// Room for `count` names without growing.
    package mutating func reserveCapacity(_ count: Int) {
        names.reserveCapacity(count)
        bounds.reserveCapacity(count)
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
