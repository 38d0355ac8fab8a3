import Foundation
import Testing

@_spi(Benchmarks) @testable import StudyKit

/// #54: a long document's summary has key points by top-level section, its mind map follows the
/// outline, a page of notes keeps its summary and gets a map of terms with no verbs as nodes, and
/// no body section is left without a card because its terms were asked elsewhere.
@Suite struct SectionSummaryTests {
    /// samples/eval's five English notes under one heading each: about 20,000 characters in five
    /// top-level sections (``KitSizeTests/sections``).
    static let long = KitSizeTests.markdown(KitSizeTests.sections)

    /// The title the document is given: its first heading is a section, not its title.
    static let title = "Notes on five subjects"

    static func summary(_ text: String) throws -> Summary {
        guard case .summary(let summary) = try BuiltinEngine().generate(.summary, text: text, title: title) else {
            Issue.record("not a summary")
            throw BuiltinError.emptyText
        }
        return summary
    }

    @Test func aLongDocumentHasKeyPointsBySection() throws {
        let summary = try Self.summary(Self.long)
        #expect(summary.sections.map(\.section) == KitSizeTests.sections.map(\.heading))
        for (group, section) in zip(summary.sections, KitSizeTests.sections) {
            #expect((1...Summary.pointsPerSection).contains(group.keyPoints.count))
            // Each point is a sentence of its own section.
            let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            for point in group.keyPoints {
                #expect(words(section.text).contains(words(String(point.dropLast()))), "\(point) is not from \(section.heading)")
            }
        }
        // No point said twice, in the document's points or the sections'.
        #expect(Set(summary.allKeyPoints).count == summary.allKeyPoints.count)
        #expect(AnyStudyResult.summary(summary).validationIssues(size: .followsMaterial).isEmpty)
    }

    @Test func thePointsBySectionAreInTheJSONAndTheMarkdown() throws {
        let summary = try Self.summary(Self.long)
        let json = AnyStudyResult.summary(summary).jsonValue
        #expect(json.objectValue?["sections"]?.arrayValue?.count == summary.sections.count)
        #expect(try Summary(json: json) == summary)
        let markdown = MarkdownRenderer.render(summary, context: RenderContext(sourceIdentity: "test", digest: { $0 }))
        #expect(markdown.contains("## Key points by section"))
        for group in summary.sections { #expect(markdown.contains("### \(group.section)")) }
    }

    @Test func aPageOfNotesKeepsItsSummary() throws {
        let summary = try Self.summary(BuiltinFixtures.photosynthesis())
        #expect(summary.sections.isEmpty)
        #expect(AnyStudyResult.summary(summary).jsonValue.objectValue?["sections"] == nil)
    }

    @Test func noModelIsAskedForThePointsBySection() throws {
        // The schema a model is given, and its fingerprint, have no `sections`.
        let schema = Summary.generationSchema.jsonSchema(strict: false)
        #expect(schema.objectValue?["properties"]?.objectValue?["sections"] == nil)
        #expect(!Summary.generationSchema.fingerprint.contains("sections"))
        // A model's answer without them is read as before.
        let answer: JSONValue = [
            "overview": "Mitosis divides one nucleus into two. Each daughter cell gets a full copy.",
            "keyPoints": [
                "Prophase condenses the chromosomes into visible threads.",
                "Metaphase aligns the chromosomes on the spindle plate.", "Anaphase pulls sister chromatids toward opposite poles.",
            ],
        ]
        #expect(Summary.generationSchema.validationIssues(for: answer).isEmpty)
        #expect(try Summary(json: answer).sections.isEmpty)
    }

    @Test func theGroupsAllowedScaleWithTheRequest() throws {
        let groups = (1...12).map { index in
            Summary.SectionPoints(section: "Chapter \(index)", keyPoints: ["Treaty number \(index) of the archive came into force in \(1700 + index)."])
        }
        let summary = Summary(
            overview: "The archive holds the treaties of the century. Each treaty came into force in its own year.",
            keyPoints: [
                "The first treaty settled the northern border of the kingdom.", "The second treaty opened the river ports to trade.",
                "The third treaty ended the long war over the islands.",
            ],
            sections: groups)
        // One answer may hold 8 groups; a builtin summary of a long document more.
        #expect(summary.validationIssues().map(\.path) == ["sections"])
        #expect(AnyStudyResult.summary(summary).validationIssues(size: .followsMaterial).isEmpty)
    }

    // MARK: mind map

    static func mindMap(_ text: String) throws -> MindMap {
        guard case .mindMap(let map) = try BuiltinEngine().generate(.mindmap, text: text, title: title) else {
            Issue.record("not a mind map")
            throw BuiltinError.emptyText
        }
        return map
    }

    @Test func theMapOfAnOutlineHasItsSectionsAsBranches() throws {
        let map = try Self.mindMap(Self.long)
        #expect(map.branches.count == KitSizeTests.sections.count)
        #expect(map.branches.allSatisfy { !$0.children.isEmpty })
    }

    /// A page of notes with no headings, of the kind the issue quotes ("RNA primer → fragments, removes").
    static let replication = """
        DNA replication is the process by which a cell copies its DNA before it divides. Each strand of the double helix \
        serves as a template for a new strand, so every new molecule has one old strand and one new strand.

        Replication begins at sites called origins of replication. The enzyme helicase unwinds the double helix and \
        breaks the hydrogen bonds between the base pairs, opening a replication fork.

        DNA polymerase cannot start a new strand on its own. The enzyme primase lays down a short RNA primer, and DNA \
        polymerase extends the primer by adding nucleotides that pair with the template strand.

        The lagging strand is made in short pieces called Okazaki fragments, each started by its own RNA primer. DNA \
        polymerase I later removes the RNA primers and replaces them with DNA, and DNA ligase joins the fragments.

        DNA polymerase also proofreads its work. When a wrong nucleotide is added, the enzyme removes it and inserts \
        the correct one.
        """

    @Test func aMapOfTermsHasNoVerbsAndNoTermTwice() throws {
        let map = try Self.mindMap(Self.replication)
        let labels = map.branches.flatMap { [$0.label] + $0.children.map(\.label) }
        #expect(!labels.contains("removes"))
        #expect(!labels.contains("joins"))
        // "RNA" is no node beside "RNA primer", nor "helix" beside "double helix" ("lagging
        // strand" may be one under "strand").
        let words = { (label: String) in Set(label.lowercased().split(separator: " ")) }
        for child in map.branches.flatMap(\.children).map(\.label) {
            #expect(!labels.contains { words($0).isStrictSuperset(of: words(child)) }, "\(child)")
        }
    }

    struct VerbCase: Sendable, CustomStringConvertible {
        let text: String
        let verbs: Set<String>
        var description: String { text }
    }

    @Test(arguments: [
        VerbCase(text: "DNA polymerase later removes the primers. The enzyme removes it.", verbs: ["removes"]),
        VerbCase(text: "The Moon pulls the oceans, which bulge. Its pulls are strong.", verbs: ["bulge"]),
        VerbCase(text: "Okazaki fragments are short. Ligase joins the fragments.", verbs: []),
        VerbCase(text: "It binds oxygen. The binds of the rope held.", verbs: []),
    ])
    func verbsAreReadFromTheirUse(_ row: VerbCase) {
        let words = SentenceSplitter().split(row.text).map { TermNormalizer.words(in: $0.text) }
        #expect(BuiltinAnalysis.verbsByUse(words) == row.verbs)
    }

    // MARK: coverage

    @Test func aBodySectionLeftWithoutACardMayAskATermAgain() {
        let analysis = BuiltinAnalysis(text: Self.long, title: nil)
        let body = Set(analysis.sections.distinctBody.map(\.outlineIndex))
        // Every fresh term was asked elsewhere: the share finds none, the second call may reuse.
        for limit in [40, 2] {
            var reused: [Int] = []
            SectionSpread(analysis: analysis, limit: limit).fill(items: []) { section, _, _, _, reusing in
                guard reusing else { return 0 }
                reused.append(section)
                return 1
            }
            #expect(Set(reused) == body, "limit \(limit)")
            #expect(reused.count == body.count)
        }
        // `--cards` set the deck: a full deck gets no card past it.
        var reused = 0
        SectionSpread(analysis: analysis, limit: 0, givesEverySectionACard: false).fill(items: []) { _, _, _, _, reusing in
            reused += reusing ? 1 : 0
            return reusing ? 1 : 0
        }
        #expect(reused == 0)
    }
}

extension SectionSummaryTests {
    @Test func aRepeatedPartGivesNoPointsOfItsOwn() throws {
        // The five subjects three times over under three part headings, as the textbook is.
        let subjects = "## " + Self.long.dropFirst(2).replacing("\n# ", with: "\n## ")
        let parts = ["Ancient", "Modern", "Future"].map { "# \($0) copy\n\n" + subjects }.joined(separator: "\n\n")
        let once = try Self.summary(subjects.replacing("\n## ", with: "\n# ").replacing("## ", with: "# "))
        let thrice = try Self.summary(parts)
        // Only the first copy has points: the parts are the top level, and the later ones say nothing new.
        #expect(once.sections.count == KitSizeTests.sections.count)
        #expect(thrice.sections.allSatisfy { !$0.section.hasPrefix("Modern") && !$0.section.hasPrefix("Future") })
        #expect(Set(thrice.allKeyPoints).count == thrice.allKeyPoints.count)
    }
}
