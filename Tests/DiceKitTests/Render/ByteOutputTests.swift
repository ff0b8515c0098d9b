import Testing

@testable import DiceKit

/// Breakdowns written as UTF-8 bytes (`ByteWriter`, through a small buffer) are the same
/// text as the `String` rendering, for numbers at the ends of `Int` and for text longer
/// than the buffer.
@Suite struct ByteOutputTests {
    static let numbers: [Int] = [0, 7, -7, 10, 99, 100, -100, 12_345, Int.max, Int.min, Int.min + 1]

    @Test(arguments: numbers)
    func numbersAreWrittenInDecimal(_ number: Int) {
        var bytes: [UInt8] = Array("x".utf8)
        ByteWriter.appending(to: &bytes) { $0.write(number) }
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(number))
    }

    @Test func textLongerThanTheBufferIsWrittenWhole() {
        let long = String(repeating: "abcdefghij", count: 200)
        var bytes: [UInt8] = []
        ByteWriter.appending(to: &bytes) { writer in
            for index in 0..<100 {
                writer.write(text: "é")
                writer.write(index)
                writer.write(", ")
            }
            writer.write(text: long)
            writer.write(Int.min)
        }
        var expected = ""
        for index in 0..<100 { expected += "é\(index), " }
        expected += long + String(Int.min)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test(arguments: ["1d1 * -9223372036854775807 - 1", "1d6 [" + String(repeating: "ü", count: 700) + "]",
                      "700d6", "(2d20kh1 + 5) * 2 + 4d6! - 1d4ro1", "2.5 * 1d6"])
    func bytesAreTheStringRendering(_ expression: String) throws {
        var session = Session(seed: 9)
        let roll = try session.roll(expression)
        for renderer in [RollRenderer.plain, .markdown, .ansi] {
            var bytes: [UInt8] = Array("> ".utf8)
            renderer.render(roll, into: &bytes)
            var text = ""
            renderer.renderText(roll, into: &text)
            #expect(String(decoding: bytes, as: UTF8.self) == "> " + text)
        }
    }

    @Test func theLowestIntIsShownWhole() throws {
        let roll = try Dice.roll("1d1 * -9223372036854775807 - 1", seed: 1)
        #expect(RollRenderer.plain.render(roll) == "1d1 (1) * -9223372036854775807 - 1 = -9223372036854775808")
    }
}
