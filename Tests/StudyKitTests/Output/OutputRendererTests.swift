import Testing
@testable import StudyKit

@Suite struct OutputRendererTests {
    static let results: [AnyStudyResult] = {
        let kit = OutputFixtures.cleanKit
        return [
            .headline(kit.headline), .feynman(OutputFixtures.nastyFeynman), .summary(kit.summary),
            .flashcards(kit.flashcards), .quiz(kit.quiz), .mindMap(kit.mindMap), .studyKit(kit),
        ]
    }()

    static let supported: Set<String> = [
        "markdown/headline", "markdown/feynman", "markdown/summary", "markdown/flashcards", "markdown/quiz", "markdown/mindmap",
        "markdown/import",
        "json/headline", "json/feynman", "json/summary", "json/flashcards", "json/quiz", "json/mindmap", "json/import",
        "anki/flashcards", "anki/quiz", "anki/import",
        "mermaid/mindmap", "mermaid/import",
        "markmap/mindmap", "markmap/import",
        "opml/summary", "opml/mindmap", "opml/import",
        "html/headline", "html/feynman", "html/summary", "html/flashcards", "html/quiz", "html/mindmap", "html/import",
        "svg/mindmap", "svg/import",
    ]

    @Test(arguments: RenderFormat.allCases)
    func rendersExactlyTheSupportedTasks(_ format: RenderFormat) {
        for result in Self.results {
            let key = "\(format.rawValue)/\(result.task.name)"
            do throws(OutputError) {
                let output = try OutputRenderer.render(result, as: format, context: OutputFixtures.context())
                #expect(Self.supported.contains(key), "\(key) rendered but should not")
                #expect(!output.isEmpty)
            } catch {
                #expect(!Self.supported.contains(key), "\(key) failed: \(error.message)")
                #expect(error.exitCode == .usage)
            }
        }
    }

    @Test(arguments: [
        (RenderFormat.mermaid, AnyStudyResult.quiz(OutputFixtures.cleanKit.quiz),
         "--format mermaid works with mindmap and import, not quiz; choose another --format or command"),
        (.anki, .headline(OutputFixtures.cleanKit.headline),
         "--format anki works with flashcards, quiz and import, not headline; choose another --format or command"),
        (.opml, .flashcards(OutputFixtures.cleanKit.flashcards),
         "--format opml works with summary, mindmap and import, not flashcards; choose another --format or command"),
    ])
    func unsupportedFormatIsAUsageErrorNamingTheChoices(_ format: RenderFormat, _ result: AnyStudyResult, _ message: String) {
        #expect(throws: OutputError.formatNotSupported(format: format, task: result.task, supported: format.supportedTasks)) {
            try OutputRenderer.render(result, as: format, context: OutputFixtures.context())
        }
        let error = OutputError.formatNotSupported(format: format, task: result.task, supported: format.supportedTasks)
        #expect(error.message == message)
        #expect(error.exitCode == .usage)
    }

    @Test func kitFormatsRenderTheKitsParts() throws {
        let kit = OutputFixtures.cleanKit
        let context = OutputFixtures.context()
        #expect(try OutputRenderer.render(.studyKit(kit), as: .mermaid, context: context) == MermaidRenderer.render(kit.mindMap))
        #expect(try OutputRenderer.render(.studyKit(kit), as: .anki, context: context)
            == AnkiRenderer.render(kit.flashcards, context: context))
        #expect(try OutputRenderer.render(.studyKit(kit), as: .markmap, context: context)
            == MarkmapRenderer.render(kit.mindMap, context: context))
    }

    @Test func jsonIsTheCleanedResult() throws {
        let headline = Headline(title: "A\u{200B}B", blurb: "x \u{1b}[31my")
        let output = try OutputRenderer.render(.headline(headline), as: .json, context: OutputFixtures.context())
        #expect(output == "{\n  \"title\": \"AB\",\n  \"blurb\": \"x y\"\n}\n")
    }

    @Test func markmapUsesHeadingsForTheTopTwoLevelsAndListsBelow() {
        let output = MarkmapRenderer.render(OutputFixtures.cleanKit.mindMap, context: OutputFixtures.context())
        #expect(output == """
            # Cellular respiration

            ## Glycolysis

            - In the cytoplasm
            - Makes 2 ATP

            ## Krebs cycle

            - In the matrix
              - Releases CO2

            ## Electron transport chain

            """)
    }
}
