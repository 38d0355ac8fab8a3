// MARK: - Podcast

extension BuiltinEngine {
    /// The builtin show's hosts: Maya asks, Theo answers from the material.
    static let podcastHosts = [PodcastScript.Host(name: "Maya", role: .curious),
        PodcastScript.Host(name: "Theo", role: .explainer)]
    /// Most topics the show walks through (each a question and an answer, maybe a follow-up).
    private static let podcastTopics = 6
    /// Longest heading or term spoken in a question, in words.
    private static let topicWords = 8

    /// A two-host script built from the material: Maya opens with the title and asks what it is
    /// about, Theo answers with the material's lead sentence; then for each top-ranked section
    /// (by its best sentence; in document order) or, without headings, each top key term, Maya asks
    /// about it and Theo answers with its best sentence, quoted — and with a second one when Maya
    /// asks for more; Maya asks for a recap and Theo sums up with the summary's first three key
    /// points. Every explainer line is one sentence of the material, so it is grounded by construction.
    func podcast(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> PodcastScript {
        let points: [String]
        do throws(BuiltinError) { points = Array(try summary(analysis).keyPoints.prefix(3)) } catch {
            throw .tooShort(task: .podcast, usableSentences: analysis.usableSentenceCount)
        }
        guard points.count == 3 else { throw .tooShort(task: .podcast, usableSentences: analysis.usableSentenceCount) }

        var title = documentTitle(analysis)
        if ItemRules.problem(title, .label) != nil { title = composedTitle(analysis) ?? "Study Notes" }
        var show = PodcastShow(analysis: analysis)
        let curious = Self.podcastHosts[0].name
        let subject = ProseText.shortened(title, maxWords: Self.topicWords, maxLength: 60, ending: "")

        show.ask("Welcome to the study podcast! I'm \(curious), and today Theo and I are talking about \(subject). "
            + "Theo, what is this material about?")
        let whole = (analysis.prose + analysis.ranked.map(\.sentence)).filter { Self.isWholeLine($0, in: analysis) }
        guard show.answer(from: whole, leadIns: ["In a nutshell:", ""]) else {
            throw .tooShort(task: .podcast, usableSentences: analysis.usableSentenceCount)
        }

        let topics = podcastTopics(analysis, avoiding: Self.stems(of: title))
        for (number, topic) in topics.enumerated() where show.turns.count + 3 <= PodcastScript.turnRange.upperBound {
            let isLast = number == topics.count - 1 && number > 1
            show.ask(Self.question(about: topic.name, number: number, isLast: isLast, isTerm: topic.isTerm))
            guard show.answer(from: topic.sentences, leadIns: Self.leadIns(number)) else {
                show.turns.removeLast()
                continue
            }
            // A follow-up when the topic has more to say, while there is room for the others.
            let roomLeft = PodcastScript.turnRange.upperBound - show.turns.count - 1 - 2 * (topics.count - number - 1)
            if roomLeft >= 2, show.turns.count < 20 {
                show.ask(Self.followUps[number % Self.followUps.count])
                if !show.answer(from: topic.sentences, leadIns: [""]) { show.turns.removeLast() }
            }
        }
        show.ask("We're nearly out of time. Theo, can you sum it all up in three points?")
        guard PodcastScript.turnRange.contains(show.turns.count) else {
            throw .tooShort(task: .podcast, usableSentences: analysis.usableSentenceCount)
        }
        return PodcastScript(title: title, hosts: Self.podcastHosts, turns: show.turns, recap: points)
    }

    /// A topic of the show: what Maya asks about and the sentences Theo may answer with, best first.
    private struct PodcastTopic {
        let name: String
        let isTerm: Bool
        let sentences: [Sentence]
    }

    /// The top-ranked sections (by their best sentence) in document order, when the material has
    /// at least three headings besides its title; else the top key terms, each with the best
    /// sentences that mention it.
    private func podcastTopics(_ analysis: BuiltinAnalysis, avoiding titleStems: Set<String>) -> [PodcastTopic] {
        var rank: [Int: Int] = [:]
        for entry in analysis.ranked { rank[entry.sentence.offsets.lowerBound] = entry.rank }
        // Best first, but a sentence that leans on the one before it ("They …", "This …") only
        // after those that stand on their own: an answer is heard without its context.
        func best(_ sentences: [Sentence], leading term: String? = nil) -> [Sentence] {
            func key(_ sentence: Sentence) -> (Int, Int, Int) {
                let defines =
                    term.map { ProseText.withoutListMarker(sentence.text).lowercased().hasPrefix($0.lowercased()) }
                        ?? false
                return (defines ? 0 : 1, ProseText.leansOnContext(sentence.text) ? 1 : 0,
                    rank[sentence.offsets.lowerBound] ?? .max)
            }
            return sentences.filter {
                rank[$0.offsets.lowerBound] != nil && ProseText.wordCount($0.text) >= 5
                    && Self.isWholeLine($0, in: analysis)
            }
            .sorted { key($0) < key($1) }
        }
        let sections = analysis.outline.sections.compactMap { section -> (Int, PodcastTopic)? in
            guard let heading = section.heading.map(Self.withoutNumbering),
                !Self.backMatter.contains(heading.lowercased()) else { return nil }
            let name = Self.spokenHeading(ProseText.shortened(ProseText.termText(heading),
                maxWords: Self.topicWords, maxLength: 70, ending: ""))
            var sentences = best(section.sentences)
            // The two a section is heard by, in the material's order: a definition before its consequences.
            if sentences.count >= 2,
                sentences[1].offsets.lowerBound < sentences[0].offsets.lowerBound { sentences.swapAt(0, 1) }
            guard let top = sentences.min(by: { (rank[$0.offsets.lowerBound] ?? .max) < (rank[$1.offsets.lowerBound]
                ?? .max) }), !name.isEmpty, ItemRules.problem(name, .label) == nil,
                !Self.stems(of: name).isSubset(of: titleStems)
            else { return nil }
            return (rank[top.offsets.lowerBound]!, PodcastTopic(name: name, isTerm: false, sentences: sentences))
        }
        if sections.count >= 3 {
            let kept = sections.indices.sorted { sections[$0].0 < sections[$1].0 }.prefix(Self.podcastTopics).sorted()
            return kept.map { sections[$0].1 }
        }
        var topics: [PodcastTopic] = []
        var spokenStems = Set<String>()
        for phrase in analysis.keyphrases where topics.count < Self.podcastTopics {
            // Short terms only, none overlapping one already asked about ("quantity" after "quantity demanded").
            let stems = Set(phrase.key.split(separator: " ").map(String.init))
            guard phrase.wordCount <= 2, phrase.text.contains(where: \.isLetter),
                !phrase.text.contains(where: TermNormalizer.isCJK),
                !stems.isSubset(of: titleStems), stems.isDisjoint(with: spokenStems)
            else { continue }
            let mentioning = analysis.prose.indices.filter { analysis.mentions(phrase.key,
                inProse: $0) }.map { analysis.prose[$0] }
            let sentences = best(mentioning, leading: phrase.text)
            spokenStems.formUnion(stems)
            guard !sentences.isEmpty else { continue }
            topics.append(PodcastTopic(name: ProseText.termText(phrase.text), isTerm: true, sentences: sentences))
        }
        return topics
    }

    /// Whether Theo may speak a sentence: a whole one, never one that stops on "… after the end
    /// of" or a piece of a run-on sentence cut for length.
    private static func isWholeLine(_ sentence: Sentence, in analysis: BuiltinAnalysis) -> Bool {
        !ProseText.isUnfinished(sentence.text) && !isPieceOfLongerSentence(sentence, in: analysis)
    }

    /// Maya's question about a topic, varied so the show does not sound like a form.
    private static func question(about name: String, number: Int, isLast: Bool, isTerm: Bool) -> String {
        if number == 0 { return isTerm ? "Let's start with a key term: \(name). What is it, and why does it "
            + "matter?" : "Let's start with \(name). What do I need to know?" }
        if isLast { return "Finally, \(name). What's the main idea there?" }
        let headings = [
            "Okay, next up: \(name). What's going on there?", "What about \(name)?",
            "Let's talk about \(name). What does the material say?",
            "Moving on to \(name). Can you walk me through it?",
        ]
        let terms = [
            "Next up: \(name). What should I know about it?",
            "Another term that keeps coming up: \(name). What's that about?",
            "And \(name)? How does that fit in?", "Now, \(name). Can you explain that one?",
        ]
        let options = isTerm ? terms : headings
        return options[(number - 1) % options.count]
    }

    /// Headings of lists and back matter, which make no topic to talk about.
    private static let backMatter: Set<String> = [
        "timeline", "glossary", "key terms", "references", "bibliography", "further reading", "sources", "index",
        "contents",
        "table of contents", "appendix", "exercises", "questions", "review questions", "practice questions",
        "acknowledgements",
        "acknowledgments", "notes", "see also",
    ]

    /// A heading without its section number ("3.2 The Calvin cycle" → "The Calvin cycle").
    static func withoutNumbering(_ heading: String) -> String {
        var text = Substring(ProseText.oneLine(heading))
        let number = text.prefix { $0.isNumber || $0 == "." }
        // "3.2 " or "4. " or "12 ", never a year ("1989 and after").
        guard number.contains(where: \.isNumber), number.contains(".") || number.count <= 2,
            text.dropFirst(number.count).first == " "
        else { return String(text) }
        text = text.dropFirst(number.count).drop { $0 == " " }
        return text.isEmpty ? heading : String(text)
    }

    /// A heading as said inside a sentence: a leading article in lower case ("The Terror" → "the Terror").
    static func spokenHeading(_ heading: String) -> String {
        for article in ["The ", "A ", "An "] where heading.hasPrefix(article) && heading.count > article.count {
            return article.lowercased() + heading.dropFirst(article.count)
        }
        return heading
    }

    private static let followUps = ["Can you say a bit more about that?", "Interesting. Is there more to it?",
        "Go on, what else should I know?"]

    private static func leadIns(_ number: Int) -> [String] {
        [["Sure.", ""], ["Right.", ""], ["", ""], ["Good question.", ""], ["", ""],
            ["Well, the material puts it like this:", ""]][number % 6]
    }
}

/// The script as it is written: turns so far and the sentences already spoken.
private struct PodcastShow {
    let analysis: BuiltinAnalysis
    var turns: [PodcastScript.Turn] = []
    var used = Set<String>()

    init(analysis: BuiltinAnalysis) { self.analysis = analysis }

    mutating func ask(_ line: String) {
        turns.append(PodcastScript.Turn(speaker: BuiltinEngine.podcastHosts[0].name, line: line))
    }

    /// Theo answers with the first of `sentences` not yet spoken that fits a line (with a lead-in
    /// when it still fits); `false` when none does.
    mutating func answer(from sentences: [Sentence], leadIns: [String]) -> Bool {
        for sentence in sentences {
            let spoken = ProseText.sentence(sentence.text.replacingOccurrences(of: "**",
                with: "").replacingOccurrences(of: "__", with: ""))
            let key = ProseText.duplicateKey(spoken)
            guard !used.contains(key), ProseText.wordCount(spoken) >= 5,
                ItemRules.problem(spoken, .podcastLine) == nil,
                ItemRules.stockFiller(in: spoken) == nil
            else { continue }
            guard let line = leadIns.map({ $0.isEmpty ? spoken : $0 + " " + spoken })
                .first(where: { ProseText.wordCount($0) <= PodcastScript.lineWords })
            else { continue }
            used.insert(key)
            turns.append(PodcastScript.Turn(speaker: BuiltinEngine.podcastHosts[1].name, line: line,
                quote: ProseText.oneLine(sentence.text)))
            return true
        }
        return false
    }
}
