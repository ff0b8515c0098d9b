/// A statement of the dice language, with its source range.
public struct Stmt: Hashable, Sendable {
    /// What the statement is, with its parts.
    package enum Kind: Hashable, Sendable {
        /// `4d6kh3 + 2`: roll it and show the breakdown.
        case expression(Expr)
        /// `str = 4d6kh3`: evaluate once and bind the number.
        case assignment(name: String, Expr)
        /// `hp -= 1d8`, `gold += 5`, `xp *= 2`: the variable becomes `name op (expr)`.
        case update(name: String, BinaryOperator, Expr)
        /// `def atk = 1d20 + 5`, `def smite(n) = (n + 1)d8`: a macro, rolled afresh at each use.
        /// `def atk(bonus = 0) = 1d20 + 5 + bonus`: `defaults` holds the parameters that have one.
        case definition(name: String, parameters: [String], defaults: [String: Expr], body: Expr)
        /// `stats 4d6kh3`: the exact distribution.
        case stats(Expr)
        /// `stats 2d20kh1 + 5, 1d20 + 8`: the distributions of two or more expressions,
        /// side by side.
        case compare([Expr])
        /// `stats E for NAME in A..B`: the distribution of E for each whole NAME from A to B.
        case sweep(Expr, name: String, from: Expr, to: Expr)
        /// `use pbta`: define a built-in game system's macros; `use` alone lists the systems.
        case use(String?)
    }

    /// What the statement is.
    package internal(set) var kind: Kind
    /// The source text it was parsed from, without its separator.
    public internal(set) var range: SourceRange
    /// A definition's description: the `#: ...` line right above its `def`, which `:defs`,
    /// `use` and `:save` show (a syntax of comments, not of the statement).
    var doc: String?

    /// A statement of `kind` covering `range`: `Stmt(.stats(expr), statement.range)` asks for
    /// the distribution of an expression statement.
    package init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
