import Foundation

// MARK: - The summary's overview written from the key sentences

extension ItemRewriter {

    static let overviewSpec = ItemSpec(
        name: "overview", version: "summary.overview/3",
        instructions: """
            You write the overview of a student's study material from its key sentences.
            Write 2 or 3 short sentences on one line, using only facts in the key sentences.
            Reply with a JSON object with "overview".
            """,
        schema: .object([
            .init(
                "overview", description: "2 or 3 sentences.",
                .string(maxLength: 400, maxWords: 60, forbiddenCharacters: "\n", sentences: 2...3))
        ]),
        maximumTokens: 160, oncePerDocument: true)

    /// The versions of the item jobs asked once per document (``ItemSpec/oncePerDocument``), for
    /// reading their record where only its key is at hand (`studykit engines`).
    static let oncePerDocumentVersions: Set<String> = [overviewSpec.version]

    static func overviewJob(
        sentences: [String], keyPoints: [String], extracted: String, materialStems: Set<String>
    ) -> ItemJob {
        let prompt = "Key sentences:\n" + sentences.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n")
        var job = ItemJob(path: "overview", prompt: prompt, passedOver: overviewPassedOver) { json in
            guard let overview = json["overview"]?.stringValue.map(ProseText.oneLine) else {
                return .failure(ItemRejection(reason: "the answer had no overview"))
            }
            if let issue = Summary(overview: overview, keyPoints: keyPoints).validationIssues().first {
                return .failure(ItemRejection(reason: "the overview \(issue.description)"))
            }
            let stems = GroundingWords.contentStems(overview)
            guard !stems.isEmpty, stems.filter(materialStems.contains).count * 5 >= stems.count * 4 else {
                return .failure(ItemRejection(reason: "the overview used words the material does not have"))
            }
            // The fifth of its words the overview may add must be plain English: a word that is
            // neither the material's nor common ("arepublican", SmolLM2 on long.pdf) is made up.
            if let invented = Self.inventedWord(in: overview, materialStems: materialStems) {
                return .failure(
                    ItemRejection(
                        reason: "the overview used a word that is neither the material's nor English (\(invented))"))
            }
            guard !ResultProse.sameText(overview, extracted) else {
                return .failure(ItemRejection(reason: "the model repeated the extracted overview"))
            }
            // Strung together from the key sentences word for word, it is the extracted overview
            // again, not one a model wrote (Qwen2.5-Coder-0.5B on long.pdf: three key sentences,
            // a comma added).
            guard ItemRules.copiedShare(overview, from: sentences) < 0.75 else {
                return .failure(ItemRejection(reason: "the overview copied the key sentences word for word"))
            }
            return .success(overview)
        }
        // Nor does it open with a key sentence copied (nine words in ten): that is the extracted
        // overview's start again, whatever follows, and the 0.5B, having copied one, copied the
        // next ones too (2 s of decoding on long.pdf) — so the answer is stopped once its first
        // sentence ends. A first sentence that keeps a key sentence's words in another order or
        // with a few of its own is judged with the rest, by the share above.
        // Opening as a key sentence opens, its first ``overviewCopiedWords`` words copied, the
        // sentence's end is not awaited: the 0.5B went on copying (samples/notes.pdf: a 38-word
        // key sentence decoded whole to be refused, #53). The same words that open no key
        // sentence ("The Convention abolished …" of "In 1792 the Convention abolished …") are
        // judged with the rest.
        let keyOpenings = sentences.map { Array(GroundingWords.normalizedWords($0).prefix(overviewCopiedWords)) }
        job.settledRefusal = { answer in
            if let first = answer.firstSentence("overview"), ItemRules.copiedShare(first, from: sentences) >= 0.9 {
                return "the overview's first sentence was a key sentence copied word for word"
            }
            let opening = GroundingWords.normalizedWords(answer.settledWords("overview").joined(separator: " "))
                .prefix(overviewCopiedWords)
            guard opening.count == overviewCopiedWords, keyOpenings.contains(where: { $0.elementsEqual(opening) })
            else { return nil }
            return
                "the overview opened as a key sentence does, its first \(overviewCopiedWords) words copied word for "
                    + "word"
        }
        return job
    }

    /// Why the local model is not asked for the overview (``ItemAllowance/overview(_:)``): shown
    /// the key sentences, Qwen2.5-Coder-0.5B copies them. No overview of its was accepted on any
    /// document on record (notes.pdf, long.pdf, en-biology-immune, en-computing-hash-tables in
    /// session 50; notes.pdf in every run since, copied and stopped at its 10th word), and each
    /// attempt cost 1.5–4.9 s of a page's kit, most of it reading the five sentences (#53).
    static let overviewPassedOver = "the small local model's overviews copy the key sentences they are shown"

    /// How many words of a key sentence in a row an overview may open with before it is refused
    /// as a copy, its first sentence unfinished (the in-process headline stops at 8).
    static let overviewCopiedWords = 10

    /// The first content word of `text` that is neither in the material (by stem) nor English
    /// as `isEnglish` reads its lower-cased spelling (by default a common word), or `nil`.
    static func inventedWord(
        in text: String, materialStems: Set<String>, isEnglish: (String) -> Bool = EnglishFrequency.isCommon
    ) -> String? {
        TermNormalizer.words(in: text).first { word in
            !word.isStopword && !word.isNumber && word.surface.count >= 3 && !materialStems.contains(word.stem)
                && !isEnglish(word.surface.lowercased())
        }?.surface
    }

    /// Whether `word` is in the frequency table at all (about 2.5 Zipf or more): looser than
    /// ``EnglishFrequency/isCommon(_:)``, for text that may use rare English words but not
    /// words glued together.
    static func isInTheFrequencyTable(_ word: String) -> Bool { EnglishFrequency.zipf(word) > 0 }
}
