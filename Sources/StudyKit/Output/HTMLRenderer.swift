import Foundation

/// One self-contained HTML page for a result: `--format html`, and `kit.html` in `--out DIR`.
///
/// The page carries its style sheet and script inline (``HTMLPageAssets``) and asks for nothing
/// over the network, so it works from `file://` offline. Everything is rendered here, in Swift,
/// as escaped HTML, so the page reads and prints without its script; the script only adds the
/// interaction (flipping cards, checking answers, folding the mind map).
///
/// Model text is untrusted: every string goes through ``TerminalSafety`` and is then
/// HTML-escaped. The one piece of data the script reads — the quiz's answers and the page's
/// storage key — is JSON in a `<script type="application/json">` element, with `<`, `>` and `&`
/// written as `\u003c`, `\u003e`, `\u0026`, so no string can close the element.
public enum HTMLRenderer {
    /// The page for any result.
    public static func render(_ result: AnyStudyResult, context: RenderContext) -> String {
        var page = Page(context: context)
        switch result {
        case .headline(let headline):
            page.header(CleanResult.headline(headline), task: .headline)
        case .feynman(let feedback):
            page.header(nil, task: .feynman)
            page.feynman(CleanResult.feynman(feedback))
        case .summary(let summary):
            page.header(nil, task: .summary)
            page.summary(CleanResult.summary(summary), task: .summary)
        case .flashcards(let cards):
            page.header(nil, task: .flashcards)
            page.flashcards(CleanResult.flashcards(cards), task: .flashcards)
        case .quiz(let quiz):
            page.header(nil, task: .quiz)
            page.quiz(CleanResult.quiz(quiz), task: .quiz)
        case .mindMap(let map):
            page.header(nil, task: .mindmap)
            page.mindMap(CleanResult.mindMap(map), task: .mindmap)
        case .podcast(let script):
            page.header(nil, task: .podcast)
            page.podcast(CleanResult.podcast(script), task: .podcast)
        case .studyKit(let kit):
            let kit = CleanResult.kit(kit)
            page.header(kit.headline, task: .studyKit)
            page.summary(kit.summary, task: .summary)
            page.flashcards(kit.flashcards, task: .flashcards)
            page.quiz(kit.quiz, task: .quiz)
            page.mindMap(kit.mindMap, task: .mindmap)
            // The optional podcast part comes last, as in Markdown.
            if let script = context.podcast { page.podcast(CleanResult.podcast(script), task: .podcast) }
        }
        return page.document()
    }

    /// `m:ss` for a time in seconds: the podcast's length and where each turn starts.
    static func clockText(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }

    /// `text` without a leading list marker: a bullet, or a number followed by `.` or `)`, and its space.
    static func withoutListMarker(_ text: String) -> String {
        var rest = Substring(text)
        if let first = rest.first, "•·‣▪◦-–*".contains(first) {
            rest = rest.dropFirst()
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...3).contains(digits.count), let mark = rest.dropFirst(digits.count).first, mark == "."
                || mark == ")" else { return text }
            rest = rest.dropFirst(digits.count + 1)
        }
        guard rest.first == " " else { return text }
        return String(rest.drop { $0 == " " })
    }

    /// `value` as JSON text that is safe inside a `<script>` element: no `<`, `>` or `&` appears
    /// (they are only ever inside strings, where `\uXXXX` means the same), nor U+2028/U+2029.
    static func scriptSafeJSON(_ value: JSONValue) -> String {
        var out = ""
        for scalar in value.compactText.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

// MARK: - Provenance

/// What the `--json` envelope says about how each part was made.
struct PageProvenance {
    struct Part {
        var engine: String
        var model: String
        var cut: Bool
        var keptCharacters: Int?
        var totalCharacters: Int?
        var cached: Bool
        var fallbacks: [String]
        /// Per-item provenance by path (`cards[3]`): `written`, `repaired`, `rewritten` or `extracted`, and its note.
        var items: [String: (kind: String, note: String?)]

        init?(_ json: JSONValue?) {
            guard let json, let engine = json["engine"]?.stringValue else { return nil }
            self.engine = engine
            model = json["model"]?.stringValue ?? ""
            let fitted = json["fitted"]
            cut = fitted?["cut"].map { $0 == .bool(true) } ?? false
            keptCharacters = fitted?["keptCharacters"]?.integerValue
            totalCharacters = fitted?["totalCharacters"]?.integerValue
            cached = json["cached"] == .bool(true)
            fallbacks = (json["fallbacks"]?.arrayValue ?? []).compactMap { fallback in
                guard let engine = fallback["engine"]?.stringValue else { return nil }
                return engine + (fallback["reason"]?.stringValue.map { ": " + $0 } ?? "")
            }
            var items: [String: (kind: String, note: String?)] = [:]
            for item in json["items"]?.arrayValue ?? [] {
                guard let path = item["path"]?.stringValue, let kind = item["provenance"]?.stringValue else { continue }
                items[path] = (kind, item["note"]?.stringValue)
            }
            self.items = items
        }

        /// "the builtin engine (extractive)", "the local model SmolLM2…".
        var madeBy: String {
            switch engine {
            case "builtin": return "the builtin engine (extractive, no model)"
            case "local": return "the local model " + model
            case "remote": return "the remote model " + model
            default: return engine + " " + model
            }
        }

        var fitText: String {
            guard cut else { return "read whole" }
            if let kept = keptCharacters, let total = totalCharacters, total > 0 {
                return "cut to fit: \(Int((Double(kept) / Double(total) * 100).rounded()))% of \(total) characters read"
            }
            return "cut to fit"
        }
    }

    var whole: Part?
    var parts: [String: Part] = [:]

    init(_ envelope: JSONValue?) {
        whole = Part(envelope)
        for part in envelope?["parts"]?.arrayValue ?? [] {
            if let task = part["task"]?.stringValue, let made = Part(part) { parts[task] = made }
        }
    }

    /// How `task`'s part was made: its own record in a kit, else the whole result's.
    func part(_ task: StudyTask) -> Part? { parts[task.name] ?? whole }
}

// MARK: - Building the page

private struct Page {
    let context: RenderContext
    let provenance: PageProvenance
    var body: [String] = []
    var nav: [(id: String, title: String)] = []
    var data: JSONObject = [:]
    var title = "Study kit"
    /// Whether the page has the podcast's player (its CSP then lets it load the file).
    var playsAudio = false
    /// The section groups the cards and questions are shown in (their index, heading), for the filter.
    var filterGroups: [(group: Int, heading: String)] = []

    init(context: RenderContext) {
        self.context = context
        provenance = PageProvenance(context.envelope)
    }

    /// Text of the page, escaped; a formula the material had as MathML (``RenderContext/formulas``)
    /// is that MathML, which the browser sets itself, offline. A formula a model wrote stays TeX.
    private func esc(_ text: String) -> String {
        guard !context.formulas.isEmpty, text.contains("$") else { return OutputText.markupEscaped(text) }
        var out = ""
        var start = text.startIndex
        for range in FormulaText.spans(in: text) {
            guard let mathML = context.formulas[String(text[range])] else { continue }
            out += OutputText.markupEscaped(String(text[start..<range.lowerBound])) + mathML
            start = range.upperBound
        }
        return out + OutputText.markupEscaped(String(text[start...]))
    }

    /// Text for an attribute or the page's title, where markup cannot go.
    private func plain(_ text: String) -> String { OutputText.markupEscaped(text) }

    // MARK: Header

    mutating func header(_ headline: Headline?, task: StudyTask) {
        let heading = headline.map { ProseText.oneLine($0.title) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? context.cleanTitle ?? "Study kit"
        title = heading
        var lines = ["<header class=\"top\" id=\"top\">", "<p class=\"kicker\">\(esc(Self.kicker(task)))</p>",
            "<h1>\(esc(heading))</h1>"]
        if let headline { lines.append("<p class=\"blurb\">\(esc(ProseText.oneLine(headline.blurb)))</p>") }
        if let source = context.cleanTitle, source != heading {
            lines.append("<p class=\"source-title\">From <cite>\(esc(source))</cite></p>")
        }
        lines.append(madeWith())
        lines.append("</header>")
        body.append(lines.joined(separator: "\n"))
    }

    private static func kicker(_ task: StudyTask) -> String {
        switch task {
        case .headline: return "Headline"
        case .feynman: return "Feynman feedback"
        case .summary: return "Summary"
        case .flashcards: return "Flashcards"
        case .quiz: return "Quiz"
        case .mindmap: return "Mind map"
        case .podcast: return "Podcast"
        case .studyKit: return "Study kit"
        }
    }

    /// The provenance panel: who made each part, what was cut, what was extracted.
    private func madeWith() -> String {
        guard provenance.whole != nil else { return "" }
        var rows: [String] = []
        let tasks: [StudyTask] = provenance.parts.isEmpty
            ? [StudyTask.allCases.first { $0.name == context.envelope?["task"]?.stringValue } ?? .studyKit]
            : [.headline, .summary, .flashcards, .quiz, .mindmap, .podcast].filter { provenance.parts[$0.name] != nil }
        for task in tasks {
            guard let part = provenance.part(task) else { continue }
            let counts = Dictionary(grouping: part.items.values, by: \.kind).mapValues(\.count)
            let items = ["written", "repaired", "rewritten", "extracted"].compactMap { kind in
                counts[kind].map { "\($0) \(kind)" }
            }
            let fromCache = part.cached ? " (from the cache)" : ""
            rows.append("<tr><th scope=\"row\">\(esc(task.name))</th><td>\(esc(part.madeBy))\(fromCache)</td>"
                + "<td>\(esc(part.fitText))</td>"
                + "<td>\(esc(items.isEmpty ? "—" : items.joined(separator: ", ")))</td></tr>")
        }
        let cutAny = tasks.contains { provenance.part($0)?.cut == true }
        let engines = Set(tasks.compactMap { provenance.part($0)?.engine }).sorted()
        let names = ["builtin": "the builtin engine (extractive, no model)", "local": "a local model",
            "remote": "a remote model"]
        var summary = "Made by " + engines.map { names[$0] ?? $0 }.joined(separator: " and ")
        summary += cutAny ? " · the material was cut to fit" : " · the material was read whole"
        var lines = ["<details class=\"provenance\">", "<summary>\(esc(summary))</summary>",
                     "<table><thead><tr><th scope=\"col\">Part</th><th scope=\"col\">Made by</th><th "
                         + "scope=\"col\">Material</th><th scope=\"col\">Items</th></tr></thead><tbody>"]
        lines += rows
        lines.append("</tbody></table>")
        let fallbacks = tasks.flatMap { provenance.part($0)?.fallbacks ?? [] }
        if !fallbacks.isEmpty {
            lines.append("<p>Tried first: " + Array(Set(fallbacks)).sorted().map(esc).joined(separator: "; ") + "</p>")
        }
        lines.append("</details>")
        return lines.joined(separator: "\n")
    }

    /// A badge naming who made one item, when the envelope says and the part's items differ.
    private func itemBadge(_ task: StudyTask, path: String) -> String {
        guard sharedItemStory(task) == nil, let item = provenance.part(task)?.items[path] else { return "" }
        let note = item.note.map { " — " + $0 } ?? ""
        return "<p class=\"prov prov-\(plain(item.kind))\">\(esc(item.kind))\(esc(note))</p>"
    }

    /// The one story all of a part's items share (kind and note), said once instead of on each item.
    private func sharedItemStory(_ task: StudyTask) -> String? {
        guard let items = provenance.part(task)?.items.values, items.count > 1, let first = items.first,
            items.allSatisfy({ $0.kind == first.kind && $0.note == first.note })
        else { return nil }
        return "Every item here was " + first.kind + (first.note.map { ": " + $0 } ?? "") + "."
    }

    /// The part's shared item story as a line under its heading, or nothing.
    private func partNote(_ task: StudyTask) -> String {
        sharedItemStory(task).map { "<p class=\"prov part-prov\">\(esc($0))</p>" } ?? ""
    }

    private mutating func section(_ id: String, _ title: String, _ content: [String]) {
        nav.append((id, title))
        body.append((["<section id=\"\(id)\" aria-labelledby=\"\(id)-h\">",
            "<h2 id=\"\(id)-h\">\(esc(title))</h2>"] + content + ["</section>"])
            .joined(separator: "\n"))
    }

    // MARK: Parts

    mutating func summary(_ summary: Summary, task: StudyTask) {
        var lines = [partNote(task), "<p class=\"overview\">\(esc(ProseText.oneLine(summary.overview)))</p>",
            itemBadge(task, path: "overview"),
                     "<h3>Key points</h3>", "<ul class=\"points\">"]
        for (index, point) in summary.keyPoints.enumerated() {
            lines.append("<li>\(esc(ProseText.oneLine(point)))\(itemBadge(task, path: "keyPoints[\(index)]"))</li>")
        }
        lines.append("</ul>")
        section("summary", "Summary", lines)
    }

    /// The podcast as a transcript a student can read along: who speaks, what they say, the
    /// material each explainer line rests on (highlighted in the line when it reads the sentence
    /// out, else quoted under it, with its PDF page), and the recap. With audio beside the page,
    /// a player above it and each turn's time in the recording.
    mutating func podcast(_ script: PodcastScript, task: StudyTask) {
        let times = context.podcastTimes
        var lines = [partNote(task), "<h3 class=\"episode\">\(esc(script.title))</h3>"]
        let hosts = script.hosts.map { host in
            "<strong>\(esc(host.name))</strong> ("
                + (host.role == .curious ? "asks" : "explains, from the material") + ")"
        }
        if !hosts.isEmpty { lines.append("<p class=\"hosts\">With " + hosts.joined(separator: " and ") + ".</p>") }
        if let file = context.podcastAudioFile {
            lines.append(player(file, title: script.title, seconds: times?.last?.end))
            playsAudio = true
        }
        lines.append("<ol class=\"transcript\" aria-label=\"Transcript\">")
        for (index, turn) in script.turns.enumerated() {
            let role = script.role(of: turn.speaker) ?? .curious
            var item = "<li class=\"turn \(role.rawValue)\">" + turnHead(turn.speaker, at: times, index)
            item += quotedLine(turn)
            lines.append(item + itemBadge(task, path: "turns[\(index)]") + "</li>")
        }
        lines.append("</ol>")
        if !script.recap.isEmpty {
            let speaker = script.host(.explainer)?.name ?? ""
            lines.append("<div class=\"recap\"><h4>Recap</h4>" + turnHead(speaker, at: times, script.turns.count)
                + "<ol>" + script.recap.map { "<li>\(esc(ProseText.oneLine($0)))</li>" }.joined() + "</ol></div>")
        }
        section("podcast", "Podcast", lines)
    }

    /// The speaker's name and, when the audio was made, where the turn starts in it.
    private func turnHead(_ speaker: String, at times: [(start: Double, end: Double)]?, _ index: Int) -> String {
        let time = times.flatMap { $0.indices.contains(index) ? $0[index].start : nil }
            .map { "<span class=\"at\">\(HTMLRenderer.clockText($0))</span> " } ?? ""
        return "<p class=\"speaker\">\(time)\(esc(speaker))</p>"
    }

    /// A turn's line with its supporting quote: the words read out from the material marked in
    /// the line itself, or the quote shown under it; the PDF page when the quote is found there.
    private func quotedLine(_ turn: PodcastScript.Turn) -> String {
        let line = ProseText.oneLine(turn.line), quote = ProseText.oneLine(turn.quote)
        guard !quote.isEmpty else { return "<p class=\"line\">\(esc(line))</p>" }
        let page = context.pageOfQuote?(quote).map { ", page \($0)" } ?? ""
        // A quote of a list item is read out without its marker ("3. ", "• ").
        if let range = line.range(of: quote) ?? line.range(of: HTMLRenderer.withoutListMarker(quote)) {
            return "<p class=\"line\">\(esc(String(line[..<range.lowerBound])))<mark "
                + "class=\"material\">\(esc(String(line[range])))</mark>"
                + "\(esc(String(line[range.upperBound...])))</p><p class=\"from\">Highlighted: word for word from the "
                + "material\(page)</p>"
        }
        return "<p class=\"line\">\(esc(line))</p><figure class=\"material\"><blockquote>\(esc(quote))</blockquote>"
            + "<figcaption>From the material\(page)</figcaption></figure>"
    }

    /// The audio player: the file beside the page, by its relative path, with a download link
    /// that also stands in for a browser that cannot play it.
    private func player(_ file: String, title: String, seconds: Double?) -> String {
        let href = plain(file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
        let name = esc((file as NSString).lastPathComponent)
        let length = seconds.map { " (" + HTMLRenderer.clockText($0) + ")" } ?? ""
        return "<figure class=\"player\"><audio controls preload=\"metadata\" src=\"\(href)\" "
            + "aria-label=\"Listen to the podcast: \(plain(title))\">"
            + "<a href=\"\(href)\">\(name)</a></audio>"
            + "<figcaption>Listen\(length), or <a href=\"\(href)\" download>download \(name)</a>. Two synthetic voices "
            + "read the transcript below.</figcaption></figure>"
    }

    mutating func feynman(_ feedback: FeynmanFeedback) {
        var lines =
            ["<p class=\"verdict verdict-\(feedback.verdict.rawValue)\">Verdict: "
                + "<strong>\(feedback.verdict.rawValue)</strong> · score \(feedback.score) of 10</p>"]
        if !feedback.whatWasRight.isEmpty {
            lines.append("<h3>What you got "
                + "right</h3><ul>" + feedback.whatWasRight.map { "<li>\(esc($0))</li>" }.joined() + "</ul>")
        }
        if !feedback.gaps.isEmpty {
            lines.append("<h3>What to fix</h3><dl class=\"gaps\">"
                + feedback.gaps.map { gap in
                    let source = Grounding.alreadyQuotes(gap.correction, gap.quote) || gap.quote.isEmpty
                        ? "" : "<blockquote>\(esc(gap.quote))</blockquote>"
                    return "<dt>\(esc(gap.point))</dt><dd>\(esc(gap.correction))\(source)</dd>"
                }.joined() + "</dl>")
        }
        lines.append("<h3>Next question</h3><p>\(esc(feedback.followUpQuestion))</p>")
        section("feynman", "Feedback on your explanation", lines)
    }

    mutating func flashcards(_ deck: Flashcards, task: StudyTask) {
        let count = deck.cards.count
        var lines = [
            partNote(task),
            "<p class=\"hint js-only\">Click the card or press <kbd>Space</kbd> to flip it; <kbd>←</kbd> "
                + "<kbd>→</kbd> for the previous and next card. Mark each card <em>again</em> or <em>good</em>: this "
                + "browser remembers.</p>",
            "<div class=\"deck\" data-count=\"\(count)\">",
            "<p class=\"deck-status js-only\" aria-live=\"polite\"><span class=\"card-pos\">Card 1 of \(count)</span> "
                + "<span class=\"card-tally\"></span></p>",
        ]
        var position = 0
        for group in grouped(deck.cards.map(\.quote)) {
            lines.append(group.open + "<ol class=\"cards\">")
            for index in group.items {
                let card = deck.cards[index]
                position += 1
                let key = String(context.digest(card.question).prefix(16))
                var item = "<li class=\"card\" id=\"card-\(index)\" data-key=\"\(plain(key))\">"
                item += "<div class=\"face\" role=\"button\" tabindex=\"0\" aria-pressed=\"false\" aria-label=\"Card "
                    + "\(position) of \(count); press Space to flip\">"
                item += "<div class=\"side q\"><span "
                    + "class=\"side-label\">Question</span><p>\(esc(card.question))</p></div>"
                // The back repeats the question, small, so the answer is read in its context.
                item += "<div class=\"side a\"><p class=\"recall\">\(esc(card.question))</p><span "
                    + "class=\"side-label\">Answer</span><p>\(esc(card.answer))</p></div></div>"
                item += sourceDetails(card.quote)
                item += itemBadge(task, path: "cards[\(index)]")
                item += "<p class=\"mark js-only\" aria-live=\"polite\"></p></li>"
                lines.append(item)
            }
            lines.append("</ol>" + group.close)
        }
        lines.append("""
            <div class="controls js-only" role="group" aria-label="Flashcard controls">
            <button type="button" data-act="prev">← Previous</button><button type="button" \
            data-act="flip">Flip</button><button type="button" data-act="next">Next →</button>
            <span class="sep"></span><button type="button" data-act="again" class="again">Again</button><button \
            type="button" data-act="good" class="good">Good</button>
            </div>
            </div>
            """)
        section("cards", "Flashcards", lines)
    }

    /// Items (by their quotes) in the groups the page shows them in: by top-level section
    /// (``SectionGroups``, #54) in document order, each group's items in the part's order, then
    /// those in no section; one group without a heading when the document has no such sections.
    private mutating func grouped(_ quotes: [String]) -> [(open: String, close: String, items: [Int])] {
        let headings = context.quoteLocator?.sectionGroups ?? []
        guard headings.count >= 2, let locator = context.quoteLocator else { return [("", "", Array(quotes.indices))] }
        var members = [[Int]](repeating: [], count: headings.count + 1)
        for (index, quote) in quotes.enumerated() {
            let group = locator.locate(quote.trimmingCharacters(in: .whitespacesAndNewlines))?.group ?? headings.count
            members[min(group, headings.count)].append(index)
        }
        return members.indices.compactMap { group in
            guard !members[group].isEmpty else { return nil }
            let heading = group < headings.count ? headings[group] : "Not in a section"
            if !filterGroups.contains(where: { $0.group == group }) { filterGroups.append((group, heading)) }
            let open = "<div class=\"group\" data-group=\"g\(group)\"><h3 class=\"group-head\">\(esc(heading))</h3>"
            return (open, "</div>", members[group])
        }
    }

    /// "Show source": the supporting quote and, for a PDF, the page it is on.
    private func sourceDetails(_ quote: String) -> String {
        let trimmed = quote.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "" }
        var details = "<details class=\"source\"><summary>Show source</summary><blockquote>\(esc(trimmed))</blockquote>"
        if let page = context.pageOfQuote?(trimmed) { details += "<p class=\"page\">Page \(page) of the PDF</p>" }
        return details + "</details>"
    }

    mutating func quiz(_ quiz: Quiz, task: StudyTask) {
        let count = quiz.questions.count
        var lines = [partNote(task),
            "<p class=\"hint js-only\">Pick an answer to check it. Your score shows when every question is "
                + "answered.</p>"]
        let letters = ["A", "B", "C", "D", "E", "F"]
        var position = 0
        var answers: [JSONValue] = []
        for group in grouped(quiz.questions.map(\.quote)) {
            lines.append(group.open + "<ol class=\"questions\">")
            for index in group.items {
                let question = quiz.questions[index]
                position += 1
                answers.append(.integer(question.answerIndex))
                var item =
                    "<li class=\"question\" id=\"q-\(index)\"><fieldset><legend><span class=\"qn\">Question "
                        + "\(position) of \(count)</span> \(esc(question.prompt))</legend>"
                item += "<div class=\"choices\">"
                for (choiceIndex, choice) in question.choices.enumerated() {
                    let letter = choiceIndex < letters.count ? letters[choiceIndex] : String(choiceIndex + 1)
                    item += "<button type=\"button\" class=\"choice\" data-i=\"\(choiceIndex)\"><span "
                        + "class=\"letter\">\(letter)</span> <span class=\"choice-text\">\(esc(choice))</span></button>"
                }
                item += "</div><div class=\"feedback\" role=\"status\" aria-live=\"polite\"><p class=\"verdict\"></p>"
                item += "<p class=\"explanation\">\(esc(question.explanation))</p>"
                let quote = question.quote.trimmingCharacters(in: .whitespacesAndNewlines)
                // The builtin explanation already quotes the sentence; a page shows it once.
                if !quote.isEmpty, !Grounding.alreadyQuotes(question.explanation, quote) {
                    item += "<blockquote>\(esc(quote))</blockquote>"
                    if let page =
                        context.pageOfQuote?(quote) { item += "<p class=\"page\">Page \(page) of the PDF</p>" }
                }
                let answer =
                    question.choices.indices.contains(question.answerIndex)
                        ? question.choices[question.answerIndex] : ""
                item += "<p class=\"print-answer\">Answer: \(letters[min(question.answerIndex, letters.count - 1)]) "
                    + "\(esc(answer))</p>"
                item += "</div>\(itemBadge(task, path: "questions[\(index)]"))</fieldset></li>"
                lines.append(item)
            }
            lines.append("</ol>" + group.close)
        }
        lines.append("<div class=\"score js-only\"><p class=\"score-text\" role=\"status\" "
            + "aria-live=\"polite\">Answered 0 of \(count).</p><button type=\"button\" class=\"retry\">Retry the "
            + "quiz</button></div>")
        // In the page's order, which the script reads the questions in.
        data["answers"] = .array(answers)
        section("quiz", "Quiz", lines)
    }

    mutating func mindMap(_ map: MindMap, task: StudyTask) {
        let layout = MindMapLayout(map)
        let central = ProseText.oneLine(map.centralTopic)
        var lines = [partNote(task),
            "<p class=\"hint js-only\">Click a topic, or press <kbd>Enter</kbd> on it, to fold or unfold its "
                + "branch.</p>",
                     "<div class=\"map-frame\" tabindex=\"0\" role=\"region\" aria-label=\"Mind map drawing, "
                         + "scrollable\">",
                     SVGRenderer.inline(layout, title: "Mind map: " + central), "</div>"]
        // The same map as nested lists, for screen readers and for reading without the drawing.
        func list(_ nodes: [MindMap.Node]) -> String {
            nodes.isEmpty ? "" : "<ul>"
                + nodes.map { "<li>\(esc(ProseText.oneLine($0.label)))\(list($0.children))</li>" }.joined()
                + "</ul>"
        }
        lines.append("<details class=\"outline\"><summary>The mind map as a "
            + "list</summary><p>\(esc(central))</p>\(list(map.branches))</details>")
        data["mindMapNodes"] = .integer(layout.nodes.count)
        section("mindmap", "Mind map", lines)
    }

    // MARK: Document

    /// The section filter under the header: one `<select>` that shows one section's cards and
    /// questions (the script's; without it every group shows), when they are grouped.
    private func sectionFilter() -> String? {
        guard filterGroups.count >= 2 else { return nil }
        let options = filterGroups.sorted { $0.group < $1.group }.map { group in
            "<option value=\"g\(group.group)\">\(esc(group.heading))</option>"
        }
        return "<div class=\"section-filter js-only\"><label for=\"section-filter\">Show the cards and questions "
            + "of</label> "
            + "<select id=\"section-filter\"><option value=\"\">every "
            + "section</option>" + options.joined() + "</select></div>"
    }

    func document() -> String {
        var pageData = data
        // Progress is kept per source, under a key that does not reveal the path.
        pageData["storageKey"] = .string("studykit:" + String(context.digest(context.sourceIdentity).prefix(16)))
        let navigation = nav.count > 1
            ? "<nav aria-label=\"Sections\"><ul>"
                + nav.map { "<li><a href=\"#\($0.id)\">\(esc($0.title))</a></li>" }.joined() + "</ul></nav>"
            : ""
        // The podcast's audio beside the page is the one thing it loads; nothing else may be.
        let media = playsAudio ? "; media-src 'self'" : ""
        var body = body
        if let filter = sectionFilter() { body.insert(filter, at: min(1, body.count)) }
        return """
            <!DOCTYPE html>
            <html lang="\(plain(context.language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
            script-src 'unsafe-inline'; img-src data:\(media)">
            <meta name="color-scheme" content="light dark">
            <title>\(plain(title))</title>
            <style>
            \(HTMLPageAssets.css)
            \(SVGRenderer.style)
            </style>
            </head>
            <body>
            <a class="skip" href="#main">Skip to the content</a>
            \(navigation)
            <main id="main">
            \(body.joined(separator: "\n"))
            </main>
            <footer><p>Made with studykit from \(esc(context.cleanTitle ?? "the material")). This page works \
            offline.</p></footer>
            <script type="application/json" id="kit-data">\(HTMLRenderer.scriptSafeJSON(.object(pageData)))</script>
            <script>
            \(HTMLPageAssets.script)
            </script>
            </body>
            </html>

            """
    }
}
