/// A set of whole numbers, bounded below, that repeats past some point: the values an
/// expression of exploding dice can take, with the holes its interval (`ValueBounds`) cannot
/// show. A chain of `1d6!` shows 1–5, 7–11, 13–17, … and never a multiple of 6, so
/// `1d6! == 12` never holds, though 12 lies between its least and greatest values.
///
/// A value is in the set when it lies in the window and is marked there, or, past the window
/// and with a `period` above 0, when the value `period` below it is in the set. Sums of such
/// sets (`3d6! + 1d10!`), their unions, multiples and the sums of a die's chain are such sets
/// again; each operation answers `nil` past `maxWindow` marks or `maxSteps` steps.
struct WholeSet: Hashable {
    /// The value of the window's first mark.
    private(set) var start: Int
    /// Whether `start`, `start + 1`, … are in the set.
    private(set) var window: [Bool]
    /// 0 when no value past the window is in the set; else the period it repeats with there.
    /// Never more than the window's length.
    private(set) var period: Int

    /// The most marks a set keeps; a larger one is not worked out.
    static let maxWindow = 1 << 14
    /// The most steps one operation takes (about a millisecond).
    static let maxSteps = 1 << 21

    private init(start: Int, window: [Bool], period: Int) {
        self.start = start
        self.window = window
        self.period = period
        normalize()
    }

    /// The set of `values`; `nil` when they spread over more than `maxWindow` values.
    init?(_ values: [Int]) {
        guard let least = values.min(), let most = values.max() else {
            self.init(start: 0, window: [], period: 0)
            return
        }
        let (span, overflow) = most.subtractingReportingOverflow(least)
        guard !overflow, span < Self.maxWindow else { return nil }
        var marks = [Bool](repeating: false, count: span + 1)
        for value in values { marks[value - least] = true }
        self.init(start: least, window: marks, period: 0)
    }

    static func constant(_ value: Int) -> WholeSet { WholeSet(start: value, window: [true], period: 0) }

    /// `start` and every `step`-th value above it, without end; `nil` for a step below 1
    /// or longer than a window.
    static func progression(from start: Int, every step: Int) -> WholeSet? {
        guard step >= 1, step <= maxWindow else { return nil }
        return WholeSet(start: start, window: [true] + [Bool](repeating: false, count: step - 1), period: step)
    }

    var isEmpty: Bool { !window.contains(true) }

    /// The least value; `nil` for the empty set.
    var least: Int? { isEmpty ? nil : start }

    /// Whether the set is one value, `start`.
    var isConstant: Bool { window.count == 1 && period == 0 }

    /// Whether the set has finitely many values: none past the window.
    var isFinite: Bool { period == 0 }

    /// The values in the window, ascending: all of them when the set is finite.
    var members: [Int] { window.indices.filter { window[$0] }.map { start + $0 } }

    /// The value just past the window; `nil` past `Int.max`.
    private var end: Int? {
        let (end, overflow) = start.addingReportingOverflow(window.count)
        return overflow ? nil : end
    }

    func contains(_ value: Int) -> Bool {
        let (offset, overflow) = value.subtractingReportingOverflow(start)
        guard !overflow, offset >= 0 else { return false }
        if offset < window.count { return window[offset] }
        guard period > 0 else { return false }
        let base = window.count - period
        return window[base + (offset - base) % period]
    }

    /// Whether no value is in both sets (`false` also when that takes too many steps).
    func isDisjoint(with other: WholeSet) -> Bool {
        if isEmpty || other.isEmpty { return true }
        if period == 0 || other.period == 0 {
            let (finite, any) = period == 0 ? (self, other) : (other, self)
            return !finite.window.indices.contains { finite.window[$0] && any.contains(finite.start + $0) }
        }
        // Past both windows and one common period further, both repeat with the common period:
        // a value in both there has one a common period below.
        guard let common = Self.commonPeriod(period, other.period), let a = end, let b = other.end,
              let values = Self.span(from: max(start, other.start), to: max(a, b), plus: common),
              values.count <= Self.maxSteps else { return false }
        return !values.contains { contains($0) && other.contains($0) }
    }

    /// The set of every sum of a value of each (a Minkowski sum).
    static func + (a: WholeSet, b: WholeSet) -> WholeSet? {
        if a.isEmpty || b.isEmpty { return WholeSet(start: 0, window: [], period: 0) }
        let (start, overflow) = a.start.addingReportingOverflow(b.start)
        guard !overflow else { return nil }
        var period = 0, length = a.window.count + b.window.count - 1
        if a.period > 0 || b.period > 0 {
            // Past a's window end A, b's B and two common periods P, a sum x = u + v has
            // u ≥ A + P or v ≥ B + P, which a period less keeps in its set: x - P is a sum too,
            // and the other way alike. So the sums repeat with P past A + B + 2P.
            guard let common = commonPeriod(a.period, b.period) else { return nil }
            period = common
            length = a.window.count + b.window.count + 2 * common
        }
        guard length <= maxWindow else { return nil }
        // Two runs without holes add up to one (`2000d6` is every value from 2000 to 12000).
        if period == 0 && !a.window.contains(false) && !b.window.contains(false) {
            return WholeSet(start: start, window: [Bool](repeating: true, count: length), period: 0)
        }
        let left = a.offsets(below: length), right = b.offsets(below: length)
        guard left.count * right.count <= maxSteps else { return nil }
        var marks = [Bool](repeating: false, count: length)
        for u in left {
            for v in right {
                guard u + v < length else { break }
                marks[u + v] = true
            }
        }
        return WholeSet(start: start, window: marks, period: period)
    }

    /// The values of either set.
    func union(_ other: WholeSet) -> WholeSet? {
        if isEmpty { return other }
        if other.isEmpty { return self }
        guard let common = Self.commonPeriod(period, other.period), let a = end, let b = other.end else { return nil }
        // Past both windows and a common period further, both repeat with the common period.
        guard let values = Self.span(from: min(start, other.start), to: max(a, b), plus: common),
              values.count <= Self.maxWindow else { return nil }
        let marks = values.map { contains($0) || other.contains($0) }
        return WholeSet(start: values.lowerBound, window: marks, period: common)
    }

    /// Each value plus `amount`.
    func shifted(by amount: Int) -> WholeSet? {
        let (moved, overflow) = start.addingReportingOverflow(amount)
        guard !overflow else { return nil }
        return WholeSet(start: moved, window: window, period: period)
    }

    /// Each value times `factor`, which is at least 1.
    func scaled(by factor: Int) -> WholeSet? {
        guard factor >= 1 else { return nil }
        let (moved, overflow) = start.multipliedReportingOverflow(by: factor)
        guard !overflow, window.count <= Self.maxWindow / factor else { return nil }
        var marks = [Bool](repeating: false, count: window.count * factor)
        for offset in window.indices where window[offset] { marks[offset * factor] = true }
        return WholeSet(start: moved, window: marks, period: period * factor)
    }

    /// The sums of `count` values, each any value of the set (the values of `count` dice).
    func repeated(_ count: Int) -> WholeSet? {
        guard count >= 0 else { return nil }
        var result = WholeSet.constant(0), power = self, left = count
        while left > 0 {
            if left & 1 == 1 {
                guard let sum = result + power else { return nil }
                result = sum
            }
            left >>= 1
            if left > 0 {
                guard let doubled = power + power else { return nil }
                power = doubled
            }
        }
        return result
    }

    /// Every sum of any number of `steps` (0 among them, the sum of none), each at least 0:
    /// what the faces that explode add before a face that stops. `nil` for a step below 0.
    ///
    /// With g the steps' greatest common divisor, a the least and b the greatest divided by
    /// g, every multiple of g from g·(a − 1)(b − 1) on is such a sum (Schur's bound on the
    /// Frobenius number), and no other number is: the set repeats with period g past that.
    static func sums(of steps: [Int]) -> WholeSet? {
        let positive = steps.filter { $0 != 0 }
        guard positive.allSatisfy({ $0 > 0 }), let least = positive.min(), let most = positive.max() else {
            return positive.isEmpty ? .constant(0) : nil
        }
        let divisor = positive.reduce(0) { gcd($0, $1) }
        let (frobenius, overflow) = (least / divisor - 1).multipliedReportingOverflow(by: most / divisor - 1)
        guard !overflow, frobenius < maxWindow / divisor else { return nil }
        let length = divisor * (frobenius + 1)
        guard length * positive.count <= maxSteps else { return nil }
        var marks = [Bool](repeating: false, count: length)
        marks[0] = true
        for value in 1..<max(1, length) {
            marks[value] = positive.contains { $0 <= value && marks[value - $0] }
        }
        return WholeSet(start: 0, window: marks, period: divisor)
    }

    // MARK: - Helpers

    /// The offsets from `start` of the values below `start + length`, ascending.
    private func offsets(below length: Int) -> [Int] {
        (0..<length).filter { offset in
            if offset < window.count { return window[offset] }
            let (value, overflow) = start.addingReportingOverflow(offset)
            return period > 0 && !overflow && contains(value)
        }
    }

    /// The least period both repeat with (a finite set's 0 takes the other's); `nil` when
    /// longer than a window may be.
    static func commonPeriod(_ a: Int, _ b: Int) -> Int? {
        guard a > 0, b > 0 else { return max(a, b) }
        let (common, overflow) = (a / gcd(a, b)).multipliedReportingOverflow(by: b)
        return overflow || common > maxWindow ? nil : common
    }

    /// The values from `first` up to `last + extra`, when their count fits in an `Int`.
    private static func span(from first: Int, to last: Int, plus extra: Int) -> Range<Int>? {
        let (end, overflow) = last.addingReportingOverflow(extra)
        guard !overflow, first <= end, !end.subtractingReportingOverflow(first).overflow else { return nil }
        return first..<end
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The shortest period and window for the same set: a period whose last block repeats a
    /// divisor's pattern shrinks to the divisor, an all-empty one to none, and marks that the
    /// period repeats, or empty ones at either end, leave the window.
    private mutating func normalize() {
        // No value lies past `Int.max`.
        let (room, overflow) = Int.max.subtractingReportingOverflow(start)
        if !overflow && room < window.count {
            window.removeLast(window.count - room)
            period = 0
        }
        if period > 0 {
            let base = window.count - period
            for divisor in 1...period where period % divisor == 0 {
                if (base + divisor..<window.count).allSatisfy({ window[$0] == window[$0 - divisor] }) {
                    period = divisor
                    break
                }
            }
            if !window[(window.count - period)...].contains(true) { period = 0 }
        }
        if period > 0 {
            var count = window.count
            while count > period && window[count - 1] == window[count - 1 - period] { count -= 1 }
            window.removeLast(window.count - count)
        } else {
            while window.last == false { window.removeLast() }
        }
        var leading = 0
        while leading < window.count - max(period, 1) && !window[leading] { leading += 1 }
        if leading > 0 {
            window.removeFirst(leading)
            start += leading
        }
        if window.isEmpty { start = 0 }
    }
}
