import Foundation
import Testing
@testable import DiceKit

/// Whole generated programs (`ProgramGenerator`) run through the library the way the
/// `dice` command runs a script or the REPL runs lines: `Parser.nextStatement`,
/// `Session.execute`, `OutcomeRenderer` text and JSON, and for `stats` (and a sample of
/// expression statements) the exact distribution with a small budget.
///
/// It reaches, in seconds, the paths the byte fuzzer (fuzz/FuzzDice.swift) reaches
/// slowly: macros with parameters calling each other, recursion, names rebound between
/// variables and macros, `stats` of macros, errors inside macro bodies. Its invariants
/// mirror the fuzzer's:
/// - no trap (a trap ends the test process, which fails the run);
/// - every `DiceError` has a message, a range inside its source, a diagnostic and valid JSON;
/// - each well-formed line parses back to statements that print as the ones it was
///   printed from (text, not tree: `ExpressionGenerator.boundedPool` writes `mi(-1)` as a
///   negative literal, which reads back as a negation);
/// - a roll's breakdown ends with its value, its JSON parses and holds the value;
///   decimals are finite and never whole 64-bit integers;
/// - `value(of:)` on a copy of the session gives the value or the error kind `execute`
///   gives, and leaves the generator where `execute` left it;
/// - a definition always succeeds and binds the macro; an error changes no binding;
/// - a rolled value lies within its exact distribution's min and max when that was
///   computed without a cut tail, and a roll whose exact distribution was computed does
///   not fail, except on a resource limit;
/// - a distribution's outcomes are ordered, its probabilities in 0...1 and, exact and
///   uncut, summing to 1; for `stats` of a bounded expression, within `Bounds`;
/// - no statement takes more than `statementSeconds`.
///
/// `DICE_PROGRAMS=N` sets the number of programs, `DICE_PROGRAMS_SEED=S` the first
/// program's seed. A failure names the program's seed and prints its text. A long run
/// (300,000 programs: about 10 minutes on two cores):
///
///     DICE_PROGRAMS=300000 swift test -c release -Xswiftc -enable-testing \
///         --scratch-path /tmp/progrelease --filter ProgramPropertyTests
@Suite struct ProgramPropertyTests {
    /// Small enough that every statement runs in milliseconds.
    static let limits = Limits(maxDice: 10_000)
    /// A small exact budget; past it the distribution is simulated with a few rolls.
    static let budget = StatsBudget(maxWork: 200_000, maxOutcomes: 5_000)
    /// `limits` with the small stats budget.
    static var statsLimits: Limits {
        var limits = Self.limits
        limits.stats = budget
        return limits
    }
    static let simulationRolls = 3
    /// The default number of programs: about 15 seconds of CPU in a debug build (some 7 ms
    /// a program), so under 20 seconds on two busy cores.
    static let defaultPrograms = 2_000
    /// A statement slower than this (wall clock, all phases) is a failure: the limits
    /// should make every statement quick, even in a debug build on a busy machine.
    static let statementSeconds = 5.0
    /// Failures recorded as issues per worker; the rest are only counted. A known bug is
    /// recorded once per worker.
    static let maxRecordedIssues = 10

    static var programCount: Int {
        ProcessInfo.processInfo.environment["DICE_PROGRAMS"].flatMap { Int($0) } ?? defaultPrograms
    }

    static var firstSeed: UInt64 {
        ProcessInfo.processInfo.environment["DICE_PROGRAMS_SEED"].flatMap { UInt64($0) } ?? 1
    }

    @Test func generatedProgramsKeepEveryInvariant() async throws {
        let count = Self.programCount, firstSeed = Self.firstSeed
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let clock = ContinuousClock()
        let start = clock.now
        let tally = await withTaskGroup(of: Tally.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var tally = Tally()
                    for index in stride(from: worker, to: count, by: workers) {
                        var run = ProgramRun(seed: firstSeed &+ UInt64(index), tally: tally)
                        run.run()
                        tally = run.tally
                    }
                    return tally
                }
            }
            var total = Tally()
            for await part in group { total.merge(part) }
            return total
        }
        let elapsed = clock.now - start
        print(tally.summary(seeds: firstSeed, count: count, elapsed: elapsed))
        #expect(tally.failures == 0, "\(tally.failures) broken invariants; the first are recorded above")
        #expect(tally.programs == count)
        // A run where nothing works, or nothing fails, proves little.
        if count >= 1_000 {
            #expect(tally.values > tally.statements / 3, "\(tally.values) values of \(tally.statements) statements")
            #expect(tally.errors["macroRecursion", default: 0] > 0, "no recursion reached: \(tally.errors)")
            #expect(tally.errors["unknownName", default: 0] > 0)
            #expect(tally.errors["expected", default: 0] > 0, "no statement failed to parse: \(tally.errors)")
            #expect(tally.boundsChecked > 0 && tally.crlfPrograms > 0)
        }
    }

    /// The generator is seeded: the same seed gives the same program.
    @Test func aSeedFixesTheProgram() {
        for seed: UInt64 in [1, 2, 3] {
            var first = ProgramGenerator(seed: seed), second = ProgramGenerator(seed: seed)
            #expect(first.program().text == second.program().text)
        }
    }
}

// MARK: - What a run covered

/// Counts of what the programs ran and what they found.
struct Tally: Sendable {
    var programs = 0
    var lines = 0
    var brokenLines = 0
    var crlfPrograms = 0
    var statements = 0
    var statementKinds: [String: Int] = [:]
    var values = 0
    /// Errors by kind (`inMacro(divisionByZero)`), from parsing, running and distributions.
    var errors: [String: Int] = [:]
    var exactDistributions = 0
    var simulatedDistributions = 0
    /// Rolled values checked against an exact distribution's range.
    var boundsChecked = 0
    var failures = 0
    var recordedIssues = 0
    /// Broken invariants explained by a known library bug, by the regression test that tracks it.
    var slowest: (seconds: Double, seed: UInt64, input: String) = (0, 0, "")

    mutating func merge(_ other: Tally) {
        programs += other.programs
        lines += other.lines
        brokenLines += other.brokenLines
        crlfPrograms += other.crlfPrograms
        statements += other.statements
        statementKinds.merge(other.statementKinds, uniquingKeysWith: +)
        values += other.values
        errors.merge(other.errors, uniquingKeysWith: +)
        exactDistributions += other.exactDistributions
        simulatedDistributions += other.simulatedDistributions
        boundsChecked += other.boundsChecked
        failures += other.failures
        recordedIssues += other.recordedIssues
        if other.slowest.seconds > slowest.seconds { slowest = other.slowest }
    }

    func summary(seeds firstSeed: UInt64, count: Int, elapsed: Duration) -> String {
        func sorted(_ counts: [String: Int]) -> String {
            counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return """
        ProgramPropertyTests: \(programs) programs (seeds \(firstSeed)..<\(firstSeed &+ UInt64(count))) in \(elapsed)
          \(lines) lines (\(brokenLines) broken), \(crlfPrograms) programs with CRLF
          \(statements) statements: \(sorted(statementKinds))
          \(values) values; \(exactDistributions) exact distributions, \(simulatedDistributions) simulated; \
        \(boundsChecked) rolls checked against an exact range
          errors: \(sorted(errors))
          slowest statement: \(String(format: "%.3f", slowest.seconds)) s, seed \(slowest.seed): \(slowest.input.prefix(200))
          broken invariants: \(failures)
        """
    }
}

// MARK: - Running one program

/// One generated program, run statement by statement in a seeded session, checked as it goes.
struct ProgramRun {
    let seed: UInt64
    let program: ProgramGenerator.Program
    var session: Session
    /// The worker's counts so far, this program's added as it runs.
    var tally: Tally
    /// Choices of the run itself (REPL or script, which expressions get a distribution),
    /// apart from the program's.
    var choices: ExpressionGenerator
    /// Where each line starts in the program's bytes.
    let lineStarts: [Int]
    /// The statements parsed on each line, printed (`Stmt.text`).
    var parsed: [Int: [String]] = [:]
    /// Lines on which parsing stopped with an error.
    var parseErrorLines: Set<Int> = []

    static var limits: Limits { ProgramPropertyTests.limits }

    init(seed: UInt64, tally: Tally = Tally()) {
        self.seed = seed
        self.tally = tally
        var generator = ProgramGenerator(seed: seed)
        program = generator.program()
        session = Session(limits: Self.limits, seed: seed)
        choices = ExpressionGenerator(seed: ~seed)
        var starts = [0]
        for (offset, byte) in program.text.utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// Records a broken invariant, with the seed and the program that shows it.
    mutating func fail(_ message: String, _ location: Testing.SourceLocation = #_sourceLocation) {
        tally.failures += 1
        guard tally.recordedIssues < ProgramPropertyTests.maxRecordedIssues else { return }
        tally.recordedIssues += 1
        Issue.record("program seed \(seed): \(message)\n--- program ---\n\(program.text)\n---", sourceLocation: location)
    }

    mutating func run() {
        tally.programs += 1
        tally.lines += program.lines.count
        tally.brokenLines += program.lines.filter { $0.statements == nil }.count
        if program.usesCRLF { tally.crlfPrograms += 1 }
        if choices.chance(70) {
            runAsScript()
        } else {
            runLineByLine()
        }
        // Every well-formed line reads back as the statements it was printed from.
        for (index, line) in program.lines.enumerated() {
            guard let expected = line.statements else { continue }
            if parseErrorLines.contains(index) {
                fail("line \(index + 1) is well formed but did not parse: \(line.text)")
            } else if (parsed[index] ?? []) != expected {
                fail("line \(index + 1) `\(line.text)` parses as \(parsed[index] ?? []), not \(expected)")
            }
        }
    }

    /// The whole text as one source, as `dice FILE` reads it, except that after a syntax
    /// error it goes on from the next line (in a new source) instead of stopping, and
    /// after a failed statement it goes on with the next.
    mutating func runAsScript() {
        let bytes = Array(program.text.utf8)
        var offset = 0
        while offset < bytes.count {
            let source = SourceFile(name: "<prog>", bytes: Array(bytes[offset...]))
            guard let stop = runSource(source, at: offset) else { return }
            // Go on from the line after the error.
            guard let newline = bytes[min(stop, bytes.count)...].firstIndex(of: UInt8(ascii: "\n")) else { return }
            offset = newline + 1
        }
    }

    /// Each line its own source, as the REPL reads them; an error never stops it.
    mutating func runLineByLine() {
        let bytes = Array(program.text.utf8)
        for (index, start) in lineStarts.enumerated() {
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
            _ = runSource(SourceFile(name: "<prog>", bytes: Array(bytes[start..<end])), at: start)
        }
    }

    /// Parses and runs the statements of `source`, which starts at byte `offset` of the
    /// program; returns the program offset of a syntax error, or `nil` at the end.
    mutating func runSource(_ source: SourceFile, at offset: Int) -> Int? {
        var parser = Parser(source, limits: Self.limits)
        while true {
            let statement: Stmt
            do {
                guard let next = try parser.nextStatement() else { return nil }
                statement = next
            } catch {
                check(error, in: source, input: source.lineText(containing: error.range.lowerBound))
                let stop = offset + max(0, min(error.range.lowerBound.offset, source.bytes.count))
                parseErrorLines.insert(line(at: stop))
                return stop
            }
            checkRange(statement.range, in: source, what: "statement")
            parsed[line(at: offset + statement.range.lowerBound.offset), default: []].append(statement.text)
            let clock = ContinuousClock()
            let start = clock.now
            runStatement(statement, in: source)
            let seconds = (clock.now - start) / .seconds(1)
            if seconds > tally.slowest.seconds { tally.slowest = (seconds, seed, source.text(of: statement.range)) }
            if seconds > ProgramPropertyTests.statementSeconds {
                fail("`\(source.text(of: statement.range))` took \(seconds) s")
            }
        }
    }

    /// The index of the program line holding byte `offset`.
    func line(at offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: - Statements

    mutating func runStatement(_ statement: Stmt, in source: SourceFile) {
        tally.statements += 1
        let input = source.text(of: statement.range)
        let before = session.environment
        switch statement.kind {
        case .expression(let expr):
            tally.statementKinds["expression", default: 0] += 1
            runExpression(statement, expr, in: source, input: input)
            if session.environment != before { fail("`\(input)` changed the bindings") }
        case .assignment(let name, _), .update(let name, _, _):
            tally.statementKinds["assignment", default: 0] += 1
            do {
                let outcome = try session.execute(statement)
                guard case .assignment(name, let roll) = outcome else { return fail("`\(input)` gave \(outcome)") }
                tally.values += 1
                check(roll, input: input)
                check(outcome, input: input)
                if session.environment[name] != .variable(roll.value) {
                    fail("`\(input)` bound \(name) to \(String(describing: session.environment[name])), not \(roll.value)")
                }
            } catch {
                check(error, in: source, input: input)
                if session.environment != before { fail("the failed `\(input)` changed the bindings") }
            }
        case .definition(let name, let parameters, _, let body):
            tally.statementKinds["definition", default: 0] += 1
            do {
                let outcome = try session.execute(statement)
                guard case .definition(let macro) = outcome, macro.name == name, macro.parameters == parameters,
                      macro.body == body else { return fail("`\(input)` gave \(outcome)") }
                check(outcome, input: input)
                if OutcomeRenderer().text(for: outcome) != macro.definitionText {
                    fail("`\(input)` renders as \(OutcomeRenderer().text(for: outcome))")
                }
                if session.environment[name] != .macro(macro) { fail("`\(input)` did not bind \(name)") }
            } catch {
                fail("the definition `\(input)` failed: \(error.message)")
            }
        case .stats(let expr):
            // Distributions as `Session.execute` works them out (`Stats.distribution`), with a
            // smaller simulation: a million rolls per generated statement would take hours.
            tally.statementKinds["stats", default: 0] += 1
            switch distribution(of: expr, in: source, input: input) {
            case .success(let report):
                check(report, input: input, title: expr.text)
                // The bounded expressions of `stats` lie within what `Bounds` works out.
                if report.exact, let bounds = Bounds.of(expr), let low = report.distribution.minimum,
                   let high = report.distribution.maximum,
                   low < .integer(bounds.lowerBound) || high > .integer(bounds.upperBound) {
                    fail("`\(input)` has outcomes \(low)...\(high), outside \(bounds)")
                }
            case .failure(let error):
                check(error, in: source, input: input)
            case nil:
                break
            }
        case .compare(let exprs):
            tally.statementKinds["compare", default: 0] += 1
            var reports: [(title: String, report: DistributionReport)] = []
            for expr in exprs {
                switch distribution(of: expr, in: source, input: input) {
                case .success(let report):
                    check(report, input: input, title: expr.text)
                    reports.append((expr.text, report))
                case .failure(let error):
                    return check(error, in: source, input: input)
                case nil:
                    return
                }
            }
            check(comparison: reports, input: input)
        case .sweep:
            // Not generated (ProgramGenerator); SweepTests cover sweeps.
            tally.statementKinds["sweep", default: 0] += 1
        case .use:
            // Not generated by default; GameSystemTests cover use.
            tally.statementKinds["use", default: 0] += 1
        }
    }

    /// Rolls an expression statement, and checks it against the value-only path and,
    /// for a sample, the exact distribution.
    mutating func runExpression(_ statement: Stmt, _ expr: Expr, in source: SourceFile, input: String) {
        let exact: Result<DistributionReport, DiceError>?
        if choices.chance(50) {
            exact = exactDistribution(of: expr)
            if case .failure(let error) = exact { check(error, in: source, input: input, counted: false) }
        } else {
            exact = nil
        }
        var valueSession = session
        let rolled = Result { () throws(DiceError) in try session.execute(statement) }
        let fast = Result { () throws(DiceError) in try valueSession.value(of: expr) }
        var full = session.evaluator.source, quick = valueSession.evaluator.source
        if full.next() != quick.next() { fail("`\(input)`: value(of:) rolled different dice than execute") }
        switch (rolled, fast) {
        case (.success(let outcome), .success(let value)):
            guard case .roll(let roll) = outcome else { return fail("`\(input)` gave \(outcome)") }
            tally.values += 1
            check(roll, input: input)
            check(outcome, input: input)
            if value != roll.value { fail("`\(input)`: value(of:) gave \(value), execute \(roll.value)") }
            if case .success(let report) = exact, let number = roll.value.number { checkWithinBounds(number, report, input: input) }
        case (.failure(let error), .failure(let other)):
            check(error, in: source, input: input)
            if error.kind != other.kind {
                let message = "`\(input)`: execute fails with \(error.kind), value(of:) with \(other.kind)"
                fail(message)
            }
            if case .success(let report) = exact, report.truncatedMass == 0, !Self.isResourceError(error.kind),
               report.distribution.totalProbability > 0.999 {
                let message = "`\(input)`: the exact distribution was computed but the roll failed: \(error.message)"
                fail(message)
            }
        default:
            fail("`\(input)`: execute gives \(rolled), value(of:) gives \(fast)")
        }
    }

    // MARK: - Distributions

    /// The exact distribution with the small budget; `nil` when that is too expensive.
    mutating func exactDistribution(of expr: Expr) -> Result<DistributionReport, DiceError>? {
        do {
            let report = try Stats.exactDistribution(of: expr, environment: session.environment, limits: ProgramPropertyTests.statsLimits)
            tally.exactDistributions += 1
            return .success(report)
        } catch let error as DiceError {
            return .failure(error)
        } catch is StatsError {
            return nil
        } catch {
            fail("Stats.exactDistribution threw \(error)")
            return nil
        }
    }

    /// What `stats` prints: the exact distribution, or past the budget a short simulation.
    mutating func distribution(of expr: Expr, in source: SourceFile,
                               input: String) -> Result<DistributionReport, DiceError>? {
        if let exact = exactDistribution(of: expr) { return exact }
        do {
            let report = try Stats.simulate(expr, environment: session.environment, limits: Self.limits, seed: seed,
                                            rolls: ProgramPropertyTests.simulationRolls)
            tally.simulatedDistributions += 1
            if report.exact { fail("`\(input)`: a simulation that says it is exact") }
            return .success(report)
        } catch {
            return .failure(error)
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

    mutating func checkRange(_ range: SourceRange, in source: SourceFile, what: String) {
        if range.lowerBound.offset < 0 || range.upperBound.offset > source.bytes.count
            || range.lowerBound.offset > range.upperBound.offset {
            fail("\(what) range \(range.lowerBound.offset)..<\(range.upperBound.offset) outside a source of \(source.bytes.count) bytes: `\(String(decoding: source.bytes, as: UTF8.self))`")
        }
    }

    /// An error has a message, a range inside its source, a diagnostic and a JSON object.
    mutating func check(_ error: DiceError, in source: SourceFile, input: String, counted: Bool = true) {
        if counted { tally.errors[Self.kindName(error.kind), default: 0] += 1 }
        checkRange(error.range, in: source, what: "the error range of `\(error.message)`")
        if error.message.isEmpty { fail("`\(input)`: an error without a message: \(error.kind)") }
        let diagnostic = DiagnosticRenderer().render(error, in: source)
        if !diagnostic.hasPrefix("<prog>:") { fail("`\(input)`: a diagnostic without a position: \(diagnostic)") }
        let json = OutcomeRenderer().json(for: error, in: source, input: input)
        guard let object = jsonObject(json), let details = object["error"] as? [String: Any],
              details["message"] is String, details["line"] is NSNumber, details["column"] is NSNumber else {
            return fail("`\(input)`: the error's JSON is not an object with a message, line and column: \(json)")
        }
    }

    /// The breakdown ends with the value, in plain text and ANSI; numbers are canonical.
    mutating func check(_ roll: Roll, input: String) {
        check(roll.value, input: input)
        let value = roll.value.description
        let plain = RollRenderer.plain.render(roll)
        if case .number = roll.kind {
            if plain != value { fail("`\(input)`: a bare number renders as `\(plain)`, not `\(value)`") }
        } else {
            if !plain.hasSuffix(" = " + value) { fail("`\(input)`: `\(plain.suffix(200))` does not end with ` = \(value)`") }
            let ansi = RollRenderer.ansi.render(roll)
            if !ansi.hasSuffix(" = \u{1B}[1m\(value)\u{1B}[0m") { fail("`\(input)`: the ANSI breakdown does not end with the bold value") }
        }
        if plain.contains("\n") { fail("`\(input)`: a breakdown with a line break") }
        for pool in roll.pools {
            check(pool.value, input: input)
            if pool.dice.count > Self.limits.maxRecordedDice || pool.omitted < 0 {
                fail("`\(input)`: a pool records \(pool.dice.count) dice and omits \(pool.omitted)")
            }
        }
    }

    /// Fractions are in lowest terms with a denominator above 1 (so whole values are integers).
    mutating func check(_ value: Value, input: String) {
        guard case .number(.fraction(let numerator, let denominator)) = value else { return }
        if denominator <= 1 || Number.gcd(numerator, denominator) != 1 {
            fail("`\(input)`: a fraction \(numerator)/\(denominator) not in lowest terms")
        }
    }

    /// The human line of a roll or assignment ends with the value; the JSON parses and,
    /// for a roll, holds the value.
    mutating func check(_ outcome: Outcome, input: String) {
        let text = OutcomeRenderer().text(for: outcome)
        _ = OutcomeRenderer(rolls: .ansi).text(for: outcome)
        let json = OutcomeRenderer().json(for: outcome, input: input)
        guard let object = jsonObject(json) else { return fail("`\(input)`: invalid JSON: \(json.prefix(2_000))") }
        if object["input"] as? String != input { fail("`\(input)`: the JSON input is \(String(describing: object["input"]))") }
        switch outcome {
        case .roll(let roll), .assignment(_, let roll):
            if !text.hasSuffix(roll.value.description) { fail("`\(input)` renders as `\(text.suffix(200))`") }
            if case .assignment(let name, _) = outcome, !text.hasPrefix("\(name) = ") {
                fail("`\(input)` renders as `\(text.prefix(200))`")
            }
            guard let number = object["value"] as? NSNumber, let rolled = roll.value.number, Self.same(number, rolled) else {
                return fail("`\(input)`: JSON value \(String(describing: object["value"])), rolled \(roll.value)")
            }
        case .definition(let macro):
            if object["defined"] as? String != macro.name { fail("`\(input)`: JSON \(json)") }
        case .stats, .compare, .sweep, .system, .systems:
            break
        }
    }

    /// A report renders, its JSON parses, and its distribution is well formed.
    mutating func check(_ report: DistributionReport, input: String, title: String) {
        _ = DistributionRenderer(width: 80, unicode: true).render(report, title: title)
        _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(report, title: title)
        let json = OutcomeRenderer().json(for: report, input: input)
        if jsonObject(json)?["stats"] == nil { fail("`\(input)`: invalid stats JSON: \(json.prefix(2_000))") }
        let distribution = report.distribution
        var previous: Number?
        var problem: String?
        distribution.forEachOutcome { value, probability in
            if problem == nil, !(probability >= 0 && probability <= 1 + 1e-6) { problem = "probability \(probability) of \(value)" }
            if problem == nil, let previous, !(previous < value) { problem = "outcomes out of order: \(previous), \(value)" }
            previous = value
        }
        if let problem { fail("`\(input)`: \(problem)") }
        let total = distribution.totalProbability
        if report.exact, report.truncatedMass == 0, !distribution.isEmpty, abs(total - 1) > 1e-6 {
            fail("`\(input)`: an exact distribution with total probability \(total)")
        }
    }

    /// A comparison renders, a line at least for each expression, and its JSON holds one
    /// member a report, named by its expression.
    mutating func check(comparison reports: [(title: String, report: DistributionReport)], input: String) {
        let text = DistributionRenderer(width: 80, unicode: true).render(comparing: reports)
        _ = DistributionRenderer(width: 21, unicode: false, maxRows: 5).render(comparing: reports)
        let json = OutcomeRenderer().json(comparing: reports.map { ($0.title, $0.report) }, input: input)
        guard let members = jsonObject(json)?["compare"] as? [[String: Any]], members.count == reports.count else {
            return fail("`\(input)`: invalid comparison JSON: \(json.prefix(2_000))")
        }
        if members.map({ $0["expr"] as? String }) != reports.map(\.title) { fail("`\(input)`: JSON \(json.prefix(2_000))") }
        if reports.count > 1 && text.split(separator: "\n").count < reports.count {
            fail("`\(input)`: a comparison of \(reports.count) in \(text.split(separator: "\n").count) lines")
        }
    }

    /// A rolled value lies within an exact, uncut distribution's range.
    mutating func checkWithinBounds(_ value: Number, _ report: DistributionReport, input: String) {
        let distribution = report.distribution
        guard report.exact, report.truncatedMass == 0, distribution.totalProbability > 0.999,
              let minimum = distribution.minimum, let maximum = distribution.maximum else { return }
        tally.boundsChecked += 1
        let slack = 1e-9 * Swift.max(1, abs(minimum.doubleValue), abs(maximum.doubleValue))
        if value.doubleValue < minimum.doubleValue - slack || value.doubleValue > maximum.doubleValue + slack {
            fail("`\(input)` rolled \(value), outside the exact range \(minimum)...\(maximum)")
        }
    }

    func jsonObject(_ text: String) -> [String: Any]? {
        // One line: JSON Lines.
        if text.utf8.contains(UInt8(ascii: "\n")) { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// Whether a JSON number is the value (a fraction's nearest double, to the last few bits).
    static func same(_ number: NSNumber, _ value: Number) -> Bool {
        switch value {
        case .integer(let whole):
            return number.int64Value == Int64(whole) || number.doubleValue == Double(whole)
        case .fraction:
            // The nearest double, to the last bit or two that Foundation's parser may lose.
            let fraction = value.doubleValue
            return abs(number.doubleValue - fraction) <= 1e-15 * Swift.max(1, abs(fraction))
        }
    }

    /// The names and calls in `expr` (outside dice modifiers).
    static func macroNames(in expr: Expr) -> [String] {
        switch expr.kind {
        case .number: return []
        case .name(let name): return [name]
        case .call(let name, let arguments): return [name] + arguments.flatMap(macroNames)
        case .function(_, let arguments): return arguments.flatMap(macroNames)
        case .unary(_, let operand), .annotated(let operand, _): return macroNames(in: operand)
        case .chain(let first, let rest): return macroNames(in: first) + rest.flatMap { macroNames(in: $0.operand) }
        case .power(let lhs, let rhs), .comparison(_, let lhs, let rhs): return macroNames(in: lhs) + macroNames(in: rhs)
        case .dice(let term):
            var names = term.count.map(macroNames) ?? []
            if case .number(let sides) = term.sides { names += macroNames(in: sides) }
            return names
        case .group(let members, _): return members.flatMap(macroNames)
        case .repeat(let count, let body, _): return macroNames(in: count) + macroNames(in: body)
        case .conditional(let condition, let then, let otherwise):
            return macroNames(in: condition) + macroNames(in: then) + macroNames(in: otherwise)
        case .binding(let name, let value, let body):
            return macroNames(in: value) + macroNames(in: body).filter { $0 != name }
        case .text: return []
        case .match, .tally, .field, .logical, .not, .count, .given:
            return expr.children.flatMap(macroNames)
        }
    }

    /// `inMacro(divisionByZero)`, `unknownName`: the kind without its payload.
    static func kindName(_ kind: DiceError.Kind) -> String {
        if case .inMacro(_, let inner) = kind { return "inMacro(\(kindName(inner)))" }
        return String("\(kind)".prefix { $0 != "(" })
    }
}
