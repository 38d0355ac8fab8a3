import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// Wikipedia's reference and editorial marks leave pasted text; code's indexes stay.
@Suite("Reference marks")
struct ReferenceMarkersTests {
    static let pasted = """
        Photosynthesis is the process by which plants make sugar.[1] It takes place in the chloroplasts.[2][3] \
        The Calvin cycle fixes carbon dioxide,[a] using ATP.[citation needed] Plants[4] release oxygen[note 2] as a by-product.[who?]
        """

    @Test func marksGlueToPunctuationAndWordsInAnArticleAndGo() {
        #expect(ReferenceMarkers.removed(from: Self.pasted) == """
            Photosynthesis is the process by which plants make sugar. It takes place in the chloroplasts. \
            The Calvin cycle fixes carbon dioxide, using ATP. Plants release oxygen as a by-product.
            """)
    }

    @Test(arguments: [
        // Program notes: an index is no mark, with or without a sentence around it.
        "The program reads argv[1] and writes a[0].",
        "Call items[2], then stop.",
        // One mark after punctuation is not evidence enough for marks glued to words.
        "A list x[1] is indexed from zero.",
        // Brackets that are words of the text, a link, a checkbox.
        "The spec says [deprecated for globs2] here.",
        "See [the manual](https://example.org/manual) first.",
        "- [x] read chapter 2",
    ])
    func textWithoutMarksIsLeftAlone(_ text: String) {
        #expect(ReferenceMarkers.removed(from: text) == text)
    }

    @Test func oneMarkAfterPunctuationGoesButAWordsIndexStays() {
        #expect(ReferenceMarkers.removed(from: "It copies x[1] into y.[2] Then it stops.") == "It copies x[1] into y. Then it stops.")
    }

    /// Through the importer: a pasted article's sentences are sentences again, so a summary has
    /// more than one to choose from.
    @Test func aPastedArticleSplitsIntoItsSentences() throws {
        let document = try Importer(standardInput: { Data() }).document(from: Data(Self.pasted.utf8), origin: "stdin", name: nil, options: ImportOptions())
        #expect(!document.text.contains("["))
        #expect(SentenceSplitter().split(document.text).count == 4)
    }
}
