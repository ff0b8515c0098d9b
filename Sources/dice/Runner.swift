import DiceKit

/// Runs statements from sources in order and prints each result: the common
/// path of `-e`, scripts, stdin and the REPL. Results go to `output`, errors to `errors`
/// (standard output and standard error in the command; captured in tests).
struct Runner {
    var session: Session
    var options: Options
    private(set) var renderer: OutcomeRenderer
    let diagnostics: DiagnosticRenderer
    private(set) var statsRenderer: DistributionRenderer
    var output: Output
    var errors: Output
    /// How to change the dice limit, named in its error: the option, or the REPL's command.
    var limitHint = "--max-dice"
    /// How to change the time bound of `stats`, named in its error: the option or the REPL's command.
    var statsHint = "--stats-seconds"
    /// Assignments and definitions run without being printed (`--quiet`, and `:load`, which
    /// sums them up instead); their names are gathered in `bound`.
    var hidesBindings: Bool
    /// The variables assigned and the macros defined while `hidesBindings`.
    var bound = (variables: Set<String>(), macros: Set<String>())
    /// Called with the `--json` object of each roll and assignment shown (the REPL's log).
    var onResult: ((String) -> Void)?
    /// Called with each `stats` result shown (the REPL keeps the last for `:svg`).
    var onStats: ((Outcome) -> Void)?
    /// Where `--svg` writes charts, if it was given.
    let charts: ChartFiles?
    /// Whether a CSV table was printed: the next is set apart by an empty line.
    var printedCSV = false
    /// Why the last statement's chart could not be written: the run stops there.
    private var chartFailure: String?
    /// One line of text, reused from roll to roll.
    private var line: [UInt8] = []

    /// Prints results to `output` and errors to `errors`. Distribution tables are
    /// `statsWidth` columns wide, with block-character bars when `unicode`; `use`'s lists
    /// wrap to `listWidth` (a terminal's), if any.
    init(options: Options, colour: Bool, errorColour: Bool, output: Output, errors: Output,
         statsWidth: Int = Terminal.columns(), listWidth: Int? = nil, unicode: Bool = Terminal.isUTF8) {
        self.options = options
        self.output = output
        self.errors = errors
        hidesBindings = options.quiet
        var limits = Limits.standard
        limits.maxDice = options.maxDice
        limits.maxOutputBytes = options.maxOutputBytes
        limits.stats = StatsBudget(seconds: options.statsSeconds)
        session = Session(limits: limits, seed: options.seed)
        // Markdown is text for a chat: no colour in it.
        renderer = OutcomeRenderer(rolls: options.markdown ? .markdown : colour ? .ansi : .plain, width: listWidth)
        diagnostics = DiagnosticRenderer(colour: errorColour)
        statsRenderer = DistributionRenderer(width: statsWidth, unicode: unicode)
        charts = options.svgPath.map(ChartFiles.init(path:))
    }

    /// Tables `width` columns wide from now on (the REPL's terminal was resized), and
    /// `use`'s lists too if they wrap.
    mutating func setStatsWidth(_ width: Int) {
        if width != statsRenderer.width { statsRenderer.width = width }
        if renderer.width != nil, renderer.width != width { renderer.width = width }
    }

    /// Runs every statement of `source`. Returns `false` after reporting the first error.
    /// - Parameters:
    ///   - repetitions: how many times each expression statement runs (`-n`).
    ///   - statsMode: expression statements print their distribution (`--stats`).
    ///   - quiet: print errors only (the REPL's init file).
    ///   - checkpoint: called after each statement that ran, with the session as it left it.
    mutating func run(_ source: SourceFile, repetitions: Int = 1, statsMode: Bool = false, quiet: Bool = false,
                      checkpoint: ((Session) -> Void)? = nil) -> Bool {
        var parser = Parser(source, limits: session.limits, expressionsAreStats: statsMode)
        parser.shouldStop = session.shouldStop
        while true {
            let statement: Stmt
            do {
                guard let next = try parser.nextStatement() else { return true }
                statement = next
            } catch {
                // The input line only goes into JSON; a line of megabytes is not decoded for nothing.
                report(error, in: source, input: options.json ? source.lineText(containing: error.range.lowerBound) : "")
                return false
            }
            let input = source.text(of: statement.range)
            var runs = 1
            if case .expression = statement.kind { runs = repetitions }
            if options.totalOnly, case .expression(let expr) = statement.kind {
                // Values only: no breakdown is built.
                for _ in 0..<runs {
                    do {
                        output.line(try session.value(of: expr))
                    } catch {
                        report(error, in: source, input: input)
                        return false
                    }
                }
                checkpoint?(session)
                continue
            }
            let notices = quiet ? [] : session.notices(for: statement)
            for run in 0..<runs {
                do {
                    let outcome = try session.execute(statement)
                    if !quiet {
                        try show(outcome, input: input, in: source, at: statement.range, notices: run == 0 ? notices : [])
                    }
                } catch {
                    report(error, in: source, input: input)
                    return false
                }
                if let failure = chartFailure {
                    chartFailure = nil
                    if options.json {
                        output.line(renderer.json(forFailure: failure, at: statement.range.lowerBound, in: source,
                                                  input: input))
                    }
                    output.flush()
                    errors.line("dice: \(failure)")
                    errors.flush()
                    return false
                }
            }
            checkpoint?(session)
        }
    }

    /// Runs a script as `stream` reads it, batch by batch, flushing what it printed before
    /// each read that may wait. Returns `.failed` after reporting the first error (a line
    /// past the stream's `maxLineBytes` is one), `.unreadable` after reporting a read error.
    /// - Parameters:
    ///   - quiet: print errors only (the REPL's init file).
    ///   - shouldStop: asked while waiting for input; `true` ends the script there.
    ///   - checkpoint: as in `run(_:)`, after each statement that ran.
    mutating func run(_ stream: inout ScriptStream, repetitions: Int = 1, quiet: Bool = false,
                      shouldStop: (() -> Bool)? = nil, checkpoint: ((Session) -> Void)? = nil) -> ScriptResult {
        while true {
            let batch: ScriptStream.Batch?
            do {
                batch = try stream.next(shouldStop: shouldStop) {
                    output.flush()
                    errors.flush()
                }
            } catch {
                output.flush()
                errors.line("dice: cannot read \(error.message)")
                errors.flush()
                return .unreadable
            }
            switch batch {
            case nil:
                return .succeeded
            case .lines(let source):
                guard run(source, repetitions: repetitions, quiet: quiet, checkpoint: checkpoint) else { return .failed }
            case .partial(let source, let atLimit):
                if hasSyntaxError(source) {
                    // What comes before the error runs, then the error is reported.
                    _ = run(source, repetitions: repetitions, quiet: quiet, checkpoint: checkpoint)
                    return .failed
                }
                if atLimit {
                    output.flush()
                    let limit = stream.maxLineBytes
                    let what = source.bytes.contains(UInt8(ascii: "\n")) ? "statement" : "line"
                    errors.line("\(source.name):\(source.firstLine):1: error: the \(what) is longer than "
                        + (limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"))
                    errors.flush()
                    return .failed
                }
            }
        }
    }

    enum ScriptResult {
        case succeeded, failed, unreadable

        /// The command's exit status: 1 a statement failed, 2 the input could not be read.
        var status: Int32 {
            switch self {
            case .succeeded: 0
            case .failed: 1
            case .unreadable: 2
            }
        }
    }

    /// Whether the start of a long statement has a syntax error that no more of it can take
    /// away: one well before its end (it may stop anywhere, in a number or a character), not
    /// an annotation left open (its `]` may come later), and not the end of the input found
    /// where the statement goes on (shown where its last line ends, the rest may come later);
    /// or Ctrl-C came.
    private func hasSyntaxError(_ source: SourceFile) -> Bool {
        var parser = Parser(source, limits: session.limits, expressionsAreStats: false)
        parser.shouldStop = session.shouldStop
        do {
            while try parser.nextStatement() != nil {}
            return false
        } catch {
            if case .unterminatedAnnotation = error.kind { return false }
            // Ctrl-C: the run that follows stops too, and reports it.
            if case .interrupted = error.kind { return true }
            if case .expected(_, found: .end) = error.kind { return false }
            return error.range.lowerBound.offset < source.bytes.count - 4096
        }
    }

    private mutating func show(_ outcome: Outcome, input: String, in source: SourceFile,
                               at range: SourceRange, notices: [Notice] = []) throws(DiceError) {
        defer { note(notices, in: source) }
        let cap = session.limits.maxOutputBytes
        // Made only when thrown: its kind is boxed, and an allocation a roll was about 3% of
        // `dice -n`'s instructions (bench A3, callgrind, 2026-12-03).
        var tooLarge: DiceError { DiceError(.outputTooLarge(limit: cap), at: range) }
        switch outcome {
        case .stats, .compare, .sweep:
            chartFailure = try showStats(outcome, input: input, in: source, at: range)
            return
        case .roll, .assignment, .definition, .system, .systems:
            break
        }
        if let onResult {
            switch outcome {
            case .roll, .assignment:
                guard let json = renderer.json(for: outcome, input: input, maxBytes: cap) else { throw tooLarge }
                onResult(json)
            case .definition, .stats, .compare, .sweep, .system, .systems: break
            }
        }
        if hidesBindings {
            switch outcome {
            case .assignment(let name, _): bound.variables.insert(name); return
            case .definition(let macro): bound.macros.insert(macro.name); return
            case .system(_, let macros): bound.macros.formUnion(macros.map(\.name)); return
            case .roll, .stats, .compare, .sweep, .systems: break
            }
        }
        if options.totalOnly {
            switch outcome {
            case .roll(let roll), .assignment(_, let roll): output.line(roll.value)
            case .definition, .stats, .compare, .sweep, .system, .systems: break
            }
        } else if options.json {
            guard let json = renderer.json(for: outcome, input: input, notices: notices, maxBytes: cap) else {
                throw tooLarge
            }
            output.line(json)
        } else {
            line.removeAll(keepingCapacity: true)
            guard renderer.text(for: outcome, into: &line, maxBytes: cap) else {
                line = []
                throw tooLarge
            }
            line.append(UInt8(ascii: "\n"))
            line.withUnsafeBufferPointer { output.write($0) }
        }
    }

    /// Prints each notice on stderr, `name:line:column: note: ...`, after what the statement
    /// printed (in JSON they are part of its object).
    private func note(_ notices: [Notice], in source: SourceFile) {
        guard !notices.isEmpty, !options.json else { return }
        output.flush()
        for notice in notices {
            let (line, column) = source.lineAndColumn(of: notice.range.lowerBound)
            errors.line("\(source.name):\(line):\(column): note: \(notice.message)")
        }
        errors.flush()
    }

    /// Prints `error` on stderr (and as a JSON object on stdout with `--json`).
    func report(_ error: DiceError, in source: SourceFile, input: String) {
        let message = error.commandMessage(limitHint: limitHint, statsHint: statsHint)
        if options.json {
            output.line(renderer.json(for: error, in: source, input: input, message: message))
        }
        output.flush()
        errors.line(diagnostics.render(error, in: source, message: message))
        errors.flush()
    }
}
