import Foundation

// MARK: - Repairs a rule says how to make

/// The repairs of a model's item that break a rule but can be mended without writing anything
/// new (#53, "repair, not refusal"): the item is cut, never reworded, so what is left is still
/// the model's own words and still grounded where the whole was.
///
/// - A mind-map label over its word limit is cut to its head phrase: the noun phrase it opens
///   with, before the verb, clause or preposition that adds a detail ("Okazaki fragments joined
///   by DNA ligase" → "Okazaki fragments").
/// - A card's answer that runs on past a short answer is cut to what its first sentence says of
///   the question's subject ("A price floor is a legal minimum price. It only matters …" → "a
///   legal minimum price"); one its quote does not hold, to its key words: the longest run of its
///   words that the quote says too, that adds something the question does not and that ends a
///   phrase ("They are joined into one strand by DNA ligase" → "DNA ligase").
/// - A card's or a question's quote that does not carry its answer is replaced by the one
///   sentence of the material that does (``requote(answer:question:quote:sentences:maxLength:)``).
/// - A card's quote over its length limit is cut to its one sentence that carries the answer
///   (``Grounding/supportProblem(question:answer:quote:)``); a quiz's explanation over its limit to
///   its first sentences that fit; a card's optional hint that breaks its rule (too long, or the
///   answer itself) is left out.
/// - A summary's overview whose sentences say a key point again loses those sentences
///   (``overviewWithoutRepeats(_:keyPoints:)``): the key points are the items a student studies.
/// - A key point that opens on "It" or "They", taken from a sentence of the material whose
///   sentence before it opens on the subject, gets that subject in place of the pronoun
///   (``namedSubject(_:material:)``).
/// - A key point over its word or length limit is cut to its main clause, before a clause that
///   only adds a reason, a comment or a contrast (", because …", ", which …", "; …")
///   (``mainClause(_:maxWords:maxLength:)``).
/// Each returns `nil` when no cut leaves an item worth keeping; the item is then dropped.
enum ItemRepairs {
    /// Words that open what a label's head phrase does not need: a verb, a clause, a detail.
    private static let breakWords: Set<String> = [
        "is", "are", "was", "were", "be", "been", "has", "have", "had", "can", "could", "will", "would", "may", "might",
        "must", "should", "does", "do", "did", "that", "which", "who", "whom", "whose", "where", "when", "while",
        "because",
        "so", "by", "in", "on", "at", "for", "with", "from", "into", "onto", "to", "towards", "toward", "during",
        "between",
        "through", "via", "using", "against", "after", "before", "until", "within", "without", "as", "like", "than",
    ]

    /// A subject pronoun starts a clause of its own: "Lagging strand it grows away from the fork".
    private static let pronouns: Set<String> = ["it", "they", "he", "she", "we", "you", "i"]

    /// Words a label neither opens nor ends on.
    private static let edgeWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "its", "their", "this", "these", "those", "his", "her", "our", "your",
    ]

    /// `label` cut to its head phrase of at most `maxWords` words: its words up to the first
    /// break (punctuation inside it, a word of ``breakWords``, a subject pronoun, or a past
    /// participle or "-ing" form right after a noun), without a leading article or a dangling last
    /// word; `nil` when `label` already fits, opens on a break word, or when what is left is empty,
    /// still too long, or holds no content word.
    static func headPhrase(_ label: String, maxWords: Int) -> String? {
        guard label.split(whereSeparator: \.isWhitespace).count > maxWords, let head = headWords(label),
            (1...maxWords).contains(head.count)
        else { return nil }
        let phrase = head.joined(separator: " ")
        guard ItemRules.contentWordCount(TermNormalizer.words(in: phrase)) >= 1 else { return nil }
        // A lower-case first word that began a sentence label ("the lagging strand …") keeps its case.
        return phrase
    }

    /// The words of `label` before its first break (``headPhrase(_:maxWords:)``), however many;
    /// `nil` when it opens on a break word.
    static func headWords(_ label: String) -> [String]? {
        let words = label.split(whereSeparator: \.isWhitespace).map(String.init)
        // A label that opens on a preposition or a clause word ("In England the government tried
        // to …", "From the ports it followed …") is a piece of a sentence, not a noun phrase: no cut
        // of it names an idea.
        guard let opening = words.first?.lowercased().trimmingCharacters(in: .punctuationCharacters),
            !breakWords.contains(opening)
        else { return nil }
        var head: [String] = []
        for (index, word) in words.enumerated() {
            let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if index > 0, breakWords.contains(bare) || pronouns.contains(bare) { break }
            let previous = index > 0 ? words[index - 1].lowercased() : ""
            let next = index + 1 < words.count ? words[index + 1].lowercased() : ""
            // "fragments joined …", "bonds holding …": a participle after the noun starts a detail
            // ("leading and lagging strands" is one phrase).
            if index > 1, word == word.lowercased(), bare.count > 4, bare.hasSuffix("ed") || bare.hasSuffix("ing"),
                !edgeWords.contains(previous)
            {
                break
            }
            // "Helicase unwinds the double helix": a verb in "-s" before its object's article.
            if index > 0, word == word.lowercased(), bare.hasSuffix("s"),
                !["ss", "us", "is"].contains(where: bare.hasSuffix),
                ["the", "a", "an", "its", "their", "this", "these"].contains(next)
            {
                break
            }
            head.append(word)
            if let last = word.last, ",;:(—–".contains(last) || word.hasPrefix("(") { break }
        }
        head = head.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;:()—–")) }.filter { !$0.isEmpty }
        while let first = head.first, edgeWords.contains(first.lowercased()), head.count > 1 { head.removeFirst() }
        while let last = head.last, edgeWords.contains(last.lowercased()) { head.removeLast() }
        return head
    }

    /// `title` (over `maxWords` words or `maxLength` characters) cut to its head: the part before
    /// a subtitle's colon, dash or parenthesis when that fits ("Moon Phases, Tides, and Eclipses:
    /// A Comprehensive Guide" → "Moon Phases, Tides, and Eclipses"), else its head phrase
    /// (``headPhrase(_:maxWords:)``). `nil` when it already fits or no cut fits. A title is a
    /// name, so its list of topics is kept whole where a label's would be cut at its first comma.
    static func titleHead(_ title: String, maxWords: Int, maxLength: Int) -> String? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        func fits(_ text: String) -> Bool {
            let words = text.split(whereSeparator: \.isWhitespace).count
            return (1...maxWords).contains(words) && text.count <= maxLength
        }
        guard !fits(trimmed) else { return nil }
        for separator in [": ", " - ", " – ", " — ", " ("] {
            guard let range = trimmed.range(of: separator) else { continue }
            let head = trimmed[..<range.lowerBound].trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
            if fits(head), ItemRules.contentWordCount(TermNormalizer.words(in: head)) >= 1 { return head }
        }
        guard let phrase = headPhrase(trimmed, maxWords: maxWords), fits(phrase) else { return nil }
        return phrase
    }

    /// The most words a card's answer may have before it is cut to its key words: a short answer
    /// is a term or a phrase; a long one is a sentence the quote already says.
    static let answerWords = 20

    /// `answer` cut to its key words, when the quote does not hold it or it is longer than
    /// ``answerWords``; `nil` when the answer needs no cut or no cut will do (the card then keeps
    /// its answer whole, and its rules judge it so).
    ///
    /// A long answer that the quote holds is cut to what its first sentence says of the question's
    /// subject (``definingWords(answer:question:quote:)``): Qwen2.5-Coder-1.5B answers "What is a
    /// price ceiling?" with the quote's paragraph, "A price ceiling is a legal maximum price that
    /// sellers may charge. It only matters …", and the card's answer is "a legal maximum price
    /// that sellers may charge". Else (and for an answer the quote does not hold) it is the
    /// longest run of its words that `quote` says in the same order, that holds a content word
    /// the question does not, that is at most 8 words once its edge words are trimmed, and that
    /// ends where a phrase of the answer ends (``endsAPhrase(_:at:)``): the first 8 words of a
    /// sentence ("law of supply states that, other things being", the tuning half's supply and
    /// demand, session 69) are no answer.
    static func keyWords(answer: String, question: String, quote: String) -> String? {
        let words = answer.split(whereSeparator: \.isWhitespace).map(String.init)
        let held = Grounding.supports(quote: quote, answer)
        guard words.count > answerWords || !held else { return nil }
        if held { return definingWords(answer: answer, question: question, quote: quote) }
        let quoteWords = GroundingWords.normalizedWords(quote)
        let asked = Set(GroundingWords.contentStems(question))
        var best: [String] = []
        for start in words.indices {
            for end in stride(from: words.count, to: start, by: -1) where end - start > best.count {
                guard endsAPhrase(words, at: end) else { continue }
                var run = Array(words[start..<end])
                while let first = run.first,
                    edgeWords.contains(first.lowercased().trimmingCharacters(in: .punctuationCharacters))
                {
                    run.removeFirst()
                }
                guard !run.isEmpty, run.count <= 8, run.count > best.count else { continue }
                let text = run.joined(separator: " ")
                let normalized = GroundingWords.normalizedWords(text)
                guard !normalized.isEmpty, GroundingWords.containsRun(normalized, in: quoteWords) else { continue }
                let stems = GroundingWords.contentStems(text)
                guard stems.contains(where: { !asked.contains($0) }) else { continue }
                best = run
            }
        }
        guard !best.isEmpty else { return nil }
        var text = best.joined(separator: " ")
        while let last = text.last, ",;:.".contains(last) { text.removeLast() }
        return text
    }

    /// Words after which a phrase of an answer has ended: a clause, a reason or a detail opens.
    private static let phraseOpeners: Set<String> = [
        "because", "which", "that", "who", "whom", "whose", "where", "when", "while", "whereas", "although", "though",
        "so", "but", "and", "or", "if", "since", "by", "as", "until", "unless",
    ]

    /// Whether a run of `words` that stops before `end` ends a phrase of the answer: it is the
    /// answer's last word, ends on punctuation, or the next word opens a clause or a detail
    /// (``phraseOpeners``); never on a function word.
    static func endsAPhrase(_ words: [String], at end: Int) -> Bool {
        guard end > 0, end <= words.count else { return false }
        let last = words[end - 1]
        let bare = last.lowercased().trimmingCharacters(in: .punctuationCharacters)
        guard !edgeWords.contains(bare), !breakWords.contains(bare) else { return false }
        if end == words.count || last.last.map({ ",;:.!?)".contains($0) }) == true { return true }
        return phraseOpeners.contains(words[end].lowercased().trimmingCharacters(in: .punctuationCharacters))
    }

    /// The verbs by which an answer's opening says what its subject is: "A price floor is …",
    /// "The law of supply states that …".
    private static let definingVerbs: Set<String> = [
        "is", "are", "was", "were", "means", "meant", "states", "stated", "says", "describes", "refers",
    ]

    /// What the first sentence of a long `answer` says of the question's subject, at most
    /// ``answerWords`` words, when `quote` holds it and it adds a content word the question does
    /// not: the sentence without its opening that only repeats the question ("A price ceiling
    /// is", "The law of supply states that,"), cut to its main clause when still too long
    /// (``mainClause(_:maxWords:maxLength:)``: ", because …" left out). `nil` when the sentence
    /// opens on anything else ("Binary search finds …" for "What is the main idea of binary
    /// search?"): cutting it would leave a piece of a sentence.
    static func definingWords(answer: String, question: String, quote: String) -> String? {
        guard let first = SentenceSplitter().split(answer).map(\.text).first else { return nil }
        let words = first.split(whereSeparator: \.isWhitespace).map(String.init)
        let asked = Set(GroundingWords.contentStems(question))
        // The opening: words that are all the question's, then a defining verb ("that" after it).
        guard let verb = words.prefix(8).firstIndex(where: {
            definingVerbs.contains($0.lowercased().trimmingCharacters(in: .punctuationCharacters))
        }), verb > 0 else { return nil }
        let subject = words[..<verb].joined(separator: " ")
        let subjectStems = GroundingWords.contentStems(subject)
        guard !subjectStems.isEmpty, subjectStems.allSatisfy(asked.contains),
            !words[verb].hasSuffix(",")
        else { return nil }
        var rest = Array(words[(verb + 1)...])
        if words[verb].lowercased() == "refers", rest.first?.lowercased() == "to" { rest.removeFirst() }
        if rest.first?.lowercased().trimmingCharacters(in: .punctuationCharacters) == "that" { rest.removeFirst() }
        var text = rest.joined(separator: " ")
        if rest.count > answerWords {
            guard let cut = mainClause(text, maxWords: answerWords, maxLength: .max) else { return nil }
            text = cut
        }
        while let last = text.last, ",;:.".contains(last) { text.removeLast() }
        let count = text.split(whereSeparator: \.isWhitespace).count
        guard (2...answerWords).contains(count), Grounding.supports(quote: quote, text),
            GroundingWords.contentStems(text).contains(where: { !asked.contains($0) })
        else { return nil }
        return text
    }

    /// The one sentence of `quote` that carries `answer` for `question`, when `quote` is longer
    /// than `maxLength` and has several sentences; `nil` when none does alone.
    static func sentenceCarrying(answer: String, question: String, quote: String, maxLength: Int) -> String? {
        guard quote.count > maxLength else { return nil }
        let sentences = SentenceSplitter().split(quote).map(\.text)
        guard sentences.count > 1 else { return nil }
        return sentences.first {
            $0.count <= maxLength && Grounding.supportProblem(question: question, answer: answer, quote: $0) == nil
        }
    }

    /// The one sentence of the material (its ``sentences(ofMaterial:)``) that carries `answer` for
    /// `question` (``Grounding/supportProblem(question:answer:quote:)``), when `quote` does not: the
    /// quote the model should have copied. `nil` when the quote already carries it, or when no
    /// sentence or more than one does (two candidates are a guess, not a repair). Qwen2.5-Coder-1.5B
    /// often marks the right answer and then quotes a neighbouring sentence (session 62, from the
    /// replay of both halves' recorded quizzes: "What is the time complexity of binary search?" →
    /// "O(log n)", quoting the sentence before the one that says it); the item is the model's, the
    /// quote becomes the material's own sentence, and every other rule still judges it.
    static func requote(
        answer: String, question: String, quote: String, sentences: [String], maxLength: Int
    ) -> String? {
        guard Grounding.supportProblem(question: question, answer: answer, quote: quote) != nil else { return nil }
        var found: String?
        for sentence in sentences
        where sentence.count <= maxLength
            && Grounding.supportProblem(question: question, answer: answer, quote: sentence) == nil
        {
            guard found == nil || found == sentence else { return nil }
            found = sentence
        }
        return found
    }

    /// The sentences of `material`, line by line, that ``requote(answer:question:quote:sentences:maxLength:)``
    /// chooses from: split once per answer, not once per item.
    static func sentences(ofMaterial material: String) -> [String] {
        material.split(whereSeparator: \.isNewline).flatMap { SentenceSplitter().split(String($0)).map(\.text) }
    }

    /// A material's sentences (``sentences(ofMaterial:)``), split the first time a repair asks for
    /// them and then kept: most answers need none.
    final class MaterialSentences {
        private let material: String
        private(set) lazy var all = ItemRepairs.sentences(ofMaterial: material)

        init(_ material: String) { self.material = material }
    }

    /// `text`'s first whole sentences that fit `maxLength`, when it is longer; `nil` when it fits
    /// or its first sentence alone does not.
    static func firstSentences(_ text: String, maxLength: Int) -> String? {
        guard text.count > maxLength else { return nil }
        var kept = ""
        for sentence in SentenceSplitter().split(text).map(\.text) {
            let next = kept.isEmpty ? sentence : kept + " " + sentence
            guard next.count <= maxLength else { break }
            kept = next
        }
        return kept.isEmpty ? nil : kept
    }

    /// The sentences of `overview` that say one of `keyPoints` again (``ItemRules/nearCopy(_:_:)``
    /// of their content words), by index, and the overview without them; `nil` when none does.
    /// Qwen2.5-Coder-1.5B strung three of the material's sentences into its overview and wrote the
    /// same sentences as key points (session 60: the Black Death's, binary search's and the Moon's
    /// summaries lost 2–3 key points each as "a near-copy of sentence N of the overview"). The
    /// points are the part's items; the overview is one field that a shorter overview, or the
    /// builtin engine's, can stand in for. `kept` may be too short to be an overview (one
    /// sentence, or none): the caller then decides.
    static func overviewWithoutRepeats(_ overview: String, keyPoints: [String]) -> (kept: [String], removed: [Int])? {
        let sentences = SentenceSplitter().split(overview).map(\.text)
        let points = keyPoints.map(ItemRules.overlapKeys)
        var kept: [String] = []
        var removed: [Int] = []
        for (index, sentence) in sentences.enumerated() {
            let keys = ItemRules.overlapKeys(sentence)
            if points.contains(where: { ItemRules.nearCopy(keys, $0) }) {
                removed.append(index)
            } else {
                kept.append(sentence)
            }
        }
        return removed.isEmpty ? nil : (kept, removed)
    }

    /// Up to `count` of `candidates`, in order, that are no near-copy of one of `others` nor of
    /// one picked before them: sentences to fill an overview that lost its repeats.
    static func sentences(from candidates: [String], repeatingNoneOf others: [String], count: Int) -> [String] {
        var taken = others.map(ItemRules.overlapKeys)
        var picked: [String] = []
        for candidate in candidates where picked.count < count {
            let keys = ItemRules.overlapKeys(candidate)
            guard !keys.isEmpty, !taken.contains(where: { ItemRules.nearCopy(keys, $0) }) else { continue }
            picked.append(candidate)
            taken.append(keys)
        }
        return picked
    }

    /// The words that open a clause a key point's main clause holds without: a reason, a comment,
    /// a contrast, an aside. Never a condition or a limit ("when", "if", "unless", "but", "only"):
    /// the main clause without those says more than the material does.
    private static let addedClauseWords: Set<String> = [
        "because", "which", "while", "whereas", "although", "though", "especially",
    ]

    /// `point` (over `maxWords` words or `maxLength` characters) cut to its main clause: its words
    /// before the last "; " or ", because / which / while / whereas / although / though /
    /// especially" that leaves at most `maxWords` words and `maxLength` characters, and at least
    /// 5 words, closed by a period. `nil` when it fits, or no such cut does. Qwen2.5-Coder-1.5B's
    /// key points ran to 31–35 words with a reason or an aside after the fact ("The law of supply
    /// states that, … the quantity supplied rises, because higher prices make production more
    /// profitable …", the tuning half's supply and demand, session 63). A cut keeps the model's
    /// words and their claim: the clause left out only explained or qualified it.
    static func mainClause(_ point: String, maxWords: Int, maxLength: Int) -> String? {
        let trimmed = point.trimmingCharacters(in: .whitespaces)
        func fits(_ text: String) -> Bool {
            text.split(whereSeparator: \.isWhitespace).count <= maxWords && text.count <= maxLength
        }
        guard !fits(trimmed) else { return nil }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // Each break: the number of words before it (the last of which ends on ";" or ",").
        var breaks: [Int] = []
        for index in words.indices.dropFirst() {
            let previous = words[index - 1]
            let bare = words[index].lowercased().trimmingCharacters(in: .punctuationCharacters)
            if previous.hasSuffix(";") || previous.hasSuffix(",") && addedClauseWords.contains(bare) {
                breaks.append(index)
            }
        }
        for count in breaks.reversed() where count >= 5 {
            var head = words[..<count].joined(separator: " ")
            head.removeLast()
            // A bracket or quotation left open is a cut inside it.
            guard head.filter({ $0 == "(" }).count == head.filter({ $0 == ")" }).count,
                head.filter({ $0 == "\"" }).count.isMultiple(of: 2)
            else { continue }
            let sentence = head + "."
            if fits(sentence) { return sentence }
        }
        return nil
    }

    /// The verbs that close a subject a pronoun stands for, by the pronoun.
    private static let subjectVerbs: [String: Set<String>] = [
        "It": ["is", "was", "has", "had", "can", "could", "will", "would", "may", "might", "must"],
        "They": ["are", "were", "have", "had", "can", "could", "will", "would", "may", "might", "must"],
    ]

    /// `point` with its opening "It" or "They" replaced by the subject it stands for, or `nil`:
    /// the material has a sentence that opens with the point's first six words, and the sentence
    /// right before it opens with a subject of at most five words ("The Black Death", "Bubonic
    /// plague", an article or a capital first, no preposition, no comma) closed by a verb of the
    /// pronoun's number ("was", "are"). "It reached Europe in October 1347, …" after "The Black
    /// Death was a pandemic …" → "The Black Death reached Europe in October 1347, …". Written
    /// against the Black Death's and the Moon's summaries (session 61); "It then shrinks …"
    /// after "Over the next two weeks the lit part …" names no subject and is still dropped.
    /// Whether the named point then reads on its own is the caller's to ask (the builtin engine's
    /// rule, a layer above Schema): ``PartJudge`` keeps it only then.
    static func namedSubject(_ point: String, material: String) -> String? {
        let words = point.split(separator: " ").map(String.init)
        guard words.count >= 3, let verbs = subjectVerbs[words[0]] else { return nil }
        let opening = Array(GroundingWords.normalizedWords(point).prefix(6))
        let sentences = SentenceSplitter().split(material).map(\.text)
        guard
            let at = sentences.indices.first(where: {
                $0 > 0 && Array(GroundingWords.normalizedWords(sentences[$0]).prefix(opening.count)) == opening
            })
        else { return nil }
        let before = sentences[at - 1].split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = before.prefix(6).firstIndex(where: { verbs.contains($0.lowercased()) }), verb >= 1 else {
            return nil
        }
        let subject = Array(before[..<verb])
        guard let first = subject.first?.first, first.isUppercase,
            !subject.contains(where: {
                $0.hasSuffix(",") || $0.hasSuffix(":") || breakWords.contains($0.lowercased())
                    || pronouns.contains($0.lowercased())
            }),
            let last = subject.last, subject.count == 1 || !edgeWords.contains(last.lowercased()),
            !["this", "these", "those", "it", "they", "there", "here"].contains(subject[0].lowercased()),
            subject.contains(where: { ItemRules.contentWordCount(TermNormalizer.words(in: $0)) > 0 })
        else { return nil }
        return (subject + words.dropFirst()).joined(separator: " ")
    }
}
