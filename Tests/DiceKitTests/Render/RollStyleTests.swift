import Testing
@testable import DiceKit

/// The Markdown style (LANGUAGE.md §6, `--markdown`) and styles of a caller's own.
@Suite struct RollStyleTests {
    static let markdown: [RenderCase] = [
        RenderCase("4d6kh3+2", faces: [6, 4, 3, 1], "4d6kh3 (**6**, 4, 3, ~~1~~) + 2 = 15"),
        RenderCase("4d6kh3+2", faces: [5, 4, 3, 2], "4d6kh3 (5, 4, 3, ~~2~~) + 2 = 14"),
        RenderCase("1d20", faces: [20], "1d20 (**20**) = 20"),
        RenderCase("1d20", faces: [1], "1d20 (**1**) = 1"),
        RenderCase("2d20kl1", faces: [20, 1], "2d20kl1 (~~20~~, **1**) = 1"),
        RenderCase("1d6r", faces: [1, 1, 4], "1d6r (~~1~~, ~~1~~, 4) = 4"),
        RenderCase("2d6!", faces: [6, 6, 3, 5], "2d6! (**6!**, **6!**, 3, 5) = 20"),
        RenderCase("2d6!!", faces: [6, 6, 3, 5], "2d6!! (15!!, 5) = 20"),
        RenderCase("6d10cs>=8df=1", faces: [8, 1, 10, 5, 7, 1],
                   #"6d10cs>=8df=1 (8\*, **1\_**, **10\***, 5, 7, **1\_**) = 0"#),
        RenderCase("4dF", faces: [1, 2, 3, 3], "4dF (**[-]** [ ] **[+]** **[+]**) = 1"),
        RenderCase("d{3,3}", faces: [1], "d{3,3} (3) = 3"),
        RenderCase("{1d20+5, 1d20+5}kh1", faces: [4, 20],
                   "{~~1d20 (4) + 5 = 9~~, 1d20 (**20**) + 5 = 25}kh1 = 25"),
        RenderCase("{1d6, 1d6}cs>=4", faces: [2, 5], #"{1d6 (2) = 2, 1d6 (5) = 5\*}cs>=4 = 1"#),
        RenderCase("4d6cf<3", faces: [2, 5, 1, 6], #"4d6cf<3 (2\_, 5, **1\_**, **6**) = 2"#),
        RenderCase("3", "3"),
    ]

    @Test(arguments: markdown)
    func rendersMarkdownBreakdown(_ c: RenderCase) throws {
        let roll = try rollScripted(c.input, faces: c.faces)
        #expect(RollRenderer.markdown.render(roll) == c.text)
        var bytes: [UInt8] = []
        RollRenderer.markdown.render(roll, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == c.text)
    }

    /// Markdown is the plain breakdown with bold faces and escaped marks, nothing else.
    @Test(arguments: RollRendererTests.plain)
    func markdownWithoutBoldIsPlain(_ c: RenderCase) throws {
        let roll = try rollScripted(c.input, faces: c.faces)
        let markdown = RollRenderer.markdown.render(roll)
        let unmarked = markdown.replacingOccurrences(of: "**", with: "")
            .replacingOccurrences(of: #"\*"#, with: "*").replacingOccurrences(of: #"\_"#, with: "_")
        #expect(unmarked == c.text)
    }

    struct Brackets: RollStyle {
        func markup(for die: Die, in pool: DicePool) -> RollMarkup? {
            die.isCounted ? nil : RollMarkup(open: "[", close: "]")
        }
        var total: RollMarkup? { RollMarkup(open: "<", close: ">") }
    }

    @Test func aStyleOfOnesOwnIsOneType() throws {
        let roll = try rollScripted("{4d6kh3+2, 1d6}kh1", faces: [6, 4, 3, 1, 2])
        let renderer = RollRenderer(style: Brackets())
        #expect(renderer.render(roll) == "{4d6kh3 (6, 4, 3, [1]) + 2 = 15, ~~1d6 (2) = 2~~}kh1 = <15>")
        #expect(renderer.breakdown(roll) == "{4d6kh3 (6, 4, 3, [1]) + 2 = 15, ~~1d6 (2) = 2~~}kh1")
    }

    @Test func changingTheStyleChangesTheRendering() throws {
        let roll = try rollScripted("1d20", faces: [20])
        var renderer = RollRenderer.plain
        renderer.style = .markdown
        #expect(renderer.render(roll) == "1d20 (**20**) = 20")
        renderer.style = Brackets()
        #expect(renderer.render(roll) == "1d20 (20) = <20>")
        renderer.style = .plain
        #expect(renderer.render(roll) == "1d20 (20) = 20")
    }

    @Test func computedCountsRenderInTheSameStyle() throws {
        let roll = try rollScripted("(1d4)d20", faces: [4, 20, 1, 7, 8])
        #expect(RollRenderer.markdown.render(roll) == "(1d4 (**4**))d20 (**20**, **1**, 7, 8) = 36")
    }
}
