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

    /// What HTML import extracts from a page given as a string.
    static func extractHTML(_ html: String) throws -> HTMLImporter.Extraction {
        try HTMLImporter.extract(Data(html.utf8), encoding: nil, source: "test.html")
    }

    /// The normalized text HTML import makes of a page given as a string.
    static func htmlText(_ html: String) throws -> String {
        SourceNormalizer.normalizeText(try extractHTML(html).text)
    }

    /// The character offset of `phrase` in `text`.
    static func offset(of phrase: String, in text: String) -> Int? {
        text.range(of: phrase).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    }
}
