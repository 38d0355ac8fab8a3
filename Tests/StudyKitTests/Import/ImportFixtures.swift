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

    /// The document import makes of `bytes` read as a file called `name` (its kind sniffed as
    /// for a file on disk).
    static func document(_ bytes: String, name: String) throws -> Document {
        try Importer().document(from: Data(bytes.utf8), origin: name, name: name, options: ImportOptions())
    }

    /// The document of an article page whose body is `prose`, `inner` and `prose` again, under
    /// an `h1` of `title`: enough text that extraction keeps the article and what `inner` holds.
    static func articleDocument(title: String, prose: String, inner: String) throws -> Document {
        try document(
            "<html><head><title>\(title)</title></head><body><article><h1>\(title)</h1>"
                + "\(prose)\(inner)\(prose)</article></body></html>", name: "page.html")
    }

    /// The character offset of `phrase` in `text`.
    static func offset(of phrase: String, in text: String) -> Int? {
        text.range(of: phrase).map { text.distance(from: text.startIndex, to: $0.lowerBound) }
    }
}
