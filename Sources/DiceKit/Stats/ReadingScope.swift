/// The names a part of an expression sees besides the environment's, for the readers that
/// look through names and macros without rolling (`Appearance.reading`, `Stats.isTest`): a
/// parameter or a name bound by `let`, read as the argument given for it or the value bound,
/// in the scope where that was written.
final class ReadingScope {
    struct Name {
        var expr: Expr
        var scope: ReadingScope
    }

    let names: [String: Name]

    init(_ names: [String: Name] = [:]) { self.names = names }

    /// This scope with `name` bound by `let` to `value`.
    func binding(_ name: String, to value: Expr) -> ReadingScope {
        var names = self.names
        names[name] = Name(expr: value, scope: self)
        return ReadingScope(names)
    }

    /// The scope of `macro`'s body used here with `arguments`: each parameter the argument
    /// given for it, or its default, read where the macro is used.
    func calling(_ macro: Macro, with arguments: [Expr]) -> ReadingScope {
        var names: [String: Name] = [:]
        for (index, parameter) in macro.parameters.enumerated() {
            if index < arguments.count {
                names[parameter] = Name(expr: arguments[index], scope: self)
            } else if let value = macro.defaults[parameter] {
                names[parameter] = Name(expr: value, scope: self)
            }
        }
        return ReadingScope(names)
    }
}
