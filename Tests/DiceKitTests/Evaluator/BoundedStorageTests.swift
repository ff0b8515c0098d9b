import Testing
@testable import DiceKit

/// Pools and repeats of more dice or members than are listed keep only what their breakdown
/// shows; the result is the same as the reference paths' that keep every die and member
/// value (`Limits.keepsEveryValue`): the same dice drawn, the same tree, the same errors.
@Suite struct BoundedStorageTests {
    /// The roll of `text` with `source`, bounded and kept whole, and the next face each
    /// source would give after (the same dice drawn, in the same order).
    static func bothPaths<Source: DieSource>(_ text: String, listed: Int, entriesKept: Int = 1 << 16, source: Source,
                                             next: (inout Source) -> Int) throws
        -> (bounded: Result<Roll, DiceError>, whole: Result<Roll, DiceError>, sameDice: Bool) {
        let expr = try Parser.parseExpression(text)
        var limits = Limits(maxDice: 1_000_000, maxRecordedDice: listed)
        limits.poolEntriesKept = entriesKept
        var bounded = Evaluator(environment: Environment(), limits: limits, source: source)
        limits.keepsEveryValue = true
        var whole = Evaluator(environment: Environment(), limits: limits, source: source)
        bounded.startStatement()
        whole.startStatement()
        let a = Result { () throws(DiceError) in try bounded.evaluate(expr) }
        let b = Result { () throws(DiceError) in try whole.evaluate(expr) }
        return (a, b, next(&bounded.source) == next(&whole.source))
    }

    static func expectSame(_ text: String, listed: Int, seed: UInt64) throws {
        let result = try bothPaths(text, listed: listed, source: Xoshiro256StarStar(seed: seed)) {
            Int(truncatingIfNeeded: $0.next())
        }
        compare(result, "\(text) listing \(listed), seed \(seed)")
    }

    static func compare(_ result: (bounded: Result<Roll, DiceError>, whole: Result<Roll, DiceError>, sameDice: Bool),
                        _ label: String) {
        switch (result.bounded, result.whole) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(label)")
            #expect(RollRenderer.plain.render(a) == RollRenderer.plain.render(b), "\(label)")
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind && a.range == b.range, "\(label)")
        default:
            Issue.record("\(label): bounded \(result.bounded), whole \(result.whole)")
        }
        #expect(result.sameDice, "\(label): different dice drawn")
    }

    static let pools = [
        // Sorted, by face.
        "2000d6sa", "2000d6sd", "2000d6kh1sa", "2000d6kh100sd", "2000d6dl500sa", "2000d6dh7dl5sd",
        "2000d6kh1000kl3sa", "2000d6!sa", "2000d6!pkh10sd", "2000d6!!sa", "2000d6!!>4dl100sd",
        "2000d6r1sa", "2000d6ro<3kl9sd", "2000d6r<3kh40sa", "2000d6cs>=5sa", "2000d6cs6df1dl3sd",
        "2000d6mi3kh10sa", "2000d6ma2dl10sd", "2000dFsa", "2000d{-5,0,7}kl30sd", "2000d%kh10sa",
        "3000d2!!sd", "3000d2!!kh7sa",
        // Sorted, a running value (too many faces to count).
        "2000d1000000sa", "2000d1000000sd", "2000d1000000r<500000sa", "2000d1000000cs>500000sd",
        "2000d1000000!>999990sa", "2000d1000000df<10sa", "2000d9223372036854775807sd",
        // One keep/drop step over too many faces, sorted: the few dice kept or dropped, by position.
        "2000d1000000kh5sa", "2000d1000000kh1sd", "2000d1000000kl3sa", "2000d1000000dh2sd", "2000d1000000dl1sa",
        "2000d1000000kh1998sd", "2000d1000000kl1000sa", "2000d1000000kh0sd", "2000d1000000dl2000sa",
        "2000d1000000kh7cs>500000sd", "2000d1000000kl2mi500000sa", "2000d4611686018427387904dl1sd",
        // Two keep/drop steps over too many faces, sorted or not: the whole path.
        "2000d1000000kh5kl2sa", "2000d1000000dl3dh3",
        // One keep/drop step over too many faces, unsorted: the few dice kept or dropped.
        "2000d1000000kh1", "2000d1000000kh5", "2000d1000000kl3", "2000d1000000dh2", "2000d1000000dl1",
        "2000d1000000kh1998", "2000d1000000kl1000", "2000d1000000dh1999", "2000d1000000kh0", "2000d1000000dl2000",
        "2000d1000000kh7cs>500000", "2000d1000000dl3cs>500000df<10", "2000d1000000kl2mi500000",
        "2000d4611686018427387904kh2", "2000d4611686018427387904dl1", "2000d{-1000000000, 1000000000}kh3",
        // Unsorted.
        "2000d6kh1", "2000d6dh7dl5", "2000d6!!>4dl100", "2000d6r1kh50", "2000d1000000r1",
        "2000d1000000cs>500000df<10", "3000d2!!kl3", "2000d4611686018427387904!kh2",
        // Overflow of the value.
        "3000d4611686018427387904sa", "3000d4611686018427387904!sd",
    ]

    @Test(arguments: pools)
    func aLargePoolListsWhatTheWholePoolWould(_ text: String) throws {
        for listed in [0, 1, 7, 100, 1500] {
            for seed in [1, 2] as [UInt64] {
                try Self.expectSame(text, listed: listed, seed: seed)
            }
        }
    }

    /// Rerolls and explosions that roll many more dice than the pool's count: past the dice
    /// kept, counted as a large pool is, with the same result.
    @Test(arguments: ["40d6r<6", "40d6r<6sa", "40d6r<5kh3sd", "40d6!>2dl10", "40d6!!>2kh5sa", "40d6!p>3cs>=4sd",
                      "40d100000r<99000", "40d100000ro<99000sa", "40d100000r<99000cs>50000", "40d100000r<99000kh2",
                      "3d6r<6kh1", "200d6!>3kl7sa"])
    func rerollsAndExplosionsPastTheDiceKept(_ text: String) throws {
        for (listed, kept) in [(0, 16), (1, 16), (7, 30), (50, 10), (100, 100)] {
            for seed in [1, 2] as [UInt64] {
                let result = try Self.bothPaths(text, listed: listed, entriesKept: kept,
                                                source: Xoshiro256StarStar(seed: seed)) {
                    Int(truncatingIfNeeded: $0.next())
                }
                Self.compare(result, "\(text) listing \(listed), keeping \(kept), seed \(seed)")
            }
        }
    }

    /// Many ties, long runs of one face: the occurrences listed against each value's run (by
    /// face), or the ties among the few dice kept or dropped broken by position (many faces).
    @Test(arguments: ["300d6sa", "300d6kh150sd", "300d6dl20kh200sa", "300d6!kl100sd", "300d6r1dh60sa",
                      "300d6cs>=3df1sd", "300d6!!kh100sa", "300d1000000kh3", "300d1000000kl4", "300d1000000dh5",
                      "300d1000000dl6", "300d1000000kh290", "300d1000000kl150", "300d1000000dh299cs>=2",
                      "300d1000000kh3sa", "300d1000000kl4sd", "300d1000000dh5sa", "300d1000000dl6sd",
                      "300d1000000kh290sa", "300d1000000kl150sd"])
    func scriptedRunsOfEqualFaces(_ text: String) throws {
        let scripts: [[Int]] = [[1], [6], [6, 6, 1], [1, 1, 1, 2, 6, 6, 3], [2, 6, 6, 6, 4, 1, 1, 5]]
        for script in scripts {
            for listed in [1, 5, 40] {
                let result = try Self.bothPaths(text, listed: listed, source: ScriptedDice(script)) {
                    $0.roll(sides: 1_000_000)
                }
                Self.compare(result, "\(text) scripted \(script) listing \(listed)")
            }
        }
    }

    /// One keep/drop step keeping and dropping more than `BoundedHeap.bound` dice of faces too
    /// many to count: a selection over every value, ties at its boundary broken by position.
    @Test(arguments: ["140000d1000000kh70000", "140000d1000000kl70000", "140000d1000000dh69000cs>500000",
                      "140000d1000000dl70001df<10", "140000d1000000kh70000sa", "140000d1000000kl70000sd"])
    func keepAndDropBothManyOverManyFaces(_ text: String) throws {
        for seed in [1, 2] as [UInt64] {
            try Self.expectSame(text, listed: 100, seed: seed)
        }
        for script in [[5], [6, 6, 1], [1, 1, 1, 2, 6, 6, 3]] {
            let result = try Self.bothPaths(text, listed: 40, source: ScriptedDice(script)) { $0.roll(sides: 1_000_000) }
            Self.compare(result, "\(text) scripted \(script)")
        }
    }

    /// The bounded path is what runs unless the reference is asked for, so the comparisons
    /// above compare two paths: only the bounded one counts faces.
    @Test func theBoundedPathCountsFacesTheReferenceKeepsEveryDie() throws {
        let expr = try Parser.parseExpression("2000d6kh3sa")
        var limits = Limits(maxRecordedDice: 10)
        var bounded = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: 1))
        limits.keepsEveryValue = true
        var whole = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: 1))
        let roll = try bounded.evaluate(expr)
        #expect(try whole.evaluate(expr) == roll)
        #expect(!bounded.faceCounts.isEmpty)
        #expect(whole.faceCounts.isEmpty)
        guard case .pool(let pool) = roll.kind else {
            Issue.record("not a pool")
            return
        }
        #expect(pool.dice.map(\.value) == Array(repeating: 1, count: 10))
        #expect(pool.omitted == 1990)
    }

    // MARK: - Repeats

    static let repeats = [
        "repeat(500, 1d6)kh3", "repeat(500, 1d6)sa", "repeat(500, 1d6)sd", "repeat(500, 3d6)kl10sd",
        "repeat(500, 1d6)dl100dh3", "repeat(500, 1d6)kh1", "repeat(500, 1d6)k0", "repeat(500, 1d6)cs>=5",
        "repeat(500, 1d6)cs6df1", "repeat(500, 1d6)kh200cs>4df1sa", "repeat(500, 1d6)kh(1d4)sd",
        "repeat(500, 1d6 / 4)kh3", "repeat(500, 1d6 * 1.1 - 2)sa", "repeat(500, 1d6 / 3)dl7sd",
        "repeat(500, 1d1000)kh3sa", "repeat(500, 1d1000)dl400sd", "repeat(500, 2d6!)kh9",
        "repeat(500, {1d6, 1d8}kh1)kl50sa", "repeat(500, repeat(3, 1d4)kh2)dh10",
        "repeat(600, (1d2 * 2 - 3) * 4611686018427387904)dl1", "repeat(500, 4611686018427387904)kh400",
        "repeat(500, 1d6 - 1)cs0df0", "repeat(500, 1d6 * 100000000000000000 - 1d6 * 100000000000000000)sa",
    ]

    /// The rolls of a repeat on both paths agree: the same value and pools, the same members
    /// shown (sorted, the bounded path lists the first `listed` in sorted order and then
    /// the other members with breakdowns), the same count of members in all.
    static func compareRepeat(_ result: (bounded: Result<Roll, DiceError>, whole: Result<Roll, DiceError>, sameDice: Bool),
                              listed: Int, sorted: Bool, coded: Bool = true, _ label: String) {
        #expect(result.sameDice, "\(label): different dice drawn")
        switch (result.bounded, result.whole) {
        case (.success(let a), .success(let b)):
            #expect(a.value == b.value, "\(label)")
            #expect(a.pools == b.pools, "\(label)")
            let shown = RollRenderer(style: .plain, maxShown: Swift.min(listed, 100))
            #expect(shown.render(a) == shown.render(b), "\(label)")
            guard case .group(let x) = a.kind, case .group(let y) = b.kind else {
                Issue.record("\(label): not groups")
                return
            }
            #expect(x.members.count + x.omitted == y.members.count + y.omitted, "\(label)")
            #expect(Array(x.members.prefix(listed)) == Array(y.members.prefix(listed)), "\(label)")
            if coded { #expect(x.members.count <= 2 * listed, "\(label): \(x.members.count) members kept") }
            // Past those listed, the members rolled with breakdowns (those with dice, when the body has dice).
            if sorted && coded && y.members.contains(where: { $0.roll.hasDice }) {
                #expect(Array(x.members.dropFirst(listed)) == y.members.dropFirst(listed).filter { $0.roll.hasDice },
                        "\(label)")
            }
            if !sorted { #expect(a == b, "\(label)") }
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind && a.range == b.range, "\(label)")
        default:
            Issue.record("\(label): bounded \(result.bounded), whole \(result.whole)")
        }
    }

    @Test(arguments: repeats)
    func aLargeRepeatShowsWhatTheWholeRepeatWould(_ text: String) throws {
        for listed in [0, 1, 7, 100] {
            for seed in [1, 2] as [UInt64] {
                let result = try Self.bothPaths(text, listed: listed, source: Xoshiro256StarStar(seed: seed)) {
                    Int(truncatingIfNeeded: $0.next())
                }
                Self.compareRepeat(result, listed: listed, sorted: text.hasSuffix("sa") || text.hasSuffix("sd"), "\(text) listing \(listed), seed \(seed)")
            }
        }
    }

    @Test(arguments: ["repeat(300, 1d6)kh100sa", "repeat(300, 1d6)dl20kl200sd", "repeat(300, 1d6)cs>=3df1sa",
                      "repeat(300, 1d6)dh150"])
    func scriptedRepeatsOfEqualValues(_ text: String) throws {
        let scripts: [[Int]] = [[1], [6, 6, 1], [1, 1, 1, 2, 6, 6, 3], [2, 6, 6, 6, 4, 1, 1, 5]]
        for script in scripts {
            for listed in [1, 5, 40] {
                let result = try Self.bothPaths(text, listed: listed, source: ScriptedDice(script)) {
                    $0.roll(sides: 1_000_000)
                }
                Self.compareRepeat(result, listed: listed, sorted: text.hasSuffix("sa") || text.hasSuffix("sd"), "\(text) scripted \(script) listing \(listed)")
            }
        }
    }

    /// Past 65,536 distinct member values the values themselves are kept, with the same result.
    @Test func aRepeatOfManyDistinctValuesKeepsThemAll() throws {
        for text in ["repeat(70000, 1d1000000000)kh2", "repeat(70000, 1d1000000000)sd"] {
            let result = try Self.bothPaths(text, listed: 10, source: Xoshiro256StarStar(seed: 3)) {
                Int(truncatingIfNeeded: $0.next())
            }
            Self.compareRepeat(result, listed: 10, sorted: text.hasSuffix("sd"), coded: false, text)
        }
        var values = MemberValues()
        for value in 0..<70_000 { values.append(.integer(value * 3)) }
        guard case .plain(let plain) = values.storage else {
            Issue.record("still coded")
            return
        }
        #expect(plain == (0..<70_000).map { Number.integer($0 * 3) })
    }

    /// The value path (`-t`) of a repeat with modifiers agrees with the reference too.
    @Test(arguments: repeats)
    func theValueOfALargeRepeatIsTheWholeRepeats(_ text: String) throws {
        let expr = try Parser.parseExpression(text)
        for seed in [1, 2] as [UInt64] {
            // Coded past the members a breakdown would list.
            var limits = Limits(maxDice: 1_000_000, maxRecordedDice: 7)
            var bounded = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: seed))
            limits.keepsEveryValue = true
            var whole = Evaluator(environment: Environment(), limits: limits, source: Xoshiro256StarStar(seed: seed))
            let a = Result { () throws(DiceError) in try bounded.value(of: expr) }
            let b = Result { () throws(DiceError) in try whole.value(of: expr) }
            switch (a, b) {
            case (.success(let x), .success(let y)): #expect(x == y, "\(text)")
            case (.failure(let x), .failure(let y)): #expect(x.kind == y.kind && x.range == y.range, "\(text)")
            default: Issue.record("\(text): bounded \(a), whole \(b)")
            }
            #expect(bounded.source.next() == whole.source.next())
        }
    }

    /// Member values are coded a byte each while few, two bytes past 256 distinct values.
    @Test func memberValuesWidenAsTheyGrow() {
        var values = MemberValues()
        for value in 0..<256 { values.append(.integer(value % 7 - 3)) }
        guard case .narrow(let narrow) = values.storage else {
            Issue.record("not narrow")
            return
        }
        #expect(narrow.count == 256 && values.distinct.count == 7)
        for value in 0..<300 { values.append(.ratio(2 * value + 1, 2)) }
        guard case .wide(let wide) = values.storage else {
            Issue.record("not wide")
            return
        }
        #expect(wide.count == 556)
        let halves = (0..<300).map { Number.ratio(2 * $0 + 1, 2) }
        #expect(wide.map { values.distinct[Int($0)] } == (0..<256).map { Number.integer($0 % 7 - 3) } + halves)
    }
}
