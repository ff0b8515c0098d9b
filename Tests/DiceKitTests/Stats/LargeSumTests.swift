import Foundation
import Testing
@testable import DiceKit

/// Sums of many copies (`LargeSum`): squaring against adding one copy at a time, exact
/// means and variances from closed forms, the cut tails, the Fourier convolution against
/// the flat one, and the meter's polls inside the long loops.
struct LargeSumTests {
    /// The mean and variance of one exploding die with `sides` faces (explode on the top):
    /// X = U + [U = N] X', so E X = m / (1 - p), E X² (1 - p) = E U² + 2 N p E X.
    static func explodingMoments(sides: Int) -> (mean: Double, variance: Double) {
        let n = Double(sides), p = 1 / n
        let mean = (n + 1) / 2 / (1 - p)
        let squares = ((n + 1) * (2 * n + 1) / 6 + 2 * n * p * mean) / (1 - p)
        return (mean, squares - mean * mean)
    }

    struct MomentCase: Sendable, CustomTestStringConvertible {
        var program: String
        var mean: Double
        var variance: Double
        var testDescription: String { program }
    }

    static let momentCases: [MomentCase] = [
        MomentCase(program: "100000d6", mean: 350_000, variance: 100_000 * 35 / 12),
        MomentCase(program: "10000d100", mean: 505_000, variance: 10_000 * (100 * 100 - 1) / 12),
        MomentCase(program: "10000000d6", mean: 35_000_000, variance: 10_000_000 * 35 / 12),
        MomentCase(program: "1000d20!", mean: 1000 * explodingMoments(sides: 20).mean,
                   variance: 1000 * explodingMoments(sides: 20).variance),
        MomentCase(program: "200d20!", mean: 200 * explodingMoments(sides: 20).mean,
                   variance: 200 * explodingMoments(sides: 20).variance),
        MomentCase(program: "repeat(1000000, 1d2)", mean: 1_500_000, variance: 250_000),
        MomentCase(program: "repeat(10000000, 1)", mean: 10_000_000, variance: 0),
        MomentCase(program: "50000dF", mean: 0, variance: 50_000 * 2.0 / 3),
        // A random count: E = E[n] E[X], Var = E[n] Var X + Var n (E X)².
        MomentCase(program: "(1d2 * 5000)d6", mean: 7500 * 3.5,
                   variance: 7500 * 35 / 12 + 2500 * 2500 * 3.5 * 3.5),
        // Counts one apart, each added to the last: one copy at a time, not the whole count each time.
        MomentCase(program: "repeat(1d3 + 2500, 1d6)", mean: 2502 * 3.5,
                   variance: 2502 * 35 / 12 + 2.0 / 3 * 3.5 * 3.5),
        // Sparse members on a lattice: summed as the steps, then scaled back.
        MomentCase(program: "repeat(10000, 1d6 * 100)", mean: 3_500_000, variance: 10_000 * 35 / 12 * 10_000),
        MomentCase(program: "20000d{1, 1001}", mean: 10_020_000, variance: 20_000 * 250_000),
        MomentCase(program: "4000d6 - 3000d8", mean: 14_000 - 13_500, variance: 4000 * 35 / 12 + 3000 * 63 / 12),
    ]

    @Test(arguments: LargeSumTests.momentCases)
    func meanAndVarianceAreExact(_ c: MomentCase) throws {
        let report = try StatsHarness.report(c.program)
        #expect(report.exact)
        let distribution = report.distribution
        #expect(abs(distribution.mean - c.mean) <= 1e-9 * Swift.max(1, abs(c.mean)))
        #expect(abs(distribution.variance - c.variance) <= 1e-7 * Swift.max(1, c.variance))
        #expect(abs(distribution.totalProbability - 1) < 1e-9)
        #expect(report.truncatedMass < 1e-11)
    }

    // MARK: - Against icepool

    /// Mid-size sums computed by icepool (`scripts/make-large-sum-reference.py`): the
    /// squaring path agrees to 1e-9 on every outcome.
    static let referenceCases: [StatsReferenceTests.Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/large-sum-reference.json")
        guard let data = try? Data(contentsOf: url),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = root["cases"] as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard let program = entry["program"] as? String, let pairs = entry["distribution"] as? [[Any]] else {
                return nil
            }
            let distribution = pairs.compactMap { pair -> [Double]? in
                guard let value = StatsHarness.number(pair[0]), let p = pair[1] as? Double else { return nil }
                return [value.doubleValue, p]
            }
            return StatsReferenceTests.Case(program: program, distribution: distribution, explodes: false)
        }
    }()

    @Test func theReferenceIsPresent() {
        #expect(Self.referenceCases.count >= 5)
    }

    @Test(arguments: LargeSumTests.referenceCases)
    func agreesWithIcepool(_ c: StatsReferenceTests.Case) throws {
        let report = try StatsHarness.report(c.program)
        #expect(report.exact)
        let problems = differences(report.distribution, c.outcomes, tolerance: 1e-9)
        #expect(problems.isEmpty, "\(problems)")
        let mean = c.outcomes.reduce(0.0) { $0 + $1.0.doubleValue * $1.1 }
        #expect(abs(report.distribution.mean - mean) < 1e-9 * Swift.max(1, abs(mean)))
    }

    @Test func theCutOfASumIsBelowItsBound() throws {
        let report = try StatsHarness.report("100000d6")
        #expect(report.sumTailsCut)
        #expect(report.truncatedMass > 0 && report.truncatedMass < 1e-15)
        // The table has only the middle, but the report gives the true ends.
        #expect(report.distribution.minimum! > .integer(300_000))
        #expect(report.minimum == .value(.integer(100_000)))
        #expect(report.maximum == .value(.integer(600_000)))
        let exploding = try StatsHarness.report("1000d20!")
        #expect(exploding.minimum == .value(.integer(1000)))
        #expect(exploding.maximum == .unbounded)
    }

    /// The note under a cut sum was one line of 100 columns (`stats 20d20!!` at the prompt),
    /// which an 80-column terminal broke mid-word: it breaks after its comma instead.
    @Test func theNoteOfACutSumFitsItsWidth() throws {
        let report = try StatsHarness.report("100000d6")
        let text = DistributionRenderer(width: 80).render(report, title: "100000d6")
        let note = text.split(separator: "\n").drop { !$0.hasPrefix("(far tails cut") }.map(String.init)
        #expect(note.first == "(far tails cut where the probability left was below 1e-15 for sums,", "\(text)")
        #expect(note.dropFirst().first?.hasPrefix("1e-12 for explosions; ") == true, "\(text)")
        #expect(note.allSatisfy { $0.count <= 80 }, "\(note)")
    }

    // MARK: - Squaring against one copy at a time

    struct PathCase: Sendable, CustomTestStringConvertible {
        var die: String
        var count: Int
        var testDescription: String { "\(count) × \(die)" }
    }

    static let pathCases = [
        PathCase(die: "1d6", count: 1000), PathCase(die: "1d20!", count: 150), PathCase(die: "1d100", count: 300),
        PathCase(die: "1d{0,0,5}", count: 500), PathCase(die: "1dF", count: 2000), PathCase(die: "3d6kh1", count: 777),
    ]

    /// The squaring path and the one-at-a-time path agree to 1e-12 on every outcome.
    @Test(arguments: LargeSumTests.pathCases)
    func squaringAgreesWithOneAtATime(_ c: PathCase) throws {
        let single = try StatsHarness.report(c.die).distribution
        var meter = WorkMeter(budget: StatsBudget(seconds: 1000))
        let squared = try LargeSum.sum(of: #require(LargeSum.Flat(single)), count: c.count, adding: nil,
                                       tailCutoff: 1e-15, meter: &meter, at: .at(0)).distribution
        var sequential = single
        for _ in 1..<c.count { sequential = try sequential.adding(single) }
        let problems = differences(squared, sequential.outcomes.map { ($0.value, $0.probability) }, tolerance: 1e-12)
        #expect(problems.isEmpty, "\(problems)")
        // The squaring path also takes back the rounding shortfall of the die's total.
        #expect(abs(squared.totalProbability - sequential.totalProbability) < 1e-9)
        #expect(meter.cutMass < 1e-15)
    }

    /// The Fourier convolution against the flat one, on long arrays of mixed shapes.
    @Test func fourierAgreesWithTheFlatConvolution() throws {
        var generator = Xoshiro256StarStar(seed: 11)
        for (n, m) in [(300, 300), (1000, 77), (4096, 4097), (5000, 12_000)] {
            var a = (0..<n).map { _ in Double(generator.next() % 1000) }
            var b = (0..<m).map { _ in Double(generator.next() % 1000) }
            let sa = a.reduce(0, +), sb = b.reduce(0, +)
            a = a.map { $0 / sa }
            b = b.map { $0 / sb }
            var meter = WorkMeter(budget: StatsBudget(seconds: 1000))
            let fourier = try FourierConvolution.convolve(a, b, meter: &meter)
            let flat = Distribution.convolve(a, b)
            let largest = flat.max()!
            let worst = zip(fourier, flat).map { abs($0 - $1) }.max()!
            #expect(worst < 1e-13 * Swift.max(largest, 1e-3), "\(n) × \(m): \(worst)")
            // The squaring shortcut too.
            let square = try FourierConvolution.convolve(a, a, meter: &meter)
            let flatSquare = Distribution.convolve(a, a)
            #expect(zip(square, flatSquare).map { abs($0 - $1) }.max()! < 1e-13 * flatSquare.max()!)
        }
    }

    @Test func aSumThatCouldOverflowFailsAsARollWould() {
        let error = StatsHarness.error("100000d{1000000000000000, 1000000000000001}")
        #expect((error as? DiceError)?.kind == .overflow)
    }

    // MARK: - Interrupts: polls counted, not seconds

    /// A host that asks to stop at its `stopAt`-th poll.
    final class PollCounter: @unchecked Sendable {
        var polls = 0
        let stopAt: Int
        init(stopAt: Int) { self.stopAt = stopAt }
        func poll() -> Bool {
            polls += 1
            return polls >= stopAt
        }
    }

    /// A big exact sum asks often (at least once per 2^20 steps, the steps of a Fourier stage
    /// included), and stops at the first `true`.
    @Test(arguments: ["10000000d6", "10000d100", "repeat(200000, 1d20!)", "10000d100 - 10000d100"])
    func aBigExactSumStopsAtThePollThatSaysSo(_ program: String) throws {
        let (expr, environment) = try StatsHarness.prepare(program)
        let counting = PollCounter(stopAt: Int.max)
        let engine = StatsEngine(environment: environment, limits: .standard,
                                 meter: WorkMeter(budget: .standard, shouldStop: counting.poll,
                                                  statementRange: expr.range))
        _ = try engine.distribution(of: expr)
        // About one poll per 2^20 steps: never a long stretch without one.
        #expect(counting.polls >= engine.meter.work >> 21)
        #expect(counting.polls >= 1)

        let stopping = PollCounter(stopAt: 2)
        #expect(throws: DiceError(.interrupted, at: expr.range)) {
            _ = try Stats.distribution(of: expr, environment: environment, shouldStop: stopping.poll)
        }
        #expect(stopping.polls == 2)
    }

    /// The simulation asks about every 2^14 units of its work, so an expensive roll still polls.
    @Test func theSimulationStopsAtThePollThatSaysSo() throws {
        let (expr, environment) = try StatsHarness.prepare("1000d6kh500 * 1d6")
        var limits = Limits.standard
        limits.stats = StatsBudget(seconds: 1000, maxWork: 10)
        let stopping = PollCounter(stopAt: 3)
        #expect(throws: DiceError(.interrupted, at: expr.range)) {
            _ = try Stats.distribution(of: expr, environment: environment, limits: limits, shouldStop: stopping.poll)
        }
        #expect(stopping.polls == 3)
    }
}
