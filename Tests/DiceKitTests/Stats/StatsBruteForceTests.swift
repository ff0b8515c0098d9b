import Testing
@testable import DiceKit

/// Small pools checked against `BruteForcePool`, which follows every sequence of rolls.
/// A coarse explosion cutoff keeps the chains short; both sides cut the same tails.
struct StatsBruteForceTests {
    static let cutoff = 0.05

    static let pools = [
        // Explode, then keep/drop or count, each extra die a separate die.
        "3d4!kh2", "3d4!kl1", "3d4!dl1", "3d4!dh1", "2d4!kh1", "3d4!kh2dl1", "3d4!kl2kh1", "4d4!kh3",
        "3d4!>=3kh2", "3d4!=2kh1", "3d4!=2dl1", "3d4!<2kh2", "2d{1,2,2,3}!kh1", "2dF!kh1", "3d4!cs>=3",
        "3d4!kh2cs4", "3d4!dl1cs>=3df1", "2d6!kh1", "3d4!kh5", "3d4!dl5", "3d4!kh0",
        // Both ends of an exploding pool, and steps in written order.
        "3d4!dh1dl1", "4d4!dl1dh1", "3d4!dl2dh1", "4d4!kh3kl2", "4d4!kl3kh2", "3d4!>=3dh1dl1", "3d4!<2dl1dh1",
        "3d4!dh1dl1cs>=3", "4d4!dl1dh1df1", "2d{1,1,2,3}!>=2dl1dh1", "3dF!dh1dl1", "3d4r1!dl1dh1", "3d4mi2!dh1dl1",
        "2d2!pkh1", "3d2!pdl1dh1",
        // Groups whose values interleave: penetrating extra dice among the first dice, `!=2`.
        "3d4!pdh1dl1", "4d4!pdl1dh1", "3d4!pkh2kl1", "4d4!pdl2", "3d4!p>=3dh1dl1cs3", "3d4!=2dl1dh1", "3d4!=2kh2",
        "3d4r1!pdh1dl1", "3d4mi2!pdl1dh1df2", "2dF!pdh1dl1",
        // Penetrate: extra dice count one less.
        "3d4!pkh2", "3d4!pdl1", "2d6!pkh1", "3d4!pcs>=3df1", "3d4!p>=3kl1", "2d4!p", "3d4!pkh1cs3",
        // Compound: the chain is one die.
        "3d4!!kh2", "3d4!!dl1", "2d4!!>=3kh1", "3d4!!cs>=4",
        // Rerolls and clamps before explosions.
        "3d4r1!kh2", "3d4ro<2!dl1", "2d6r1ro2!kh1", "3d4mi2!kl1", "3d4ma3!kh2", "2d6r<3ro6!pkh1",
        // Explode once (`xo`): each matching die adds one die that does not explode.
        "3d4xo", "3d4xokh2", "3d4xodl1", "3d4xo>=3kl1", "3d4xo>=1", "3d4xocs>=3", "2d6xokh1", "3d4r1xo>=3dh1",
        "2dFxo", "3d4mi2xodf2",
        // No explosion.
        "4d4kh2kl1", "5d4dh1dl1", "4d6r1ro2kh3", "5d4mi2ma3cs3", "4d{1,1,2,5}kh2df1", "3dFkh2",
        // Unique dice: after rerolls, before explosions; faces that repeat on the die.
        "3d6u", "4d6ukh2", "5d6udh1", "3d6r1u", "4d8ro<3u", "3d{1,1,2,3}u", "3d{1,1,1,2,3,4}ukh2", "2dFu",
        "4d6ucs>=4", "3d4mi2u",
        // Unique dice with keep/drop at both ends, and exploding: the first faces differ, the
        // extra dice may repeat them; equally likely faces and not.
        "5d6udl1dh1", "5d6ukh3kl1", "4d{1,1,2,3,4}udl1dh1", "3d4u!", "3d4u!kh2", "2d4r1u!p", "3d4u!p>=3dl1dh1",
        "3d4u!!", "3d4u!!kh1", "3d4u!!cs>=4", "4d4uxokh2", "3d4uxo>=3", "4d6u!cs>=5", "3d{1,1,2,3,4}u!kh2",
        "3d{1,2,2,3,4}u!!dl1", "3d4mi2u!dh1", "4d6ro<3u!>=5kl2", "1d4u!kh1", "0d4u!kh1",
        // Unique dice of more than 16 faces not equally likely (they were simulated).
        "2d20uma18", "3d20uma18", "3d20ro!!u", "2d20r1r2ukh1", "3d18ro1u!!kh2",
        // ... and of more than 64 (they were simulated): one die is the die itself.
        "1d%uma74", "1d%uro>21", "2d70uma69", "2d66ro<3ukh1",
    ]

    @Test(arguments: StatsBruteForceTests.pools)
    func agreesWithBruteForce(_ text: String) throws {
        let budget = StatsBudget(maxWork: nil, explosionCutoff: Self.cutoff)
        let report = try StatsHarness.report(text, budget: budget)
        let brute = try BruteForcePool(text).distribution(cutoff: Self.cutoff)
        let problems = differences(report.distribution, brute.map { (Number.integer($0.key), $0.value) },
                                   tolerance: 1e-12)
        #expect(problems.isEmpty, "\(problems)")
        let bruteMass = brute.values.reduce(0, +)
        #expect(abs(report.distribution.totalProbability - bruteMass) < 1e-12)
    }

    /// Unique tally dice add their faces: every sequence of distinct faces the roller may
    /// settle on, each face in proportion to the faces not shown yet.
    @Test(arguments: [3, 2, 1, 0])
    func uniqueTallyDiceAgreeWithDraws(_ dice: Int) throws {
        let faces: [(DiceKit.Tally, Double)] = [(DiceKit.Tally([("s", .integer(1))]), 0.4), (DiceKit.Tally([("a", .integer(1))]), 0.2),
                                        (DiceKit.Tally([("s", .integer(2))]), 0.2), (DiceKit.Tally(), 0.2)]
        var expected: [Value: Double] = [:]
        func draw(_ shown: [Int], _ p: Double) {
            guard shown.count < dice else {
                var sum: [String: Int] = [:]
                for index in shown {
                    for field in faces[index].0.fields { sum[field.name, default: 0] += field.value.integerValue ?? 0 }
                }
                expected[.tally(DiceKit.Tally(sum.map { ($0.key, Number.integer($0.value)) })), default: 0] += p
                return
            }
            let left = faces.indices.filter { !shown.contains($0) }.reduce(0.0) { $0 + faces[$1].1 }
            for index in faces.indices where !shown.contains(index) { draw(shown + [index], p * faces[index].1 / left) }
        }
        draw([], 1)
        let report = try StatsHarness.report("\(dice)d{(s: 1), (a: 1), (s: 2), (), (s: 1)}u")
        var got: [Value: Double] = [:]
        report.distribution.forEachValue { value, p in got[value, default: 0] += p }
        #expect(got.count == expected.count, "\(got) vs \(expected)")
        for (value, p) in expected { #expect(abs((got[value] ?? 0) - p) < 1e-12, "\(value)") }
    }

    /// One unique die is the die itself, however many of its faces explode: `1d80ue<=42`
    /// (42 exploding faces) was simulated past 16 of them. Too long a chain for `BruteForcePool`,
    /// it is held to the same die without `u`.
    @Test(arguments: ["1d80ue<=42", "1d%u!p>=61", "1d30uxo>3"])
    func oneUniqueDieOfManyExplodingFacesIsTheDie(_ term: String) throws {
        let report = try StatsHarness.report(term)
        let plain = try StatsHarness.report(term.replacingOccurrences(of: "u", with: ""))
        var want: [(Number, Double)] = []
        plain.distribution.forEachOutcome { value, p in want.append((value, p)) }
        let problems = differences(report.distribution, want, tolerance: 1e-12)
        #expect(report.exact)
        #expect(problems.isEmpty, "\(problems)")
    }
}
