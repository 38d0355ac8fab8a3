/// Readable Markdown (CommonMark, GitHub-flavoured) for every result.
///
/// Model text is cleaned by ``TerminalSafety``, put on one line where the layout needs one
/// line (headings, list items), and escaped where it could change the document's structure:
/// backslashes, backticks, emphasis and strike markers, brackets (no links or images), `<`
/// (no HTML, no autolinks), `|` (no tables), `&` before a name (no entities), `#` starting a
/// word, and list, quote or setext markers at the start of a line. Nothing is HTML.
public enum MarkdownRenderer {
    /// Any result, as a standalone document.
    public static func render(_ result: AnyStudyResult, context: RenderContext) -> String {
        switch result {
        case .headline(let value): return render(value, context: context)
        case .feynman(let value): return render(value, context: context)
        case .summary(let value): return render(value, context: context)
        case .flashcards(let value): return render(value, context: context)
        case .quiz(let value): return render(value, context: context)
        case .mindMap(let value): return render(value, context: context)
        case .podcast(let value): return render(value, context: context)
        case .studyKit(let value): return render(value, context: context)
        }
    }

    /// `# Title` and the blurb.
    public static func render(_ headline: Headline, context: RenderContext) -> String {
        let headline = CleanResult.headline(headline)
        return document([heading(1, headline.title), MarkdownEscaping.inline(headline.blurb)])
    }

    /// Verdict and score, what was right, the gaps with their corrections, the follow-up question.
    public static func render(_ feedback: FeynmanFeedback, context: RenderContext) -> String {
        let feedback = CleanResult.feynman(feedback)
        var blocks = [
            heading(1, titled("Feynman feedback", context)),
            "**Verdict:** \(feedback.verdict.rawValue) · **Score:** \(feedback.score)/10",
        ]
        if !feedback.whatWasRight.isEmpty {
            blocks.append(heading(2, "What was right"))
            blocks.append(bullets(feedback.whatWasRight))
        }
        if !feedback.gaps.isEmpty {
            blocks.append(heading(2, "Gaps"))
            blocks.append(feedback.gaps.map { gap in
                "- " + MarkdownEscaping.inline(gap.point)
                    + "\n  - Correction: " + MarkdownEscaping.inline(gap.correction)
                    + (Grounding.alreadyQuotes(gap.correction,
                    gap.quote) ? "" : "\n  - Source: “" + MarkdownEscaping.inline(gap.quote) + "”")
            }.joined(separator: "\n"))
        }
        blocks.append(heading(2, "Follow-up question"))
        blocks.append(MarkdownEscaping.inline(feedback.followUpQuestion))
        return document(blocks)
    }

    /// The overview and the key points as bullets.
    public static func render(_ summary: Summary, context: RenderContext) -> String {
        document(summaryBlocks(CleanResult.summary(summary), level: 1, title: titled("Summary", context)))
    }

    /// Numbered cards: the question as a heading, the answer, the quote as a blockquote.
    public static func render(_ flashcards: Flashcards, context: RenderContext) -> String {
        document(flashcardBlocks(CleanResult.flashcards(flashcards), level: 1, title: titled("Flashcards", context)))
    }

    /// Numbered questions with choices A–D, then an answer key.
    public static func render(_ quiz: Quiz, context: RenderContext) -> String {
        document(quizBlocks(CleanResult.quiz(quiz), level: 1, title: titled("Quiz", context)))
    }

    /// The central topic in bold, then the branches as a nested bullet list.
    public static func render(_ mindMap: MindMap, context: RenderContext) -> String {
        document(mindMapBlocks(CleanResult.mindMap(mindMap), level: 1, title: titled("Mind map", context)))
    }

    /// The script: the title, who is who, then each turn as `**Name:** line` with the explainer's
    /// quote below it, and the recap, spoken by the explainer, last.
    public static func render(_ script: PodcastScript, context: RenderContext) -> String {
        document(podcastBlocks(CleanResult.podcast(script), level: 1, context: context))
    }

    /// The whole kit: headline, summary, flashcards, quiz, mind map, in that order.
    public static func render(_ kit: StudyKitBundle, context: RenderContext) -> String {
        let kit = CleanResult.kit(kit)
        var blocks = [heading(1, kit.headline.title), MarkdownEscaping.inline(kit.headline.blurb)]
        blocks += summaryBlocks(kit.summary, level: 2, title: "Summary")
        blocks += flashcardBlocks(kit.flashcards, level: 2, title: "Flashcards")
        blocks += quizBlocks(kit.quiz, level: 2, title: "Quiz")
        blocks += mindMapBlocks(kit.mindMap, level: 2, title: "Mind map")
        return document(blocks)
    }

    // MARK: - Sections (values already cleaned)

    static func summaryBlocks(_ summary: Summary, level: Int, title: String) -> [String] {
        var blocks = [heading(level, title), MarkdownEscaping.inline(summary.overview),
            heading(level + 1, "Key points"),
                      bullets(summary.keyPoints)]
        // A long document's points by top-level section (#54), each under its section's heading.
        if !summary.sections.isEmpty { blocks.append(heading(level + 1, "Key points by section")) }
        for group in summary.sections {
            blocks += [heading(level + 2, group.section), bullets(group.keyPoints)]
        }
        return blocks
    }

    static func flashcardBlocks(_ flashcards: Flashcards, level: Int, title: String) -> [String] {
        var blocks = [heading(level, title)]
        for (index, card) in flashcards.cards.enumerated() {
            blocks.append(String(repeating: "#",
                count: level + 1) + " \(index + 1). " + MarkdownEscaping.inline(card.question))
            blocks.append("**Answer:** " + MarkdownEscaping.inline(card.answer))
            blocks.append(MarkdownEscaping.blockquote(card.quote))
        }
        return blocks
    }

    static func quizBlocks(_ quiz: Quiz, level: Int, title: String) -> [String] {
        var blocks = [heading(level, title)]
        for (index, question) in quiz.questions.enumerated() {
            let marker = "\(index + 1). "
            let indent = String(repeating: " ", count: marker.count)
            var lines = [marker + MarkdownEscaping.inline(question.prompt)]
            for (choiceIndex, choice) in question.choices.enumerated() {
                lines.append(indent + "- " + choiceLetter(choiceIndex) + ". " + MarkdownEscaping.inline(choice))
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        blocks.append(heading(level + 1, "Answer key"))
        blocks.append(quiz.questions.enumerated().map { index, question in
            let answer = question.choices.indices.contains(question.answerIndex)
                ? "**\(choiceLetter(question.answerIndex)).** "
                    + MarkdownEscaping.inline(question.choices[question.answerIndex])
                : "**?**"
            let source = Grounding.alreadyQuotes(question.explanation, question.quote)
                ? "" : " (the material: “" + MarkdownEscaping.inline(question.quote) + "”)"
            return "\(index + 1). " + answer + " — " + MarkdownEscaping.inline(question.explanation) + source
        }.joined(separator: "\n"))
        return blocks
    }

    static func podcastBlocks(_ script: PodcastScript, level: Int, context: RenderContext) -> [String] {
        let hosts =
            script.hosts.map {
                "**" + MarkdownEscaping.inline($0.name) + "** ("
                    + ($0.role == .curious ? "asks" : "explains, from the material") + ")"
            }
        var blocks = [heading(level, script.title), "With " + hosts.joined(separator: " and ") + "."]
        for turn in script.spokenTurns {
            blocks.append("**" + MarkdownEscaping.inline(turn.speaker) + ":** " + MarkdownEscaping.inline(turn.line))
            guard !turn.quote.isEmpty else { continue }
            let page = context.pageOfQuote?(turn.quote)
            // A line that reads the quote out needs only its source; else the quote is shown.
            if Grounding.alreadyQuotes(turn.line, turn.quote) {
                blocks.append("> *Word for word from the material\(page.map { ", page \($0)" } ?? "").*")
            } else {
                blocks.append(MarkdownEscaping.blockquote(turn.quote) + (page.map { "\n>\n> *Page \($0).*" } ?? ""))
            }
        }
        return blocks
    }

    static func mindMapBlocks(_ mindMap: MindMap, level: Int, title: String) -> [String] {
        var lines: [String] = []
        func add(_ nodes: [MindMap.Node], depth: Int) {
            for node in nodes {
                lines.append(String(repeating: "  ", count: depth) + "- " + MarkdownEscaping.inline(node.label))
                add(node.children, depth: depth + 1)
            }
        }
        add(mindMap.branches, depth: 0)
        return [heading(level, title), "**" + MarkdownEscaping.heading(mindMap.centralTopic) + "**",
            lines.joined(separator: "\n")]
    }

    /// `A`, `B`, `C`, `D` … and the position itself past `Z`.
    static func choiceLetter(_ index: Int) -> String {
        guard (0..<26).contains(index), let scalar = Unicode.Scalar(65 + index) else { return String(index + 1) }
        return String(Character(scalar))
    }

    // MARK: - Building blocks

    /// A heading; `text` is model text and is escaped.
    private static func heading(_ level: Int, _ text: String) -> String {
        String(repeating: "#", count: level) + " " + MarkdownEscaping.heading(text)
    }

    private static func bullets(_ items: [String]) -> String {
        items.map { "- " + MarkdownEscaping.inline($0) }.joined(separator: "\n")
    }

    /// `base` or `base: title`, so a standalone file names its material.
    private static func titled(_ base: String, _ context: RenderContext) -> String {
        context.cleanTitle.map { base + ": " + $0 } ?? base
    }

    private static func document(_ blocks: [String]) -> String {
        blocks.joined(separator: "\n\n") + "\n"
    }
}

// MARK: - Escaping

/// Escapes model text so that it stays text inside our Markdown structure.
enum MarkdownEscaping {
    /// Characters that start or end inline structure anywhere in a line.
    private static let alwaysEscaped: Set<Character> = ["\\", "`", "*", "[", "]", "<", "|", "~"]

    /// `text` on one line, escaped for use as a paragraph or list item.
    static func inline(_ text: String) -> String {
        escaped(text, startsLine: true)
    }

    /// `text` on one line, escaped as the text of an ATX heading (after `# `) or of the bold
    /// central topic (after `**`): a list, quote or setext marker there is text already, so "4.
    /// More Control Flow Tools" stays as written.
    static func heading(_ text: String) -> String {
        escaped(text, startsLine: false)
    }

    private static func escaped(_ text: String, startsLine: Bool) -> String {
        let characters = Array(ProseText.oneLine(text))
        var out = ""
        var formulaEnd = 0
        for (index, character) in characters.enumerated() {
            // A formula stays TeX as the material wrote it (`$p_{ij}$`), which Markdown's math reads.
            if index < formulaEnd {
                out.append(character)
                continue
            }
            if character == "$", let end = FormulaText.spanEnd(in: characters, from: index) {
                formulaEnd = end
                out.append(character)
                continue
            }
            let previous: Character? = index > 0 ? characters[index - 1] : nil
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if needsEscape(character, at: index, startsLine: startsLine, previous: previous, next: next,
                in: characters) {
                out.append("\\")
            }
            out.append(character)
        }
        return out
    }

    /// `text` as a blockquote, one `> ` line per line of the text.
    static func blockquote(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let escaped = inline(String(line))
            return escaped.isEmpty ? ">" : "> " + escaped
        }
        // Trailing empty lines only add empty quote lines.
        var trimmed = lines
        while trimmed.count > 1, trimmed.last == ">" { trimmed.removeLast() }
        return trimmed.joined(separator: "\n")
    }

    private static func needsEscape(
        _ character: Character, at index: Int, startsLine: Bool, previous: Character?, next: Character?,
        in characters: [Character]
    ) -> Bool {
        if alwaysEscaped.contains(character) { return true }
        switch character {
        case "_":
            // Inside a word (snake_case) an underscore cannot open emphasis.
            return !(previous?.isLetterOrDigit ?? false) || !(next?.isLetterOrDigit ?? false)
        case "&":
            // `&amp;` or `&#60;` would become a character reference; `Q&A` would not.
            let name = characters[(index + 1)...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }
            let end = index + 1 + name.count
            return !name.isEmpty && end < characters.count && characters[end] == ";"
        case "#":
            // A heading marker at the start, or a closing sequence after a space.
            return previous.map(\.isWhitespace) ?? true
        case ">", "-", "+", "=":
            // Quote, list, or setext-underline markers only matter at the start of a line.
            return startsLine && index == 0
        case ".", ")":
            // `1. ` or `1)` at the start of a line would start an ordered list; `1.5` would not.
            return startsLine && index > 0 && characters[..<index].allSatisfy(\.isASCIIDigit)
                && (next?.isWhitespace ?? true)
        default:
            return false
        }
    }
}

private extension Character {
    var isLetterOrDigit: Bool { isLetter || isNumber }
    var isASCIIDigit: Bool { isASCII && isNumber }
}
