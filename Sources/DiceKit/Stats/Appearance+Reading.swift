/// The texts and tally fields of an expression in the order it is read: left to right (a
/// `let`'s value before its body), each macro use read as its body with each parameter read
/// as its argument (LANGUAGE.md §7).
extension Appearance {
    /// How many parts of expressions one reading walks at most: macros that use others twice
    /// over could otherwise ask for exponentially many. What is left unread keeps the order
    /// the engine met it in (`arranged(by:)`).
    static let readingBudget = 100_000

    /// The texts and fields of `expr`, its names looked up in `environment`.
    ///
    /// - Complexity: O(*n*) for *n* parts read, at most `readingBudget`.
    static func reading(_ expr: Expr, environment: Environment) -> Appearance {
        var reader = Reader(environment: environment)
        reader.read(expr, in: ReadingScope())
        return reader.found
    }

    private struct Reader {
        let environment: Environment
        var found = Appearance()
        var budget = Appearance.readingBudget
        /// The macros whose bodies are being read: a macro using itself is not read again.
        var expanding: [String] = []

        mutating func read(_ expr: Expr, in scope: ReadingScope) {
            guard budget > 0 else { return }
            budget -= 1
            switch expr.kind {
            case .text(let text):
                found.noteText(text)
            case .tally(let fields):
                for field in fields {
                    found.noteField(field.name)
                    read(field.value, in: scope)
                }
            case .dice(let term):
                if case .symbols(let faces) = term.sides {
                    if let count = term.count { read(count, in: scope) }
                    for face in faces { found.note(face) }
                    for modifier in term.modifiers { for argument in modifier.arguments { read(argument, in: scope) } }
                } else {
                    expr.forEachChild { read($0, in: scope) }
                }
            case .name(let name):
                if let bound = scope.names[name] {
                    read(bound.expr, in: bound.scope)
                } else {
                    readEnvironmentName(name, arguments: [], in: scope)
                }
            case .call(let name, let arguments):
                readEnvironmentName(name, arguments: arguments, in: scope)
            case .binding(let name, let value, let body):
                // Read where it is written, before the body, as the roller rolls it: only macros
                // are read as expanded (§7). Read where the name was used, `let q = "m" in if
                // 1d2 == 1 then "n" else q` listed n before m. The name is bound all the same,
                // so that it hides a parameter of that name; reading it again adds nothing.
                read(value, in: scope)
                read(body, in: scope.binding(name, to: value))
            case .field:
                // A number: nothing of the tally it reads is an outcome.
                break
            default:
                expr.forEachChild { read($0, in: scope) }
            }
        }

        /// A variable's value, or a macro's body with its parameters bound to `arguments`
        /// (defaults, read where the macro is used, for the rest).
        private mutating func readEnvironmentName(_ name: String, arguments: [Expr], in scope: ReadingScope) {
            switch environment[name] {
            case .variable(let value):
                found.note(value)
            case .macro(let macro):
                guard !expanding.contains(name) else {
                    for argument in arguments { read(argument, in: scope) }
                    return
                }
                expanding.append(name)
                read(macro.body, in: scope.calling(macro, with: arguments))
                expanding.removeLast()
            case nil:
                for argument in arguments { read(argument, in: scope) }
            }
        }
    }
}
