/// `use NAME` beside the macros of another system.
///
/// A system's macros call each other by name (dnd5e's `save` calls `check`, which calls
/// `roll`), and a name is looked up when the macro is used. `use fate` after `use dnd5e`
/// replaces `check` and `roll`, as LANGUAGE.md §8a says; without more, dnd5e's `save` would
/// then roll fate's `check`, a wrong answer with no error. So the macros another system
/// left behind keep what they called: each replaced macro one of them reaches is kept under
/// that system's name (`dnd5e_check`), and their calls are renamed to it. What the user
/// defined with `def` is not touched: a name means what it is bound to when it is used.
extension GameSystem {
    /// Defines the system's macros in `environment`; returns them, then the macros kept for
    /// another system's (each with a summary that says so).
    func use(in environment: inout Environment) throws(DiceError) -> [Macro] {
        let macros = try macrosDefined()
        let replaced = Set(macros.compactMap { macro -> String? in
            guard case .macro(let old)? = environment[macro.name], old != macro else { return nil }
            return macro.name
        })
        var keeper = Keeper(environment: environment, replaced: replaced, by: name)
        if !replaced.isEmpty {
            for staying in environment.macros where staying.system != nil && staying.system != name
                && !replaced.contains(staying.name) {
                keeper.keepCalls(of: staying)
            }
        }
        let (kept, rewritten) = keeper.finished
        for macro in macros { environment.define(macro) }
        for macro in rewritten { environment.define(macro) }
        return macros + kept
    }

    /// Renames the calls of other systems' macros to the replaced macros they reach.
    private struct Keeper {
        let environment: Environment
        let replaced: Set<String>
        let by: String
        /// The kept copies, in the order they were made.
        var kept: [Macro] = []
        /// The macros whose calls were renamed, copies included: what to define.
        var rewritten: [Macro] = []
        /// The name of each copy made, by the system it was kept for and the replaced name.
        var copies: [String: String] = [:]
        /// Which macros each copy was kept for, for its summary.
        var keptFor: [String: [String]] = [:]

        init(environment: Environment, replaced: Set<String>, by: String) {
            self.environment = environment
            self.replaced = replaced
            self.by = by
        }

        /// Renames in `macro` (of another system) each call of a replaced name to a kept copy.
        mutating func keepCalls(of macro: Macro) {
            guard let system = macro.system else { return }
            var changed = macro
            var renamedAny = false
            let parameters = Set(macro.parameters)
            changed.body = renaming(macro.body, for: system, hidden: parameters, caller: macro.name, renamed: &renamedAny)
            for (parameter, value) in macro.defaults {
                changed.defaults[parameter] = renaming(value, for: system, hidden: [], caller: macro.name,
                                                       renamed: &renamedAny)
            }
            if renamedAny { rewritten.append(changed) }
        }

        /// `expr` with each call of a replaced name (not one of the `hidden` parameters and
        /// `let` names) renamed to its copy kept for `system`, made when first needed.
        private mutating func renaming(_ expr: Expr, for system: String, hidden: Set<String>, caller: String,
                                       renamed: inout Bool) -> Expr {
            var copy = expr
            switch expr.kind {
            case .call(let called, let arguments) where replaced.contains(called):
                let arguments = arguments.map { renaming($0, for: system, hidden: hidden, caller: caller, renamed: &renamed) }
                copy.kind = .call(keptCopy(of: called, for: system, caller: caller), arguments)
                renamed = true
                return copy
            case .name(let used) where replaced.contains(used) && !hidden.contains(used):
                copy.kind = .name(keptCopy(of: used, for: system, caller: caller))
                renamed = true
                return copy
            case .binding(let bound, let value, let body):
                let value = renaming(value, for: system, hidden: hidden, caller: caller, renamed: &renamed)
                let body = renaming(body, for: system, hidden: hidden.union([bound]), caller: caller, renamed: &renamed)
                copy.kind = .binding(name: bound, value: value, body: body)
                return copy
            default:
                var this = self
                let mapped = expr.mappingChildren { child in
                    this.renaming(child, for: system, hidden: hidden, caller: caller, renamed: &renamed)
                }
                self = this
                return mapped ?? expr
            }
        }

        /// The name of the copy of replaced macro `name` kept for `system`'s macros: made
        /// (its own calls renamed) the first time.
        private mutating func keptCopy(of name: String, for system: String, caller: String) -> String {
            let key = "\(system) \(name)"
            if let known = copies[key] {
                keptFor[known, default: []].append(caller)
                return known
            }
            guard case .macro(let original)? = environment[name] else { return name }
            var copyName = "\(system)_\(name)"
            var suffix = 2
            while environment[copyName] != nil || kept.contains(where: { $0.name == copyName }) {
                copyName = "\(system)_\(name)\(suffix)"
                suffix += 1
            }
            copies[key] = copyName
            keptFor[copyName] = [caller]
            var copy = original
            copy.name = copyName
            copy.system = system
            copy.summary = name
            kept.append(copy)
            // Its own calls of replaced names, renamed (then it is among `rewritten`).
            let before = rewritten.count
            keepCalls(of: copy)
            if rewritten.count == before { rewritten.append(copy) }
            return copyName
        }

        /// The kept copies as defined, each with a summary of what it is kept for.
        var finished: (kept: [Macro], rewritten: [Macro]) {
            func described(_ macro: Macro) -> Macro {
                guard let callers = keptFor[macro.name], let system = macro.system,
                      let original = macro.summary else { return macro }
                var copy = macro
                copy.summary = "\(system)'s \(original), kept for \(Keeper.list(callers)): '\(original)' is now \(by)'s"
                return copy
            }
            let copiesByName = Dictionary(rewritten.map { ($0.name, described($0)) }, uniquingKeysWith: { $1 })
            return (kept.compactMap { copiesByName[$0.name] }, rewritten.map(described))
        }

        /// `a`, `a and b`, `a, b and c`.
        static func list(_ names: [String]) -> String {
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            guard let last = unique.last else { return "" }
            return unique.count == 1 ? last : unique.dropLast().joined(separator: ", ") + " and " + last
        }
    }
}
