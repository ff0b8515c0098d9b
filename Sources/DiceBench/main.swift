// DiceBench: in-process timings of DiceKit for `make bench` (bench/run reads its JSON).
//
//   DiceBench roll EXPR N RUNS        per-roll ns of EXPR: value only (what `-t -n` runs: the
//                                     evaluator without a breakdown, N times), roll tree (Session.execute),
//                                     roll tree + plain text (what `-n` runs: OutcomeRenderer.text)
//   DiceBench parse-roll EXPR N RUNS  per-iteration ns of Parser.parseExpression + evaluate + render
//                                     as text, and of Session.roll(text) (which reuses what it
//                                     parsed) + render
//   DiceBench cached-roll EXPR N RUNS the Session.roll(text) + render loop of parse-roll alone
//   DiceBench stats EXPR              ns of Stats.exactDistribution: the first call in this
//                                     process (cold, with the page faults it took), then
//                                     repeated calls (warm)
//   DiceBench stats-statement STMT [PRELUDE]
//                                     ns of Session.execute(STMT), a `stats` statement (a
//                                     sweep too), after PRELUDE's statements (the `def`s it
//                                     uses) ran in the same session: first call (cold), then
//                                     repeated calls (warm), as `stats` does
//   DiceBench stats-cold STMT [PRELUDE]
//                                     the first call of stats-statement alone (no warm calls),
//                                     for a profiler of the cold path (callgrind)
//   DiceBench fault-cost              ns per page fault on this machine (Faults.swift)
//   DiceBench budget EXPR             ns per budget step: Stats.exactDistribution under budgets
//                                     of 10^5 to 10^8 steps, until one is enough
//
// Each timed loop of N iterations is preceded by one untimed warm-up loop of N; RUNS loops
// are timed and each gives one sample (ns per iteration). Output is one JSON object on stdout.
import DiceKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let clock = ContinuousClock()

func nanoseconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) * 1e9 + Double(parts.attoseconds) / 1e9
}

func json(_ values: [Double]) -> String {
    "[" + values.map { String($0) }.joined(separator: ",") + "]"
}

func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

func fail(_ message: String) -> Never {
    var standardError = StandardError()
    print("DiceBench: \(message)", to: &standardError)
    exit(1)
}

func writeStandardError(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(2, bytes, count)
    #else
    return Darwin.write(2, bytes, count)
    #endif
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        let bytes = Array(string.utf8)
        _ = bytes.withUnsafeBufferPointer { writeStandardError($0.baseAddress, $0.count) }
    }
}

/// Times `runs` loops of `n` calls of `body` after one warm-up loop; ns per call for each loop.
func samples(n: Int, runs: Int, _ body: () throws -> Double) rethrows -> (perCall: [Double], checksum: Double) {
    var checksum = 0.0
    for _ in 0..<n { checksum += try body() }
    var result: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        for _ in 0..<n { checksum += try body() }
        result.append(nanoseconds(clock.now - start) / Double(n))
    }
    return (result, checksum)
}

func statement(_ text: String) throws -> Stmt {
    let statements = try Parser.parseProgram(text)
    guard statements.count == 1 else { fail("expected one statement: \(text)") }
    return statements[0]
}

func runRoll(_ text: String, n: Int, runs: Int) throws {
    let stmt = try statement(text)
    var session = Session(seed: 1)
    // What `dice -t -n N` runs: the expression's value rolled N times, no breakdown built.
    guard case .expression(let expr) = stmt.kind else { fail("\(text) is not an expression") }
    let value = try samples(n: n, runs: runs) { () throws -> Double in
        try session.value(of: expr).number?.doubleValue ?? 0
    }
    let tree = try samples(n: n, runs: runs) { () throws -> Double in
        guard case .roll(let roll) = try session.execute(stmt) else { return 0 }
        return roll.value.number?.doubleValue ?? 0
    }
    // What `dice -n N` runs for each line: execute, then the outcome's text into a byte buffer.
    let renderer = OutcomeRenderer(rolls: RollRenderer.plain)
    var line: [UInt8] = []
    let rendered = try samples(n: n, runs: runs) { () throws -> Double in
        let outcome = try session.execute(stmt)
        line.removeAll(keepingCapacity: true)
        renderer.text(for: outcome, into: &line)
        return Double(line.count)
    }
    print("{\"mode\":\"roll\",\"expr\":\(jsonString(text)),\"n\":\(n),"
        + "\"value_ns\":\(json(value.perCall)),\"roll_ns\":\(json(tree.perCall)),"
        + "\"text_ns\":\(json(rendered.perCall)),"
        + "\"checksum\":\(value.checksum + tree.checksum + rendered.checksum)}")
}

func runParseRoll(_ text: String, n: Int, runs: Int) throws {
    // Each call renders the breakdown as text too, as d20's `roll()` renders its Markdown.
    let renderer = RollRenderer.plain
    var line: [UInt8] = []
    var session = Session(seed: 1)
    let result = try samples(n: n, runs: runs) { () throws -> Double in
        let roll = try session.roll(Parser.parseExpression(text))
        line.removeAll(keepingCapacity: true)
        renderer.render(roll, into: &line)
        return roll.value.number?.doubleValue ?? 0 + Double(line.count)
    }
    // The same through `Session.roll(_:)`, which keeps the expressions it parsed (as d20's
    // `roll()` keeps its parse cache).
    let cached = try cachedRollSamples(text, n: n, runs: runs)
    print("{\"mode\":\"parse-roll\",\"expr\":\(jsonString(text)),\"n\":\(n),"
        + "\"parse_roll_ns\":\(json(result.perCall)),\"cached_roll_ns\":\(json(cached.perCall)),"
        + "\"checksum\":\(result.checksum + cached.checksum)}")
}

/// `Session.roll(text)` with its breakdown rendered as plain text, timed: a fresh session
/// that keeps the expressions it parsed.
func cachedRollSamples(_ text: String, n: Int, runs: Int) throws -> (perCall: [Double], checksum: Double) {
    let renderer = RollRenderer.plain
    var line: [UInt8] = []
    var session = Session(seed: 1)
    return try samples(n: n, runs: runs) { () throws -> Double in
        let roll = try session.roll(text)
        line.removeAll(keepingCapacity: true)
        renderer.render(roll, into: &line)
        return roll.value.number?.doubleValue ?? 0 + Double(line.count)
    }
}

/// `Session.roll(text)` and its text alone: workload C without the loop that parses every
/// call, for a profiler.
func runCachedRoll(_ text: String, n: Int, runs: Int) throws {
    let cached = try cachedRollSamples(text, n: n, runs: runs)
    print("{\"mode\":\"cached-roll\",\"expr\":\(jsonString(text)),\"n\":\(n),"
        + "\"cached_roll_ns\":\(json(cached.perCall)),\"checksum\":\(cached.checksum)}")
}

func runStats(_ text: String) throws {
    let expr = try Parser.parseExpression(text)
    let environment = Environment()
    let (first, cold, coldFaults) = try timedFirstCall { try Stats.exactDistribution(of: expr, environment: environment) }
    // Warm: repeat until 0.1 s have passed and at least 5 calls were made (at most 2,000).
    var warm: [Double] = []
    var spent = 0.0
    var checksum = 0.0
    while warm.count < 2_000 && (warm.count < 5 || spent < 0.1e9) {
        let start = clock.now
        let report = try Stats.exactDistribution(of: expr, environment: environment)
        let elapsed = nanoseconds(clock.now - start)
        checksum += report.distribution.mean
        warm.append(elapsed)
        spent += elapsed
    }
    let distribution = first.distribution
    print("{\"mode\":\"stats\",\"expr\":\(jsonString(text)),\"cold_ns\":\(cold),"
        + "\"cold_faults\":\(coldFaults),\"warm_ns\":\(json(warm)),\"exact\":\(first.exact),\"outcomes\":\(distribution.count),"
        + "\"mean\":\(distribution.mean),\"checksum\":\(checksum)}")
}

/// `stats` as a statement run by a session, after the statements of `prelude` (macros the
/// statement uses): what `dice` runs for `stats E` or a sweep `stats E for x in A..B`. The
/// statement is parsed before the clock starts, as `runStats` parses its expression.
func runStatsStatement(_ text: String, prelude: String, warm warmCalls: Bool = true) throws {
    var session = Session(seed: 1)
    for statement in try Parser.parseProgram(prelude) { _ = try session.execute(statement) }
    let stmt = try statement(text)
    let (first, cold, coldFaults) = try timedFirstCall { try session.execute(stmt) }
    // A `stats` whose exact work would pass the limits falls back to simulation: not what
    // this measures.
    if case .stats(_, let report) = first, !report.exact { fail("not exact: \(text)") }
    var warm: [Double] = []
    var spent = 0.0
    while warmCalls && warm.count < 2_000 && (warm.count < 5 || spent < 0.1e9) {
        let start = clock.now
        _ = try session.execute(stmt)
        let elapsed = nanoseconds(clock.now - start)
        warm.append(elapsed)
        spent += elapsed
    }
    print("{\"mode\":\"stats-statement\",\"statement\":\(jsonString(text)),\"prelude\":\(jsonString(prelude)),"
        + "\"cold_ns\":\(cold),\"cold_faults\":\(coldFaults),\"warm_ns\":\(json(warm))}")
}

/// How the time of the exact engine follows its budget: a step should cost a few ns
/// whatever the expression, or the budget does not bound the time.
func runBudget(_ text: String) throws {
    let expr = try Parser.parseExpression(text)
    var rows: [String] = []
    for exponent in 5...8 {
        var maxWork = 1
        for _ in 0..<exponent { maxWork *= 10 }
        let start = clock.now
        var outcome = "exact"
        do {
            _ = try Stats.exactDistribution(of: expr, environment: Environment(), limits: Limits(stats: StatsBudget(maxWork: maxWork)))
        } catch let error as DiceError {
            throw error
        } catch {
            outcome = "too expensive"
        }
        let elapsed = nanoseconds(clock.now - start)
        rows.append("{\"max_work\":\(maxWork),\"ns\":\(elapsed),\"ns_per_step\":\(elapsed / Double(maxWork)),"
            + "\"outcome\":\(jsonString(outcome))}")
        if outcome == "exact" { break }
    }
    print("{\"mode\":\"budget\",\"expr\":\(jsonString(text)),\"runs\":[\(rows.joined(separator: ","))]}")
}

let arguments = Array(CommandLine.arguments.dropFirst())
func count(_ index: Int) -> Int {
    guard index < arguments.count, let value = Int(arguments[index]), value > 0 else {
        fail("expected a positive count as argument \(index + 1)")
    }
    return value
}

do {
    switch arguments.first {
    case "roll" where arguments.count == 4:
        try runRoll(arguments[1], n: count(2), runs: count(3))
    case "parse-roll" where arguments.count == 4:
        try runParseRoll(arguments[1], n: count(2), runs: count(3))
    case "cached-roll" where arguments.count == 4:
        try runCachedRoll(arguments[1], n: count(2), runs: count(3))
    case "stats" where arguments.count == 2:
        try runStats(arguments[1])
    case "stats-cold" where arguments.count == 2 || arguments.count == 3:
        try runStatsStatement(arguments[1], prelude: arguments.count == 3 ? arguments[2] : "", warm: false)
    case "stats-statement" where arguments.count == 2 || arguments.count == 3:
        try runStatsStatement(arguments[1], prelude: arguments.count == 3 ? arguments[2] : "")
    case "budget" where arguments.count == 2:
        try runBudget(arguments[1])
    case "fault-cost" where arguments.count == 1:
        runFaultCost()
    default:
        fail("usage: DiceBench roll EXPR N RUNS | parse-roll EXPR N RUNS | cached-roll EXPR N RUNS | stats EXPR | stats-statement STMT [PRELUDE] | stats-cold STMT [PRELUDE] | budget EXPR | fault-cost")
    }
} catch let error as DiceError {
    // The message, as `dice` would print it: a statement the language cannot run yet says why.
    fail(error.message)
} catch {
    fail("\(error)")
}
