import CStart
import Testing

/// Sources/CStart: the command line kept from glibc's call of the start-up functions. In the
/// static `make release` build the Swift runtime takes `CommandLine.arguments` from it
/// (scripts/check-install runs that build with awkward arguments); here the runtime is a
/// shared library with its own, so the two can be compared.
@Suite struct StartTests {
    @Test func keepsTheArgumentCountGlibcPassed() {
        #if canImport(Glibc)
        #expect(dice_start_argument_count() == Int32(CommandLine.arguments.count))
        #else
        #expect(dice_start_argument_count() == -1)
        #endif
    }
}
