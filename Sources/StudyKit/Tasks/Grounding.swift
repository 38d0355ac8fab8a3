/// Checks that a model's answer is about the material it was sent, beyond what its schema and
/// semantic rules can see: a small model writes valid JSON that says nothing ("This is a JSON
/// object with the headline.") or quotes sentences the material never had.
///
/// - A headline's blurb and a summary's overview must make a claim about the material: name at
///   least two different content words of it (stems compared, stopwords and numbers ignored; in
///   CJK text, character pairs). One shared word is what empty praise manages ("a must-read on
///   photosynthesis"); stock filler itself is rejected by the types (``ItemRules/stockFiller(in:)``).
/// - A quote — a flashcard's, a quiz question's, a Feynman gap's — must come from the material:
///   its normalized text appears in the material's, or, for a lightly edited quote, at least 3 of
///   every 4 of its word triples do. A quote with `…` or `...` in it is checked piece by piece.
/// - A quiz question's right choice must be supported by its quote (every content word of the
///   choice is in the quote), and no wrong choice may copy the quote word for word.
/// - Every mind-map label's content words must be in the material, and the central topic must
///   name the document's title (the material's first line: callers send the title first) or its
///   main subject (one of the material's most frequent content words).
///
/// The issues are worded as feedback for the one re-ask, like schema issues. After the re-ask,
/// ``dropUngrounded(_:source:)`` drops the items that still fail (a card, a question, a branch,
/// a gap) and says which; a part left with too few items no longer validates and falls back.
enum Grounding {
    /// What in `result` is not grounded in `source` (the material as sent to the model).
    static func issues(in result: AnyStudyResult, source: String) -> [ValidationIssue] {
        let material = Material(source)
        switch result {
        case .headline(let headline): return material.issues(headline)
        case .summary(let summary): return material.issues(summary)
        case .flashcards(let flashcards): return material.issues(flashcards)
        case .quiz(let quiz): return material.issues(quiz)
        case .mindMap(let map): return material.issues(map)
        case .feynman(let feedback): return material.issues(feedback)
        case .podcast(let script): return material.issues(script)
        case .studyKit(let kit):
            return material.issues(kit.headline).map { $0.prefixed("headline") }
                + material.issues(kit.summary).map { $0.prefixed("summary") }
                + material.issues(kit.flashcards).map { $0.prefixed("flashcards") }
                + material.issues(kit.quiz).map { $0.prefixed("quiz") }
                + material.issues(kit.mindMap).map { $0.prefixed("mindMap") }
        }
    }

    /// One item of a result as `studykit eval` counts it: where it is, whether it is grounded in
    /// the material by the rules above, and the text that ties it to a place in the material
    /// (its quote, else its own words).
    struct AuditedItem: Equatable {
        let path: String
        let grounded: Bool
        let anchor: String
    }

    /// Every item of `result`, each checked by the rule that applies to it; a summary's key point
    /// and a headline's blurb by the prose rule (two content words of the material at least).
    static func audit(_ result: AnyStudyResult, source: String) -> [AuditedItem] {
        let material = Material(source)
        func prose(_ text: String, _ path: String) -> AuditedItem {
            AuditedItem(path: path, grounded: material.named(text) >= 2, anchor: text)
        }
        func items(_ result: AnyStudyResult) -> [AuditedItem] {
            switch result {
            case .headline(let headline): return [prose(headline.blurb, "blurb")]
            case .summary(let summary):
                return [prose(summary.overview, "overview")]
                    + summary.keyPoints.enumerated().map { prose($1, "keyPoints[\($0)]") }
            case .flashcards(let deck):
                return deck.cards.enumerated().map { index, card in
                    AuditedItem(
                        path: "cards[\(index)]", grounded: material.cardIssues(card, at: "").isEmpty,
                        anchor: card.quote)
                }
            case .quiz(let quiz):
                return quiz.questions.enumerated().map { index, question in
                    AuditedItem(
                        path: "questions[\(index)]", grounded: material.questionIssues(question, at: "").isEmpty,
                        anchor: question.quote)
                }
            case .mindMap(let map):
                let topic = AuditedItem(
                    path: "centralTopic", grounded: material.topicIssues(map.centralTopic).isEmpty,
                    anchor: map.centralTopic)
                return [topic]
                    + Grounding.nodes(of: map).map { node, at in
                        AuditedItem(
                            path: at, grounded: material.labelIssues(node.label, at: "").isEmpty, anchor: node.label)
                    }
            case .feynman(let feedback):
                return feedback.gaps.enumerated().map { index, gap in
                    AuditedItem(
                        path: "gaps[\(index)]", grounded: material.gapIssues(gap, at: "").isEmpty, anchor: gap.quote)
                }
            case .podcast(let script):
                return script.turns.enumerated().compactMap { index, turn in
                    script.role(of: turn.speaker) == .explainer
                        ? AuditedItem(
                            path: "turns[\(index)]", grounded: material.turnIssues(turn, in: script, at: "").isEmpty,
                            anchor: turn.quote)
                        : nil
                } + script.recap.enumerated().map { prose($1, "recap[\($0)]") }
            case .studyKit(let kit):
                let parts: [(String, AnyStudyResult)] = [
                    ("headline", .headline(kit.headline)), ("summary", .summary(kit.summary)),
                    ("flashcards", .flashcards(kit.flashcards)), ("quiz", .quiz(kit.quiz)),
                    ("mindMap", .mindMap(kit.mindMap)),
                ]
                return parts.flatMap { name, part in
                    items(part).map {
                        AuditedItem(path: name + "." + $0.path, grounded: $0.grounded, anchor: $0.anchor)
                    }
                }
            }
        }
        return items(result)
    }

    /// `result` without its ungrounded items, and what was dropped; `nil` when what is wrong is
    /// not an item (a blurb, an overview, a central topic) or when too few items are left for the
    /// part to validate.
    static func dropUngrounded(
        _ result: AnyStudyResult, source: String
    ) -> (result: AnyStudyResult, dropped: [DroppedItem])? {
        let material = Material(source)
        var dropped: [DroppedItem] = []
        func keep<Item>(_ items: [Item], path: String, _ check: (Item, String) -> [ValidationIssue]) -> [Item] {
            items.enumerated().filter { index, item in
                let issues = check(item, "\(path)[\(index)]")
                if let first = issues.first {
                    dropped.append(DroppedItem(path: "\(path)[\(index)]", reason: first.description))
                }
                return issues.isEmpty
            }.map(\.element)
        }
        func prune(_ nodes: [MindMap.Node], path: String) -> [MindMap.Node] {
            nodes.enumerated().compactMap { index, node in
                let at = "\(path)[\(index)]"
                if let issue = material.labelIssues(node.label, at: at + ".label").first {
                    dropped.append(DroppedItem(path: at, reason: issue.description))
                    return nil
                }
                var node = node
                node.children = prune(node.children, path: at + ".children")
                return node
            }
        }
        let pruned: AnyStudyResult
        switch result {
        case .headline(let headline):
            guard material.issues(headline).isEmpty else { return nil }
            pruned = result
        case .summary(let summary):
            guard material.issues(summary).isEmpty else { return nil }
            pruned = result
        case .flashcards(let deck):
            pruned = .flashcards(Flashcards(cards: keep(deck.cards, path: "cards", material.cardIssues)))
        case .quiz(let quiz):
            pruned = .quiz(Quiz(questions: keep(quiz.questions, path: "questions", material.questionIssues)))
        case .mindMap(let map):
            guard material.topicIssues(map.centralTopic).isEmpty else { return nil }
            pruned = .mindMap(MindMap(centralTopic: map.centralTopic, branches: prune(map.branches, path: "branches")))
        case .feynman(var feedback):
            feedback.gaps = keep(feedback.gaps, path: "gaps", material.gapIssues)
            pruned = .feynman(feedback)
        case .podcast(var script):
            guard material.scriptIssues(script).isEmpty else { return nil }
            // A dropped answer takes the question just before it along (never the opening): a
            // listener would hear a question left hanging.
            let issues = script.turns.indices.map {
                material.turnIssues(script.turns[$0], in: script, at: "turns[\($0)]")
            }
            var gone = Set<Int>()
            for (index, turnIssues) in issues.enumerated() {
                guard let first = turnIssues.first else { continue }
                if index > 1, !gone.contains(index - 1), script.role(of: script.turns[index - 1].speaker) == .curious {
                    gone.insert(index - 1)
                    dropped.append(DroppedItem(
                        path: "turns[\(index - 1)]", reason: "asks the question whose answer was dropped"))
                }
                gone.insert(index)
                dropped.append(DroppedItem(path: "turns[\(index)]", reason: first.description))
            }
            script.turns = script.turns.indices.filter { !gone.contains($0) }.map { script.turns[$0] }
            pruned = .podcast(script)
        case .studyKit(var kit):
            guard material.issues(kit.headline).isEmpty, material.issues(kit.summary).isEmpty,
                material.topicIssues(kit.mindMap.centralTopic).isEmpty
            else { return nil }
            kit.flashcards.cards = keep(kit.flashcards.cards, path: "flashcards.cards", material.cardIssues)
            kit.quiz.questions = keep(kit.quiz.questions, path: "quiz.questions", material.questionIssues)
            kit.mindMap.branches = prune(kit.mindMap.branches, path: "mindMap.branches")
            pruned = .studyKit(kit)
        }
        guard pruned.value.validationIssues().isEmpty else { return nil }
        return (pruned, dropped)
    }

    /// The material, indexed at most once for every check of one answer, and only as far as
    /// the answer needs: a headline needs the stems, flashcards the normalized text and triples.
    private final class Material {
        private let source: String
        private(set) lazy var stems = Set(GroundingWords.contentStems(source))
        /// Its content words' keys, in every form (``GroundingWords/groundingKeys(of:)``).
        private lazy var keys = GroundingWords.groundingKeys(of: source)
        private lazy var words = GroundingWords.normalizedWords(source)
        private(set) lazy var normalized = " " + words.joined(separator: " ") + " "
        private(set) lazy var triples = GroundingWords.triples(words)
        /// What the material is about: its first line's stems (the title) and its most frequent content stems.
        private(set) lazy var subject: Set<String> = {
            let firstLine = source.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            var counts: [String: Int] = [:]
            for stem in GroundingWords.contentStems(source) { counts[stem, default: 0] += 1 }
            let frequent = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .prefix(Grounding.subjectStems)
            return Set(GroundingWords.contentStems(firstLine)).union(frequent.map(\.key))
        }()

        /// The material's sentences, to compare a reworded statement with (#53).
        private lazy var claims = ClaimCheck(material: source)
        /// Its sentences as the repairs split them, for a quiz answer its explanation points away from.
        private lazy var sentences = ItemRepairs.sentences(ofMaterial: source)

        init(_ source: String) {
            self.source = source
        }

        /// How many different content words of the material `text` names.
        func named(_ text: String) -> Int {
            Set(GroundingWords.contentStems(text)).filter { stems.contains($0) }.count
        }

        func issues(_ headline: Headline) -> [ValidationIssue] {
            if named(headline.blurb) >= 2, let reason = claims.misstatement(headline.blurb) {
                return [ValidationIssue(path: "blurb", message: reason)]
            }
            switch named(headline.blurb) {
            case 0:
                return [ValidationIssue(
                    path: "blurb",
                    message: "names nothing from the material; say in one sentence what this material covers")]
            case 1:
                return [ValidationIssue(
                    path: "blurb",
                    message: "names only one word of the material; state in one sentence what the material says, "
                        + "in its own terms")]
            default: return []
            }
        }

        func issues(_ summary: Summary) -> [ValidationIssue] {
            // A key point or a sentence of the overview that rewords the material into something false.
            let misstated = summary.keyPoints.enumerated().compactMap { index, point in
                claims.misstatement(point).map { ValidationIssue(path: "keyPoints[\(index)]", message: $0) }
            }
            switch named(summary.overview) {
            case 0:
                let issue = ValidationIssue(
                    path: "overview", message: "names nothing from the material; sum up what this material says")
                return [issue] + misstated
            case 1:
                return [ValidationIssue(
                    path: "overview",
                    message: "names only one word of the material; sum up what this material says, in its own terms")]
                    + misstated
            default:
                guard let reason = claims.misstatement(summary.overview) else { return misstated }
                return [ValidationIssue(path: "overview", message: reason)] + misstated
            }
        }

        func issues(_ flashcards: Flashcards) -> [ValidationIssue] {
            flashcards.cards.enumerated().flatMap { index, card in cardIssues(card, at: "cards[\(index)]") }
        }

        func issues(_ quiz: Quiz) -> [ValidationIssue] {
            quiz.questions.enumerated().flatMap { index, question in
                questionIssues(question, at: "questions[\(index)]")
            }
        }

        func issues(_ map: MindMap) -> [ValidationIssue] {
            topicIssues(map.centralTopic)
                + Grounding.nodes(of: map).flatMap { node, at in labelIssues(node.label, at: at + ".label") }
        }

        func issues(_ feedback: FeynmanFeedback) -> [ValidationIssue] {
            feedback.gaps.enumerated().flatMap { index, gap in gapIssues(gap, at: "gaps[\(index)]") }
        }

        /// A podcast: what is not an item (the opening, the recap) and each explainer's quote.
        func issues(_ script: PodcastScript) -> [ValidationIssue] {
            scriptIssues(script)
                + script.turns.enumerated().flatMap { index, turn in
                    turnIssues(turn, in: script, at: "turns[\(index)]")
                }
        }

        /// The opening must say what the material is about, and each recap point name it (two
        /// content words at least, like an overview).
        func scriptIssues(_ script: PodcastScript) -> [ValidationIssue] {
            var issues: [ValidationIssue] = []
            let opening = script.turns.prefix(2).map(\.line).joined(separator: " ")
            if !script.turns.isEmpty, named(opening) < 2 {
                issues.append(ValidationIssue(
                    path: "turns[0].line",
                    message: "does not say what the material is about; open by naming its subject, in its own terms"))
            }
            for (index, point) in script.recap.enumerated() where named(point) < 2 {
                issues.append(ValidationIssue(
                    path: "recap[\(index)]",
                    message: "names too little of the material; sum up one thing it says, in its own terms"))
            }
            return issues
        }

        /// An explainer's turn must quote the material; the curious host's turns are questions.
        func turnIssues(_ turn: PodcastScript.Turn, in script: PodcastScript, at path: String) -> [ValidationIssue] {
            guard script.role(of: turn.speaker) == .explainer, !contains(quote: turn.quote) else { return [] }
            return [ValidationIssue(
                path: path + ".quote",
                message: "is not in the material; copy the sentence the line rests on from it word for word")]
        }

        func cardIssues(_ card: Flashcards.Card, at path: String) -> [ValidationIssue] {
            guard contains(quote: card.quote) else {
                return [ValidationIssue(
                    path: path + ".quote",
                    message: "is not in the material; copy the sentence that supports the answer from it word for word"
                )]
            }
            // The quote carries the answer and what the question asks about (#53).
            return Grounding.supportProblem(question: card.question, answer: card.answer, quote: card.quote).map {
                [ValidationIssue(path: path + ".quote", message: $0)]
            } ?? []
        }

        func questionIssues(_ question: Quiz.Question, at path: String) -> [ValidationIssue] {
            guard contains(quote: question.quote) else {
                return [ValidationIssue(
                    path: path + ".quote",
                    message: "is not in the material; copy the sentence that supports the right answer "
                        + "from it word for word")]
            }
            var issues: [ValidationIssue] = []
            if let answer = question.answer, !Grounding.supports(quote: question.quote, answer) {
                issues.append(ValidationIssue(
                    path: "\(path).choices[\(question.answerIndex)]",
                    message: "is the right answer, but the quote does not say it; "
                        + "quote the sentence of the material that does"))
            } else if let answer = question.answer,
                let problem = Grounding.supportProblem(question: question.prompt, answer: answer, quote: question.quote)
            {
                issues.append(ValidationIssue(path: path + ".quote", message: problem))
            }
            if issues.isEmpty,
                let other = ItemRepairs.explainedAnswer(question, sentences: { self.sentences })
            {
                issues.append(ValidationIssue(
                    path: "\(path).answerIndex",
                    message: "marks “\(question.choices[question.answerIndex])” right, but the explanation and the "
                        + "material say “\(question.choices[other])”; mark the answer they say"))
            }
            let quoteWords = GroundingWords.normalizedWords(question.quote)
            for (index, choice) in question.choices.enumerated() where index != question.answerIndex {
                if Grounding.copies(choice, quoteWords) {
                    issues.append(ValidationIssue(
                        path: "\(path).choices[\(index)]",
                        message: "is a wrong answer that copies the quote word for word; "
                            + "a wrong answer must not be what the material says"))
                }
            }
            return issues
        }

        func topicIssues(_ topic: String) -> [ValidationIssue] {
            let own = Set(GroundingWords.contentStems(topic))
            if let issue = labelIssues(topic, at: "centralTopic").first { return [issue] }
            guard own.isEmpty || !own.isDisjoint(with: subject) else {
                return [ValidationIssue(
                    path: "centralTopic",
                    message: "is not what the material is about; name its title or its main subject")]
            }
            return []
        }

        func labelIssues(_ label: String, at path: String) -> [ValidationIssue] {
            // A word the material has in another form ("color" for "colour", "moving" for "moves").
            let foreign = GroundingWords.foreignStems(label, materialKeys: keys)
            guard foreign.isEmpty else {
                return [ValidationIssue(
                    path: path,
                    message: "uses words the material does not have (\(foreign.prefix(3).joined(separator: ", "))); "
                        + "name an idea of the material in its words")]
            }
            return []
        }

        func gapIssues(_ gap: FeynmanFeedback.Gap, at path: String) -> [ValidationIssue] {
            contains(quote: gap.quote) ? [] : [ValidationIssue(
                path: path + ".quote",
                message: "is not in the material; copy the sentence the correction comes from word for word")]
        }

        func contains(quote: String) -> Bool {
            // A formula is never "lightly edited": each one must stand in the material as written.
            if quote.contains("$"), !FormulaText.spans(in: quote).allSatisfy({ source.contains(quote[$0]) }) {
                return false
            }
            let pieces = quote.replacingOccurrences(of: "...", with: "…").split(separator: "…")
                .map { GroundingWords.normalizedWords(String($0)) }.filter { !$0.isEmpty }
            guard !pieces.isEmpty else { return false }
            return pieces.allSatisfy { words in
                if normalized.contains(" " + words.joined(separator: " ") + " ") { return true }
                let own = GroundingWords.triples(words)
                guard !own.isEmpty else { return false }
                return own.filter(triples.contains).count * 4 >= own.count * 3
            }
        }
    }

    /// Every node of `map` below the central topic, in document order, with its path
    /// (`branches[1].children[0]`).
    static func nodes(of map: MindMap) -> [(node: MindMap.Node, path: String)] {
        var all: [(node: MindMap.Node, path: String)] = []
        func walk(_ nodes: [MindMap.Node], path: String) {
            for (index, node) in nodes.enumerated() {
                all.append((node, "\(path)[\(index)]"))
                walk(node.children, path: "\(path)[\(index)].children")
            }
        }
        walk(map.branches, path: "branches")
        return all
    }

    /// How many of the material's most frequent content stems count as its main subject.
    static let subjectStems = 8

    /// Whether `quote` says `answer`: every content word of the answer is in the quote; an answer
    /// without content words (a number, a date, one CJK character) must appear in it as written.
    static func supports(quote: String, _ answer: String) -> Bool {
        let answerStems = GroundingWords.contentStems(answer)
        if answerStems.isEmpty {
            let words = GroundingWords.normalizedWords(answer)
            guard !words.isEmpty else { return true }
            return GroundingWords.containsRun(words, in: GroundingWords.normalizedWords(quote))
                || quote.lowercased().contains(answer.lowercased().trimmingCharacters(in: .whitespaces))
        }
        let quoteStems = Set(GroundingWords.contentStems(quote))
        return answerStems.allSatisfy(quoteStems.contains)
    }

    /// Whether `text` (an explanation, a correction) already quotes `quote`: its first six words
    /// appear in it in order. Renderers then leave the quote out rather than print it twice.
    static func alreadyQuotes(_ text: String, _ quote: String) -> Bool {
        let opening = Array(GroundingWords.normalizedWords(quote).prefix(6))
        guard !opening.isEmpty else { return true }
        return GroundingWords.containsRun(opening, in: GroundingWords.normalizedWords(text))
    }

    /// Whether `choice` copies the quote: it is the quote, or a run of 4 words or more of it that
    /// is at least half of it.
    static func copies(_ choice: String, _ quoteWords: [String]) -> Bool {
        let words = GroundingWords.normalizedWords(choice)
        guard !words.isEmpty, !quoteWords.isEmpty else { return false }
        if words == quoteWords { return true }
        guard words.count >= 4, words.count * 2 >= quoteWords.count else { return false }
        return GroundingWords.containsRun(words, in: quoteWords)
    }
}
