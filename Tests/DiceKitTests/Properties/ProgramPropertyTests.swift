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
                    // On a 64 MB stack, as `dice` runs: at the deepest nesting the exact engine
                    // of a debug build needs more than a task's 8 MB (Limits.maxEvaluationDepth).
                    await onThread(stackSize: 64 << 20) {
                        var tally = Tally()
                        for index in stride(from: worker, to: count, by: workers) {
                            var run = ProgramRun(seed: firstSeed &+ UInt64(index), tally: tally)
                            run.run()
                            tally = run.tally
                        }
                        return tally
                    }
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
        // Every other program has the forms of LANGUAGE.md §5b too: texts, tables, tallies,
        // bound pools, logic, unique dice, `given`, default parameters and `use`.
        generator.outcomes = seed % 2 == 1
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
            // Go on from the next line after the error where a statement starts: the lines a
            // statement left open (`[` of an annotation not closed) belong to it, as the
            // generator counted them.
            guard let next = program.lines.indices.first(where: { $0 > line(at: stop) && !program.lines[$0].continues }),
                  next < lineStarts.count else { return }
            offset = lineStarts[next]
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
                // As written, its control characters escaped (a stray `\r` in a label).
                if OutcomeRenderer().text(for: outcome) != TextEscaping.escaped(macro.definitionText, markdown: false) {
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
            // A `given` whose rare condition missed the roller's 1,000 tries is that bound, not
            // the expression failing: `stats` conditions on it exactly.
            let triesRanOut = if case .conditionNeverHeld = error.kind.innermost { true } else { false }
            if case .success(let report) = exact, report.truncatedMass == 0, !Self.isResourceError(error.kind),
               !triesRanOut, report.distribution.totalProbability > 0.999 {
                let message = "`\(input)`: the exact distribution was computed but the roll failed: \(error.message)"
                fail(message)
            }
        default:
            fail("`\(input)`: execute gives \(rolled), value(of:) gives \(fast)")
        }
    }
}
