import Testing
@testable import StudyKit

/// The builtin engine's word tables ship as package resources (#55): each loads whole, without its
/// header, from the bundle of whatever binary runs (the test bundle here, `studykit` in use).
@Suite("Bundled word tables")
struct BundledTableTests {
    @Test func theFrequencyTableLoadsEveryWordMostFrequentFirst() {
        let lines = EnglishFrequency.table.split(separator: "\n")
        #expect(lines.count == 29_665)
        #expect(lines.first == "the 77")
        #expect(!EnglishFrequency.table.contains("#"))
        #expect(EnglishFrequency.zipf("the") == 7.7)
        #expect(EnglishFrequency.zipf("molecules") > 3)
    }

    @Test(arguments: [
        ("non-noun lemmas", 8_671, "aah"),
        ("noun forms", 1_274, nil),
        ("irregular verb forms", 645, nil),
    ] as [(String, Int, String?)])
    func theWordClassListsLoadWhole(list: String, words: Int, first: String?) throws {
        let lists = [
            "non-noun lemmas": EnglishWordClass.nonNounLemmaList,
            "noun forms": EnglishWordClass.nounFormList,
            "irregular verb forms": EnglishWordClass.irregularVerbFormList,
        ]
        let text = try #require(lists[list])
        let all = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        #expect(all.count == words)
        if let first { #expect(all.first.map(String.init) == first) }
        #expect(!text.hasPrefix("#") && !text.hasSuffix("\n"))
    }

    @Test(arguments: [
        ("# source\n# licence\nthe 77\nto 74\n", "the 77\nto 74"),
        ("the 77", "the 77"),
        ("# only a header", ""),
        ("#\nword 1\n\n", "word 1\n"),
    ])
    func theBodyIsWhatFollowsTheHeader(contents: String, body: String) {
        #expect(BundledTable.body(of: contents) == body)
    }
}
