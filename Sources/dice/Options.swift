#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line, parsed.
struct Options {
    enum Input {
        case repl
        case statements([String])
        case file(String)
        case standardInput
    }

    var input = Input.repl
    var seed: UInt64?
    var repetitions = 1
    var json = false
    var totalOnly = false
    var stats = false
    var markdown = false
    /// Rolls and stats only: assignments and definitions run without being printed (`-q`).
    var quiet = false
    var maxDice = 10_000_000
    /// The time bound of one `stats`, exact attempt and simulation together (`--stats-seconds`).
    var statsSeconds = 1.0
    var colour: Bool?

    /// A usage error: printed with a hint, exit status 2.
    struct UsageError: Error {
        var message: String
    }

    static let usage = """
        usage: dice                        start the REPL (or run stdin as a script when it is not a terminal)
               dice FILE.dice              run a script
               dice -e STMT [-e STMT...]   run statements given on the command line

        options:
          -e STMT          a statement to run (the word after -e is always a statement: -e -2d6)
          --seed N         deterministic rolls: same seed and input, same output, everywhere
          -n N             run each -e expression N times (one result each)
          --json           JSON Lines output, one object per result
          -t, --total      print only each result's value, one per line
                           (for stats, the mean; for stats e1, e2, each mean in order)
          --stats          with -e: print the distribution of each expression instead of rolling it;
                           'e1, e2' compares them side by side, as 'stats e1, e2' does
          --max-dice N     the per-statement dice limit (default 10,000,000)
          --markdown       breakdowns for chat: struck dropped dice ~~1~~, bold highest and lowest faces **20**
          -q, --quiet      print rolls and stats only, not assignments and definitions
          --stats-seconds S
                           the time bound of one stats, exact or simulated (default 1)
          --color, --no-color
                           force colour on or off (default: on for a terminal, off with NO_COLOR)
          -h, --help       show this help
          --version        show the version

        examples:
          dice -e '4d6kh3 + 2'
          dice -n 6 -e '4d6kh3'
          dice --stats -e '2d20kh1 + 5 >= 15'
          dice --stats -e '2d20kh1 + 5, 1d20 + 8'
          dice --json --seed 42 -e 'def atk = 1d20 + 5' -e 'atk'

        exit status: 0 all went well, 1 a statement failed, 2 wrong usage or unreadable file.
        The REPL's commands are listed by :help. The notation: man dice-language; all of it: man dice.
        """

    /// What the command line asks for.
    enum Request {
        case run(Options)
        case help
        case version
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        var options = Options()
        var statements: [String] = []
        var file: String?
        var index = 0
        func value(for flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func number(_ text: String, for flag: String, minimum: Int) throws(UsageError) -> Int {
            guard let n = Int(text), n >= minimum else {
                throw UsageError(message: "\(flag) needs a whole number of at least \(minimum), not '\(text)'")
            }
            return n
        }
        var onlyFiles = false
        while index < arguments.count {
            let argument = arguments[index]
            if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
                guard file == nil else { throw UsageError(message: "only one script file may be given") }
                file = argument
                index += 1
                continue
            }
            var flag = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func flagValue() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                return try value(for: flag)
            }
            switch flag {
            case "--":
                onlyFiles = true
            case "-e", "--eval":
                statements.append(try flagValue())
            case "--seed":
                let text = try flagValue()
                if let n = UInt64(text) {
                    options.seed = n
                } else if let n = Int64(text) {
                    options.seed = UInt64(bitPattern: n)
                } else {
                    throw UsageError(message: "--seed needs a whole number, not '\(text)'")
                }
            case "-n":
                options.repetitions = try number(try flagValue(), for: "-n", minimum: 0)
            case "--json":
                options.json = true
            case "-t", "--total":
                options.totalOnly = true
            case "--stats":
                options.stats = true
            case "--markdown":
                options.markdown = true
            case "-q", "--quiet":
                options.quiet = true
            case "--max-dice":
                options.maxDice = try number(try flagValue(), for: "--max-dice", minimum: 0)
            case "--stats-seconds":
                let text = try flagValue()
                guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                    throw UsageError(message: "--stats-seconds needs a positive number of seconds, not '\(text)'")
                }
                options.statsSeconds = seconds
            case "--color", "--colour":
                options.colour = true
            case "--no-color", "--no-colour":
                options.colour = false
            case "-h", "--help":
                return .help
            case "--version":
                return .version
            default:
                throw UsageError(message: "unknown option '\(argument)'")
            }
            index += 1
        }
        if !statements.isEmpty {
            guard file == nil else { throw UsageError(message: "give either -e statements or a script file, not both") }
            options.input = .statements(statements)
        } else if let file {
            options.input = file == "-" ? .standardInput : .file(file)
        } else if isatty(0) == 0 {
            options.input = .standardInput
        }
        if options.stats, case .statements = options.input {} else if options.stats {
            throw UsageError(message: "--stats goes with -e statements (in scripts and the REPL, write 'stats EXPR')")
        }
        return .run(options)
    }
}
