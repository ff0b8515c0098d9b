/// A run of statements with one environment and one seeded xoshiro256**
/// generator: what a script, the REPL or a bot's conversation needs.
///
/// Its methods are not generic, so the compiler specialises the evaluator for
/// `Xoshiro256StarStar` inside DiceKit: rolling through a `Session` is the fast path.
///
/// ```swift
/// var session = Session(seed: 42)
/// for statement in try Parser.parseProgram("def atk = 1d20 + 5; atk") {
///     print(OutcomeRenderer().text(for: try session.execute(statement)))
/// }
/// ```
///
/// A bot keeps one session per conversation. A session is a `Sendable` value whose rolling
/// methods are `mutating`, so one task at a time runs a conversation's statements (keep each
/// session in an actor, or in whatever runs one chat's messages in order), while any number
/// of conversations run at once, each on its own session. `stats(_:)` changes nothing: many
/// tasks may ask one session at once. A copy is a second session with the same names and the
/// same generator state, so it rolls the same dice as the original until one is `reseed`ed.
public struct Session: Sendable {
    var evaluator: Evaluator<Xoshiro256StarStar>
    /// Expressions `roll(_:)` parsed lately, by their text: a bot rolls the same few often.
    private var parsed: [String: Expr] = [:]
    private static let parsedLimit = 256
    /// The text `roll(_:)` rolled last and its expression: found by comparing the text, without
    /// hashing it, when the same expression is rolled again and again.
    private var last: (text: String, expr: Expr)?

    /// A session seeded with `seed`, or from the system's entropy.
    public init(environment: Environment = Environment(), limits: Limits = .standard, seed: UInt64? = nil) {
        let source = seed.map { Xoshiro256StarStar(seed: $0) } ?? Xoshiro256StarStar()
        evaluator = Evaluator(environment: environment, limits: limits, source: source)
        evaluator.statsSeed = seed ?? evaluator.statsSeed
    }

    /// The variables and macros the statements see and change.
    public var environment: Environment {
        get { evaluator.environment }
        set { evaluator.environment = newValue }
    }

    /// The bounds on each statement's work.
    public var limits: Limits {
        get { evaluator.limits }
        set { evaluator.limits = newValue }
    }

    /// Asked now and then during long work; `true` abandons the statement.
    public var shouldStop: (@Sendable () -> Bool)? {
        get { evaluator.shouldStop }
        set { evaluator.shouldStop = newValue }
    }

    /// Restarts the generator: the rolls that follow are fixed by `seed`.
    public mutating func reseed(_ seed: UInt64) {
        evaluator.source = Xoshiro256StarStar(seed: seed)
    }

    /// Runs one statement: a roll, an assignment, a definition, or `stats` (its exact
    /// distribution, or a seeded simulation where exact work would pass `limits.stats`).
    public mutating func execute(_ statement: Stmt) throws(DiceError) -> Outcome {
        try evaluator.execute(statement)
    }

    /// Parses `text` as one expression (remembering the last few hundred texts parsed) and
    /// rolls it with its breakdown.
    ///
    /// ```swift
    /// var session = Session()
    /// let roll = try session.roll("2d20kh1 + 5")
    /// ```
    public mutating func roll(_ text: String) throws(DiceError) -> Roll {
        if let last, last.text == text { return try roll(last.expr) }
        let expr: Expr
        if let known = parsed[text] {
            expr = known
        } else {
            expr = try Parser.parseExpression(text, limits: evaluator.limits)
            if parsed.count >= Session.parsedLimit { parsed.removeAll(keepingCapacity: true) }
            parsed[text] = expr
        }
        last = (text, expr)
        return try roll(expr)
    }

    /// One expression rolled afresh, with its breakdown: `execute` without a statement.
    public mutating func roll(_ expr: Expr) throws(DiceError) -> Roll {
        evaluator.startStatement()
        return try evaluator.evaluate(expr)
    }

    /// The distribution of one expression, with this session's variables, macros, `limits`
    /// and `shouldStop`: what `stats TEXT` reports, and DiceKit's one way in to its odds.
    ///
    /// The distribution is exact when its work fits `limits.stats`. Past that it is estimated
    /// from 1,000,000 rolls fixed by the session's seed, or by a constant one when it has none
    /// (`exact` is then `false`, and the same session gives the same estimate); when those do
    /// not fit either, it throws `.statsTooExpensive`. It rolls no dice of the session and
    /// changes nothing in it, so tasks may ask one session at once.
    ///
    /// ```swift
    /// let hit = try session.stats("1d20 + 5 >= 15")
    /// print(hit.distribution.mean)                       // 0.55: a comparison's mean is its chance
    /// let damage = try session.stats("2d6 + 3")
    /// print(damage.distribution.probability(of: .integer(10)))   // 0.1666…
    /// ```
    public func stats(_ text: String) throws(DiceError) -> DistributionReport {
        try evaluator.distribution(of: Parser.parseExpression(text, limits: evaluator.limits))
    }

    /// The value of one expression, rolled afresh: the fastest way to roll many times.
    public mutating func value(of expr: Expr) throws(DiceError) -> Value {
        evaluator.startStatement()
        return try evaluator.value(of: expr)
    }
}
