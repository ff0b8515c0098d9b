#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// The `dice` command: parses the command line, picks the input, maps
/// outcomes to exit statuses. Dice semantics live in DiceKit.
func main() -> Int32 {
    let request: Options.Request
    do {
        request = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        Output.error.line("dice: \(error.message)\nTry 'dice --help' for more information.")
        Output.error.flush()
        return 2
    }
    let options: Options
    switch request {
    case .help:
        Output.standard.line(Options.usage)
        Output.standard.flush()
        return 0
    case .version:
        Output.standard.line("dice \(Version.string)")
        Output.standard.flush()
        return 0
    case .run(let parsed):
        options = parsed
    }
    signal(SIGPIPE, SIG_IGN)
    let colour = options.colour ?? Terminal.wantsColour(descriptor: 1)
    var runner = Runner(options: options, colour: colour && !options.json,
                        errorColour: options.colour ?? Terminal.wantsColour(descriptor: 2))
    defer { Output.standard.flush(); Output.error.flush() }
    switch options.input {
    case .statements(let statements):
        for statement in statements {
            let source = SourceFile(name: "<-e>", text: statement)
            guard runner.run(source, repetitions: options.repetitions, statsMode: options.stats) else { return 1 }
        }
        return 0
    case .file(let path):
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path)
        } catch {
            Output.error.line("dice: cannot read \(error.message)")
            return 2
        }
        return runner.run(SourceFile(name: path, bytes: bytes), repetitions: options.repetitions) ? 0 : 1
    case .standardInput:
        let bytes: [UInt8]
        do {
            bytes = try Files.readAll(0, name: "<stdin>")
        } catch {
            Output.error.line("dice: cannot read \(error.message)")
            return 2
        }
        return runner.run(SourceFile(name: "<stdin>", bytes: bytes), repetitions: options.repetitions) ? 0 : 1
    case .repl:
        Output.error.line("dice: the REPL is not built yet; use -e or a script")
        return 2
    }
}

enum Version {
    static let string = "0.1.0"
}

exit(main())
