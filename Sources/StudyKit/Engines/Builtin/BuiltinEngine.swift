// MARK: - Engine

/// The extractive engine: builds every study-kit result from the material's own sentences and
/// terms, with no model.
///
/// It is the router's last resort, so it is deterministic, needs nothing but the text, answers
/// in milliseconds and is always available. It obeys the same schemas and semantic checks as
/// the models: every value it returns has passed `validate()`. When the text is too thin for a
/// task's minimum (a quiz needs three questions), it pads from other sentences and key terms,
/// and only when that is not enough throws ``BuiltinError/tooShort(task:usableSentences:)``.
///
/// Everything is computed from the text given: headlines prefer the source's title, summaries
/// quote the most central sentences (TextRank), flashcards and quizzes blank key terms out of
/// key sentences (cloze), mind maps follow the headings or cluster the keyphrases, and Feynman
/// feedback measures how many of the material's key terms an explanation covers.
public struct BuiltinEngine: Sendable {
    /// Bump when any output changes for the same input, so cached results are not reused.
    static let algorithmVersion = 2

    /// Flashcards per deck: enough to study from, well under the 20-card bound.
    static let flashcardLimit = 12
    /// Questions per quiz (bound 3–10).
    static let quizLimit = 8

    /// Creates the engine; it has no configuration and no state.
    public init() {}

    /// The name reported as the model in `--json` and in cache keys; versioned so that a change
    /// of algorithm changes the key.
    public var modelName: String { "builtin-extractive/\(Self.algorithmVersion)" }

    /// Builds the result of `task` from `text`.
    ///
    /// - Parameters:
    ///   - task: what to build; `.studyKit` builds every part but Feynman feedback.
    ///   - text: the normalized (possibly fitted) document text.
    ///   - title: the source's title, preferred as headline and mind-map centre when it is short.
    ///   - concept: Feynman only: the concept the student explains; the document's main topic when `nil`.
    ///   - explanation: Feynman only: the student's explanation; a missing one is reported in the feedback.
    /// - Returns: a result that has passed `validate()`.
    /// - Throws: ``BuiltinError/emptyText`` for text without words,
    ///   ``BuiltinError/tooShort(task:usableSentences:)`` when the text cannot meet the task's
    ///   minimum, ``BuiltinError/invalidResult(task:issues:)`` if a result failed validation
    ///   (a defect; the value is never returned).
    public func generate(
        _ task: StudyTask, text: String, title: String?, concept: String? = nil, explanation: String? = nil
    ) throws(BuiltinError) -> AnyStudyResult {
        guard !BuiltinTerms.words(in: text).isEmpty else { throw .emptyText }
        let analysis = BuiltinAnalysis(text: text, title: title)
        guard !analysis.prose.isEmpty else { throw .tooShort(task: task, usableSentences: 0) }
        let result: AnyStudyResult
        switch task {
        case .headline: result = .headline(try headline(analysis))
        case .feynman: result = .feynman(feynmanFeedback(analysis, concept: concept, explanation: explanation))
        case .summary: result = .summary(try summary(analysis))
        case .flashcards: result = .flashcards(try flashcards(analysis))
        case .quiz: result = .quiz(try quiz(analysis))
        case .mindmap: result = .mindMap(try mindMap(analysis))
        case .studyKit:
            do throws(BuiltinError) {
                result = .studyKit(
                    StudyKitBundle(
                        headline: try headline(analysis), summary: try summary(analysis),
                        flashcards: try flashcards(analysis), quiz: try quiz(analysis), mindMap: try mindMap(analysis)))
            } catch .tooShort(_, let count) {
                // The kit needs every part; name the kit, which is what was asked for.
                throw .tooShort(task: .studyKit, usableSentences: count)
            } catch {
                throw error
            }
        }
        let issues = result.value.validationIssues()
        guard issues.isEmpty else { throw .invalidResult(task: task, issues: issues) }
        return result
    }
}

// MARK: - Headline

extension BuiltinEngine {
    /// The most words and characters a headline title may have.
    private static let titleWords = 6
    private static let titleLength = 60
    private static let blurbWords = 35
    private static let blurbLength = 220

    func headline(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Headline {
        let title = documentTitle(analysis)
        return Headline(title: title, blurb: blurb(analysis, title: title))
    }

    /// The source's own title when it is short and has no quotation marks, else the first
    /// heading of the document when it opens with one, else the top key term(s) in Title Case,
    /// else the first words of the text. Never empty.
    func documentTitle(_ analysis: BuiltinAnalysis) -> String {
        func acceptable(_ candidate: String?) -> String? {
            guard let candidate else { return nil }
            let line = BuiltinProse.oneLine(candidate)
            guard !line.isEmpty, line.contains(where: { $0.isLetter || $0.isNumber }),
                BuiltinProse.wordCount(line) <= Self.titleWords, BuiltinProse.length(line) <= Self.titleLength,
                !line.contains(where: BuiltinProse.quoteCharacters.contains)
            else { return nil }
            return line
        }
        if let given = acceptable(analysis.givenTitle) { return given }
        if let first = analysis.units.first, first.isHeading, let heading = acceptable(first.text) { return heading }
        if let composed = acceptable(composedTitle(analysis)) { return composed }
        let lead = BuiltinProse.withoutQuotes(BuiltinProse.withoutListMarker(analysis.prose[0].text))
        // Scripts without spaces: the lead's first clause, at most 20 characters.
        if let first = lead.first, BuiltinTerms.isCJK(first) {
            let clause = lead.prefix { !"、，。！？：；,.!?".contains($0) }.prefix(20)
            return String(clause)
        }
        var words = BuiltinProse.shortened(lead, maxWords: Self.titleWords, maxLength: Self.titleLength, ending: "")
        while let last = words.last, !(last.isLetter || last.isNumber || last == ")") { words.removeLast() }
        return words.isEmpty ? "Study Notes" : words
    }

    /// The best key term, joined by the next one that shares no word with it when the first is a
    /// single word ("Rome and Senate"); `nil` when there is no word term.
    func composedTitle(_ analysis: BuiltinAnalysis) -> String? {
        // CJK terms come out of the extractor as characters joined by spaces: no title.
        let terms = analysis.keyphrases.filter { phrase in
            phrase.text.contains { $0.isLetter } && !phrase.text.contains(where: BuiltinTerms.isCJK)
        }
        guard let top = terms.first else { return nil }
        var title = top.text
        if top.wordCount == 1 {
            let topStems = Set(top.key.split(separator: " "))
            if let second = terms.dropFirst().first(where: {
                $0.wordCount <= 2 && Set($0.key.split(separator: " ")).isDisjoint(with: topStems)
            }) {
                title += " and " + second.text
            }
        }
        return BuiltinProse.shortened(
            BuiltinProse.titleCased(BuiltinProse.withoutQuotes(title)), maxWords: Self.titleWords,
            maxLength: Self.titleLength, ending: "")
    }

    /// The lead sentence when it reads as a blurb, else the most central sentence that does;
    /// else the lead sentence cut to one sentence within the bounds.
    private func blurb(_ analysis: BuiltinAnalysis, title: String) -> String {
        let lead = analysis.prose[0]
        let candidates = [lead] + analysis.ranked.map(\.sentence).filter { $0.index != lead.index }
        for (position, unit) in candidates.enumerated() {
            let text = BuiltinProse.sentence(unit.text)
            let words = BuiltinProse.wordCount(text)
            // A very short lead ("Notes.") says less than a central sentence.
            guard words >= (position == 0 ? 5 : 3), words <= Self.blurbWords,
                BuiltinProse.length(text) <= Self.blurbLength, ResultProse.sentenceCount(text) == 1,
                !ResultProse.sameText(text, title), ItemRules.stockFiller(in: text) == nil
            else { continue }
            return text
        }
        for unit in candidates {
            let text = Self.oneSentence(unit.text, maxWords: Self.blurbWords, maxLength: Self.blurbLength)
            if !text.isEmpty, !ResultProse.sameText(text, title), ItemRules.stockFiller(in: text) == nil { return text }
        }
        return Self.oneSentence("A study note on \(title).", maxWords: Self.blurbWords, maxLength: Self.blurbLength)
    }

    /// `text` cut to one sentence within the bounds, ending with a period where it was cut.
    static func oneSentence(_ text: String, maxWords: Int, maxLength: Int) -> String {
        var sentence = BuiltinProse.sentence(text)
        if BuiltinProse.wordCount(sentence) > maxWords || BuiltinProse.length(sentence) > maxLength {
            sentence = BuiltinProse.shortened(sentence, maxWords: maxWords, maxLength: maxLength, ending: ".")
        }
        // The source sentence may hold a second sentence by the validator's rules ("… U.S. Army").
        var words = sentence.split(separator: " ")
        while ResultProse.sentenceCount(sentence) > 1, words.count > 1 {
            words.removeLast()
            sentence = BuiltinProse.shortened(words.joined(separator: " "), maxLength: maxLength, ending: "")
            sentence = BuiltinProse.sentence(sentence.trimmingTrailingPunctuation)
        }
        return sentence
    }
}

// MARK: - Summary

extension BuiltinEngine {
    private static let overviewLength = 1_000
    private static let keyPointLength = 300
    private static let keyPointWords = 30
    private static let keyPointTarget = 5
    private static let keyPointLimit = 8

    /// `text` as a key point when it passes the key-point rules whole (``ItemMeaning/keyPoint``):
    /// one sentence within the bounds, ending as a sentence, with four content words.
    static func keyPoint(_ text: String) -> String? {
        let point = BuiltinProse.sentence(text)
        guard BuiltinProse.length(point) <= keyPointLength, BuiltinProse.wordCount(point) <= keyPointWords,
            ItemRules.problem(point, .keyPoint) == nil
        else { return nil }
        return point
    }

    func summary(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Summary {
        let usable = analysis.usableSentenceCount
        // Overview: the lead sentence (where material states its subject), then the most
        // central sentences, in document order; two or three by the validator's count.
        // Sentences of five words or more first.
        let lead = analysis.prose[0]
        let longFirst = [lead] + analysis.ranked.map(\.sentence).filter { BuiltinProse.wordCount($0.text) >= 5 }
            + analysis.ranked.map(\.sentence).filter { BuiltinProse.wordCount($0.text) < 5 }
        var chosen: [Sentence] = []
        var seen = Set<String>()
        var overview = ""
        for (position, candidate) in longFirst.enumerated() {
            guard chosen.count < 3, ResultProse.sentenceCount(overview) < 3 else { break }
            if position == 0, BuiltinProse.wordCount(candidate.text) < 5 { continue }
            // The material's own "This article covers …" is filler in an overview too.
            if ItemRules.stockFiller(in: candidate.text) != nil { continue }
            let key = BuiltinProse.duplicateKey(BuiltinProse.sentence(candidate.text))
            guard !seen.contains(key) else { continue }
            let trial = (chosen + [candidate]).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
            let text = trial.map { BuiltinProse.sentence($0.text) }.joined(separator: " ")
            guard BuiltinProse.length(text) <= Self.overviewLength, ResultProse.sentenceCount(text) <= 3 else { continue }
            chosen.append(candidate)
            seen.insert(key)
            overview = text
        }
        guard ResultProse.sentenceCount(overview) >= 2 else { throw .tooShort(task: .summary, usableSentences: usable) }

        // Key points: the best remaining sentence of each section, most central first, then the
        // next most central sentences up to the target. Each must pass the key-point rules the
        // models answer to (a whole sentence, four content words, no near-copy of the overview or
        // of another point): a sentence too long for a point is skipped, never cut.
        let chosenIndices = Set(chosen.map(\.index))
        let remaining = analysis.ranked.filter { !chosenIndices.contains($0.sentence.index) }
        var bestOfSection: [Int: RankedSentence] = [:]
        for entry in remaining where Self.keyPoint(entry.sentence.text) != nil {
            let section = analysis.outline.sectionOfUnit[entry.sentence.index]
            if bestOfSection[section] == nil { bestOfSection[section] = entry }
        }
        let perSection = bestOfSection.values.sorted { $0.rank < $1.rank }
        let target = min(Self.keyPointLimit, max(Self.keyPointTarget, perSection.count))
        var points: [String] = []
        var pointKeys = Set<String>()
        // The overview's sentences as the validator splits them, so the checks agree.
        func sentenceKeys(_ text: String) -> [Set<String>] { SentenceSplitter().split(text).map { ItemRules.overlapKeys($0.text) } }
        var overviewKeys = sentenceKeys(overview)
        var taken: [Set<String>] = []
        func add(_ text: String) {
            guard points.count < Self.keyPointLimit, let point = Self.keyPoint(text) else { return }
            let key = BuiltinProse.duplicateKey(point)
            let stems = ItemRules.overlapKeys(point)
            guard !pointKeys.contains(key), !(overviewKeys + taken).contains(where: { ItemRules.nearCopy(stems, $0) }) else { return }
            points.append(point)
            pointKeys.insert(key)
            taken.append(stems)
        }
        for entry in perSection.prefix(target) { add(entry.sentence.text) }
        for entry in remaining where points.count < target { add(entry.sentence.text) }
        // Thin text: the overview gives up its third sentence before the summary fails.
        if points.count < 3, chosen.count == 3 {
            let dropped = chosen.sorted { a, b in
                let ra = analysis.ranked.firstIndex { $0.sentence.index == a.index } ?? 0
                let rb = analysis.ranked.firstIndex { $0.sentence.index == b.index } ?? 0
                return ra > rb
            }.first { $0.index != lead.index }
            if let dropped, Self.keyPoint(dropped.text) != nil {
                let kept = chosen.filter { $0.index != dropped.index }.sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
                let shorter = kept.map { BuiltinProse.sentence($0.text) }.joined(separator: " ")
                if ResultProse.sentenceCount(shorter) >= 2 {
                    overview = shorter
                    overviewKeys = sentenceKeys(shorter)
                    add(dropped.text)
                }
            }
        }
        guard points.count >= 3 else { throw .tooShort(task: .summary, usableSentences: usable) }
        return Summary(overview: overview, keyPoints: points)
    }
}

// MARK: - Cloze items, flashcards and quiz

extension BuiltinEngine {
    private static let questionLength = 300
    private static let quoteLength = 500
    private static let promptLength = 400
    private static let choiceLength = 200
    private static let explanationLength = 600

    /// Up to `limit` cloze items with distinct one-line questions that fit every bound.
    ///
    /// Passes, each only while more are needed: the builder's defaults (one per sentence of 6–40
    /// words, one per term); then shorter sentences and terms not used yet; then, only to reach
    /// the minimum of three, other terms of sentences already asked about.
    func clozeItems(_ analysis: BuiltinAnalysis, limit: Int) -> [ClozeItem] {
        var items: [ClozeItem] = []
        var questionKeys = Set<String>()
        var questionStems: [Set<String>] = []
        var usedTerms = Set<String>()
        var usedSentences = Set<String.Index>()
        let passes: [(builder: ClozeBuilder, reuseSentences: Bool)] = [
            (ClozeBuilder(), false), (ClozeBuilder(minWords: 4), false), (ClozeBuilder(minWords: 4), true),
        ]
        for pass in passes {
            let target = pass.reuseSentences ? min(3, limit) : limit
            while items.count < target {
                let ranked = pass.reuseSentences
                    ? analysis.ranked
                    : analysis.ranked.filter { !usedSentences.contains($0.sentence.range.lowerBound) }
                let terms = analysis.keyphrases.filter { !usedTerms.contains($0.key) }
                let fresh = pass.builder.items(from: ranked, keyphrases: terms, limit: target - items.count)
                guard !fresh.isEmpty else { break }
                for item in fresh {
                    usedTerms.insert(item.answerKey)
                    let question = BuiltinProse.oneLine(item.clozeText)
                    let key = BuiltinProse.duplicateKey(question)
                    let stems = ItemRules.overlapKeys(question)
                    // The rules every card and question answers to (a question with content
                    // words, an answer that is a term, no near-copy of another question).
                    guard BuiltinProse.length(question) <= Self.questionLength,
                        BuiltinProse.length(BuiltinProse.oneLine(item.sentence)) <= Self.quoteLength,
                        !questionKeys.contains(key), ItemRules.problem(question, .question) == nil,
                        ItemRules.problem(BuiltinProse.oneLine(item.answer), .answer) == nil,
                        !questionStems.contains(where: { ItemRules.nearCopy(stems, $0) })
                    else { continue }
                    usedSentences.insert(item.sourceRange.lowerBound)
                    questionKeys.insert(key)
                    questionStems.append(stems)
                    items.append(item)
                }
            }
        }
        return items
    }

    func flashcards(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Flashcards {
        let cards = clozeItems(analysis, limit: Self.flashcardLimit).map { item in
            Flashcards.Card(
                question: BuiltinProse.oneLine(item.clozeText), answer: BuiltinProse.oneLine(item.answer),
                quote: BuiltinProse.oneLine(item.sentence))
        }
        guard cards.count >= 3 else { throw .tooShort(task: .flashcards, usableSentences: analysis.usableSentenceCount) }
        return Flashcards(cards: cards)
    }

    func quiz(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Quiz {
        let items = clozeItems(analysis, limit: Self.flashcardLimit)
        let fallbackTerms = Self.frequentWords(analysis)
        var questions: [Quiz.Question] = []
        var distractorUse: [String: Int] = [:]
        for item in items where questions.count < Self.quizLimit {
            let prompt = BuiltinProse.oneLine(item.clozeText)
            let answer = BuiltinProse.oneLine(item.answer)
            guard BuiltinProse.length(prompt) <= Self.promptLength, BuiltinProse.length(answer) <= Self.choiceLength,
                ItemRules.problem(answer, .choice) == nil
            else {
                continue
            }
            let wrong = distractors(for: item, analysis: analysis, fallback: fallbackTerms, use: distractorUse)
            guard wrong.count == Quiz.choiceCount - 1 else { continue }
            for option in wrong { distractorUse[BuiltinProse.duplicateKey(option), default: 0] += 1 }
            // The answer's place comes from a stable hash of the item, so it varies across
            // questions but not across runs.
            let position = Int(BuiltinProse.stableHash(item.answerKey + "\u{1F}" + item.sentence) % UInt64(Quiz.choiceCount))
            var choices = wrong
            choices.insert(answer, at: position)
            let quote = BuiltinProse.shortened(
                BuiltinProse.oneLine(item.sentence), maxLength: Self.explanationLength - 24)
            questions.append(
                Quiz.Question(
                    prompt: prompt, choices: choices, answerIndex: position,
                    explanation: "The material says: “\(quote)”"))
        }
        // Never every answer in the same place: a student would learn the letter, not the matter.
        if questions.count > 1, Set(questions.map(\.answerIndex)).count == 1, var last = questions.popLast() {
            let answer = last.choices.remove(at: last.answerIndex)
            last.answerIndex = (last.answerIndex + 1) % Quiz.choiceCount
            last.choices.insert(answer, at: last.answerIndex)
            questions.append(last)
        }
        guard questions.count >= 3 else { throw .tooShort(task: .quiz, usableSentences: analysis.usableSentenceCount) }
        return Quiz(questions: questions)
    }

    /// Three wrong answers of the answer's kind from the key terms, then from frequent words of
    /// the text; distinct from the answer and from each other as the validator compares them.
    /// Fewer than three when the text has no more.
    ///
    /// The builder's candidates are asked for generously and the ones used least so far in the
    /// quiz (`use`) are taken first, so the same three terms do not follow every question.
    private func distractors(
        for item: ClozeItem, analysis: BuiltinAnalysis, fallback: [(text: String, stem: String)], use: [String: Int]
    ) -> [String] {
        let answer = BuiltinProse.oneLine(item.answer)
        var keys: Set<String> = [BuiltinProse.duplicateKey(answer)]
        var optionStems: [Set<String>] = [ItemRules.overlapKeys(answer)]
        let answerStems = Set(item.answerKey.split(separator: " ").map(String.init))
        var chosen: [String] = []
        // A term the question itself says ("a powerful Senate") is plainly not the blank; such
        // options are only taken when nothing else is left.
        let promptStems = Set(BuiltinTerms.words(in: item.clozeText).map(\.stem))
        var heldBack: [String] = []
        func take(_ candidate: String, allowingPromptTerms: Bool = false) {
            let text = BuiltinProse.termText(candidate)
            let key = BuiltinProse.duplicateKey(text)
            let stems = ItemRules.overlapKeys(text)
            guard chosen.count < Quiz.choiceCount - 1, !text.isEmpty, BuiltinProse.length(text) <= Self.choiceLength,
                !keys.contains(key), ItemRules.problem(text, .choice) == nil,
                !optionStems.contains(where: { ItemRules.nearCopy(stems, $0) })
            else { return }
            if !allowingPromptTerms, BuiltinTerms.words(in: text).allSatisfy({ promptStems.contains($0.stem) }) {
                heldBack.append(text)
                return
            }
            keys.insert(key)
            optionStems.append(stems)
            chosen.append(text)
        }
        let options = ClozeBuilder().distractors(for: item, among: analysis.keyphrases, count: 6)
        let leastUsed = options.indices.sorted { a, b in
            let (ua, ub) = (use[BuiltinProse.duplicateKey(options[a])] ?? 0, use[BuiltinProse.duplicateKey(options[b])] ?? 0)
            // Within one use count, the builder's order (same kind, closest length) holds.
            return ua != ub ? ua < ub : a < b
        }
        // Only the builder's best few compete, so a far-fetched option never beats a close one
        // merely for being fresh.
        for index in leastUsed where index < 5 { take(options[index]) }
        for option in options { take(option) }
        for word in fallback where !answerStems.contains(word.stem) { take(word.text) }
        for option in heldBack { take(option, allowingPromptTerms: true) }
        return chosen
    }

    /// Content words of the text (no stopwords, numbers or one-letter words), most frequent
    /// first, ties to the earlier; each in its most common spelling.
    private static func frequentWords(_ analysis: BuiltinAnalysis) -> [(text: String, stem: String)] {
        var counts: [String: (count: Int, first: Int, surface: String)] = [:]
        var position = 0
        for unit in analysis.prose {
            for word in BuiltinTerms.words(in: unit.text)
            where !word.isStopword && !word.isNumber && word.surface.count >= 3 {
                let seen = counts[word.stem] ?? (0, position, word.lowercased)
                counts[word.stem] = (seen.count + 1, seen.first, seen.surface)
                position += 1
            }
        }
        return counts.sorted { a, b in
            a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
        }.map { (text: $0.value.surface, stem: $0.key) }
    }
}

// MARK: - Errors

/// Why the builtin engine could not build a result.
public enum BuiltinError: StudyKitError, Equatable {
    /// The text has no words at all.
    case emptyText
    /// The text has too few usable sentences (prose of at least three words) for the task,
    /// even after padding from other sentences and key terms.
    case tooShort(task: StudyTask, usableSentences: Int)
    /// A result failed its own validation. A defect of the engine; the value is never returned.
    case invalidResult(task: StudyTask, issues: [ValidationIssue])

    /// One lower-case line for stderr.
    public var message: String {
        switch self {
        case .emptyText:
            return "the text has no words to study; give material with some text in it"
        case .tooShort(let task, let count):
            let sentences = count == 1 ? "1 usable sentence" : "\(count) usable sentences"
            return "the text is too short for \(Self.noun(task)): it has \(sentences); add more material"
        case .invalidResult(let task, let issues):
            let first = issues.first.map { ": \($0.description)" } ?? ""
            return "the builtin engine built an invalid \(task.commandName) result\(first); "
                + "please report this, and try --engine local or --engine remote"
        }
    }

    /// Too little text is bad input data (65); an invalid result of our own is a defect (1).
    public var exitCode: ExitCode {
        switch self {
        case .emptyText, .tooShort: return .dataError
        case .invalidResult: return .failure
        }
    }

    private static func noun(_ task: StudyTask) -> String {
        switch task {
        case .headline: return "a headline"
        case .feynman: return "feynman feedback"
        case .summary: return "a summary"
        case .flashcards: return "flashcards"
        case .quiz: return "a quiz"
        case .mindmap: return "a mind map"
        case .studyKit: return "a study kit"
        }
    }
}

private extension String {
    /// Without final sentence or clause punctuation, so a period can be put back once.
    var trimmingTrailingPunctuation: String {
        var text = self
        while let last = text.last, ",;:.!?…".contains(last) { text.removeLast() }
        return text
    }
}
