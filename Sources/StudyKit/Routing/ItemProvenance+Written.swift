import Foundation

// MARK: - Provenance of every item

extension ItemProvenance {
    /// The records of a whole part `model` wrote, each `written`, except a headline's or a
    /// summary's text of three words or more that is the material's own words, word for word (its
    /// title, a sentence, a run of sentences): that one says `extracted`, chosen by the model.
    /// Qwen2.5-Coder-0.5B's headline blurb was the material's opening sentence on 10 of 12
    /// documents, the one the builtin engine picks, and `--json` called it written.
    static func written(in result: AnyStudyResult, model: String, material: String, cached: Bool) -> [ItemProvenance] {
        let from = cached ? ", from the cache" : ""
        let records = all(in: result, kind: .written, note: "written by \(model)\(from)")
        let texts: [String: String]
        switch result {
        case .headline(let headline): texts = ["title": headline.title, "blurb": headline.blurb]
        case .summary(let summary):
            texts = Dictionary(
                uniqueKeysWithValues: [("overview", summary.overview)]
                    + summary.keyPoints.enumerated().map { ("keyPoints[\($0)]", $1) })
        default: return records
        }
        let materialWords = GroundingWords.normalizedWords(material)
        return records.map { record in
            guard let text = texts[record.path] else { return record }
            let words = GroundingWords.normalizedWords(text)
            // One or two words (a title such as "Mitosis") are always the material's.
            guard words.count >= 3, GroundingWords.containsRun(words, in: materialWords) else { return record }
            return ItemProvenance(
                path: record.path, kind: .extracted, note: "the material's own words, chosen by \(model)\(from)")
        }
    }

    /// One record per item of `result`, all of the same kind.
    static func all(in result: AnyStudyResult, kind: Kind, note: String?) -> [ItemProvenance] {
        func make(_ path: String) -> ItemProvenance { ItemProvenance(path: path, kind: kind, note: note) }
        switch result {
        case .headline: return [make("title"), make("blurb")]
        case .feynman(let feedback):
            return [make("verdict")] + feedback.whatWasRight.indices.map { make("whatWasRight[\($0)]") }
                + feedback.gaps.indices.map { make("gaps[\($0)]") } + [make("followUpQuestion")]
        case .summary(let summary):
            return [make("overview")] + summary.keyPoints.indices.map { make("keyPoints[\($0)]") }
        case .flashcards(let deck): return deck.cards.indices.map { make("cards[\($0)]") }
        case .quiz(let quiz): return quiz.questions.indices.map { make("questions[\($0)]") }
        case .mindMap(let map): return [make("centralTopic")] + map.branches.indices.map { make("branches[\($0)]") }
        case .podcast(let script):
            return [make("title")] + script.turns.indices.map { make("turns[\($0)]") } + [make("recap")]
        case .studyKit(let kit):
            return [make("headline")]
                + all(in: .summary(kit.summary), kind: kind, note: note).map { make("summary.\($0.path)") }
                + all(in: .flashcards(kit.flashcards), kind: kind, note: note).map { make("flashcards.\($0.path)") }
                + all(in: .quiz(kit.quiz), kind: kind, note: note).map { make("quiz.\($0.path)") }
                + all(in: .mindMap(kit.mindMap), kind: kind, note: note).map { make("mindMap.\($0.path)") }
        }
    }
}
