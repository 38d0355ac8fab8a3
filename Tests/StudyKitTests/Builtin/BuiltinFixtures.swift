import Foundation
import Testing

/// Loads the builtin engine's checked-in fixtures from the test bundle.
enum BuiltinFixtures {
    static func text(_ name: String, _ ext: String) throws -> String {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/Builtin"),
            "missing fixture Fixtures/Builtin/\(name).\(ext)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func photosynthesis() throws -> String {
        try text("photosynthesis", "md")
    }
}
