import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// The exports by section (#54): the top-level sections a document's Anki subdecks and kit-page
/// groups follow, each item's section path, and the tags and deck names made from them.
@Suite struct SectionGroupsTests {
    static func sample(_ name: String) async throws -> Document {
        try await Importer().load(.file(TestPaths.samples.appendingPathComponent(name).path))
    }

    /// A Markdown document: `sections` as `## heading` and their paragraphs.
    static func markdown(_ sections: [(String, String)]) -> Document {
        let text = "# Study notes\n\n" + sections.map { "## \($0.0)\n\n\($0.1)" }.joined(separator: "\n\n")
        return Document(text: text, title: "Study notes", kind: .markdown, origin: "notes.md")
    }

    /// About `count` characters of distinct sentences on `topic`.
    static func prose(_ topic: String, _ count: Int) -> String {
        var text = ""
        var index = 1
        while text.count < count {
            text += "The \(topic) fact number \(index) says something new about \(topic) that a student should learn. "
            index += 1
        }
        return text
    }

    @Test func numberedChaptersAreTheGroupsAndALostChapterIsRecovered() async throws {
        let groups = SectionGroups(document: try await Self.sample("long.pdf"))
        let headings = groups.groups.map(\.heading)
        #expect(headings.first == "1. Why study the Revolution?", "the title lines before chapter 1 are no group")
        #expect(
            headings.contains("3. 1789: the year of revolutions"),
            "the chapter PDFLayout read as a line of text: \(headings)")
        #expect(headings.count == 11)
        // Anki sorts decks by name: "10. Glossary" would come before "2. …"; the numbers are padded.
        #expect(
            groups.groups.map(\.deckName).prefix(2) == [
                "01. Why study the Revolution?", "02. The Old Regime and its problems",
            ])
        #expect(
            groups.groups.map(\.deckName) == groups.groups.map(\.deckName).sorted { $0.lowercased() < $1.lowercased() })

        let bastille = groups.place(
            of:
                "The fall of the Bastille had enormous symbolic importance, even though the fortress held only seven prisoners."
        )
        #expect(bastille.group == headings.firstIndex(of: "3. 1789: the year of revolutions"))
        #expect(bastille.path == ["3. 1789: the year of revolutions", "The fall of the Bastille"])
        let opening = groups.place(of: "Historians still argue about what caused the Revolution and what it meant.")
        #expect(opening.path == ["1. Why study the Revolution?"])
        #expect(
            groups.place(of: "No sentence like this one is anywhere in the revision notes.")
                == .init(group: nil, path: []))
    }

    @Test(arguments: [("notes.pdf", 7), ("paste.txt", 0), ("article.html", 4)])
    func samplesGroupByTheirTopLevelSections(sample: String, groups count: Int) async throws {
        let document = try await Self.sample(sample)
        let groups = SectionGroups(document: document)
        #expect(groups.groups.count == count, "\(groups.groups.map(\.heading))")
        // Every body section's text is filed under a group when there are groups.
        let items = SectionItems(document: document)
        for entry in items.sections.body where count > 0 {
            let sentence = items.outline.sections[entry.outlineIndex].sentences.first {
                !$0.isCode && $0.text.count > 20
            }
            let place = groups.place(of: try #require(sentence).text)
            #expect(
                place.group != nil && place.path.last == entry.heading.map(ProseText.oneLine),
                "\(entry.heading ?? "")")
        }
    }

    @Test func aDocumentWithoutTwoBodySectionsHasNoGroupsButItsItemsKeepTheirSectionPath() {
        let short = Self.markdown([
            ("Cells", "Cells are the units of life. They divide."), ("Tissues", "Tissues are groups of cells."),
        ])
        let none = SectionGroups(document: short)
        #expect(none.groups.isEmpty)
        #expect(none.place(of: "Tissues are groups of cells.") == .init(group: nil, path: ["Tissues"]))

        let one = SectionGroups(
            document: Self.markdown([("Cells", Self.prose("cell", 700)), ("Tissues", "Tissues are groups of cells.")]))
        #expect(one.groups.isEmpty, "one body section: a page, no subdecks")
    }

    @Test func aShortTopLevelSectionIsAGroupOnceTheDocumentIsGrouped() {
        let document = Self.markdown([
            ("Cells", Self.prose("cell", 700)), ("Tissues", "Tissues are groups of cells that work together."),
            ("Organs", Self.prose("organ", 700)),
        ])
        let groups = SectionGroups(document: document)
        #expect(groups.groups.map(\.heading) == ["Cells", "Tissues", "Organs"])
        #expect(
            groups.place(of: "Tissues are groups of cells that work together.") == .init(group: 1, path: ["Tissues"]))
        // Names out of Anki's order get their position; in order, they stay as the author wrote them.
        #expect(groups.groups.map(\.deckName) == ["1 Cells", "2 Tissues", "3 Organs"])
        #expect(
            SectionGroups.deckNames(["Atoms", "Bonds::ionic", "Crystals"]) == ["Atoms", "Bonds:ionic", "Crystals"])
    }

    @Test(
        arguments: [
            (["2. Where it happens: the chloroplast"], "section::2_Where_it_happens_the_chloroplast"),
            (
                ["3. 1789: the year of revolutions", "The fall of the Bastille"],
                "section::3_1789_the_year_of_revolutions::The_fall_of_the_Bastille"
            ),
            (["Réactions claires", "Le cycle de Calvin"], "section::Réactions_claires::Le_cycle_de_Calvin"),
            (["C++ — \"quoted\" :: parts"], "section::C_quoted_parts"),
            (["—"], nil),
        ] as [([String], String?)])
    func aSectionPathIsATagOfSlugs(path: [String], tag: String?) {
        #expect(SectionGroups.tag(path: path) == tag)
    }

    @Test func aLongHeadingIsCutAtAWordWithinSixtyCharacters() throws {
        let heading = String(repeating: "Photosynthesis and respiration ", count: 4)
        let slug = SectionGroups.slug(heading), whole = heading.split(separator: " ").joined(separator: "_")
        #expect(slug.count <= SectionGroups.limit && slug.count >= SectionGroups.limit / 2)
        #expect(whole.hasPrefix(slug + "_"), "cut between words: \(slug)")
    }
}
