#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// The command line, parsed.
struct Options {
    enum Input {
        case repl
        /// The `-e` statements as given: bytes, so that invalid UTF-8 is the script's error.
        case statements([[UInt8]])
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
    /// The bytes one statement may print (`--max-output`).
    var maxOutputBytes = Limits.standard.maxOutputBytes
    /// The time bound of one `stats`, exact attempt and simulation together (`--stats-seconds`).
    var statsSeconds = 1.0
    var colour: Bool?
    /// `stats` results as CSV (`--csv`).
    var csv = false
    /// Where each `stats` result's chart goes (`--svg FILE`; later ones numbered, see `ChartFiles`).
    var svgPath: String?

    /// A usage error: printed with a hint, exit status 2.
    struct UsageError: Error {
        var message: String
    }

    /// In lines of at most 80 columns, as a terminal shows them without breaking words.
    static let usage = """
        usage: dice                        start the REPL, or run stdin as a script
                                           when it is not a terminal
               dice FILE.dice              run a script
               dice -e STMT [-e STMT...]   run statements given on the command line

        options:
          -e STMT          a statement to run (even one that starts with -: -e -2d6)
          --seed N         deterministic rolls: same seed and input, same output
          -n N             run each -e expression N times (one result each)
          --json           JSON Lines output, one object per result
          -t, --total      print only each result's value, one per line
                           (for stats, the mean; for stats e1, e2, each mean in order)
          --stats          with -e: print the distribution of each expression instead
                           of rolling it; 'e1, e2' compares them side by side, as
                           'stats e1, e2' does
          --max-dice N     the per-statement dice limit (default 10,000,000)
          --max-output N   the bytes one statement may print (default 16,777,216)
          --markdown       breakdowns for chat: struck dropped dice ~~1~~, bold highest
                           and lowest faces **20**; stats tables in code blocks
          -q, --quiet      print rolls and stats only, not assignments and definitions
          --stats-seconds S
                           the time bound of one stats, exact or simulated (default 1)
          --csv            print stats as CSV: a header row, then outcome,p,at_least,
                           at_most (a comparison: those columns for each expression;
                           a sweep: a row for each value and outcome)
          --svg FILE       also write each stats result as an SVG chart: the first to
                           FILE, the next to FILE-2.svg, FILE-3.svg, ... (for FILE.svg)
          --color, --no-color
                           force colour on or off (default: on for a terminal, but
                           off with NO_COLOR)
          --show-system NAME
                           print the .dice source of a built-in game system
                           (use NAME defines its macros)
          -h, --help       show this help
          --version        show the version

        examples:
          dice -e '4d6kh3 + 2'
          dice -n 6 -e '4d6kh3'
          dice --stats -e '2d20kh1 + 5 >= 15'
          dice --stats -e '2d20kh1 + 5, 1d20 + 8'
          dice --svg odds.svg -e 'stats 1d20 + 5 >= ac for ac in 10..20'
          dice --json --seed 42 -e 'def atk = 1d20 + 5' -e 'atk'

        exit status: 0 all went well, 1 a statement failed, 2 wrong usage or unreadable
        file. The REPL's commands are listed by :help.
        The notation: man dice-language; all of it: man dice.
        """

    /// The flags that take a value (`--seed N`, `--seed=N`).
    static let flagsWithValues: Set<String> = ["-e", "--eval", "--seed", "-n", "--max-dice", "--max-output",
                                               "--stats-seconds", "--svg", "--show-system"]
    /// Every flag, with a value or not.
    static let knownFlags: Set<String> = flagsWithValues.union([
        "--json", "-t", "--total", "--stats", "--csv", "--markdown", "--color", "--colour", "--no-color", "--no-colour",
        "-h", "--help", "--version", "--"])

    /// What the command line asks for.
    enum Request {
        case run(Options)
        case help
        case version
        /// `--show-system NAME`: print that built-in system's source.
        case showSystem(GameSystem)
    }

    /// The bounds of the options' numbers: `-n`, `--max-dice`, `--max-output`, `--stats-seconds`.
    static let repetitionRange = 0...10_000_000
    static let maxDiceRange = 0...1_000_000_000_000
    static let maxOutputRange = 1_024...(1 << 40)
    static let statsSecondsRange = 0.001...86_400.0

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        try parse(bytes: arguments.map { Array($0.utf8) })
    }

    /// What a message quotes of a value the user gave: at most 20 characters, control
    /// characters escaped.
    static func quoted(_ text: String) -> String {
        // Unicode scalars, so that each escaped control character is one of the 20.
        let scalars = text.unicodeScalars
        let shown = scalars.count > 20 ? String(String.UnicodeScalarView(scalars.prefix(20))) + "…" : text
        return "'" + TextEscaping.escapingControls(shown) + "'"
    }

    /// Parses `raw` (the arguments' bytes, without the program name).
    static func parse(bytes raw: [[UInt8]]) throws(UsageError) -> Request {
        let arguments = raw.map { String(decoding: $0, as: UTF8.self) }
        var options = Options()
        var statements: [[UInt8]] = []
        var file: String?
        var index = 0
        func value(for flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func number(_ text: String, for flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(message: "\(flag) needs a whole number from \(range.lowerBound) to "
                    + "\(range.upperBound), not \(quoted(text))")
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
            // A flag that takes no value: `--json=0` must not turn JSON on.
            if inlineValue != nil, !Options.flagsWithValues.contains(flag), Options.knownFlags.contains(flag) {
                throw UsageError(message: "\(flag) takes no value (given \(quoted(argument)))")
            }
            switch flag {
            case "--":
                onlyFiles = true
            case "-e", "--eval":
                if inlineValue != nil {
                    // `--eval=STMT`: the bytes after the first `=`.
                    let bytes = raw[index]
                    let equals = bytes.firstIndex(of: UInt8(ascii: "=")) ?? bytes.endIndex
                    statements.append(Array(bytes[Swift.min(bytes.endIndex, equals + 1)...]))
                } else {
                    _ = try value(for: flag)
                    statements.append(raw[index])
                }
            case "--seed":
                let text = try flagValue()
                if let n = UInt64(text) {
                    options.seed = n
                } else if let n = Int64(text) {
                    options.seed = UInt64(bitPattern: n)
                } else {
                    throw UsageError(message: "--seed needs a whole number, not \(quoted(text))")
                }
            case "-n":
                options.repetitions = try number(try flagValue(), for: "-n", in: Options.repetitionRange)
            case "--json":
                options.json = true
            case "-t", "--total":
                options.totalOnly = true
            case "--stats":
                options.stats = true
            case "--markdown":
                options.markdown = true
            case "--csv":
                options.csv = true
            case "--svg":
                let path = try flagValue()
                guard !path.isEmpty else { throw UsageError(message: "--svg needs a file name") }
                options.svgPath = path
            case "-q", "--quiet":
                options.quiet = true
            case "--max-dice":
                options.maxDice = try number(try flagValue(), for: "--max-dice", in: Options.maxDiceRange)
            case "--max-output":
                options.maxOutputBytes = try number(try flagValue(), for: "--max-output", in: Options.maxOutputRange)
            case "--stats-seconds":
                let text = try flagValue()
                let range = Options.statsSecondsRange
                guard let seconds = Double(text), range.contains(seconds) else {
                    throw UsageError(message: "--stats-seconds needs a number of seconds from \(range.lowerBound) "
                        + "to \(Int(range.upperBound)), not \(quoted(text))")
                }
                options.statsSeconds = seconds
            case "--color", "--colour":
                options.colour = true
            case "--no-color", "--no-colour":
                options.colour = false
            case "--show-system":
                let name = try flagValue()
                guard let system = GameSystem.named(name) else {
                    throw UsageError(message: "no game system named \(quoted(name)); the systems are "
                        + GameSystem.names.joined(separator: ", "))
                }
                return .showSystem(system)
            case "-h", "--help":
                return .help
            case "--version":
                return .version
            default:
                throw UsageError(message: "unknown option \(quoted(argument))")
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
        if options.csv && (options.json || options.totalOnly) {
            throw UsageError(message: "--csv goes with neither --json nor --total: each prints stats its own way")
        }
        if options.stats, case .statements = options.input {} else if options.stats {
            throw UsageError(message: "--stats goes with -e statements (in scripts and the REPL, write 'stats EXPR')")
        }
        return .run(options)
    }
}
