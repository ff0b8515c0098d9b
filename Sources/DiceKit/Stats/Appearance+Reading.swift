/// The texts and tally fields of an expression in the order it is read: left to right, each
/// macro use read as its body with each parameter read as its argument, and each name bound
/// by `let` as its value (LANGUAGE.md §7).
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
                // Read where the name is used, as a macro's body is: a tally bound to read its
                // fields (`let t = (a: 1d2, b: 1) in (sum: t.a + t.b, a: t.a)`) puts none
                // before the result's own.
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
