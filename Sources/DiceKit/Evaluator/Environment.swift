/// The variables and macros of a session: a value a host program creates,
/// inspects, fills and saves. Nothing in DiceKit is global.
///
/// ```swift
/// var session = Session()
/// session.environment.setVariable("str", to: .integer(3))
/// for statement in try Parser.parseProgram("def atk = 1d20 + str") { _ = try session.execute(statement) }
/// session.environment.macros.map(\.definitionText)   // ["def atk = 1d20 + str"]
/// ```
public struct Environment: Hashable, Sendable {
    /// What a name is bound to.
    package enum Binding: Hashable, Sendable {
        /// A variable and its value.
        case variable(Value)
        /// A macro, rolled afresh at each use.
        case macro(Macro)
    }

    /// Names in one namespace: a variable and a macro cannot share a name.
    private(set) var bindings: [String: Binding] = [:]

    /// An environment with no names bound.
    public init() {}

    /// The binding of `name`.
    package subscript(name: String) -> Binding? { bindings[name] }

    /// Binds `name` to a value, replacing whatever it was.
    public mutating func setVariable(_ name: String, to value: Value) {
        bindings[name] = .variable(value)
    }


    /// Binds the macro's name to it, replacing whatever it was.
    package mutating func define(_ macro: Macro) {
        bindings[macro.name] = .macro(macro)
    }

    /// Removes `name`; returns whether it was bound.
    @discardableResult
    public mutating func remove(_ name: String) -> Bool {
        bindings.removeValue(forKey: name) != nil
    }

    /// Variables sorted by name.
    ///
    /// - Complexity: O(*n* log *n*) for *n* bound names.
    public var variables: [(name: String, value: Value)] {
        bindings.compactMap { name, binding in
            if case .variable(let value) = binding { return (name, value) }
            return nil
        }.sorted { $0.name < $1.name }
    }

    /// Macros sorted by name.
    ///
    /// - Complexity: O(*n* log *n*) for *n* bound names.
    public var macros: [Macro] {
        bindings.values.compactMap { binding in
            if case .macro(let macro) = binding { return macro }
            return nil
        }.sorted { $0.name < $1.name }
    }

    /// Every bound name and every function name: the candidates for completion and suggestions.
    ///
    /// - Complexity: O(*n* log *n*) for *n* bound names.
    package var knownNames: [String] {
        (Array(bindings.keys) + Function.allCases.map { $0.rawValue } + ["repeat"]).sorted()
    }
}

/// A named expression rolled afresh at each use, with optional parameters.
public struct Macro: Hashable, Sendable {
    /// The name it is called by.
    public package(set) var name: String
    /// The names its arguments bind, in order; empty for a macro used without arguments.
    package var parameters: [String]
    /// The default values of the parameters that have one: `def atk(bonus = 0) = ...`.
    package var defaults: [String: Expr]
    /// The expression rolled at each use.
    package var body: Expr
    /// A one-line description (a built-in game system's macros have one).
    public package(set) var summary: String?
    /// The built-in game system whose `use` defined it (`GameSystem.use(in:)`), or `nil`.
    package var system: String?

    /// A macro `name(parameters) = body`.
    package init(name: String, parameters: [String], defaults: [String: Expr] = [:], body: Expr,
                summary: String? = nil) {
        self.name = name
        self.parameters = parameters
        self.defaults = defaults
        self.body = body
        self.summary = summary
    }

    /// The definition as a statement that reads back to this macro: `def atk(bonus = 0) = 1d20 + 5`.
    public var definitionText: String {
        let written = parameters.map { parameter in defaults[parameter].map { "\(parameter) = \($0.text)" } ?? parameter }
        let signature = parameters.isEmpty ? name : "\(name)(\(written.joined(separator: ", ")))"
        return "def \(signature) = \(body.text)"
    }
}
