import Testing

@testable import dice

/// What the command reads off the environment about the terminal.
@Suite struct TerminalTests {
    @Test(arguments: [
        ("en_GB.UTF-8", true), ("C.utf8", true), ("de_DE.Utf-8@euro", true), ("UTF8", true),
        ("uutf-8", true), ("C", false), ("POSIX", false), ("en_US.ISO-8859-1", false),
        ("utf-16", false), ("ut-8", false), ("utf--8", false), ("utf\r8", false), ("", false),
    ])
    func localeNamesUTF8(_ locale: String, _ expected: Bool) {
        #expect(Terminal.namesUTF8(locale) == expected)
    }
}
