import Testing
@testable import DiceKit

/// A tally's hash agrees with its equality: fields in any order, a field of 0 as absent;
/// and tallies that differ stay apart where stats files them by hash.
struct TallyHashTests {
    static func tally(_ fields: [(String, Number)]) -> DiceKit.Tally { DiceKit.Tally(fields) }

    @Test func equalTalliesHashAlike() throws {
        let pairs: [(DiceKit.Tally, DiceKit.Tally)] = [
            (Self.tally([("s", .integer(2)), ("a", .integer(-1))]), Self.tally([("a", .integer(-1)), ("s", .integer(2))])),
            (Self.tally([("s", .integer(2)), ("t", .integer(0))]), Self.tally([("s", .integer(2))])),
            (Self.tally([]), Self.tally([("hits", .integer(0))])),
            (Self.tally([("x", try #require(Number(numerator: 2, denominator: 4)))]),
             Self.tally([("x", try #require(Number(numerator: 1, denominator: 2)))])),
            (Self.tally([("é🎲", .integer(3))]), Self.tally([("é🎲", .integer(3))])),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue, "\(a) and \(b)")
        }
    }

    @Test func differentTalliesStayApart() throws {
        var all: Set<DiceKit.Tally> = []
        for s in -3...3 {
            for a in -3...3 {
                all.insert(Self.tally([("success", .integer(s)), ("advantage", .integer(a))]))
                all.insert(Self.tally([("advantage", .integer(s)), ("threat", .integer(a))]))
            }
        }
        // The two shapes share only the tallies of `advantage` alone (the other field 0),
        // seven of them, the empty one among them: 49 + 49 - 7 distinct.
        #expect(all.count == 91)
        let swapped: (DiceKit.Tally, DiceKit.Tally) = (Self.tally([("a", .integer(1)), ("b", .integer(2))]),
                                       Self.tally([("a", .integer(2)), ("b", .integer(1))]))
        #expect(swapped.0 != swapped.1)
        let anagrams: (DiceKit.Tally, DiceKit.Tally) = (Self.tally([("ab", .integer(1))]), Self.tally([("ba", .integer(1))]))
        #expect(anagrams.0 != anagrams.1)
    }
}
