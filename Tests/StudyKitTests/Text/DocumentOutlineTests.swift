import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite struct DocumentOutlineTests {
    @Test func markdownSectionsWithPreamble() {
        let text = "Some words before any heading. Another one.\n\n# Title\n\nIntro sentence.\n\n## Part A\n\nA one. A two.\n\n### Detail\n\nDeep.\n\n## Part B\n\nB one."
        let outline = DocumentOutline(text: text)
        #expect(outline.sections.map(\.heading) == [nil, "Title", "Part A", "Detail", "Part B"])
        #expect(outline.sections.map(\.level) == [0, 1, 2, 3, 2])
        #expect(outline.sections.map { $0.sentences.map(\.text) } == [
            ["Some words before any heading.", "Another one."], ["Intro sentence."], ["A one.", "A two."], ["Deep."],
            ["B one."],
        ])
        #expect(outline.sections.map(\.index) == [0, 1, 2, 3, 4])
        #expect(String(text[outline.sections[2].range]) == "## Part A\n\nA one. A two.")
        #expect(outline.sections[0].headingSentence == nil)
        #expect(outline.sections[4].headingSentence?.text == "Part B")
    }

    @Test func pdfLikeSections() {
        let text = """
            Photosynthesis

            Plants make sugar from light. They release oxygen.

            1. Light Reactions

            Light splits water in the thylakoids.

            1.1 Photosystem II

            It absorbs light at 680 nm.

            2. The Calvin Cycle

            Carbon is fixed in the stroma. This builds sugar.
            """
        let outline = DocumentOutline(text: text)
        #expect(outline.sections.map(\.heading) == [
            "Photosynthesis", "1. Light Reactions", "1.1 Photosystem II", "2. The Calvin Cycle",
        ])
        #expect(outline.sections.map(\.level) == [1, 2, 3, 2])
        #expect(outline.sections.map(\.sentences.count) == [2, 1, 1, 2])
    }

    @Test func textWithoutHeadingsIsOneSection() {
        let outline = DocumentOutline(text: "just some text. and more of it.\n\nAnother paragraph here.")
        #expect(outline.sections.count == 1)
        #expect(outline.sections[0].heading == nil)
        #expect(outline.sections[0].level == 0)
        #expect(outline.sections[0].sentences.count == 2)
    }

    @Test func emptyTextHasNoSections() {
        #expect(DocumentOutline(text: "").sections.isEmpty)
        #expect(DocumentOutline(text: "\n\n  \n").units.isEmpty)
    }

    @Test func headingWithoutBodyIsStillASection() {
        let outline = DocumentOutline(text: "# Only\n\n## Empty\n\n## Last\n\nText here.")
        #expect(outline.sections.map(\.heading) == ["Only", "Empty", "Last"])
        #expect(outline.sections.map(\.sentences.count) == [0, 0, 1])
    }

    @Test func everyUnitBelongsToExactlyOneSection() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let outline = DocumentOutline(text: text)
        #expect(outline.sections.map(\.heading) == [
            "Photosynthesis", "Where it happens", "The light reactions", "The Calvin cycle", "Limiting factors",
            "C4 and CAM plants", "Summary",
        ])
        #expect(outline.sectionOfUnit.count == outline.units.count)
        var seen = 0
        for section in outline.sections {
            let members = (section.headingSentence.map { [$0] } ?? []) + section.sentences
            for unit in members {
                #expect(outline.sectionOfUnit[unit.index] == section.index)
                #expect(section.range.contains(unit.range.lowerBound))
            }
            seen += members.count
        }
        #expect(seen == outline.units.count)
        #expect(outline.bodySentences.allSatisfy { !$0.isHeading })
    }
}
