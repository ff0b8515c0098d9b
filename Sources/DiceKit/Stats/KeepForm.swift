extension MultisetKeep {
    /// A form of keeping that gives the same positions as `steps` for every pool size in
    /// `sizes`, the one with the shortest state; `fromTop` says which end ranks count from.
    ///
    /// `nil` when no one-sided form fits (say `dh1dl1` on a pool whose size varies).
    /// Without `allowDrop`, only windows: a drop form adds every value and subtracts the
    /// dropped ones, which for decimals loses what is small beside them (`{1, 1, 2^63.5}kl2`).
    ///
    /// - Complexity: O(*sizes* · *steps*)
    static func form(for steps: [KeepDropStep], sizes: ClosedRange<Int>,
                     allowDrop: Bool = true) -> (form: Form, fromTop: Bool)? {
        let largest = sizes.upperBound
        let top = KeepDropStep.keptRange(steps, total: largest)
        var bottomWindow = true, topWindow = true, dropBottom = true, dropTop = true
        let bottomSkip = top.lowerBound, bottomWidth = top.upperBound
        let topSkip = largest - top.upperBound, topWidth = largest - top.lowerBound
        for size in sizes {
            let kept = KeepDropStep.keptRange(steps, total: size)
            if kept.lowerBound != Swift.min(bottomSkip, size) || kept.upperBound != Swift.min(bottomWidth, size) {
                bottomWindow = false
            }
            if size - kept.upperBound != Swift.min(topSkip, size) || size - kept.lowerBound != Swift.min(topWidth, size) {
                topWindow = false
            }
            if kept.upperBound != size || kept.lowerBound != Swift.min(bottomSkip, size) { dropBottom = false }
            if kept.lowerBound != 0 || size - kept.upperBound != Swift.min(topSkip, size) { dropTop = false }
        }
        var candidates: [(form: Form, fromTop: Bool)] = []
        if bottomWindow { candidates.append((.window(skip: bottomSkip, width: bottomWidth), false)) }
        if topWindow { candidates.append((.window(skip: topSkip, width: topWidth), true)) }
        if dropBottom && allowDrop { candidates.append((.drop(count: bottomSkip), false)) }
        if dropTop && allowDrop { candidates.append((.drop(count: topSkip), true)) }
        return candidates.min { $0.form.length < $1.form.length }
    }
}
