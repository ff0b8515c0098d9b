#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// Reads lines with editing and history: libedit's `LineEditor`, or a fake in tests.
protocol LineReading: AnyObject {
    /// One line without its newline; nil at the end of input (Ctrl-D). Ctrl-C while typing
    /// gives "" with `lineWasInterrupted` true.
    func readLine(prompt: String) -> String?
    /// Whether the last `readLine` ended with Ctrl-C.
    var lineWasInterrupted: Bool { get }
    func addHistory(_ line: String)
    var history: [String] { get }
    /// Whether Ctrl-C came since the last call (asked while a statement runs); clears it.
    func takeInterrupt() -> Bool
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
    /// Past results (`:log`), if there is a log file.
    private let log: ResultLog?
    private var quitting = false
    /// Where the greeting goes: with the prompt, on the terminal, when results go to a file
    /// (`dice > rolls.txt`: stderr); else with the results.
    var greetingOnErrors = false
    /// Statements abandoned by Ctrl-C that may still be unwinding on their own threads, oldest
    /// first. Each stops at its next poll of `shouldStop`; the next statement runs beside them.
    private var abandoned: [Job] = []
    /// How many abandoned statements may unwind at once: past it the next statement waits for
    /// the oldest, so that their memory stays bounded however fast Ctrl-C comes.
    static let maxUnwinding = 2
    /// Gives the memory an abandoned statement freed back to the system, on its thread once it
    /// has unwound (set by `main`: `dice_release_free_memory`).
    var releasesFreeMemory: (@Sendable () -> Void)?
    /// The terminal's width, read again before each statement (the window may have been resized).
    var readsWidth: (() -> Int)?
    /// The last `stats` result shown, which `:svg FILE` draws.
    private var lastStats: Outcome?

    static let commands = [":help", ":vars", ":defs", ":del", ":load", ":save", ":svg", ":seed", ":history", ":log",
                           ":max-dice", ":max-output", ":stats-seconds", ":quit"]
    /// The commands that need an argument: completed with a space after them.
    static let commandsWithArgument: Set = [":del", ":load", ":save", ":svg", ":seed", ":max-dice", ":max-output",
                                            ":stats-seconds"]
    /// Words completed besides names: the statement keywords, with what follows them.
    static let keywords = ["def ", "stats ", "repeat(", "if ", "then ", "else ", "let ", "in ", "match ", "and ",
                           "or ", "not ", "count(", "given ", "use "]
    static let prompt = "dice> "
    static let continuationPrompt = "...> "

    init(runner: Runner, reader: LineReading, home: String?, log: ResultLog? = nil) {
        self.runner = runner
        self.reader = reader
        self.home = home
        self.log = log
        output = runner.output
        errors = runner.errors
        self.runner.limitHint = ":max-dice N"
        self.runner.statsHint = ":stats-seconds S"
        if let log {
            self.runner.onResult = { json in log.append(json) }
        }
    }

    /// Names to complete for `word`, given the text before it on the line: a game system's
    /// name after `use `, commands after `:` (with a space when they need an argument), else
    /// keywords, variables, macros and functions (with a `(` when they take arguments).
    func completions(for word: String, after before: String = "") -> [String] {
        if REPL.namesASystem(before) {
            return GameSystem.names.filter { $0.hasPrefix(word) }
        }
        if word.hasPrefix(":") {
            return REPL.commands.filter { $0.hasPrefix(word) }
                .map { REPL.commandsWithArgument.contains($0) ? $0 + " " : $0 }
        }
        let environment = runner.session.environment
        var candidates = REPL.keywords.filter { $0.hasPrefix(word) }
        for name in environment.knownNames where name != "repeat" && name.hasPrefix(word) {
            switch environment[name] {
            case .variable: candidates.append(name)
            case .macro(let macro): candidates.append(macro.parameters.isEmpty ? name : name + "(")
            case nil: candidates.append(name + "(")  // a function
            }
        }
        return candidates
    }

    /// Whether the text before a word is the start of a `use` statement, `use ` (after the
    /// line's start or a `;`), so that the word names a game system.
    static func namesASystem(_ before: String) -> Bool {
        guard before.last == " " else { return false }
        var text = Substring(before)
        while text.last == " " { text.removeLast() }
        guard text.hasSuffix("use") else { return false }
        text.removeLast(3)
        while text.last == " " { text.removeLast() }
        return text.isEmpty || text.last == ";"
    }

    /// Whether the text before the cursor is a file name's place: after `:load `, `:save ` or `:svg `.
    static func completesFileName(_ beforeCursor: String) -> Bool {
        let trimmed = Substring(beforeCursor).drop(while: { $0 == " " })
        return trimmed.hasPrefix(":load ") || trimmed.hasPrefix(":save ") || trimmed.hasPrefix(":svg ")
    }

    /// Runs `~/.dicerc` (or `DICE_INIT`), then reads lines until `:quit` or Ctrl-D.
    func run(initFile: String?) -> Int32 {
        // A missing or unreadable init file is no error; one that is no regular file (a FIFO,
        // which would block) is left alone with a warning.
        if let initFile {
            if Files.isSpecial(initFile) {
                problem("warning: \(initFile) is not a regular file; not run")
            } else if let descriptor = try? Files.open(initFile) {
                load(descriptor, path: initFile, quiet: true)
            }
        }
        let greeting = greetingOnErrors ? errors : output
        greeting.line("dice \(Version.string): type a roll like 4d6kh3 + 2, :help for help, Ctrl-D to quit.")
        greeting.flush()
        while !quitting {
            guard let statement = readStatement() else { break }
            let trimmed = REPL.trim(statement)
            if trimmed.isEmpty { continue }
            // A statement typed over lines is one history entry, on one line.
            reader.addHistory(statement.contains("\n") ? Parser.oneLine(statement) : statement)
            if let readsWidth { runner.setStatsWidth(readsWidth()) }
            if trimmed.hasPrefix(":") {
                command(trimmed)
            } else if REPL.habits.contains(trimmed), runner.session.environment[trimmed] == nil {
                // Other programs' words for commands, when they name nothing here.
                command(trimmed == "quit" || trimmed == "exit" ? ":quit" : ":help")
            } else {
                execute(SourceFile(name: "<input>", text: statement))
            }
            output.flush()
        }
        for job in abandoned { job.join() }
        abandoned = []
        output.flush()
        return 0
    }

    /// Reads one statement: a line, and more lines under `...> ` while the statement cannot
    /// end (after an operator, `=`, `,`, `then`... or inside an open `(`, `{` or `[`). nil at
    /// the end of input; "" when Ctrl-C abandoned it, or Ctrl-D under `...> `.
    private func readStatement() -> String? {
        guard var text = reader.readLine(prompt: REPL.prompt) else { return nil }
        if reader.lineWasInterrupted { return "" }
        if REPL.trim(text).hasPrefix(":") { return text }
        while Parser.needsAnotherLine(text) {
            guard let more = reader.readLine(prompt: REPL.continuationPrompt) else {
                problem("the unfinished statement was dropped (Ctrl-D again quits)")
                return ""
            }
            if reader.lineWasInterrupted { return "" }
            if REPL.isCommand(more) {
                problem("the unfinished statement was dropped")
                return more
            }
            text += "\n" + more
        }
        return text
    }

    /// Whether a line under `...> ` is a command, `:` and a letter (or `:?`): who typed `1 +`,
    /// then `:quit`, means to leave, not to add `:quit` to the sum. (`(hits` then `: 3)` goes on.)
    static func isCommand(_ line: String) -> Bool {
        let trimmed = trim(line)
        return trimmed.hasPrefix(":") && trimmed.dropFirst().first.map { $0.isLetter || $0 == "?" } == true
    }

    /// Words other programs use for commands, typed alone at the prompt: `help` and `?`
    /// do what `:help` does, `quit` and `exit` what `:quit` does.
    private static let habits: Set<String> = ["help", "?", "quit", "exit"]

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
            for (name, value) in variables {
                // A text in its quotes, as `:save` writes it: bare, `name = hello` reads as a name.
                let shown = if case .text = value { value.literal } else { value.description }
                output.line(TextEscaping.escapingControls("\(name) = \(shown)"))
            }
        case ":defs":
            let macros = runner.session.environment.macros
            if macros.isEmpty { output.line("no macros") }
            for macro in macros {
                output.line(TextEscaping.escapingControls(macro.definitionText))
                // A game system's macro: its description, as a comment under it.
                if let summary = macro.summary { output.line("  # " + TextEscaping.escapingControls(summary)) }
            }
        case ":del", ":delete":
            guard !argument.isEmpty else { return problem("usage: :del NAME") }
            let what: String
            switch runner.session.environment[argument] {
            case .variable: what = "variable"
            case .macro: what = "macro"
            case nil: return problem("\(Options.quoted(argument)) is not defined")
            }
            _ = runner.session.environment.remove(argument)
            output.line("deleted \(what) \(argument)")
        case ":load":
            guard !argument.isEmpty else { return problem("usage: :load FILE") }
            let path = REPL.expandHome(argument, home: home)
            do {
                load(try Files.open(path), path: path)
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
                output.line("saved \(REPL.count(environment.variables.count, "variable")) and "
                    + "\(REPL.count(environment.macros.count, "macro")) to \(path)")
            }
        case ":svg":
            guard !argument.isEmpty else { return problem("usage: :svg FILE (the last stats as a chart)") }
            guard let lastStats, let svg = ChartRenderer().svg(for: lastStats) else {
                return problem("no stats yet: :svg draws the last stats result (try stats 2d6 first)")
            }
            let path = REPL.expandHome(argument, home: home)
            if let failure = AtomicFile.write(svg, to: path) { return problem("cannot write \(TextEscaping.escapingControls(path)): \(failure)") }
            output.line("wrote the chart of \(OutcomeRenderer().text(for: lastStats)) to \(TextEscaping.escapingControls(path))")
        case ":seed":
            guard let seed = UInt64(argument) ?? Int64(argument).map({ UInt64(bitPattern: $0) }) else {
                return problem("usage: :seed N (a whole number)")
            }
            runner.session.reseed(seed)
            output.line("seed \(argument): the rolls that follow are repeatable")
        case ":max-dice":
            let range = Options.maxDiceRange
            guard let limit = Int(argument), range.contains(limit) else {
                return problem("usage: :max-dice N (a whole number from \(range.lowerBound) to \(range.upperBound); "
                    + "now \(runner.session.limits.maxDice))")
            }
            runner.session.limits.maxDice = limit
            runner.options.maxDice = limit
            output.line("at most \(REPL.count(limit, "die", plural: "dice")) per statement")
        case ":stats-seconds":
            let range = Options.statsSecondsRange
            guard let seconds = Double(argument), range.contains(seconds) else {
                return problem("usage: :stats-seconds S (seconds, from \(range.lowerBound) to \(Int(range.upperBound)); "
                    + "now \(runner.options.statsSeconds))")
            }
            runner.session.limits.stats = StatsBudget(seconds: seconds)
            runner.options.statsSeconds = seconds
            output.line("stats may take up to \(argument) s")
        case ":max-output":
            let range = Options.maxOutputRange
            guard let limit = Int(argument), range.contains(limit) else {
                return problem("usage: :max-output N (bytes, from \(range.lowerBound) to \(range.upperBound); "
                    + "now \(runner.session.limits.maxOutputBytes))")
            }
            runner.session.limits.maxOutputBytes = limit
            runner.options.maxOutputBytes = limit
            output.line("at most \(REPL.count(limit, "byte")) of output per statement")
        case ":history":
            guard let count = REPL.count(argument) else { return problem("usage: :history [N]") }
            let entries = reader.history
            let first = max(0, entries.count - (count ?? entries.count))
            let width = String(entries.count).count
            for index in first..<entries.count {
                let number = String(index + 1)
                output.line(String(repeating: " ", count: width - number.count) + number + "  "
                    + TextEscaping.escapingControls(entries[index]))
            }
        case ":log":
            guard let count = REPL.count(argument) else { return problem("usage: :log [N]") }
            showLog(count ?? 20)
        case ":quit", ":q", ":exit":
            guard argument.isEmpty else { return problem("usage: :quit") }
            quitting = true
        default:
            let near = REPL.commands.first { $0.hasPrefix(String(name.prefix(3))) }
            let hint = ["system", "systems", "use", "games"].contains(name.dropFirst())
                ? "; 'use' alone lists the game systems" : near.map { "; did you mean '\($0)'?" } ?? ""
            problem("unknown command '\(name)'\(hint) (:help lists the commands)")
        }
    }

    /// `:log N`: the newest N results, newest first.
    private func showLog(_ count: Int) {
        guard let log else { return problem("no log file (set HOME or DICE_LOG)") }
        let entries: [ResultLog.Entry]
        let skipped: Int
        do {
            (entries, skipped) = try log.newest(count)
        } catch {
            return problem("cannot read the log \(log.path): \(error.message)")
        }
        if skipped > 0 {
            problem("warning: skipped \(REPL.count(skipped, "line")) of \(log.path) that \(skipped == 1 ? "is" : "are") not a whole result")
        }
        if entries.isEmpty && count > 0 { output.line("no results yet") }
        for entry in entries {
            // The log's text is the user's: shown with its control characters escaped.
            let input = TextEscaping.escapingControls(String(entry.input.map { $0.isNewline ? " " : $0 }))
            output.line("\(TextEscaping.escapingControls(ResultLog.localTime(entry.time)))  \(input)")
            output.line("    \(TextEscaping.escapingControls(entry.text))")
        }
    }

    /// "1 macro", "2 macros".
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// An optional count argument: nil if malformed, .some(nil) if absent.
    private static func count(_ argument: String) -> Int?? {
        if argument.isEmpty { return .some(nil) }
        guard let n = Int(argument), n >= 0 else { return nil }
        return .some(n)
    }

    // MARK: - Running statements

    /// Runs the script open on `descriptor` (and closes it), read as it runs on the statements'
    /// thread: Ctrl-C stops an endless file too. Rolls and stats print; assignments and
    /// definitions are summed up in one line. `quiet`: errors only (the init file).
    private func load(_ descriptor: Int32, path: String, quiet: Bool = false) {
        // Written on the job's thread as it ends; read here only once it has ended.
        let bound = Box((variables: Set<String>(), macros: Set<String>()))
        let ran = execute { worker, job, checkpoint in
            defer { close(descriptor) }
            worker.hidesBindings = true
            worker.bound = ([], [])
            var stream = ScriptStream(descriptor: descriptor, name: path)
            let result = worker.run(&stream, quiet: quiet, shouldStop: { job.isAbandoned }, checkpoint: checkpoint)
            bound.value = worker.bound
            return result == .succeeded
        }
        guard !quiet, ran != nil else { return }
        let names = bound.value
        // What the file bound and the session still holds as such (a name may change kind).
        let environment = runner.session.environment
        let variables = names.variables.filter { if case .variable = environment[$0] { true } else { false } }
        let macros = names.macros.filter { if case .macro = environment[$0] { true } else { false } }
        output.line("loaded \(REPL.count(macros.count, "macro")), \(REPL.count(variables.count, "variable")) from \(path)")
    }

    /// Runs the statements of `source` on a thread of their own while watching for Ctrl-C.
    /// Ctrl-C abandons the statement running then at once; the session keeps what the
    /// statements before it did. Returns whether every statement ran (false when Ctrl-C
    /// abandoned them).
    @discardableResult
    private func execute(_ source: SourceFile) -> Bool {
        execute { worker, _, checkpoint in worker.run(source, checkpoint: checkpoint) } ?? false
    }

    /// Runs `statements` (given the runner to use, the job and the checkpoint to call after
    /// each statement) as `execute(_:)` runs a source's. Returns whether every statement ran;
    /// nil when Ctrl-C abandoned them.
    @discardableResult
    private func execute(_ statements: @escaping (inout Runner, Job, @escaping (Session) -> Void) -> Bool) -> Bool? {
        // Statements abandoned before need not have ended: they stop on their own, and share
        // nothing with this one. Only too many of them at once make it wait, for the oldest.
        abandoned.removeAll { $0.isFinished }
        while abandoned.count >= REPL.maxUnwinding { abandoned.removeFirst().join() }
        // A Ctrl-C since the line was read (the reader clears it as it reads) is meant for
        // this statement: kept, not discarded, so a busy machine cannot lose it.
        let gate = OutputGate()
        let progress = Progress(runner.session)
        var worker = runner
        let workerOutput = gate.wrap(output), workerErrors = gate.wrap(errors)
        worker.output = workerOutput
        worker.errors = workerErrors
        if let logResult = runner.onResult {
            worker.onResult = { json in gate.pass { logResult(json) } }
        }
        worker.onStats = { outcome in gate.pass { progress.saveStats(outcome) } }
        let releasesFreeMemory = self.releasesFreeMemory
        let job = Job { job in
            defer { if job.isAbandoned { releasesFreeMemory?() } }
            worker.session.shouldStop = { job.isAbandoned }
            let succeeded = statements(&worker, job) { session in
                workerOutput.flush()
                workerErrors.flush()
                progress.save(session)
            }
            workerOutput.flush()
            workerErrors.flush()
            progress.save(worker.session, succeeded: succeeded)
        }
        let finished = job.wait(until: reader.takeInterrupt)
        if !finished {
            gate.close()
            abandoned.append(job)
        }
        let (session, succeeded) = progress.latest
        lastStats = progress.stats ?? lastStats
        runner.session = session
        runner.session.shouldStop = nil
        if finished {
            job.join()
            return succeeded
        }
        output.flush()
        errors.line("dice: error: interrupted; the statement was abandoned")
        errors.flush()
        return nil
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
}
