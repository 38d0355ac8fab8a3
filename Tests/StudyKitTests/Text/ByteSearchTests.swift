import Foundation
import Testing
@testable import StudyKit

/// The short cuts that spare the builtin engine and PDF import a Foundation call or a split per
/// line give the answers of the calls they stand in for.
@Suite struct ByteSearchTests {
    static let texts = [
        "", "copyright 2024", "see http://example.org", "a word", "tab\there", "  leading", "trailing  ", "two  spaces",
        "café au lait", "cafe\u{301} au lait", "e\u{301}", "line\nbreak", "\u{A0}no-break\u{A0}", "x();", "x()\u{37E}",
        "\u{212A}elvin", "grave `x`", "grave \u{1FEF}x", "a=>b", "all rights reserved", "ALL RIGHTS", "emoji 👍🏽 here",
        "\r\n", "q\u{303} mark", "www.", "©", "© 2020",
    ]
    static let phrases = ["copyright", "http://", "word", " ", "e", "();", "K", "`", "=>", "all rights reserved", "www.", "©", "q"]

    @Test func includesAnswersAsContains() {
        for text in Self.texts {
            for phrase in Self.phrases {
                #expect(text.includes(phrase) == text.contains(phrase), "\(text.debugDescription) ∋ \(phrase.debugDescription)")
            }
        }
    }

    @Test func wordCountAndOneLineAsSplitting() {
        for text in Self.texts + ["one", "one two", " one  two ", "one\ttwo\nthree", "a\u{2003}b", "\u{301}x y"] {
            #expect(ProseText.wordCount(text) == text.split(whereSeparator: \.isWhitespace).count, "\(text.debugDescription)")
            #expect(ProseText.oneLine(text) == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "\(text.debugDescription)")
        }
    }

    static let multiline = [
        "", "\n", "\n\n", "a", "a\n", "\na", "a\nb", "a\n\nb\n", "a\r\nb", "a\r\n\r\nb", "a\r\n", "\r", "a\rb\nc",
        "é\n\u{301}x", "👍🏽\n👍🏽\n", "x\u{A0}\ny", "\r\n\n", "line one\n\nline two\nline three",
    ]

    /// PDF import's line split, read from the bytes, makes the pieces `split(separator: "\n")` makes.
    @Test(arguments: [true, false]) func lineSlicesAsSplitting(omitting: Bool) {
        for text in Self.multiline + Self.texts {
            let expected = text.split(separator: "\n", omittingEmptySubsequences: omitting)
            #expect(text.lineSlices(omittingEmptySubsequences: omitting) == expected, "\(text.debugDescription)")
            #expect(
                text.firstLineSlice == text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first,
                "\(text.debugDescription)")
        }
    }

    @Test func characterCountAsCount() {
        for text in Self.multiline + Self.texts {
            #expect(text.characterCount == text.count, "\(text.debugDescription)")
            #expect(text.dropFirst().characterCount == text.dropFirst().count, "\(text.debugDescription)")
        }
    }

    @Test func trimmingSpacesAsFoundation() {
        for text in Self.texts + ["\t x \t", "\u{A0}x\u{2003}", " \u{301}x", "x \u{301}", "\u{3000}見出し\u{3000}", " \n x", "  "] {
            #expect(text.trimmingTabsAndSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }

    /// The near-copy rule counts the shared keys and the union without building either set.
    @Test func nearCopyAsTheSetFormula() {
        let keys: [Set<String>] = [[], ["a"], ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"], ["b", "c", "d", "e"],
                                   ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], ["a", "b", "c", "d", "e", "f", "g", "h", "i"]]
        for first in keys {
            for second in keys {
                var expected = false
                if !first.isEmpty, !second.isEmpty {
                    let shared = Double(first.intersection(second).count)
                    let smaller = min(first.count, second.count)
                    expected = shared / Double(first.union(second).count) >= 0.8 || (smaller >= 3 && shared / Double(smaller) >= 0.9)
                }
                #expect(ItemRules.nearCopy(first, second) == expected, "\(first) ~ \(second)")
            }
        }
    }

    /// A label admitted one at a time (as the mind map's levels are built) is admitted exactly
    /// when `meaningful` over the labels kept and that one keeps them all.
    @Test func labelsAdmittedOneByOneAsMeaningful() {
        let parent = "Photosynthesis"
        let labels = ["Light reactions", "The light reaction", "Calvin cycle", "Photosynthesis", "Summary", "Calvin cycle",
                      "Stroma and thylakoids", "Thylakoid and stroma", "ATP synthase", "Chlorophyll", "chlorophyll", "Stage 1", "Stage 2"]
        var admitted = BuiltinEngine.MeaningfulLabels(under: parent)
        var kept: [String] = []
        for label in labels {
            let nodes = (kept + [label]).map { MindMap.Node(label: $0) }
            let expected = BuiltinEngine.meaningful(nodes, under: parent).count == nodes.count
            #expect(admitted.admit(label) == expected, "\(label)")
            if expected { kept.append(label) }
        }
        #expect(kept.count >= 5 && kept.count < labels.count)
    }
}
