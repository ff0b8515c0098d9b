// A libFuzzer harness over DiceKit: lexer, parser, evaluator, renderers and stats.
//
// Built by `make fuzz` / `make fuzz-ci` (see fuzz/run) by compiling this file together
// with Sources/DiceKit/**/*.swift into one module with -sanitize=fuzzer,address, so it
// uses DiceKit's API without `import DiceKit`.
//
// The input is a program, optionally followed by a NUL byte and an 8-byte seed (when the
// ninth byte from the end is NUL, the last eight are the seed). Each statement is parsed,
// run, rendered (plain, ANSI, JSON) and, for expressions and `stats`, its distribution is
// computed with a small budget; the invariants below are checked as it goes. A failed
// invariant calls `fail`, which prints the reason and the input and aborts: libFuzzer
// then saves the input as a crash.
//
// Invariants:
// - every error has a range inside the source, a message, a diagnostic and valid JSON;
// - a roll's plain breakdown ends with " = <value>" (a bare number is just itself), its
//   ANSI breakdown with the bold value; its JSON is one valid line whose "value" is the value;
// - `value(of:)` (the --total path) gives the value `evaluate` gives, from the same seed,
//   and fails when it fails;
// - a rolled value lies within the exact distribution's min and max when that was
//   computed and no explosion tail was cut; a roll that the exact distribution says
//   cannot fail does not fail (except on resource limits);
// - decimals are finite and never whole 64-bit integers (those are stored as integers);
// - `expr.text` parses back to an expression with the same text;
// - the session's `:save` script (SessionScript) loads back to the same script;
// - no phase of a statement (rolling it, rolling it for its value alone, its exact
//   distribution, its simulation) takes more than FUZZ_STATEMENT_SECONDS (default 2)
//   seconds of CPU time, under the sanitizer; libFuzzer's -timeout catches a whole
//   input that hangs.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func diceFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzDice.run(bytes)
    return 0
}

enum FuzzDice {
    /// The default limits but fewer dice, so every input runs in milliseconds.
    static let limits: Limits = {
        var limits = Limits.standard
        limits.maxDice = 100_000
        // A small exact budget; past it the distribution is simulated with a few rolls.
        limits.stats = StatsBudget(maxWork: 2_000_000, maxOutcomes: 50_000)
        return limits
    }()
    static let simulationRolls = 2
    /// Statements run per input, at most.
    static let maxStatements = 32
    static let statementSeconds: Double = {
        if let text = getenv("FUZZ_STATEMENT_SECONDS"), let value = Double(String(cString: text)) { return value }
        return 2
    }()

    nonisolated(unsafe) static var currentInput: [UInt8] = []

    static func run(_ input: [UInt8]) {
        currentInput = input
        var program = input
        var seed: UInt64 = 0x5EED
        if input.count >= 9, input[input.count - 9] == 0 {
            seed = input.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
            program = Array(input.prefix(input.count - 9))
        }
        let source = SourceFile(name: "<fuzz>", bytes: program)
        var parser = Parser(source, limits: limits)
        var session = Session(limits: limits, seed: seed)
        for _ in 0..<maxStatements {
            let statement: Stmt
            do {
                guard let next = try parser.nextStatement() else { break }
                statement = next
            } catch {
                check(error, in: source, input: source.lineText(containing: error.range.lowerBound))
                break
            }
            checkRange(statement.range, in: source, what: "statement")
            runStatement(statement, in: &session, source: source)
        }
        checkSaveAndLoad(session.environment)
    }

    // MARK: - Statements

    /// Runs `body`, failing when it takes more than `statementSeconds` of CPU time: each
    /// phase of a statement (rolling, the value-only roll, the exact distribution, the
    /// simulation) is timed on its own, so the bound is that of one statement's work.
    static func timed<T, E: Error>(_ what: String, _ input: String, _ body: () throws(E) -> T) throws(E) -> T {
        let start = cpuSeconds()
        defer {
            let elapsed = cpuSeconds() - start
            if elapsed > statementSeconds { fail("\(what) took \(elapsed) s of CPU time: \(input)") }
        }
        return try body()
    }

    static func runStatement(_ statement: Stmt, in session: inout Session, source: SourceFile) {
        let input = source.text(of: statement.range)
        switch statement.kind {
        case .expression(let expr):
            checkReprint(expr)
            let environment = session.environment
            let exact = timed("the exact distribution", input) { exactDistribution(of: expr, environment: environment) }
            var valueSession = session
            let outcome: Outcome
            do {
                outcome = try timed("rolling", input) { () throws(DiceError) in try session.execute(statement) }
            } catch {
                check(error, in: source, input: input)
                // The value-only path fails too, from the same state.
                if let value = timed("the value-only roll", input, { try? valueSession.value(of: expr) }) {
                    fail("evaluate failed (\(error.message)) but value(of:) gave \(value)")
                }
                if case .success(let report) = exact, report.truncatedMass == 0, !isResourceError(error.kind),
                   report.distribution.totalProbability > 0.999 {
                    fail("the exact distribution was computed but the roll failed: \(error.message)")
                }
                return
            }
            guard case .roll(let roll) = outcome else { fail("an expression gave \(outcome)") }
            checkRoll(roll)
            checkOutcome(outcome, input: input)
            do {
                let value = try timed("the value-only roll", input) { () throws(DiceError) in try valueSession.value(of: expr) }
                if value != roll.value { fail("value(of:) gave \(value), evaluate gave \(roll.value)") }
            } catch {
                fail("value(of:) failed (\(error.message)) but evaluate gave \(roll.value)")
            }
            if case .success(let report) = exact {
                if let number = roll.value.number {
                    checkWithinBounds(number, report)
                } else if report.exact, report.truncatedMass == 0, report.distribution.probability(ofValue: roll.value) == 0 {
                    fail("rolled \(roll.value), which the exact distribution does not list")
                }
                checkReport(report, input: input, title: expr.text)
            }
        case .assignment(_, let expr), .update(_, _, let expr):
            checkReprint(expr)
            do {
                let outcome = try timed("rolling", input) { () throws(DiceError) in try session.execute(statement) }
                guard case .assignment(_, let roll) = outcome else { fail("an assignment gave \(outcome)") }
                checkRoll(roll)
                checkOutcome(outcome, input: input)
            } catch {
                check(error, in: source, input: input)
            }
        case .definition(_, _, _, let body):
            checkReprint(body)
            do {
                let outcome = try session.execute(statement)
                checkOutcome(outcome, input: input)
            } catch {
                fail("a definition failed: \(error.message)")
            }
        case .stats(let expr):
            checkReprint(expr)
            // What `Session.execute` works out for it (`Stats.distribution`), with the harness's
            // smaller budget.
            switch distribution(of: expr, environment: session.environment, input: input) {
            case .success(let report):
                checkReport(report, input: input, title: expr.text)
                checkViews(.stats(expr, report))
            case .failure(let error):
                check(error, in: source, input: input)
            }
        case .compare(let exprs):
            exprs.forEach(checkReprint)
            var reports: [(title: String, report: DistributionReport)] = []
            for expr in exprs {
                switch distribution(of: expr, environment: session.environment, input: input) {
                case .success(let report):
                    checkReport(report, input: input, title: expr.text)
                    reports.append((expr.text, report))
                case .failure(let error):
                    check(error, in: source, input: input)
                    return
                }
            }
            _ = DistributionRenderer(width: 80, unicode: true).render(comparing: reports)
            _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(comparing: reports)
            checkJSONLine(OutcomeRenderer().json(comparing: reports.map { ($0.title, $0.report) }, input: input))
            checkViews(.compare(exprs, reports.map(\.report)))
        case .sweep(let expr, let name, let from, let to):
            [expr, from, to].forEach(checkReprint)
            do {
                let sweep = try timed("the sweep", input) { () throws(DiceError) in
                    try Stats.sweep(expr, name: name, from: from, to: to, environment: session.environment, limits: limits)
                }
                for row in sweep.rows { checkReport(row.report, input: input, title: expr.text) }
                _ = DistributionRenderer(width: 80, unicode: true).render(sweep, of: expr)
                // No cap here: nil only past one.
                guard let json = OutcomeRenderer().json(for: sweep, input: input) else { fail("no JSON for a sweep") }
                checkJSONLine(json)
                checkViews(.sweep(expr, sweep))
            } catch {
                check(error, in: source, input: input)
            }
        case .use:
            do {
                let outcome = try session.execute(statement)
                checkOutcome(outcome, input: input)
            } catch {
                check(error, in: source, input: input)
            }
        }
    }

    /// The CSV and the chart of a `stats` outcome: made without a trap, each whole.
    static func checkViews(_ outcome: Outcome) {
        guard let csv = CSVRenderer().csv(for: outcome), csv.hasSuffix("\n") else { fail("no CSV for \(outcome)") }
        guard let svg = ChartRenderer().svg(for: outcome), svg.hasSuffix("</svg>\n") else { fail("no chart for \(outcome)") }
    }

    /// What `Stats.exactDistribution` gave with the small budget.
    enum ExactResult {
        case success(DistributionReport)
        case failure(DiceError)
        case tooExpensive
    }

    static func exactDistribution(of expr: Expr, environment: Environment) -> ExactResult {
        do {
            return .success(try Stats.exactDistribution(of: expr, environment: environment, limits: limits))
        } catch let error as DiceError {
            return .failure(error)
        } catch is StatsError {
            return .tooExpensive
        } catch let failure as StatsInvariantFailure {
            // A bug in the exact engine, never a reason to simulate.
            fail("Stats.exactDistribution broke an invariant: \(failure.message)")
        } catch {
            fail("Stats.exactDistribution threw \(error)")
        }
    }

    /// What `Stats.distribution` does, with few simulated rolls when the exact work is too much.
    static func distribution(of expr: Expr, environment: Environment,
                             input: String) -> Result<DistributionReport, DiceError> {
        switch timed("the exact distribution", input, { exactDistribution(of: expr, environment: environment) }) {
        case .success(let report): return .success(report)
        case .failure(let error): return .failure(error)
        case .tooExpensive:
            do {
                let report = try timed("the simulation", input) { () throws(DiceError) in
                    try Stats.simulate(expr, environment: environment, limits: limits, seed: 7, rolls: simulationRolls)
                }
                return .success(report)
            } catch {
                return .failure(error)
            }
        }
    }

    static func isResourceError(_ kind: DiceError.Kind) -> Bool {
        switch kind {
        case .tooManyDice, .resultTooLarge, .interrupted, .evaluationTooDeep, .macroRecursion: return true
        case .inMacro(_, let inner): return isResourceError(inner)
        default: return false
        }
    }

    // MARK: - Checks

    static func checkRange(_ range: SourceRange, in source: SourceFile, what: String) {
        guard range.lowerBound.offset >= 0, range.upperBound.offset <= source.bytes.count else {
            fail("\(what) range \(range.lowerBound.offset)..<\(range.upperBound.offset) outside a source of \(source.bytes.count) bytes")
        }
    }

    static func check(_ error: DiceError, in source: SourceFile, input: String) {
        checkRange(error.range, in: source, what: "error")
        if error.message.isEmpty { fail("an error without a message: \(error.kind)") }
        let plain = DiagnosticRenderer().render(error, in: source)
        _ = DiagnosticRenderer(colour: true).render(error, in: source)
        if !plain.hasPrefix("<fuzz>:") { fail("diagnostic without position: \(plain)") }
        let json = OutcomeRenderer().json(for: error, in: source, input: input)
        checkJSONLine(json)
    }

    static func checkNumber(_ value: Value) {
        // A fraction is in lowest terms, its denominator above 1 (whole numbers are integers).
        if case .number(.fraction(let numerator, let denominator)) = value {
            var a = numerator.magnitude, b = denominator.magnitude
            while b != 0 { (a, b) = (b, a % b) }
            if denominator <= 1 || a != 1 { fail("a fraction \(numerator)/\(denominator) not in lowest terms") }
        }
    }

    /// `text` without `**` and with `\*`, `\_`, `\~`, `` \` ``, `\|`, `\\` (the user's text escaped,
    /// TextEscaping) read as the mark, in one scan from the left. By scalars, not characters:
    /// an escaped `_` followed by a combining mark is one character with the `_` in it.
    static func unmarked(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "*", scalars.first == "*" {
                scalars.removeFirst()
            } else if scalar == "\\", let next = scalars.first, "*_~`|\\".unicodeScalars.contains(next) {
                out.append(scalars.removeFirst())
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func checkRoll(_ roll: Roll) {
        checkNumber(roll.value)
        let value = RollRenderer.plain.text(of: roll.value)
        let plain = RollRenderer.plain.render(roll)
        let ansi = RollRenderer.ansi.render(roll)
        if case .number = roll.kind {
            if plain != value { fail("a bare number renders as '\(plain)', not '\(value)'") }
        } else if roll.value.number == nil && roll.endsInItsValue {
            // A text or tally the breakdown ends in (`→ strong hit`, `x (hi)`) is not repeated after `=`.
            if !plain.hasSuffix(value) && !plain.hasSuffix("(\(value))") { fail("breakdown '\(plain.suffix(200))' does not end with '\(value)'") }
        } else {
            if !plain.hasSuffix(" = " + value) { fail("breakdown '\(plain.suffix(200))' does not end with ' = \(value)'") }
            if !ansi.hasSuffix(" = \u{1B}[1m\(value)\u{1B}[0m") { fail("ANSI breakdown does not end with the bold value") }
        }
        if plain.contains("\n") { fail("a breakdown with a newline: \(plain)") }
        // Markdown is the plain breakdown with bold faces and escaped marks, nothing else.
        let markdown = RollRenderer.markdown.render(roll)
        if unmarked(markdown) != plain {
            fail("Markdown breakdown '\(markdown.prefix(200))' is not the plain one marked up")
        }
        for pool in roll.pools {
            checkNumber(pool.value)
            if pool.dice.count > limits.maxRecordedDice { fail("a pool records \(pool.dice.count) dice") }
            if pool.omitted < 0 { fail("a pool omits \(pool.omitted) dice") }
        }
    }

    static func checkOutcome(_ outcome: Outcome, input: String) {
        _ = OutcomeRenderer(rolls: .plain).text(for: outcome)
        _ = OutcomeRenderer(rolls: .ansi).text(for: outcome)
        let json = OutcomeRenderer().json(for: outcome, input: input)
        let object = checkJSONLine(json)
        switch outcome {
        case .roll(let roll), .assignment(_, let roll):
            guard case .object(let members) = object, let entry = members.first(where: { $0.key == "value" }) else {
                fail("JSON of a roll without a top-level value: \(json)")
            }
            // A text as a string, a tally as an object of its fields (LANGUAGE.md §6).
            switch (roll.value, entry.value) {
            case (.text(let text), .string(let written)):
                if text != written { fail("JSON value \(written), roll value \(text)") }
                return
            case (.tally(let tally), .object(let fields)):
                if fields.map(\.key) != tally.fields.map(\.name) { fail("JSON fields \(fields.map(\.key)), roll value \(tally)") }
                return
            case (.number, .number): break
            default: fail("JSON value \(entry.value) of a roll worth \(roll.value)")
            }
            guard case .number(let text) = entry.value else { return }
            // A whole value as its digits; a fraction as its nearest double (LANGUAGE.md §1).
            if let whole = roll.value.integerValue {
                if text != String(whole) { fail("JSON value \(text), roll value \(roll.value)") }
            } else if Double(text) != (roll.value.number?.doubleValue ?? .nan) {
                fail("JSON value \(text), roll value \(roll.value) (nearest double \((roll.value.number?.doubleValue ?? .nan)))")
            }
        case .definition, .stats, .compare, .sweep, .system, .systems:
            break
        }
    }

    static func checkReport(_ report: DistributionReport, input: String, title: String) {
        _ = DistributionRenderer(width: 80, unicode: true).render(report, title: title)
        _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(report, title: title)
        checkJSONLine(OutcomeRenderer().json(for: report, input: input))
        let distribution = report.distribution
        var previous: Number?
        distribution.forEachOutcome { value, probability in
            checkNumber(.number(value))
            if !(probability >= 0 && probability <= 1 + 1e-6) { fail("probability \(probability) of \(value)") }
            if let previous, !(previous < value) { fail("outcomes out of order: \(previous), \(value)") }
            previous = value
        }
        let total = distribution.totalProbability
        if report.exact, report.truncatedMass == 0, !distribution.isEmpty, abs(total - 1) > 1e-6 {
            fail("an exact distribution with total probability \(total)")
        }
    }

    static func checkWithinBounds(_ value: Number, _ report: DistributionReport) {
        let distribution = report.distribution
        guard report.exact, report.truncatedMass == 0, distribution.totalProbability > 0.999,
              let minimum = distribution.minimum, let maximum = distribution.maximum else { return }
        let slack = 1e-9 * Swift.max(1, abs(minimum.doubleValue), abs(maximum.doubleValue))
        if value.doubleValue < minimum.doubleValue - slack || value.doubleValue > maximum.doubleValue + slack {
            fail("rolled \(value), outside the exact range \(minimum)...\(maximum)")
        }
    }

    /// `expr.text` parses back to an expression printed the same way.
    static func checkReprint(_ expr: Expr) {
        let text = expr.text
        do {
            let again = try Parser.parseExpression(text, limits: limits)
            if again.text != text { fail("'\(text)' reprints as '\(again.text)'") }
        } catch {
            if case .nestingTooDeep = error.kind { return }
            fail("the printed expression '\(text)' does not parse: \(error.message)")
        }
    }

    /// The `:save` script runs in a fresh session and saves back to the same text.
    static func checkSaveAndLoad(_ environment: Environment) {
        let script = SessionScript.text(of: environment)
        var loader = Session(seed: 1)
        do {
            for statement in try Parser.parseProgram(script) { _ = try loader.execute(statement) }
        } catch {
            if case .nestingTooDeep = error.kind { return }
            fail("the saved session does not load: \(error.message)\n\(script)")
        }
        let again = SessionScript.text(of: loader.environment)
        if again != script { fail("the saved session loads back as\n\(again)\nnot\n\(script)") }
    }

    // MARK: - Helpers

    static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Reports a broken invariant with the input, then traps so libFuzzer keeps the input.
    static func fail(_ message: String) -> Never {
        let shown = String(decoding: currentInput.prefix(4000), as: UTF8.self)
        fputs("dice fuzz: invariant broken: \(message)\ninput (\(currentInput.count) bytes): \(shown)\n", stderr)
        fflush(stderr)
        abort()
    }
}
