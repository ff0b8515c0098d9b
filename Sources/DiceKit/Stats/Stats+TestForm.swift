/// Which `stats` expressions are tests, shown as one probability (`P = 55.00%`, a sweep's
/// `P` column) rather than a table (LANGUAGE.md §7: "the probability, for a 0/1 test").
///
/// A test is known by how it is written, not by its outcomes: `count(3d6, =7)` is never
/// anything but 0, and `1d2 - 1` is 0 or 1, yet both are numbers and get a table; `atk >= 15`
/// is a test even when it cannot fail. A test is a comparison, `and`, `or` or `not`, or
/// what leads to one alone: parentheses, a label, the body of a `let` (and a `let` name
/// bound to a test), an `if` or `match` whose every result is a test, the left side of
/// `given`, a macro whose body is a test (its parameters read as their arguments), and a
/// tally's field whose every tally has a test for it (`test(4).glitch`).
///
/// ```swift
/// Stats.isTest(try Parser.parseExpression("let r = 1d20 in r == 20 or r == 1"), environment: Environment())  // true
/// Stats.isTest(try Parser.parseExpression("count(1d6, =6)"), environment: Environment())                   // false
/// ```
extension Stats {
    /// How many parts of expressions one question reads at most: macros whose results use
    /// others twice over could ask for exponentially many. Past it the answer is "no test",
    /// and the expression gets its table, which is never wrong.
    static let testReadingBudget = 10_000

    /// Whether `expr` is a test, its names looked up in `environment`. The outcomes of a test
    /// are 0 and 1 alone, and its probability is that of 1.
    ///
    /// - Complexity: O(*n*) for *n* parts read (results only, never a condition or an
    ///   operand), at most `testReadingBudget`.
    package static func isTest(_ expr: Expr, environment: Environment) -> Bool {
        var reader = TestReader(environment: environment)
        return reader.isTest(expr, in: ReadingScope())
    }
}

private struct TestReader {
    let environment: Environment
    var budget = Stats.testReadingBudget
    /// The macros whose bodies are being read.
    var expanding: [String] = []

    /// Whether `expr` is a test; with `field`, whether its tally's `field` is (`t.hit`, where
    /// `t` leads to tally literals that all have a test for `hit`).
    mutating func isTest(_ expr: Expr, in scope: ReadingScope, field: String? = nil) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        switch expr.kind {
        case .comparison, .logical, .not:
            return field == nil
        case .tally(let fields):
            guard let field, let value = fields.first(where: { $0.name == field }) else { return false }
            return isTest(value.value, in: scope)
        case .field(let tally, let name):
            // A field is a number: it has no fields of its own.
            return field == nil && isTest(tally, in: scope, field: name)
        case .binding(let name, let value, let body):
            return isTest(body, in: scope.binding(name, to: value), field: field)
        case .name(let name):
            if let bound = scope.names[name] { return isTest(bound.expr, in: bound.scope, field: field) }
            return isMacroTest(name, arguments: [], in: scope, field: field)
        case .call(let name, let arguments):
            return isMacroTest(name, arguments: arguments, in: scope, field: field)
        default:
            // A label, `given`, `if`, `match`: a test when every part its value comes from
            // is (no entry of a `match` and no `else` is an error, not an outcome).
            guard let parts = expr.valueParts else { return false }
            for part in parts where !isTest(part, in: scope, field: field) { return false }
            return true
        }
    }

    /// Whether the macro `name`, given `arguments`, is a test; a variable holds a number.
    private mutating func isMacroTest(_ name: String, arguments: [Expr], in scope: ReadingScope, field: String?) -> Bool {
        guard case .macro(let macro) = environment[name] else { return false }
        // A macro without parameters that uses itself adds no outcome its other results do
        // not have: the recursion ends in those, so they alone decide. With parameters, the
        // use may give them what is no test (`def f(x) = if c then x else f(1d6)`).
        guard !expanding.contains(name) else { return macro.parameters.isEmpty }
        expanding.append(name)
        defer { expanding.removeLast() }
        return isTest(macro.body, in: scope.calling(macro, with: arguments), field: field)
    }
}
