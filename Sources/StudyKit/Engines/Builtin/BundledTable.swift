import Foundation

/// A word table that ships with studykit as a package resource (`Sources/StudyKit/Resources`,
/// written by `scripts/make-frequency-table` and `scripts/make-word-class-table`): plain text,
/// read through `Bundle.module` by the one `static let` that holds it, so once per process.
enum BundledTable {
    /// The resource `name`.txt without its `#` header lines (source and licence) and without the
    /// final line feed: the text the tables once held as Swift string literals.
    /// A table missing from the bundle reads as empty (`BundledTableTests` fails on that build).
    static func text(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "txt"),
              let contents = try? String(contentsOf: url, encoding: .utf8) else { return "" }
        return body(of: contents)
    }

    /// `contents` after its leading `#` lines, without one final line feed.
    static func body(of contents: String) -> String {
        var rest = Substring(contents)
        while rest.hasPrefix("#") {
            guard let lineFeed = rest.firstIndex(of: "\n") else { return "" }
            rest = rest[rest.index(after: lineFeed)...]
        }
        if rest.hasSuffix("\n") { rest = rest.dropLast() }
        return String(rest)
    }
}

extension EnglishFrequency {
    /// Lines of "word zipf×10", most frequent first (wordfreq 3.1.1; CC BY-SA 4.0).
    static let table = BundledTable.text("english-frequency")
}

extension EnglishWordClass {
    /// Lemmas WordNet 3.0 has as a verb, adjective or adverb and never as a noun.
    static let nonNounLemmaList = BundledTable.text("english-non-noun-lemmas")
    /// Forms that stripping an ending would take back to such a lemma but that are nouns.
    static let nounFormList = BundledTable.text("english-noun-forms")
    /// Irregular verb forms of those lemmas.
    static let irregularVerbFormList = BundledTable.text("english-irregular-verb-forms")
}
