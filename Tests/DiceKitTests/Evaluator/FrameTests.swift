import Testing
@testable import DiceKit

/// A frame of names as a list: binding again replaces, removing forgets, a `let` pushed on
/// a frame hides the name below it only while it is there, and names come in the order bound.
@Suite struct FrameTests {
    @Test func bindingAgainReplacesAndRemovingForgets() {
        var frame: Frame<Int> = ["mod": 7, "dc": 20]
        frame["mod"] = 8
        frame["r"] = 1
        #expect(frame["mod"] == 8 && frame["dc"] == 20 && frame["r"] == 1 && frame["t"] == nil)
        #expect(frame.names == ["mod", "dc", "r"])
        frame["dc"] = nil
        #expect(frame["dc"] == nil && frame.names == ["mod", "r"])
        #expect(frame.map(\.1) == [8, 1])
    }

    /// A new name bound without a search, and a name found once then set in its place.
    @Test func newNamesAndPlacesFoundOnce() {
        var frame: Frame<Int> = [:]
        frame.reserveCapacity(2)
        frame.bindNew("mod", 7)
        frame.bindNew("dc", 20)
        #expect(frame.names == ["mod", "dc"] && frame["dc"] == 20)
        let place = frame.index(of: "dc")
        #expect(place == 1 && frame.index(of: "r") == nil)
        frame.setBound(25, at: place ?? 0)
        #expect(frame["dc"] == 25 && frame["mod"] == 7 && frame.names == ["mod", "dc"])
    }

    @Test func aPushedBindingHidesTheOneBelowUntilPopped() {
        var frames: [Frame<Int>] = [["x": 1, "y": 2]]
        frames.pushBinding("x", 10)
        #expect(frames.last?["x"] == 10 && frames.last?["y"] == 2)
        frames.removeLast()
        #expect(frames.last?["x"] == 1)
    }

    /// Through the language: a `let` shadows a parameter of the same name inside it only.
    @Test func letsShadowParametersInsideThemOnly() throws {
        var session = Session(seed: 1)
        _ = try session.execute(Parser.parseProgram("def f(x, y = 3) = (let x = x * 10 in x + y) + x")[0])
        let value = try session.value(of: Parser.parseExpression("f(2)"))
        #expect(value == .number(.integer(25)))
    }
}
