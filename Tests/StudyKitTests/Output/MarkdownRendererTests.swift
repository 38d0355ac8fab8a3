import Testing
@testable import StudyKit

@Suite struct MarkdownRendererTests {
    @Test(arguments: [
        ("plain words", "plain words"),
        ("# heading", "\\# heading"),
        ("C# and #tag", "C# and \\#tag"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("> quote", "\\> quote"),
        ("a > b", "a > b"),
        ("1. first", "1\\. first"),
        ("12) twelve", "12\\) twelve"),
        ("version 1.2", "version 1.2"),
        ("1.5 million", "1.5 million"),
        ("2.", "2\\."),
        ("=====", "\\====="),
        ("`code`", "\\`code\\`"),
        ("*bold* and **strong**", "\\*bold\\* and \\*\\*strong\\*\\*"),
        ("_em_ but snake_case", "\\_em\\_ but snake_case"),
        ("[link](http://x)", "\\[link\\](http://x)"),
        ("![img](x.png)", "!\\[img\\](x.png)"),
        ("<script>alert(1)</script>", "\\<script>alert(1)\\</script>"),
        ("<http://auto.link>", "\\<http://auto.link>"),
        ("a | b", "a \\| b"),
        ("~~gone~~", "\\~\\~gone\\~\\~"),
        ("Q&A &amp; &#60; & ;", "Q&A \\&amp; \\&#60; & ;"),
        ("back\\slash", "back\\\\slash"),
        ("two\nlines\tand tab", "two lines and tab"),
        ("  padded  ", "padded"),
        ("emoji 🧠 and שלום", "emoji 🧠 and שלום"),
    ])
    func inlineEscaping(_ input: String, _ expected: String) {
        #expect(MarkdownEscaping.inline(input) == expected)
    }

    /// After `# ` a list, quote or setext marker is heading text: a tutorial's "4. More Control
    /// Flow Tools" is written as it reads, its period not escaped. Inline structure
    /// and a closing `#` sequence are still escaped.
    @Test(arguments: [
        ("4. More Control Flow Tools", "4. More Control Flow Tools"),
        ("12) twelve", "12) twelve"),
        ("- dash", "- dash"),
        ("> quote", "> quote"),
        ("=====", "====="),
        ("C# and #tag", "C# and \\#tag"),
        ("*bold* [link](x)", "\\*bold\\* \\[link\\](x)"),
    ])
    func headingEscaping(_ input: String, _ expected: String) {
        #expect(MarkdownEscaping.heading(input) == expected)
    }

    @Test func aNumberedTitleIsWrittenAsItReadsInTheHeading() {
        let output = MarkdownRenderer.render(
            Headline(title: "4. More Control Flow Tools", blurb: "Python's statements."), context: OutputFixtures.context())
        #expect(output == "# 4. More Control Flow Tools\n\nPython's statements.\n")
    }

    @Test func aNumberedCentralTopicIsWrittenAsItReads() {
        let map = MindMap(centralTopic: "4. More Control Flow Tools", branches: [
            .init(label: "4.1. if Statements"), .init(label: "4.2. for Statements"),
        ])
        let output = MarkdownRenderer.render(map, context: OutputFixtures.context())
        #expect(output.contains("**4. More Control Flow Tools**"), "\(output)")
    }

    @Test func blockquoteKeepsLinesAndEscapesEach() {
        #expect(MarkdownEscaping.blockquote("first\n# second\n\nthird\n") == "> first\n> \\# second\n>\n> third")
    }

    @Test func headlineIsATitleAndABlurb() {
        let output = MarkdownRenderer.render(Headline(title: "Cell Energy", blurb: "How cells make ATP."), context: OutputFixtures.context())
        #expect(output == "# Cell Energy\n\nHow cells make ATP.\n")
    }

    @Test func quizHasLetteredChoicesAndAnAnswerKeyAtTheEnd() {
        let output = QuizRenderer.render(OutputFixtures.cleanKit.quiz, context: OutputFixtures.context(title: nil))
        #expect(output.hasPrefix("# Quiz\n\n1. Where does the Krebs cycle run?\n   - A. Cytoplasm\n   - B. Mitochondrial matrix\n"))
        // The quote follows an explanation that does not already quote it.
        let key = "## Answer key\n\n1. **B.** Mitochondrial matrix — It runs in the mitochondrial matrix."
            + " (the material: “The Krebs cycle runs in the mitochondrial matrix.”)\n"
        #expect(output.contains(key))
        #expect(output.hasSuffix(
            "3. **C.** Electron transport chain — The electron transport chain makes about 34 ATP."
                + " (the material: “The electron transport chain makes most of the ATP.”)\n"))
    }

    @Test func quizRendererMatchesTheKitsQuizSection() {
        let quiz = QuizRenderer.render(OutputFixtures.cleanKit.quiz, context: OutputFixtures.context(title: nil))
        let kit = MarkdownRenderer.render(OutputFixtures.cleanKit, context: OutputFixtures.context())
        let questions = quiz.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        #expect(kit.contains(questions.replacingOccurrences(of: "## Answer key", with: "### Answer key")))
    }

    @Test func kitSectionsComeInOrder() {
        let output = MarkdownRenderer.render(OutputFixtures.cleanKit, context: OutputFixtures.context())
        let headings = output.split(separator: "\n").filter { $0.hasPrefix("# ") || $0.hasPrefix("## ") }
        #expect(headings == ["# Cellular Respiration", "## Summary", "## Flashcards", "## Quiz", "## Mind map"])
    }

    @Test func choiceLetters() {
        #expect((0..<4).map(MarkdownRenderer.choiceLetter) == ["A", "B", "C", "D"])
        #expect(MarkdownRenderer.choiceLetter(26) == "27")
    }
}
