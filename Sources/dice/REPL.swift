#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// Reads lines with editing and history: libedit's `LineEditor`, or a fake in tests.
protocol LineReading: AnyObject {
    func readLine(prompt: String) -> String?
    func addHistory(_ line: String)
    var history: [String] { get }
}

/// The interactive `dice>` prompt: statements run as typed, `:commands` manage
/// the session, and no error ends it.
///
/// Lines come from `reader`; everything printed goes to the runner's `output` and
/// `errors`. With a scripted reader and capturing outputs a whole session runs in-process.
final class REPL {
    private var runner: Runner
    private let reader: LineReading
    private let output: Output
    private let errors: Output
    /// What `~` stands for in `:load` and `:save` paths.
    private let home: String?
    private var quitting = false

    static let commands = [":help", ":vars", ":defs", ":del", ":load", ":save", ":seed", ":history", ":quit"]

    init(runner: Runner, reader: LineReading, home: String?) {
        self.runner = runner
        self.reader = reader
        self.home = home
        output = runner.output
        errors = runner.errors
    }

    /// Names to complete for `word`: commands after `:`, else variables, macros and functions.
    func completions(for word: String) -> [String] {
        let candidates = word.hasPrefix(":") ? REPL.commands : runner.session.environment.knownNames
        return candidates.filter { $0.hasPrefix(word) }
    }

    /// Runs `~/.dicerc` (or `DICE_INIT`), then reads lines until `:quit` or Ctrl-D.
    func run(initFile: String?) -> Int32 {
        if let initFile, let bytes = try? Files.read(initFile) {
            _ = runner.run(SourceFile(name: initFile, bytes: bytes), quiet: true)
        }
        output.line("dice \(Version.string): type a roll like 4d6kh3 + 2, :help for help, Ctrl-D to quit.")
        output.flush()
        while !quitting {
            guard let line = reader.readLine(prompt: "dice> ") else { break }
            let trimmed = REPL.trim(line)
            if trimmed.isEmpty { continue }
            reader.addHistory(line)
            if trimmed.hasPrefix(":") {
                command(trimmed)
            } else {
                _ = runner.run(SourceFile(name: "<input>", text: line))
            }
            output.flush()
        }
        output.flush()
        return 0
    }

    // MARK: - Commands

    private func command(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let argument = parts.count > 1 ? REPL.trim(parts[1]) : ""
        switch name {
        case ":help", ":h", ":?":
            output.line(REPL.help)
        case ":vars":
            let variables = runner.session.environment.variables
            if variables.isEmpty { output.line("no variables") }
            for (name, value) in variables { output.line("\(name) = \(value)") }
        case ":defs":
            let macros = runner.session.environment.macros
            if macros.isEmpty { output.line("no macros") }
            for macro in macros { output.line(macro.definitionText) }
        case ":del", ":delete":
            guard !argument.isEmpty else { return problem("usage: :del NAME") }
            if !runner.session.environment.remove(argument) { problem("'\(argument)' is not defined") }
        case ":load":
            guard !argument.isEmpty else { return problem("usage: :load FILE") }
            let path = REPL.expandHome(argument, home: home)
            do {
                let bytes = try Files.read(path)
                _ = runner.run(SourceFile(name: path, bytes: bytes))
            } catch {
                problem("cannot read \(error.message)")
            }
        case ":save":
            guard !argument.isEmpty else { return problem("usage: :save FILE") }
            let path = REPL.expandHome(argument, home: home)
            let script = SessionScript.text(of: runner.session.environment)
            if let failure = AtomicFile.write(script, to: path) {
                problem("cannot save \(path): \(failure)")
            } else {
                let environment = runner.session.environment
                output.line("saved \(environment.variables.count) variables and \(environment.macros.count) macros to \(path)")
            }
        case ":seed":
            guard let seed = UInt64(argument) ?? Int64(argument).map({ UInt64(bitPattern: $0) }) else {
                return problem("usage: :seed N (a whole number)")
            }
            runner.session.reseed(seed)
        case ":history":
            for (index, entry) in reader.history.enumerated() { output.line("\(index + 1)  \(entry)") }
        case ":quit", ":q", ":exit":
            quitting = true
        default:
            var message = "unknown command '\(name)'"
            if let near = REPL.commands.first(where: { $0.hasPrefix(String(name.prefix(3))) }) {
                message += "; did you mean '\(near)'?"
            }
            problem(message + " (:help lists the commands)")
        }
    }

    private func problem(_ message: String) {
        output.flush()
        errors.line("dice: \(message)")
        errors.flush()
    }

    static func trim(_ text: String) -> String {
        var slice = Substring(text)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }

    /// `path` with a leading `~` replaced by `home`.
    static func expandHome(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home else { return path }
        return home + path.dropFirst()
    }

    static let help = """
        Roll by typing an expression; results show every die.
          4d6kh3 + 2        keep the 3 highest of 4d6, add 2
          2d20kh1 + 5       advantage          {1d20+5, 1d20+5}kh1   the same, as a group
          8d6! [fire]       exploding, labelled          6d10cs>=8df=1   successes minus 1s
          1d20ro1  2d6r<3   reroll once / until above 2   3d6mi2  4d6ma5   clamp faces
          4dF  d%  d{1,1,2,3}   Fate, percentile, custom faces   (1d4)d6   computed count
          repeat(6, 4d6kh3) six ability scores   1d20 + 5 >= 15   a hit test (1 or 0)
          abs floor ceil round min max    + - * / // % ^    # comment
        Statements:
          str = 4d6kh3              a variable (rolled once)
          def atk = 1d20 + str      a macro (rolled at each use)
          def smite(n) = (n + 1)d8  a macro with parameters: smite(2)
          stats 2d20kh1 + 5 >= 15   the exact odds
          stats 4d6kh3, 3d6         two distributions side by side
        Commands:
          :vars  :defs          list variables / macros
          :del NAME             forget a variable or macro
          :load FILE            run a .dice script here
          :save FILE            save variables and macros as a script (:save ~/.dicerc loads them at start)
          :seed N               make the following rolls repeatable
          :history              list past lines          :quit (or Ctrl-D)   leave
        Keys: Up/Down recall lines, Tab completes names, Ctrl-C abandons the line or a long roll.
        """
}

extension LineEditor: LineReading {}
