import Synchronization

/// A game system built into DiceKit: the macros `use NAME` defines (LANGUAGE.md §8a).
///
/// Each system is an ordinary `.dice` program, `Sources/DiceKit/Systems/NAME.dice`, compiled
/// into the library as bytes (SwiftPM's `embedInCode`), so nothing has to be installed. Its
/// first line reads `# NAME: summary`, and a `#: description` line stands right above each
/// `def`:
///
/// ```swift
/// let pbta = GameSystem.named("pbta")
/// print(pbta?.macros.first?.name ?? "")              // move
/// for (macro, description) in try pbta?.definitions() ?? [] { ... }
/// ```
public struct GameSystem: Sendable {
    /// The name `use` takes: `dnd5e`.
    public let name: String
    /// The system's `.dice` program, as `dice --show-system NAME` prints it.
    package let source: String

    /// The system named `name` with the program `source`.
    init(name: String, source: String) {
        self.name = name
        self.source = source
    }

    /// Every built-in system, in the order `use` lists them.
    public static let all: [GameSystem] = [
        GameSystem(name: "dnd5e", source: text(PackageResources.dnd5e_dice)),
        GameSystem(name: "pf2e", source: text(PackageResources.pf2e_dice)),
        GameSystem(name: "pbta", source: text(PackageResources.pbta_dice)),
        GameSystem(name: "blades", source: text(PackageResources.blades_dice)),
        GameSystem(name: "shadowrun", source: text(PackageResources.shadowrun_dice)),
        GameSystem(name: "wod", source: text(PackageResources.wod_dice)),
        GameSystem(name: "coc", source: text(PackageResources.coc_dice)),
        GameSystem(name: "savage", source: text(PackageResources.savage_dice)),
        GameSystem(name: "fate", source: text(PackageResources.fate_dice)),
        GameSystem(name: "ironsworn", source: text(PackageResources.ironsworn_dice)),
        GameSystem(name: "yearzero", source: text(PackageResources.yearzero_dice)),
        GameSystem(name: "genesys", source: text(PackageResources.genesys_dice)),
    ]

    /// The built-in system called `name` (exactly as `use` spells it), or `nil`.
    public static func named(_ name: String) -> GameSystem? {
        // Any case: a new user types `use PF2E` or `use DnD5e` for the game's name.
        let lowered = name.lowercased()
        return all.first { $0.name == lowered }
    }

    /// The names of the built-in systems, in the order `use` lists them.
    package static var names: [String] { all.map(\.name) }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension GameSystem {
    /// What the system holds, in one line: its first line after `# NAME: `.
    public var summary: String {
        let first = source.prefix { $0 != "\n" }
        let prefix = "# \(name): "
        return first.hasPrefix(prefix) ? String(first.dropFirst(prefix.count)) : String(first)
    }

    /// The macros the source defines, in order, each with the description of the `#:` line
    /// above its `def` (empty when there is none). Read from the text alone, without parsing.
    public var macros: [(name: String, description: String)] {
        var found: [(name: String, description: String)] = []
        var description = ""
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#:") {
                description = String(line.dropFirst(2).drop { $0 == " " })
            } else if line.hasPrefix("def ") {
                let name = line.dropFirst(4).prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
                found.append((String(name), description))
                description = ""
            } else if !line.hasPrefix(" ") {
                // A description belongs to the `def` right below it, not to a later one.
                description = ""
            }
        }
        return found
    }

    /// The macros `use` defines, each with its description as its `summary`: the source is
    /// run once a process, and its macros kept (they depend on nothing else).
    func macrosDefined() throws(DiceError) -> [Macro] {
        let result = GameSystem.loaded.value(for: name) { () -> Result<[Macro], DiceError> in
            Result { () throws(DiceError) in
                try definitions().map { entry in
                    var macro = entry.macro
                    macro.summary = entry.description.isEmpty ? nil : entry.description
                    macro.system = name
                    return macro
                }
            }
        }
        return try result.get()
    }

    /// Each system's macros once worked out, shared by every session of the process.
    private static let loaded = OnceTable<[Macro]>()

    /// Runs the source in an empty environment and returns the macros it defines, in the
    /// order of their `def`s, each with its description: what `use NAME` binds and lists.
    /// A parse or evaluation error is the source's own, its range in `source`.
    package func definitions() throws(DiceError) -> [(macro: Macro, description: String)] {
        var parser = Parser(SourceFile(name: "\(name).dice", text: source))
        var evaluator = Evaluator(environment: Environment(), limits: .standard,
                                  source: Xoshiro256StarStar(seed: 0))
        while let statement = try parser.nextStatement() {
            _ = try evaluator.execute(statement)
        }
        return macros.compactMap { entry in
            guard case .macro(let macro) = evaluator.environment[entry.name] else { return nil }
            return (macro, entry.description)
        }
    }
}

/// Values worked out once a process, by name, under a lock: what several sessions on several
/// threads share (a bot's chats each `use` the same system).
final class OnceTable<Value: Sendable>: Sendable {
    private let values = Mutex<[String: Result<Value, DiceError>]>([:])

    /// The value for `key`, made by `make` the first time it is asked for.
    func value(for key: String, _ make: () -> Result<Value, DiceError>) -> Result<Value, DiceError> {
        values.withLock { values in
            if let known = values[key] { return known }
            let made = make()
            values[key] = made
            return made
        }
    }
}
