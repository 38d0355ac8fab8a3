import Foundation
@testable import StudyKit

/// Paths of the import fixtures, from the test bundle's resources.
enum ImportFixtures {
    static func path(_ name: String) -> String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/Import/\(name)").path
    }

    static func sample(_ name: String) -> String {
        TestPaths.samples.appendingPathComponent(name).path
    }

    /// The character offset of `phrase` in `text`.
    static func offset(of phrase: String, in text: String) -> Int? {
        text.range(of: phrase).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    }
}
