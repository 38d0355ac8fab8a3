import Foundation

/// The checks behind ``ItemMeaning``: the word lists, ``problem(_:_:)`` and the sentence, code and
/// placeholder tests it runs. The near-copy measure (`ItemRules+NearCopies`), the "no empty
/// praise" filler list (`ItemRules+Filler`) and the checks of a shortened sentence
/// (`ItemRules+ShortenedSentence`) extend it; the grammar's share is `GenerationSchema+ItemPattern`.
enum ItemRules {
    /// Every member name of every task's schema, lower-cased with non-letters removed
    /// (`keyPoints` → `keypoints`), so "key points" and "key_points" match too.
    static let fieldNames: Set<String> = Set(allFieldNames.map(squeezed))

    /// The field names written in camelCase (`keyPoints`, `centralTopic`): never a word of prose,
    /// so they never count as content words.
    static let compoundFieldNames: Set<String> = Set(
        allFieldNames.filter { $0.contains(where: \.isUppercase) }.map(squeezed))

    /// Every member name of every task's schema (``StudyTask``'s result types, in Tasks, a layer
    /// above): a closed list, like the other word lists here. `ItemRulesTests` collects the
    /// names from the tasks' schemas and fails when this list differs, so a new field is added here.
    static let allFieldNames: [String] = [
        "answer", "answerIndex", "blurb", "branches", "cards", "centralTopic", "children", "choices", "correction",
        "explanation", "flashcards", "followUpQuestion", "gaps", "headline", "hint", "hosts", "keyPoints", "kind",
        "label", "line", "mindMap", "name", "overview", "point", "prompt", "question", "questions", "quiz", "quote",
        "recap", "role", "score", "section", "sections", "speaker", "summary", "title", "turns", "verdict",
        "whatWasRight",
    ]

    /// Words about the reply's format, never about the material; they are not content words.
    static let schemaWords: Set<String> = [
        "json", "object", "objects", "array", "arrays", "string", "strings", "integer", "integers", "boolean",
        "booleans", "null", "schema", "schemas", "field", "fields", "property", "properties",
    ]

    /// Words a template or a lazy model leaves in a slot, even alone: "label", "item", "example".
    static let placeholderWords: Set<String> = [
        "label", "item", "string", "example", "placeholder", "todo", "tbd", "tba", "null", "nil", "undefined", "foo",
        "xxx", "lorem", "ipsum", "keypoint", "subtopic", "branch", "misc", "stuff", "something", "etc",
    ]

    /// Words that are placeholders only when numbered or lettered ("child1", "Option A", "Point 2"):
    /// alone, each can be a real label or answer.
    static let numberedPlaceholderWords: Set<String> = [
        "child", "node", "text", "value", "option", "choice", "answer", "question", "point", "topic", "idea", "detail",
        "theme", "title", "name", "sample", "card", "step", "section", "category", "term", "concept", "fact",
    ]

    /// A choice made only of function words that a quiz may still offer.
    private static let stockChoices: Set<String> = [
        "all of the above", "none of the above", "all of these", "none of these", "both of the above",
        "neither of the above", "both", "neither", "yes", "no", "true", "false",
    ]

    /// Words that are grammar and nothing else: alone they can never be an answer, while
    /// "Sometimes", "Before" or "Two" can.
    private static let pureFunctionWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as",
        "is", "are", "was", "were", "be", "been", "being", "am", "it", "its", "this", "that", "these", "those", "he",
        "she", "they", "we", "you", "i", "me", "him", "her", "them", "us", "if", "then", "than", "so", "which", "who",
        "whom", "whose", "has", "have", "had", "do", "does", "did", "will", "would", "shall", "should", "can", "could",
        "may", "might",
    ]

    /// Words a cut-off sentence ends on ("Comparing meiosis, a."): articles, determiners and
    /// coordinating conjunctions never end an English sentence.
    private static let danglingEnds: Set<String> = [
        "a", "an", "the", "and", "or", "nor", "but", "its", "their", "our", "your", "my", "this", "these", "those",
        "each", "every", "than", "whose", "with", "of",
    ]

    /// The first thing wrong with `text` as an item of this meaning, worded as the rest of an
    /// issue's sentence (after its path), or `nil` when the item carries meaning.
    static func problem(_ text: String, _ meaning: ItemMeaning) -> String? {
        let shown = quoted(text)
        let words = TermNormalizer.words(in: text)
        guard !words.isEmpty else {
            return "is \(shown), only punctuation; write \(meaning.noun) about the material"
        }
        let squeezedText = squeezed(text)
        if fieldNames.contains(squeezedText) {
            return "is \(shown), a field name of the schema, not content; write \(meaning.noun) about the material"
        }
        if isPlaceholder(text) {
            return "is \(shown), a placeholder; write \(meaning.noun) about the material"
        }
        if !meaning.allowsBareTerm, isCodeDeclaration(text) {
            return "is \(shown), a code declaration (a function's parameter list or a line of markup), not prose; "
                + "write \(meaning.noun) in words about the material"
        }
        // "overview: Before mitosis …", "keyPoints: …": a field name written into the value.
        if let colon = text.firstIndex(of: ":"), fieldNames.contains(squeezed(String(text[..<colon]))) {
            return "is \(shown), which starts with a field name; write only \(meaning.noun) about the material"
        }
        let lowered = words.map(\.lowercased)
        if lowered.contains(where: { schemaWords.contains($0) || compoundFieldNames.contains(squeezed($0)) }),
            lowered.allSatisfy({
                schemaWords.contains($0) || fieldNames.contains(squeezed($0)) || Stopwords.contains($0)
            })
        {
            return "is \(shown), which talks about the reply's format; write \(meaning.noun) about the material"
        }
        if meaning.allowsBareTerm {
            // A term, a number, "Sometimes", "Before", "All of the above": any word that is more
            // than grammar will do; "and", "the", "is" will not.
            if lowered.allSatisfy(pureFunctionWords.contains), !stockChoices.contains(lowered.joined(separator: " ")) {
                return "is \(shown), only \(words.count == 1 ? "a function word" : "function words"); "
                    + "write \(meaning.noun) from the material"
            }
            return nil
        }
        let content = contentWordCount(words)
        if content == 0, words.count <= 2 {
            return "is \(shown), only \(words.count == 1 ? "a function word" : "function words"); "
                + "write \(meaning.noun) about the material"
        }
        // Ideographs are words without spaces between them: count them as the builtin engine does.
        let wordCount = text.contains(where: TermNormalizer.isCJK) ? words.count : GenerationSchema.wordCount(text)
        if wordCount < meaning.minimumWords {
            return "is \(shown), \(wordCount) word\(wordCount == 1 ? "" : "s"), "
                + "but \(meaning.noun) needs at least \(meaning.minimumWords)"
        }
        if content < meaning.minimumContentWords {
            let needed = meaning.minimumContentWords
            return "is \(shown), with \(content) content word\(content == 1 ? "" : "s"), "
                + "but \(meaning.noun) needs at least \(needed) (words other than \"the\", \"is\", \"of\" …)"
        }
        if meaning.isSentence, let cut = sentenceCut(text, words: words) {
            return "is \(shown), \(cut); write \(meaning.noun) as one complete sentence"
        }
        if meaning.isSentence, case let count = ResultProse.sentenceCount(text), count > 1 {
            return "is \(shown), \(count) sentences; write \(meaning.noun) as one sentence"
        }
        if meaning.isSentence, let phrase = repeatedPhrase(in: text) {
            return "is \(shown), which repeats \"\(phrase)\"; write \(meaning.noun) that says it once"
        }
        return nil
    }

    /// How many content words: letters, not a function word, not a number, and more than one
    /// letter unless written in capitals ("X-ray" counts, "x" does not). Ideographs carry no
    /// spaces: two of them count as one word.
    static func contentWordCount(_ words: [NormalizedWord]) -> Int {
        var count = 0
        var ideographs = 0
        for word in words {
            if TermNormalizer.isCJK(word.surface.first ?? " ") {
                ideographs += 1
                continue
            }
            guard !word.isStopword, !word.isNumber, word.surface.contains(where: \.isLetter),
                !schemaWords.contains(word.lowercased), !compoundFieldNames.contains(word.lowercased)
            else { continue }
            guard word.surface.count >= 2 || word.surface.allSatisfy(\.isUppercase) else { continue }
            count += 1
        }
        return count + (ideographs + 1) / 2
    }

    /// How `text` is cut off before its sentence ends ("cut off mid-sentence (it ends on \",\")"),
    /// or `nil` when it ends as a sentence does.
    static func sentenceCut(_ text: String) -> String? { sentenceCut(text, words: TermNormalizer.words(in: text)) }

    private static func sentenceCut(_ text: String, words: [NormalizedWord]) -> String? {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        while let last = trimmed.last, "\"'”’)]»」』）".contains(last) { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix("…") || trimmed.hasSuffix("...") { return "cut off with an ellipsis" }
        guard let last = trimmed.last, ".!?。！？".contains(last) else { return "cut off mid-sentence (no final period)" }
        if let final = words.last, danglingEnds.contains(final.lowercased) {
            return "cut off mid-sentence (it ends on \"\(final.surface)\")"
        }
        // "This process is:**." — a sentence ends after a word, not after a colon or markup.
        let body = trimmed.dropLast()
        if let before = body.last, !(before.isLetter || before.isNumber || ")]%°\"'”’»」』）".contains(before)) {
            return "cut off mid-sentence (it ends on \"\(before)\")"
        }
        return nil
    }

    /// Whether `text` declares code rather than saying something: a C-style parameter list with
    /// two or more typed parameters (`int asn1_der_coding (asn1_node element, const char * name,
    /// void * ider, int * len)`, or the tail of one cut off by a page). A sentence that names a
    /// type once ("a void pointer") is prose.
    ///
    /// A line of TeX markup is code too: three or more control words (`\edef`, `\kernel@stockheight`)
    /// and braces making up at least a third of its words ("\expandafter\def\expandafter\@tempa
    /// \string\dimen{}% …", "aysep={;}, yysep={,} …"); a sentence that names a command or two
    /// ("\citet and \citep for textual citations") is prose.
    static func isCodeDeclaration(_ text: String) -> Bool {
        if isMarkup(text) { return true }
        guard text.contains("(") || text.contains(")"), text.contains(",") else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return typedParameter.numberOfMatches(in: text, range: range) >= 2
    }

    /// Whether `text` is mostly TeX markup (see ``isCodeDeclaration(_:)``).
    static func isMarkup(_ text: String) -> Bool {
        guard text.contains("\\") || text.contains("{") else { return false }
        let range = NSRange(text.startIndex..., in: text)
        let marks = controlWord.numberOfMatches(in: text, range: range) + text.count(where: { $0 == "{" })
        return marks >= 3 && Double(marks) >= Double(text.split(whereSeparator: \.isWhitespace).count) / 3
    }

    /// A TeX control word: a backslash and letters (`@` and `_` and `:` too, as package internals write them).
    private static let controlWord = try! NSRegularExpression(pattern: #"\\[A-Za-z@_:]+"#)

    /// `const char * name,`, `int der_len,`, `void * ider)`, `asn1_node * root,`: a C type, or
    /// any name and a pointer star, then the parameter's name and a comma or the closing bracket.
    private static let typedParameter = try! NSRegularExpression(
        pattern: #"(\b(int|char|void|unsigned|size_t|ssize_t|uint8_t|uint32_t|int32_t|int64_t)\s*\**"#
            + #"|[A-Za-z_][A-Za-z0-9_]*\s*\*+)\s*[A-Za-z_][A-Za-z0-9_]*\s*[,)]"#)

    /// Whether `text` is a placeholder word, alone or numbered: "branch1", "Item 2", "Option A", "…".
    static func isPlaceholder(_ text: String) -> Bool {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        if ["…", "...", "-", "--", "?", "n/a", "lorem ipsum"].contains(lowered) { return true }
        var words = lowered.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard (1...3).contains(words.count) else { return false }
        // "branch1" → "branch" and "1"; "Key point 2" → "keypoint" and "2".
        if words.count >= 2, placeholderWords.union(numberedPlaceholderWords).contains(words[0] + words[1]) {
            words = [words[0] + words[1]] + words.dropFirst(2)
        }
        var head = words[0]
        var numbered = words.count > 1
        while let last = head.last, last.isNumber, head.count > 1 {
            head.removeLast()
            numbered = true
        }
        guard words.dropFirst().allSatisfy(isOrdinal) else { return false }
        return placeholderWords.contains(head) || (numbered && numberedPlaceholderWords.contains(head))
    }

    /// A number or a single letter, as placeholders are numbered ("1", "b").
    private static func isOrdinal(_ word: String) -> Bool {
        word.allSatisfy(\.isNumber) || (word.count == 1 && word.allSatisfy(\.isLetter))
    }

    /// `text` lower-cased with everything but letters and digits removed.
    static func squeezed(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// A string value as JSON, shortened so one issue stays one line.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return JSONValue.string(shown).compactText
    }
}
