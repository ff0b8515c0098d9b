#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSignals
import CStack
import DiceKit

/// The `dice` command: parses the command line, picks the input, maps
/// outcomes to exit statuses. Dice semantics live in DiceKit.
func main() -> Int32 {
    let request: Options.Request
    do {
        request = try Options.parse(bytes: commandLineBytes())
    } catch {
        Output.error.line("dice: \(error.message)\nTry 'dice --help' for more information.")
        Output.error.flush()
        return 2
    }
    let options: Options
    switch request {
    case .help:
        Output.standard.line(Help.text)
        Output.standard.flush()
        return 0
    case .version:
        Output.standard.line("dice \(Version.string)")
        Output.standard.flush()
        return 0
    case .showSystem(let system):
        Output.standard.write(system.source)
        Output.standard.flush()
        return 0
    case .run(let parsed):
        options = parsed
    }
    signal(SIGPIPE, SIG_IGN)
    let colour = options.colour ?? Terminal.wantsColour(descriptor: 1)
    var runner = Runner(options: options, colour: colour && !options.json,
                        errorColour: options.colour ?? Terminal.wantsColour(descriptor: 2),
                        output: Output.standard, errors: Output.error,
                        listWidth: isatty(STDOUT_FILENO) != 0 ? Terminal.columns() : nil)
    defer { Output.standard.flush(); Output.error.flush() }
    switch options.input {
    case .statements(let statements):
        // One program, an `-e` a line: a statement that cannot end where its `-e` does (after
        // `then`, an operator, an open bracket) goes on in the next `-e`.
        let source = SourceFile(name: "<-e>", bytes: Array(statements.joined(separator: [UInt8(ascii: "\n")])))
        let output = runner.output
        // Printed as it runs: a later statement may take long, or never end.
        let ran = runner.run(source, repetitions: options.repetitions, statsMode: options.stats,
                             checkpoint: { _ in output.flush() })
        return ran ? 0 : 1
    case .file(let path):
        let descriptor: Int32
        do {
            descriptor = try Files.open(path)
        } catch {
            Output.error.line("dice: cannot read \(error.message)")
            return 2
        }
        defer { close(descriptor) }
        var stream = ScriptStream(descriptor: descriptor, name: path)
        return runner.run(&stream, repetitions: options.repetitions).status
    case .standardInput:
        var stream = ScriptStream(descriptor: 0, name: "<stdin>")
        return runner.run(&stream, repetitions: options.repetitions).status
    case .repl:
        return startREPL(runner: runner)
    }
}

/// The arguments after the program name as the bytes given: `CommandLine.arguments` would
/// replace invalid UTF-8, which a script reports as an error.
func commandLineBytes() -> [[UInt8]] {
    (1..<Int(CommandLine.argc)).map { index in
        guard let argument = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
}

/// The REPL on a terminal: libedit for lines, history in `~/.dice_history`
/// (`DICE_HISTORY`), `~/.dicerc` (`DICE_INIT`) run first.
func startREPL(runner: Runner) -> Int32 {
    let home = Terminal.environment("HOME")
    let historyPath = Terminal.environment("DICE_HISTORY") ?? home.map { $0 + "/.dice_history" }
    let initPath = Terminal.environment("DICE_INIT") ?? home.map { $0 + "/.dicerc" }
    let errors = runner.errors
    let logPath = Terminal.environment("DICE_LOG") ?? home.map { $0 + "/.dice_log" }
    // Temporary files a killed session left beside the files it keeps.
    AtomicFile.removeStale(besides: [historyPath, initPath, logPath].compactMap { $0 } + ["./"])
    // Under `make run`, Ctrl-C must reach the REPL only, not make.
    _ = dice_take_terminal(STDIN_FILENO)
    guard let editor = LineEditor(programName: "dice", historyPath: historyPath, warn: { message in
        errors.line("dice: warning: \(message)")
        errors.flush()
    }) else {
        errors.line("dice: cannot start line editing on this terminal")
        return 2
    }
    let log = logPath.map {
        ResultLog(path: $0, warn: { message in
            errors.line("dice: warning: \(message)")
            errors.flush()
        })
    }
    let repl = REPL(runner: runner, reader: editor, home: home, log: log)
    // Results to a file, the prompt on the terminal (see LineEditor): the greeting with the prompt.
    repl.greetingOnErrors = isatty(STDOUT_FILENO) == 0 && isatty(STDERR_FILENO) != 0
    editor.completer = { [unowned repl] word, before in repl.completions(for: word, after: before) }
    editor.completesFileName = REPL.completesFileName
    repl.readsWidth = Terminal.columns
    repl.releasesFreeMemory = { dice_release_free_memory() }
    return repl.run(initFile: initPath)
}

enum Version {
    static let string = "0.1.0"
}

/// The exit status of `main`, set where it ran.
nonisolated(unsafe) var status: Int32 = 0

/// The stack `main` runs on: 512 MB of address space (not memory), so that deep
/// expressions and macros end in their own limits' errors, never in a stack overflow,
/// even in a debug build.
let largeStack = 512 << 20

/// Runs `main` on a large stack: on this thread when the stack can be switched
/// (CStack.h), else on a thread of its own with terminal signals sent to that thread only.
func runOnLargeStack() -> Int32 {
    if dice_run_on_stack(largeStack, { _ in status = main() }, nil) == 0 { return status }
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGINT, SIGWINCH, SIGCONT, SIGTSTP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, largeStack)
    var thread = pthread_t()
    let created = pthread_create(&thread, &attributes, { _ in
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGWINCH, SIGCONT, SIGTSTP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        status = main()
        return nil
    }, nil)
    guard created == 0 else {
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        return main()
    }
    pthread_join(thread, nil)
    return status
}

exit(runOnLargeStack())
