/// Finds where a supporting quote sits in its document, so the page can say which PDF page it is on.
///
/// A quote is meant to be copied word for word, but models trim, re-space or end it early: the
/// whole quote is tried first, then its first words (60, then 30 characters), so a quote whose
/// tail was changed is still found by its head. A quote found nowhere has no page.
public struct QuoteLocator: Sendable {
    private let document: Document

    /// Creates a locator over `document`.
    public init(_ document: Document) { self.document = document }

    /// The 1-based page of `quote`, or `nil` when the document has no pages or the quote is not found.
    public func page(of quote: String) -> Int? {
        guard !document.pages.isEmpty else { return nil }
        let words = OutputText.singleLine(quote)
        var candidates = [words]
        for length in [60, 30] where words.count > length {
            candidates.append(String(words.prefix(length)))
        }
        for candidate in candidates where !candidate.isEmpty {
            if let range = document.text.range(of: candidate) {
                return document.page(atCharacterOffset: document.text.distance(from: document.text.startIndex, to: range.lowerBound))
            }
        }
        return nil
    }
}
