// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "CSignals"),
        // Running the command's work on a large stack without a second thread (CStack.h).
        .target(name: "CStack"),
        .target(name: "DiceKit"),
        .executableTarget(name: "dice", dependencies: ["DiceKit", "CEditLine", "CSignals", "CStack"]),
        .executableTarget(name: "DiceBench", dependencies: ["DiceKit"], path: "Sources/DiceBench"),
        .testTarget(name: "DiceKitTests", dependencies: ["DiceKit"],
                    exclude: ["Render/Snapshots", "Stats/Reference"]),
        // Golden output files are read by path from the tests, not bundled as resources.
        .testTarget(name: "DiceCLITests", dependencies: ["dice"], exclude: ["Golden"]),
    ]
)
