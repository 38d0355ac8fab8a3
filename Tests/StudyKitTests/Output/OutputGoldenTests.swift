import Foundation
import Testing
@testable import StudyKit

/// Every renderer on fixed values, compared byte for byte with checked-in golden files, and
/// every output checked for what must never get through.
@Suite struct OutputGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let golden: String
        let render: @Sendable () throws -> String
        var testDescription: String { golden }
    }

    static let cases: [Case] = {
        let f = OutputFixtures.self
        let context = f.context()
        return [
            Case(golden: "nasty-headline.md") { MarkdownRenderer.render(f.nastyHeadline, context: context) },
            Case(golden: "nasty-feynman.md") { MarkdownRenderer.render(f.nastyFeynman, context: context) },
            Case(golden: "nasty-summary.md") { MarkdownRenderer.render(f.nastySummary, context: context) },
            Case(golden: "nasty-flashcards.md") { MarkdownRenderer.render(f.nastyFlashcards, context: context) },
            Case(golden: "nasty-quiz.md") { QuizRenderer.render(f.nastyQuiz, context: context) },
            Case(golden: "nasty-mindmap.md") { MarkdownRenderer.render(f.nastyMindMap, context: context) },
            Case(golden: "nasty-kit.md") { MarkdownRenderer.render(f.nastyKit, context: context) },
            Case(golden: "nasty-cards.tsv") { AnkiRenderer.render(f.nastyFlashcards, context: context) },
            Case(golden: "nasty-quiz-cards.tsv") { AnkiRenderer.render(f.nastyQuiz, context: context) },
            Case(golden: "nasty-mindmap.mmd") { MermaidRenderer.render(f.nastyMindMap) },
            Case(golden: "nasty-mindmap.markmap.md") { MarkmapRenderer.render(f.nastyMindMap, context: context) },
            Case(golden: "nasty-mindmap-frontmatter.markmap.md") {
                MarkmapRenderer.render(f.nastyMindMap, context: context, frontMatter: true)
            },
            Case(golden: "nasty-mindmap.opml") { OPMLRenderer.render(f.nastyMindMap, context: context) },
            Case(golden: "nasty-summary.opml") { OPMLRenderer.render(f.nastySummary, context: context) },
            Case(golden: "nasty-kit.opml") { OPMLRenderer.render(f.nastyKit, context: context) },
            Case(golden: "nasty-kit.json") { try OutputRenderer.render(.studyKit(f.nastyKit), as: .json, context: context) },
            Case(golden: "clean-kit.md") { MarkdownRenderer.render(f.cleanKit, context: context) },
            Case(golden: "clean-cards.tsv") { AnkiRenderer.render(f.cleanKit.flashcards, context: context) },
            Case(golden: "clean-mindmap.mmd") { MermaidRenderer.render(f.cleanKit.mindMap) },
            Case(golden: "clean-mindmap.markmap.md") { MarkmapRenderer.render(f.cleanKit.mindMap, context: context) },
            Case(golden: "clean-kit.opml") { OPMLRenderer.render(f.cleanKit, context: context) },
        ]
    }()

    @Test(arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        try OutputFixtures.expectGolden(try testCase.render(), testCase.golden)
    }

    @Test(arguments: cases)
    func carriesNoEscapesOrInvisibleCharacters(_ testCase: Case) throws {
        let output = try testCase.render()
        #expect(OutputFixtures.unsafeScalars(in: output).isEmpty)
        #expect(!output.contains("evil.example"))
        #expect(!output.contains("pwned"))
    }

    @Test(arguments: cases)
    func endsWithOneNewline(_ testCase: Case) throws {
        let output = try testCase.render()
        #expect(output.hasSuffix("\n"))
        #expect(!output.hasSuffix("\n\n"))
    }

    @Test func hyperlinkTextSurvivesWithoutItsLink() {
        let output = MarkdownRenderer.render(OutputFixtures.nastyHeadline, context: OutputFixtures.context())
        #expect(output.contains("read click for"))
    }

    @Test func emojiAndRightToLeftTextSurvive() {
        let output = MarkdownRenderer.render(OutputFixtures.nastyKit, context: OutputFixtures.context())
        #expect(output.contains("🧠"))
        #expect(output.contains("👩‍🔬"))
        #expect(output.contains("שלום and مرحبا stay"))
    }
}
