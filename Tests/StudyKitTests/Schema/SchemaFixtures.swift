import Foundation
@testable import StudyKit

/// Loads the schema area's fixtures from the test bundle (`Fixtures/Schema`).
enum SchemaFixtures {
    /// The text of `Fixtures/Schema/<subdirectory>/<name>.<ext>`.
    static func text(_ name: String, ext: String = "json", subdirectory: String = "") throws -> String {
        let folder = subdirectory.isEmpty ? "Fixtures/Schema" : "Fixtures/Schema/" + subdirectory
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: folder) else {
            throw FixtureMissing(name: folder + "/" + name + "." + ext)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A valid model output for `task` (`Fixtures/Schema/outputs/<command>.json`).
    static func validOutput(_ task: StudyTask) throws -> String {
        try text(task.name, subdirectory: "outputs")
    }

    /// The source-tree folder of the fixtures, for regenerating goldens.
    static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Schema")
    }

    struct FixtureMissing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name) is missing from the test bundle" }
    }
}
