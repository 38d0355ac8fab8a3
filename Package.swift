// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "studykit",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "studykit", targets: ["studykit"]),
        .library(name: "StudyKit", targets: ["StudyKit"]),
    ],
    // The in-process llama.cpp engine; off by default so a plain `swift build` needs only Debian
    // libraries. scripts/setup enables it (after scripts/llama-pkgconfig writes llama.pc).
    traits: [.trait(name: "LlamaCpp", description: "Run the local model in process with llama.cpp from the project venv")],
    targets: [
        // C libraries from Debian, each wrapped by exactly one Swift file.
        .systemLibrary(
            name: "CPoppler", path: "Sources/CPoppler", pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"]), .brew(["poppler"])]),
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        // Deflate for the .apkg's zip entries (and their CRC-32).
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Headers only: libcurl is loaded on first use (see Sources/CCurl/shim.h), not linked,
        // so the many libraries behind it cost nothing to commands that never fetch.
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // Language guessing; its fingerprints come from libexttextcat-data (/usr/share/libexttextcat).
        .systemLibrary(
            name: "CTextCat", path: "Sources/CTextCat", pkgConfig: "libexttextcat",
            providers: [.apt(["libexttextcat-dev", "libexttextcat-data"]), .brew(["libexttextcat"])]),
        .systemLibrary(name: "CLlama", path: "Sources/CLlama", pkgConfig: "llama"),
        .target(
            name: "StudyKit",
            dependencies: [
                "CPoppler", "CLibXML2", "CSQLite", "CCrypto", "CZlib", "CCurl", "CTextCat",
                .target(name: "CLlama", condition: .when(traits: ["LlamaCpp"])),
            ],
            // The builtin engine's word tables (frequencies, word classes), read through Bundle.module.
            resources: [.process("Resources")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "studykit",
            dependencies: ["StudyKit"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "studykit-bench",
            dependencies: ["StudyKit"],
            path: "benchmarks/Sources",
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "StudyKitTests",
            dependencies: ["StudyKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
