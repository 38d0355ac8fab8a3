import Foundation
import Testing

/// #55 item 5: no file in Routing/ names the builtin engine's internals; what Routing needs of
/// the builtin engine goes through `BuiltinEngine`'s own methods or Text/Tasks helpers.
/// (A quiz-choice repair of session 65 built a `BuiltinAnalysis` in PartJudge, and no test saw it.)
@Suite("Routing names no builtin internals")
struct RoutingNamesTests {
    static let internals = ["BuiltinProse", "FeynmanCheck", "KeyphraseExtractor", "BuiltinAnalysis"]

    @Test func noRoutingFileNamesABuiltinInternal() throws {
        let files = try ShortLinesTests.checkedFiles().filter { $0.hasPrefix("Routing/") }
        #expect(files.count > 10, "Routing/ was not found: \(files)")
        for file in files {
            let text = try String(
                contentsOf: LayerTests.sources.appendingPathComponent(file), encoding: .utf8)
            for name in Self.internals {
                #expect(!text.contains(name), "\(file) names \(name)")
            }
        }
    }
}
