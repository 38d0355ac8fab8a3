import Foundation

// MARK: - What a model's pieces of prose must be on their own

/// Rules a model's whole answer answers to beyond those every result does (#53), item by item,
/// so a judged part drops the items that break them: the builtin engine picks its key points and
/// labels so that they hold by construction, and is not held to them.
///
/// - A key point stands on its own: it does not lean on a sentence before it ("It then shrinks
///   …", "If they are equal, …": ``StandaloneSentence/readsOnItsOwn(_:)``, the rule the builtin
///   engine's own key points follow), and it is not cut inside a number of the material ("A full
///   cycle of phases takes about 29." where the material says 29.5; "5 days, and …").
/// - A mind-map label is a phrase, not a piece of a sentence cut where it ran over the word limit:
///   it does not end on an article, a conjunction or a preposition ("… labour became scarce and").
/// - A card or a quiz question asks what the material teaches, not about the document: its quote
///   is no label the document gives itself ("Astronomy club handout, session 4"), and it does not
///   ask for "the name of the handout" (#53, session 61: the 1.5B's quizzes on the Moon handout).
enum ModelAnswerRules {
    /// The words a label never ends on.
    static let danglingLabelEnds: Set<String> = [
        "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as",
        "than",
        "that", "which", "who", "whose", "when", "where", "while", "because", "into", "between", "its", "their", "his",
        "her",
        "may", "can", "will", "would", "is", "are", "was", "were",
    ]

    /// What in `result`, a model's answer, breaks these rules, against `material`.
    static func issues(in result: AnyStudyResult, material: String) -> [ValidationIssue] {
        switch result {
        case .summary(let summary): return issues(summary, material: material)
        case .mindMap(let map): return issues(map)
        case .flashcards(let deck): return aboutTheDocument(deck.cards.map { ($0.question, $0.quote) }, list: "cards")
        case .quiz(let quiz): return aboutTheDocument(quiz.questions.map { ($0.prompt, $0.quote) }, list: "questions")
        case .studyKit(let kit):
            return issues(kit.summary, material: material).map { $0.prefixed("summary") }
                + issues(kit.mindMap).map { $0.prefixed("mindMap") }
                + issues(in: .flashcards(kit.flashcards), material: material).map { $0.prefixed("flashcards") }
                + issues(in: .quiz(kit.quiz), material: material).map { $0.prefixed("quiz") }
        default: return []
        }
    }

    private static func issues(_ summary: Summary, material: String) -> [ValidationIssue] {
        summary.keyPoints.enumerated().compactMap { index, point in
            if !StandaloneSentence.readsOnItsOwn(point) {
                return ValidationIssue(
                    path: "keyPoints[\(index)]",
                    message:
                        "is \(ItemRules.quoted(point)), which leans on the sentence before it; "
                        + "write a point that stands on its own"
                )
            }
            if let number = cutInsideANumber(point, material: material) {
                return ValidationIssue(
                    path: "keyPoints[\(index)]",
                    message:
                        "is \(ItemRules.quoted(point)), cut inside the material's number \(number); "
                        + "write the whole number"
                )
            }
            return nil
        }
    }

    /// Words that, after "the", name the document rather than its material.
    private static let documentWords: Set<String> = [
        "document", "handout", "worksheet",
    ]

    /// The questions (a card's, a quiz's) that ask about the document itself: their quote is a label
    /// the document gives itself (``ItemRules/documentLabel(_:)``, in at most 8 words), or they ask
    /// about "the handout", "the document".
    static func aboutTheDocument(_ asked: [(question: String, quote: String)], list: String) -> [ValidationIssue] {
        asked.enumerated().compactMap { index, item in
            let words = GroundingWords.normalizedWords(item.question)
            let named = zip(words, words.dropFirst()).first { $0 == "the" && documentWords.contains($1) }?.1
            // The label as the whole quote, not a sentence that says "week 3" or "chapter 5" of its matter.
            let quote = GroundingWords.normalizedWords(item.quote)
            let label = quote.count <= 8 ? ItemRules.documentLabel(quote) : nil
            guard let what = label ?? named else {
                return nil
            }
            return ValidationIssue(
                path: "\(list)[\(index)]",
                message: "asks about the document (“\(what)”), not what it teaches; ask about the material")
        }
    }

    private static func issues(_ map: MindMap) -> [ValidationIssue] {
        Grounding.nodes(of: map).compactMap { node, path in
            guard let last = GroundingWords.normalizedWords(node.label).last, danglingLabelEnds.contains(last) else {
                return nil
            }
            return ValidationIssue(
                path: path + ".label",
                message:
                    "is \(ItemRules.quoted(node.label)), a phrase cut off after “\(last)”; "
                    + "name an idea in a few words")
        }
    }

    /// The material's number that `text` ends or starts inside of, or `nil`: it ends on "about 29."
    /// where the material writes "about 29.5", or starts with "5 days" where it writes "29.5 days"
    /// (the words beside the number are the material's too, so "a pH of 7." is not cut from "close to 7.4").
    static func cutInsideANumber(_ text: String, material: String) -> String? {
        let words = text.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        guard let first = words.first, let last = words.last else { return nil }
        let characters = Array(material)
        /// The material's decimals, each with the two words before it and the word after it.
        var found: [(number: String, whole: String, fraction: String, before: [String], after: String)] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isNumber,
                index == 0 || !characters[index - 1].isNumber && characters[index - 1] != "."
            else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end].isNumber { end += 1 }
            guard end + 1 < characters.count, characters[end] == ".", characters[end + 1].isNumber else {
                index = end
                continue
            }
            var fractionEnd = end + 1
            while fractionEnd < characters.count, characters[fractionEnd].isNumber { fractionEnd += 1 }
            let before = Array(GroundingWords.normalizedWords(String(characters[max(0, index - 40)..<index])).suffix(2))
            let following = String(characters[fractionEnd..<min(characters.count, fractionEnd + 30)])
            let after = GroundingWords.normalizedWords(following).first ?? ""
            found.append(
                (
                    String(characters[index..<fractionEnd]), String(characters[index..<end]),
                    String(characters[(end + 1)..<fractionEnd]), before, after
                ))
            index = fractionEnd
        }
        if last.hasSuffix("."), !last.dropLast().isEmpty, last.dropLast().allSatisfy(\.isNumber) {
            let said = Array(GroundingWords.normalizedWords(words.dropLast().joined(separator: " ")).suffix(2))
            if let hit = found.first(where: {
                $0.whole == String(last.dropLast()) && !said.isEmpty && $0.before == said
            }) {
                return hit.number
            }
        }
        if first.allSatisfy(\.isNumber), words.count > 1 {
            let said = GroundingWords.normalizedWords(words[1]).first ?? ""
            if let hit = found.first(where: { $0.fraction == first && $0.after == said }) { return hit.number }
        }
        return nil
    }
}
