// swift-tools-version:6.2
import PackageDescription

// The C targets' debug information in DWARF 4, as the Swift code's is: valgrind (callgrind
// profiles, bench/README.md) gives up on a binary with more than one DWARF 5 unit. Only the
// `dice` executable uses these targets; the DiceKit product does not.
let cDebugInfo: [CSetting] = [.unsafeFlags(["-gdwarf-4"])]

// Concrete generic types (`Optional<PoolRules>`, `Dictionary<Value, Int>`, ...) get metadata
// accessors instead of a mangled name the runtime demangles, and looks its conformances up
// for, on first use. What it buys on a first call in a fresh process (callgrind and timings,
// DiceBench, 2026-12-02): a PbtA `match 2d6 + 1 {...}` 309,000 -> 162,000 instructions and
// about 310 -> 225 µs, the PF2e `check(7, 20)` about 410 -> 330 µs, `3d6` 65,600 -> 52,800
// instructions. Since tools 6.2 a package that depends on DiceKit by version may use it
// with this flag.
let metadataAccessors: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]),
]

/// The built-in game systems, each Sources/DiceKit/Systems/NAME.dice (GameSystem.swift lists them too).
let gameSystems = ["dnd5e", "pf2e", "pbta", "blades", "shadowrun", "wod", "coc", "savage", "fate", "ironsworn",
                   "yearzero", "genesys"]

let package = Package(
    name: "dice",
    products: [
        .library(name: "DiceKit", targets: ["DiceKit"]),
        .executable(name: "dice", targets: ["dice"]),
    ],
    targets: [
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
        ),
        // The signal flags, defined once (see Sources/CSignals/include/CSignals.h).
        .target(name: "CSignals", cSettings: cDebugInfo),
        // Running the command's work on a large stack without a second thread (CStack.h).
        .target(name: "CStack", cSettings: cDebugInfo),
        // The game systems of `use NAME`: .dice files compiled into the library as bytes.
        .target(name: "DiceKit", resources: gameSystems.map { .embedInCode("Systems/\($0).dice") },
                swiftSettings: metadataAccessors),
        .executableTarget(name: "dice", dependencies: ["DiceKit", "CEditLine", "CSignals", "CStack"],
                          swiftSettings: metadataAccessors),
        .executableTarget(name: "DiceBench", dependencies: ["DiceKit"], path: "Sources/DiceBench"),
        .testTarget(name: "DiceKitTests", dependencies: ["DiceKit"],
                    exclude: ["Render/Snapshots", "Stats/Reference", "Systems/Reference",
                              "Session/PublicAPI.txt"]),
        // Golden output files are read by path from the tests, not bundled as resources.
        .testTarget(name: "DiceCLITests", dependencies: ["dice"], exclude: ["Golden"]),
    ]
)
