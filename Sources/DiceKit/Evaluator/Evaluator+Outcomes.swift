/// Texts, tables, tallies, logic, counting and `given` (LANGUAGE.md §5b and §7).
extension Evaluator {
    /// The most times `E given C` is rolled before it fails.
    static var givenTries: Int { 1_000 }

    mutating func outcomeNode(_ expr: Expr) throws(DiceError) -> Roll {
        switch expr.kind {
        case .text(let text):
            return Roll(.text, value: .text(text))
        case .match(let subject, let entries, let otherwise):
            return try match(subject, entries, otherwise)
        case .tally(let fields):
            var tally = Tally()
            var rolls: [Roll] = []
            for field in fields {
                let roll = try evaluate(field.value)
                tally[field.name] = try number(roll.value, for: "a tally's field", at: field.value.range)
                if recording { rolls.append(roll) }
            }
            return made(.tally(names: fields.map(\.name), rolls: rolls), value: .tally(tally))
        case .field(let base, let name):
            let roll = try evaluate(base)
            let value = try arithmetic(expr.range) { () throws(ArithmeticFault) in try roll.value.field(name) }
            return made(.field(roll, name), value: .number(value))
        case .logical(let op, let lhs, let rhs):
            let left = try evaluate(lhs)
            let l = try number(left.value, for: "'\(op.rawValue)'", at: lhs.range)
            // `and` stops at a 0, `or` at anything else: the right side is then never evaluated.
            if (op == .and) == l.isZero { return made(.logical(op, left, nil), value: .integer(l.isZero ? 0 : 1)) }
            let right = try evaluate(rhs)
            let r = try number(right.value, for: "'\(op.rawValue)'", at: rhs.range)
            return made(.logical(op, left, right), value: .integer(r.isZero ? 0 : 1))
        case .not(let operand):
            let roll = try evaluate(operand)
            let value = try number(roll.value, for: "'not'", at: operand.range)
            return made(.not(roll), value: .integer(value.isZero ? 1 : 0))
        case .count(let pool, let point):
            return try count(pool, point, at: expr.range)
        case .given:
            return try retryingGiven(expr)
        default:
            throw DiceError(.internalError("\(expr.text) is no outcome form"), at: expr.range)
        }
    }

    // MARK: - Numbers

    /// `value` when it is a number; else `notANumber`, naming what `needed` it, at `range`.
    @inline(__always)
    func number(_ value: Value, for needed: @autoclosure () -> String, at range: SourceRange) throws(DiceError) -> Number {
        if case .number(let number) = value { return number }
        throw DiceError(.notANumber(value, needed: needed()), at: range)
    }

    // MARK: - Tables

    private mutating func match(_ subject: Expr, _ entries: [MatchEntry], _ otherwise: Expr?) throws(DiceError) -> Roll {
        let roll = try evaluate(subject)
        // Every bound is worked out before the entries are tried, in source order, into one
        // array; a number as written is read, not walked. An array for each entry and a walk
        // of each `1` were about 2,500 of the 19,500 instructions of each face of F2's
        // `check(7, 20)` in `stats` (callgrind, 2026-12-03): an entry's rolls are gathered
        // only while a breakdown is built.
        var bounds: [Value] = []
        bounds.reserveCapacity(2 * entries.count)
        var patterns: [PatternRoll] = []
        for index in entries.indices {
            var rolls: [ArgumentRoll] = []
            var rolledDice = false
            for part in 0..<entries[index].partCount {
                let expr = entries[index].part(part)
                if case .number(let literal) = expr.kind {
                    bounds.append(.number(literal))
                    continue
                }
                let bound = try evaluate(expr)
                bounds.append(bound.value)
                guard recording else { continue }
                rolls.append(ArgumentRoll(range: expr.range, roll: bound))
                if bound.hasDice { rolledDice = true }
            }
            // A pattern that rolled dice is shown with them; one that rolled none, not at all.
            if rolledDice { patterns.append(PatternRoll(pattern: entries[index].pattern, bounds: rolls)) }
        }
        var start = 0
        for index in entries.indices {
            let end = start + entries[index].partCount
            if try entries[index].holds(bounds[start..<end], for: roll.value, subject: subject.range) {
                let result = try evaluate(entries[index].result)
                return made(.match(subject: roll, patterns: patterns, entry: index, result: result), value: result.value)
            }
            start = end
        }
        guard let otherwise else { throw DiceError(.noMatchingEntry(roll.value), at: subject.range) }
        let result = try evaluate(otherwise)
        return made(.match(subject: roll, patterns: patterns, entry: nil, result: result), value: result.value)
    }

    // MARK: - Bound pools and counting

    /// The value of a `let`: a pool, group or `repeat` is rolled with every die kept in the
    /// roll (whether or not a breakdown is built), so `count` can read them.
    /// A pool of several text dice has no value: the error of using it comes back with it.
    mutating func boundValue(_ expr: Expr) throws(DiceError) -> (Roll, DiceError?) {
        guard expr.isPoolForm else { return (try evaluate(expr), nil) }
        let wasRecording = recording, wasEvery = recordsEveryDie, wasDeferred = deferredValueError
        recording = true
        recordsEveryDie = true
        deferredValueError = nil
        defer {
            recording = wasRecording
            recordsEveryDie = wasEvery
            deferredValueError = wasDeferred
        }
        let roll = try evaluate(expr)
        return (roll, deferredValueError)
    }

    private mutating func count(_ target: Expr, _ point: ComparePoint, at range: SourceRange) throws(DiceError) -> Roll {
        let members: [Value]
        let shown: Roll
        if case .name(let name) = target.kind, let bound = frames.last?[name] {
            guard let pool = bound.pool else { throw DiceError(.countNeedsPool, at: target.range) }
            members = pool.countedMembers()
            shown = made(.variable(name), value: bound.value)
        } else {
            guard target.isPoolForm else { throw DiceError(.countNeedsPool, at: target.range) }
            shown = try boundValue(target).0
            members = shown.countedMembers()
        }
        let against = try evaluate(point.value).value
        var matches = 0
        for member in members {
            let holds = try point.op.holds(member, against) { (culprit) throws(DiceError) in
                ComparePoint.orderingError(culprit, at: point.value.range)
            }
            if holds { matches += 1 }
        }
        return made(.count(shown, point), value: .integer(matches))
    }

    // MARK: - given

    /// `E given C`, or a `let` whose body ends in one: rolled again, whole, until C holds.
    mutating func retryingGiven(_ expr: Expr) throws(DiceError) -> Roll {
        if insideGiven { return try givenOnce(expr) }
        insideGiven = true
        givenConditions = GivenConditions()
        // Its own conditions are where they are written, though it is inside a macro's body.
        let macroUse = givenMacroUse
        givenMacroUse = nil
        defer {
            insideGiven = false
            givenMacroUse = macroUse
        }
        let held = heldParts
        let limit = Swift.max(1, givenTryLimit)
        givenTryCounts = GivenTries()
        var tries = 0
        while true {
            // Bounded: each failed try is spent as a die, against `Limits.maxDice`.
            tries &+= 1
            conditionFailed = false
            givenTryCounts.startTry()
            let nodesBefore = nodes
            let roll = try givenOnce(expr)
            if !conditionFailed {
                guard recording, case .given(let value, let condition, _) = roll.kind else { return roll }
                return Roll(.given(value: value, condition: condition, tries: tries), value: roll.value)
            }
            givenFailures &+= 1
            // Where a simulation that keeps no roll points (a macro's body is in another statement).
            failedCondition = macroDepth == 0 ? (expr.givenCondition ?? expr).range : nil
            release(toHeld: held)
            if let spent = givenTryCounts.endFailedTry(limit: limit) {
                throw givenConditions.error(.conditionNeverHeld(tries: limit), else: spent)
            }
            try spend(1, at: expr.range)
            try pollAfter(nodes &- nodesBefore, at: expr.range)
        }
    }

    /// The error of a `given` whose condition failed `tries` times, for a simulation that kept
    /// no roll: where the last one rolled again says it (`failedCondition`), else at `range`.
    package func givenNeverHeld(tries: Int, else range: SourceRange) -> DiceError {
        guard let failedCondition else { return DiceError(.conditionNeverHeld(tries: tries), at: range) }
        return givenConditions.error(.conditionNeverHeld(tries: tries), else: failedCondition)
    }

    /// One try of `E given C`, through the `let`s it ends in; `conditionFailed` when C did not hold.
    mutating func givenOnce(_ expr: Expr) throws(DiceError) -> Roll {
        switch expr.kind {
        case .given(let value, let condition):
            let roll = try evaluate(value)
            let test = try evaluate(condition)
            let holds = try !number(test.value, for: "'given'", at: condition.range).isZero
            let place = givenMacroUse ?? GivenConditions.Place(range: condition.range)
            givenConditions.note(place, held: holds)
            givenTryCounts.note(place, held: holds)
            if !holds { conditionFailed = true }
            return made(.given(value: roll, condition: test, tries: 1), value: roll.value)
        case .binding(let name, let value, let body):
            return try binding(name, value, body, givenBody: true)
        default:
            return try evaluate(expr)
        }
    }
}

/// What a name of a macro call or `let` stands for: its value, and for a bound pool its roll.
struct Bound: Sendable {
    var value: Value
    /// The roll of a pool, group or `repeat` bound by `let`, every die kept: what `count` reads.
    var pool: Roll? = nil
    /// Why the bound pool has no value (several text dice): raised when the value is used,
    /// where it was found (the text member or pool).
    var valueError: DiceError? = nil
}

extension Expr {
    /// Whether the expression is a pool, group or `repeat` (perhaps annotated): what `let`
    /// binds as a roll and `count` counts.
    var isPoolForm: Bool {
        switch kind {
        case .dice, .group, .repeat: return true
        case .annotated(let inner, _): return inner.isPoolForm
        default: return false
        }
    }

    /// Whether the expression is `E given C`, or a `let` whose body (through nested `let`s) is.
    var endsInGiven: Bool {
        switch kind {
        case .given: return true
        case .binding(_, _, let body): return body.endsInGiven
        default: return false
        }
    }

    /// The condition C of the `E given C` the expression is or ends in (through `let`s):
    /// where an error of C never holding points.
    var givenCondition: Expr? {
        switch kind {
        case .given(_, let condition): return condition
        case .binding(_, _, let body): return body.givenCondition
        default: return nil
        }
    }
}

extension Roll {
    /// Whether the roll is of a pool, group or `repeat` (perhaps annotated).
    var isPool: Bool {
        switch kind {
        case .pool, .group: return true
        case .annotated(let inner, _): return inner.isPool
        default: return false
        }
    }

    /// The values of the dice or members that count: a pool's kept dice (text dice by their
    /// face), a group's kept members.
    func countedMembers() -> [Value] {
        switch kind {
        case .pool(let pool):
            return pool.dice.filter(\.isCounted).map { pool.faceValue(of: $0) }
        case .group(let group):
            return group.members.filter(\.kept).map(\.roll.value)
        case .annotated(let inner, _):
            return inner.countedMembers()
        default:
            return []
        }
    }
}

