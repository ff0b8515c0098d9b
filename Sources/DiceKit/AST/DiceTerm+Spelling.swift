extension DiceTerm {
    /// How a dice term's `d` and sides were typed, when another roller's spelling was used
    /// (LANGUAGE.md §3a): the breakdown echoes what was typed.
    package struct Spelling: Hashable, Sendable {
        /// `d`, or `D` as in `1D20`.
        package internal(set) var dice: String = "d"
        /// The sides as typed when they are a Fate spelling: `f` (`4df`), `F.2`, `F.1`
        /// (`4dF.1`, the die `{-1, 0, 0, 0, 0, 1}`); `nil` otherwise.
        package internal(set) var fateSides: String?

        init(dice: String = "d", fateSides: String? = nil) {
            self.dice = dice
            self.fateSides = fateSides
        }
    }

    /// Whether the dice are Fate dice (`dF`, `df`, `dF.1`, `dF.2`): their faces show as
    /// `+`, blank and `-`.
    package var isFate: Bool {
        if case .fate = sides { return true }
        return spelling.fateSides != nil
    }

    /// Whether the notation holds text the user wrote: the faces of text or tally dice (and
    /// so their compare points, `cs="hit"`); numbered dice have none.
    package var hasUserText: Bool {
        if case .symbols = sides { return true }
        return false
    }

    /// The faces of `dF.1`: mostly blank, one `+` and one `-` in six.
    static let fateOneFaces = [-1, 0, 0, 0, 0, 1]
}
