import Foundation

// MARK: - What an item must mean

/// What a list item (a key point, a mind-map label, a card's question or answer, a quiz choice,
/// a Feynman point) must carry beyond its shape: a small model can fill every slot of a valid
/// schema with "overview", "and", "keyPoints", "is", "a", "json", "object", or with "branch1",
/// and every length and count rule passes.
///
/// A string schema with an `ItemMeaning` rejects an item that is
/// - only punctuation, or a lone function word (or two: "of the");
/// - a field name of the schema or of any task's schema (`keyPoints`, `label`, `centralTopic`);
/// - a placeholder (`label`, `branch1`, `item`, `string`, `example`, `Option A`, `…`);
/// - talk about the reply's format rather than the material ("a JSON object");
/// - under the field's minimum of content words (a key point needs 4, a label 1); where
///   ``allowsBareTerm`` holds, a number or a single term ("4", "1953", "ATP") is enough;
/// - for a sentence field, cut mid-way: it must end with `.`, `!` or `?` (not `…`), and not on
///   an article or conjunction.
/// Near-copies — two items, or an item and the overview, that share most of their content
/// words — are rejected by the arrays and types that hold them (see ``ItemRules/nearCopy(_:_:)``).
/// Each rule is stated once here, so every engine (the builtin one too) and every task gets it.
public struct ItemMeaning: Sendable, Hashable {
    /// Fewest content words (not function words, not numbers).
    public let minimumContentWords: Int
    /// Fewest whitespace-separated words; also carried by the grammar.
    public let minimumWords: Int
    /// Whether the item is a sentence that must end as one (also carried by the grammar).
    public let isSentence: Bool
    /// Whether a number or a single term ("4", "1953", "ATP", "Sometimes") is an acceptable item
    /// on its own: then only pure function words ("and", "the") are refused, not a lack of content words.
    public let allowsBareTerm: Bool
    /// What the item is, for messages ("a key point").
    public let noun: String

    /// Creates a rule set for one kind of item.
    public init(noun: String, minimumContentWords: Int, minimumWords: Int = 1, isSentence: Bool = false, allowsBareTerm: Bool = false) {
        self.noun = noun
        self.minimumContentWords = max(0, minimumContentWords)
        self.minimumWords = max(1, minimumWords)
        self.isSentence = isSentence
        self.allowsBareTerm = allowsBareTerm
    }

    /// A summary's key point: a sentence of at least 4 content words.
    public static let keyPoint = ItemMeaning(noun: "a key point", minimumContentWords: 4, minimumWords: 4, isSentence: true)
    /// A mind-map label: at least one content word (its word limit is the schema's).
    public static let label = ItemMeaning(noun: "a label", minimumContentWords: 1)
    /// A question (a card's, a quiz's): at least one content word in two words or more.
    public static let question = ItemMeaning(noun: "a question", minimumContentWords: 1, minimumWords: 2)
    /// A card's answer: a term, a number or a sentence.
    public static let answer = ItemMeaning(noun: "an answer", minimumContentWords: 1, allowsBareTerm: true)
    /// A quiz choice: may be a number or a single term ("4", "1953", "ATP").
    public static let choice = ItemMeaning(noun: "a choice", minimumContentWords: 1, allowsBareTerm: true)
    /// A podcast host's line: at least three words, one of them a content word (one sentence or several).
    public static let podcastLine = ItemMeaning(noun: "a line", minimumContentWords: 1, minimumWords: 3)
    /// A point of Feynman feedback: at least two content words.
    public static let feedbackPoint = ItemMeaning(noun: "a feedback point", minimumContentWords: 2, minimumWords: 2)

    /// The canonical form for schema fingerprints.
    var canonicalValue: JSONValue {
        [
            "noun": .string(noun), "minimumContentWords": .integer(minimumContentWords), "minimumWords": .integer(minimumWords),
            "sentence": .bool(isSentence), "bareTerm": .bool(allowsBareTerm),
        ]
    }
}

// MARK: - The rules

/// The checks behind ``ItemMeaning``, the near-copy measure, and the "no empty praise" filler list.
enum ItemRules {
    /// Every member name of every task's schema, lower-cased with non-letters removed
    /// (`keyPoints` → `keypoints`), so "key points" and "key_points" match too.
    static let fieldNames: Set<String> = Set(allFieldNames.map(squeezed))

    /// The field names written in camelCase (`keyPoints`, `centralTopic`): never a word of prose,
    /// so they never count as content words.
    static let compoundFieldNames: Set<String> = Set(allFieldNames.filter { $0.contains(where: \.isUppercase) }.map(squeezed))

    private static let allFieldNames: [String] = {
        var names: [String] = []
        func collect(_ schema: GenerationSchema) {
            switch schema {
            case .object(let properties):
                for property in properties {
                    names.append(property.name)
                    collect(property.schema)
                }
            case .array(let items, _, _, _): collect(items)
            default: break
            }
        }
        for task in StudyTask.allCases { collect(task.generationSchema) }
        return names
    }()

    /// Words about the reply's format, never about the material; they are not content words.
    static let schemaWords: Set<String> = [
        "json", "object", "objects", "array", "arrays", "string", "strings", "integer", "integers", "boolean", "booleans",
        "null", "schema", "schemas", "field", "fields", "property", "properties",
    ]

    /// Words a template or a lazy model leaves in a slot, even alone: "label", "item", "example".
    static let placeholderWords: Set<String> = [
        "label", "item", "string", "example", "placeholder", "todo", "tbd", "tba", "null", "nil", "undefined", "foo", "xxx",
        "lorem", "ipsum", "keypoint", "subtopic", "branch", "misc", "stuff", "something", "etc",
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
        "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is",
        "are", "was", "were", "be", "been", "being", "am", "it", "its", "this", "that", "these", "those", "he", "she", "they",
        "we", "you", "i", "me", "him", "her", "them", "us", "if", "then", "than", "so", "which", "who", "whom", "whose",
        "has", "have", "had", "do", "does", "did", "will", "would", "shall", "should", "can", "could", "may", "might",
    ]

    /// Words a cut-off sentence ends on ("Comparing meiosis, a."): articles, determiners and
    /// coordinating conjunctions never end an English sentence.
    private static let danglingEnds: Set<String> = [
        "a", "an", "the", "and", "or", "nor", "but", "its", "their", "our", "your", "my", "this", "these", "those", "each",
        "every", "than", "whose", "with", "of",
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
            return "is \(shown), a code declaration (a function's parameter list or a line of markup), not prose; write \(meaning.noun) in words about the material"
        }
        // "overview: Before mitosis …", "keyPoints: …": a field name written into the value.
        if let colon = text.firstIndex(of: ":"), fieldNames.contains(squeezed(String(text[..<colon]))) {
            return "is \(shown), which starts with a field name; write only \(meaning.noun) about the material"
        }
        let lowered = words.map(\.lowercased)
        if lowered.contains(where: { schemaWords.contains($0) || compoundFieldNames.contains(squeezed($0)) }),
            lowered.allSatisfy({ schemaWords.contains($0) || fieldNames.contains(squeezed($0)) || Stopwords.contains($0) })
        {
            return "is \(shown), which talks about the reply's format; write \(meaning.noun) about the material"
        }
        if meaning.allowsBareTerm {
            // A term, a number, "Sometimes", "Before", "All of the above": any word that is more
            // than grammar will do; "and", "the", "is" will not.
            if lowered.allSatisfy(pureFunctionWords.contains), !stockChoices.contains(lowered.joined(separator: " ")) {
                return "is \(shown), only \(words.count == 1 ? "a function word" : "function words"); write \(meaning.noun) from the material"
            }
            return nil
        }
        let content = contentWordCount(words)
        if content == 0, words.count <= 2 {
            return "is \(shown), only \(words.count == 1 ? "a function word" : "function words"); write \(meaning.noun) about the material"
        }
        // Ideographs are words without spaces between them: count them as the builtin engine does.
        let wordCount = text.contains(where: TermNormalizer.isCJK) ? words.count : GenerationSchema.wordCount(text)
        if wordCount < meaning.minimumWords {
            return "is \(shown), \(wordCount) word\(wordCount == 1 ? "" : "s"), but \(meaning.noun) needs at least \(meaning.minimumWords)"
        }
        if content < meaning.minimumContentWords {
            let needed = meaning.minimumContentWords
            return "is \(shown), with \(content) content word\(content == 1 ? "" : "s"), but \(meaning.noun) needs at least \(needed) (words other than \"the\", \"is\", \"of\" …)"
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

    /// Words a sentence shortened by cutting its tail ends on: a preposition or a relative that
    /// opens what was cut ("… funnels energy to a reaction centre, where.", "… and died in.").
    /// Not part of ``sentenceCut(_:)``: a whole sentence of the material may end on "in" or "on".
    private static let openClauseEnds: Set<String> = [
        "where", "which", "who", "whom", "when", "while", "that", "in", "on", "at", "to", "for", "by", "from", "into",
        "de", "as", "because", "whereas",
    ]

    /// The word a shortened sentence was cut after, or `nil`.
    static func openClauseEnd(_ text: String) -> String? {
        guard let last = TermNormalizer.words(in: text).last, openClauseEnds.contains(last.lowercased) else { return nil }
        return last.surface
    }

    /// The word a shortened sentence stops on when it stops where `sentence` runs on, with no
    /// punctuation between: it was cut mid-clause, and says something the sentence does not, or
    /// less than it ("… the Convention declared terror was." from "… declared that terror was
    /// the order of the day."; "One newton is the force that gives a mass of 1 kg an
    /// acceleration." from "… an acceleration of 1 m/s²"). It stops there when it ends on a
    /// function word whose last two words run on in the sentence, or when its last four words
    /// are the sentence's, in order, and run on. `nil` when it ends where `sentence` ends or
    /// pauses, in its own order ("The stomata stay closed during the day." from "During the day
    /// the stomata stay closed …"), or in its own words.
    static func cutMidClause(_ shortened: String, from sentence: String) -> String? {
        let ending = Grounding.normalizedWords(shortened)
        guard ending.count >= 2 else { return nil }
        // The sentence's words, each with what follows it up to the next word.
        var words: [(word: String, after: String)] = []
        var word = "", gap = ""
        for character in sentence.lowercased() {
            if character.isLetter || character.isNumber {
                if !gap.isEmpty {
                    if !word.isEmpty { words.append((word, gap)) }
                    word = ""
                    gap = ""
                }
                word.append(character)
            } else {
                gap.append(character)
            }
        }
        if !word.isEmpty { words.append((word, gap)) }
        /// Whether the last `count` words of `ending` occur in the sentence in a row, and every
        /// such place runs on into the next word with nothing but spaces between.
        func runsOn(_ count: Int) -> Bool {
            guard ending.count >= count, words.count > count else { return false }
            let tail = Array(ending.suffix(count))
            var found = false
            for start in 0...(words.count - count) where words[start..<start + count].map(\.word) == tail {
                let last = start + count - 1
                if last == words.count - 1 || words[last].after.contains(where: { !$0.isWhitespace }) { return false }
                found = true
            }
            return found
        }
        let endsOnFunctionWord = Stopwords.contains(ending[ending.count - 1])
        guard (endsOnFunctionWord && runsOn(2)) || runsOn(4) else { return nil }
        return TermNormalizer.words(in: shortened).last?.surface
    }

    /// The first term of `shortened` written with inner punctuation ("pythonX.Y-dev",
    /// "Build-Depends", "deflate()") that `sentence` does not have as it is: a shortened
    /// sentence keeps a name, a package or a formula whole, or leaves it out. `nil` when none.
    static func alteredTerm(_ shortened: String, from sentence: String) -> String? {
        let source = sentence.lowercased()
        for token in shortened.split(whereSeparator: \.isWhitespace) {
            let term = String(token).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?\"'“”‘’()[]"))
            guard term.dropFirst().dropLast().contains(where: { !$0.isLetter && !$0.isNumber }) else { continue }
            if !source.contains(term.lowercased()) { return term }
        }
        return nil
    }

    /// A small word that `shortened` adds to `sentence` and that changes what it says, or `nil`:
    /// a negator ("not", "never", "don't"), or a lone letter or roman numeral that makes a
    /// name another one ("Prophase I" from "Prophase: …" is meiosis, not mitosis). The
    /// content-word rule cannot see these: they are stopwords.
    // Compiled once (a regex literal is parsed each time it runs); `Regex` is not `Sendable`, but
    // a compiled one is immutable apart from its lazily lowered program, stored atomically.
    nonisolated(unsafe) private static let romanNumeral = /x{0,3}(ix|iv|v?i{0,3})/

    static func addedMarker(_ shortened: String, from sentence: String) -> String? {
        let own = Set(Grounding.normalizedWords(sentence))
        let surface = shortened.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }.map(String.init)
        for word in surface {
            let lower = word.lowercased()
            let parts = Grounding.normalizedWords(lower)
            guard !parts.allSatisfy(own.contains) else { continue }
            if Negation.isNegator(lower) { return word }
            // "a" is an article; any other lone letter or roman numeral is a label.
            if lower.count == 1 && lower != "a" || lower.wholeMatch(of: romanNumeral) != nil { return word }
        }
        return nil
    }

    /// Why `text` does not end as a sentence, or `nil` when it does.
    /// How `text` is cut off before its sentence ends ("cut off mid-sentence (it ends on \",\")"),
    /// or `nil` when it ends as a sentence does.
    static func sentenceCut(_ text: String) -> String? { sentenceCut(text, words: TermNormalizer.words(in: text)) }

    private static func sentenceCut(_ text: String, words: [NormalizedWord]) -> String? {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        while let last = trimmed.last, "\"'”’)]»」』）".contains(last) { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix("…") || trimmed.hasSuffix("...") { return "cut off with an ellipsis" }
        guard let last = trimmed.last, ".!?。！？".contains(last) else { return "cut off mid-sentence (no final period)" }
        if let final = words.last, danglingEnds.contains(final.lowercased) { return "cut off mid-sentence (it ends on \"\(final.surface)\")" }
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
        pattern: #"(\b(int|char|void|unsigned|size_t|ssize_t|uint8_t|uint32_t|int32_t|int64_t)\s*\**|[A-Za-z_][A-Za-z0-9_]*\s*\*+)\s*[A-Za-z_][A-Za-z0-9_]*\s*[,)]"#)

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

    // MARK: Near-copies

    /// Whether two texts say nearly the same by their words: four in five of their
    /// ``overlapKeys(_:)`` shared (Jaccard ≥ 0.8), or one that has at least three all but
    /// repeated in the other (nine in ten of them). Texts without such words are never
    /// near-copies (they are compared exactly by the duplicate check).
    static func nearCopy(_ first: String, _ second: String) -> Bool {
        nearCopy(overlapKeys(first), overlapKeys(second))
    }

    /// What two items are compared by: the stems of their content words (``Grounding/contentStems(_:)``),
    /// their numbers, and their ideographs one by one — so "mention 酸" and "mention 素", or
    /// "stage 1" and "stage 2", are told apart, while "The light reactions" and "light reaction" are not.
    static func overlapKeys(_ text: String) -> Set<String> {
        var keys = Set(Grounding.contentStems(text))
        for word in TermNormalizer.words(in: text) where word.isNumber || TermNormalizer.isCJK(word.surface.first ?? " ") {
            keys.insert(word.lowercased)
        }
        return keys
    }

    /// The share of `text`'s words that lie in a run of at least `run` consecutive words found,
    /// in order, in one of `sources`: near 1 for an "overview" that strings the key sentences
    /// together with a comma added, low for one that says them again in fewer words.
    static func copiedShare(_ text: String, from sources: [String], run: Int = 6) -> Double {
        let words = Grounding.normalizedWords(text)
        guard words.count >= run else { return 0 }
        var runs = Set<[String]>()
        for source in sources {
            let sourceWords = Grounding.normalizedWords(source)
            guard sourceWords.count >= run else { continue }
            for start in 0...(sourceWords.count - run) { runs.insert(Array(sourceWords[start..<start + run])) }
        }
        var copied = Array(repeating: false, count: words.count)
        for start in 0...(words.count - run) where runs.contains(Array(words[start..<start + run])) {
            for index in start..<start + run { copied[index] = true }
        }
        return Double(copied.filter { $0 }.count) / Double(words.count)
    }

    static func nearCopy(_ first: Set<String>, _ second: Set<String>) -> Bool {
        guard !first.isEmpty, !second.isEmpty else { return false }
        // The sizes of the intersection and the union, counted without building either set:
        // every new item is weighed against every kept one.
        let (few, many) = first.count <= second.count ? (first, second) : (second, first)
        let sharedCount = few.count(where: many.contains)
        let shared = Double(sharedCount)
        if shared / Double(first.count + second.count - sharedCount) >= 0.8 { return true }
        let smaller = min(first.count, second.count)
        return smaller >= 3 && shared / Double(smaller) >= 0.9
    }

    /// Whether two near-copies each hold a word the other lacks: "A strong acid ionises
    /// completely" and "A weak acid ionises completely" are two answers to choose between, while
    /// one that only adds words to the other ("…, in water") is the same answer again. Quiz
    /// choices may be such swaps (session 62: Qwen2.5-Coder-1.5B's acids-bases and binary-search
    /// quizzes lost every question whose distractors swapped one word of the right answer).
    static func swapsAWord(_ first: Set<String>, _ second: Set<String>) -> Bool {
        !first.subtracting(second).isEmpty && !second.subtracting(first).isEmpty
    }

    /// Issues for the items of `items` (at `path`) that are near-copies of an earlier item, or
    /// of one of the `others` (named text of another part of the same result).
    static func nearCopyIssues(_ items: [String], at path: (Int) -> String, others: [(name: String, text: String)] = [])
        -> [ValidationIssue]
    {
        let otherStems = others.map { ($0.name, overlapKeys($0.text)) }
        var seen: [(index: Int, stems: Set<String>)] = []
        var issues: [ValidationIssue] = []
        for (index, item) in items.enumerated() {
            let stems = overlapKeys(item)
            if let other = otherStems.first(where: { nearCopy(stems, $0.1) }) {
                issues.append(ValidationIssue(
                    path: path(index), message: "is \(quoted(item)), a near-copy of \(other.0); say something it does not"))
            } else if let earlier = seen.first(where: { nearCopy(stems, $0.stems) }) {
                issues.append(ValidationIssue(
                    path: path(index), message: "is \(quoted(item)), a near-copy of \(path(earlier.index)); make every entry different"))
            }
            seen.append((index, stems))
        }
        return issues
    }

    // MARK: No empty praise

    /// Stock phrases that praise or announce instead of saying something: "a must-read",
    /// "This document covers …", "a short summary of …", "for anyone interested in".
    private static let fillerPatterns: [String] = [
        "must read", "must have", "for anyone interested in", "anyone who wants to", "everything you need to know",
        "a short summary of", "a brief summary of", "a quick summary of", "a short overview of", "a brief overview of",
        "a quick overview of", "a short introduction to", "a brief introduction to", "a comprehensive guide",
        "an essential guide", "essential reading", "json object",
    ]
    private static let fillerSubjects: Set<String> = [
        "document", "text", "article", "material", "passage", "page", "note", "notes", "summary", "lecture", "study", "paper",
        "content", "overview", "headline", "blurb", "guide", "handout", "sheet", "unit", "chapter", "section", "slides",
        "lesson", "module", "session", "course", "reading",
    ]
    /// The nouns of ``fillerSubjects`` that are always the document, never a thing the material
    /// is about: only these announce it with "is about", "will explain" ("The study is designed
    /// to test …" and "The material is heated …" say something).
    private static let announcingSubjects: Set<String> = [
        "document", "text", "article", "passage", "page", "note", "notes", "handout", "sheet", "slides", "lecture",
        "lesson", "chapter", "section", "unit", "module", "guide", "summary", "overview", "blurb", "headline",
    ]
    /// Words that may stand between "this"/"the" and the document's noun: "this short text",
    /// "the following notes", "these lecture notes".
    private static let documentModifiers: Set<String> = [
        "lecture", "revision", "study", "class", "course", "short", "brief", "following",
    ]
    /// Verbs that make "the document is/are …" about the document: "is about", "are designed to".
    /// Alone, "is" says nothing of the kind ("The material is heated until it melts").
    private static let fillerCopulaNext: Set<String> = [
        "about", "designed", "intended", "meant", "aimed", "written", "organised", "organized", "divided", "structured",
    ]
    /// What a document is when it announces itself: "The text is an introduction to …".
    private static let documentKinds: Set<String> = [
        "introduction", "overview", "summary", "guide", "description", "explanation", "discussion", "review", "outline",
    ]
    /// Openings that talk to the reader instead of saying something: "Learn about the phases of
    /// the Moon, …" (Qwen2.5-Coder-1.5B's blurb on the Moon handout, a calibration verdict of junk).
    private static let readerOpenings: [[String]] = [
        ["learn", "about"], ["learn", "how"], ["learn", "what"], ["learn", "why"], ["discover"], ["find", "out"],
        ["read", "about"], ["explore"], ["get", "to", "know"], ["understand", "how"], ["understand", "the"],
    ]
    private static let fillerModals: Set<String> = ["will", "can", "shall", "should", "would", "may", "aims", "tries"]
    private static let fillerVerbs: Set<String> = [
        "covers", "cover", "describes", "discusses", "explains", "provides", "presents", "contains", "gives",
        "summarizes", "summarises", "introduces", "outlines", "explores", "talks", "looks", "offers", "shows",
        "describe", "discuss", "explain", "provide", "present", "introduce", "outline", "explore", "examines",
        "examine", "reviews", "review", "focuses", "focus", "deals", "addresses", "highlights", "teaches",
    ]
    /// A label the document gives itself, in `words`: a numbered part of a course ("week 7",
    /// "unit 3", "lecture 5", "revision sheet 3"), a kind of document ("lecture notes", "revision
    /// sheet", "club handout"), or notes "on" a subject; `nil` when there is none.
    static func documentLabel(_ words: [String]) -> String? {
        let numbered: Set<String> = [
            "week", "unit", "lecture", "session", "sheet", "lesson", "module", "chapter", "handout", "worksheet",
        ]
        let kinds: Set<String> = ["notes", "sheet", "handout", "slides", "worksheet"]
        let courses: Set<String> = ["lecture", "revision", "study", "class", "course", "club", "seminar", "tutorial"]
        for (index, word) in words.enumerated() {
            let next = words.indices.contains(index + 1) ? words[index + 1] : ""
            if numbered.contains(word), !next.isEmpty, next.allSatisfy(\.isNumber) { return word + " " + next }
            if courses.contains(word), kinds.contains(next) { return word + " " + next }
            if word == "notes", ["on", "about", "for", "covering"].contains(next) { return word + " " + next }
        }
        return nil
    }

    /// Kinds of document a text may open on, with the words that may follow them: "A detailed guide
    /// to the phases of the Moon, …" (the 1.5B's blurb on the Moon handout), "An overview of …".
    /// "introduction" takes only "to" ("An introduction of rabbits to Australia …" is content).
    private static let documentOpeners: [String: Set<String>] = [
        "guide": ["to", "for", "on"], "overview": ["of", "on"], "introduction": ["to"], "summary": ["of", "on"],
        "primer": ["on", "to", "of"], "tutorial": ["on", "to"], "walkthrough": ["of", "on"],
    ]

    /// The opening that names the text as a kind of document instead of saying something: "a/an",
    /// at most two describing words, a kind of ``documentOpeners`` and what it is "to" or "of"
    /// ("a detailed guide to", "a beginner's guide to", "an overview of"); `nil` otherwise.
    private static func documentOpening(_ words: [String]) -> String? {
        guard let first = words.first, ["a", "an"].contains(first) else { return nil }
        for kind in 1...3 where words.indices.contains(kind + 1) {
            guard let next = documentOpeners[words[kind]] else { continue }
            return next.contains(words[kind + 1]) ? words[0...(kind + 1)].joined(separator: " ") : nil
        }
        return nil
    }

    /// Words that name the document itself wherever they stand: "in the notes", "in the handout".
    private static let documentNouns: Set<String> = [
        "notes", "document", "handout", "article", "passage", "slides", "lecture",
    ]
    /// What a writer says they do in the text rather than what the material says: "we discuss",
    /// "we will look at" (#53: the 0.5B's blurb "In the lecture notes, we discuss …").
    private static let discourseVerbs: Set<String> = [
        "discuss", "explore", "examine", "cover", "describe", "introduce", "present", "review", "outline", "explain",
        "consider", "summarize", "summarise", "look", "learn", "study", "focus", "will", "shall", "begin", "start",
    ]

    /// The stock filler phrase in `text`, if any ("must read", "this document covers", "we
    /// discuss", "in these notes"): praise, or talk about the document instead of its material.
    static func stockFiller(in text: String) -> String? {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        let joined = " " + words.joined(separator: " ") + " "
        for phrase in fillerPatterns where joined.contains(" " + phrase + " ") { return phrase }
        // "in these notes", "in this text", "in the lecture notes": where, not what. After "the",
        // only a word that is always the document ("in the text" may be a string searched, "in
        // the module" a program's).
        for index in words.indices.dropLast(2)
        where words[index] == "in" && ["this", "these", "the"].contains(words[index + 1]) {
            let noun = words[index + 2]
            let compound = words.indices.contains(index + 3) ? words[index + 3] : ""
            if ["lecture", "revision", "study", "class", "course"].contains(noun), fillerSubjects.contains(compound) {
                return words[index...(index + 3)].joined(separator: " ")
            }
            let named = words[index + 1] == "the" ? documentNouns.contains(noun)
                : fillerSubjects.contains(noun)
                    && !["summary", "study", "content", "overview", "section", "course"].contains(noun)
            if named { return words[index...(index + 2)].joined(separator: " ") }
        }
        // "This document covers …", "The text is about …", "These notes explain …", "This
        // revision sheet covers …", "The following notes will explain …", "The author describes …"
        // anywhere: the document's noun (after at most one modifier), then what it does.
        for index in words.indices.dropLast(2) where ["this", "the", "these"].contains(words[index]) {
            var noun = index + 1
            if documentModifiers.contains(words[noun]), words.indices.contains(noun + 1),
                fillerSubjects.contains(words[noun + 1])
            {
                noun += 1
            }
            guard fillerSubjects.contains(words[noun]), words.indices.contains(noun + 1) else { continue }
            let verb = words[noun + 1]
            let after = words.indices.contains(noun + 2) ? words[noun + 2] : ""
            let third = words.indices.contains(noun + 3) ? words[noun + 3] : ""
            if fillerVerbs.contains(verb) { return words[index...(noun + 1)].joined(separator: " ") }
            // "will explain", "aims to describe": a modal, or "to", before the verb.
            guard announcingSubjects.contains(words[noun]) else { continue }
            if fillerModals.contains(verb), fillerVerbs.contains(after) || discourseVerbs.contains(after)
                || after == "to" && (fillerVerbs.contains(third) || discourseVerbs.contains(third))
            {
                return words[index...(after == "to" ? noun + 3 : noun + 2)].joined(separator: " ")
            }
            // "is about", "are designed to", "is an introduction to".
            if ["is", "are"].contains(verb) {
                if fillerCopulaNext.contains(after) { return words[index...(noun + 2)].joined(separator: " ") }
                if ["a", "an"].contains(after), documentKinds.contains(third) || fillerSubjects.contains(third) {
                    return words[index...(noun + 3)].joined(separator: " ")
                }
            }
        }
        // "Learn about …", "Discover …": the reader addressed, nothing said.
        for opening in readerOpenings where words.starts(with: opening) {
            return opening.joined(separator: " ")
        }
        if let opening = documentOpening(words) { return opening }
        // "…, this is a summary of the study on …", "It is an overview of …": the text announcing
        // itself instead of saying something.
        for index in words.indices.dropLast(3) where ["this", "it", "these", "here"].contains(words[index]) {
            if ["is", "are"].contains(words[index + 1]), ["a", "an", "the", "some"].contains(words[index + 2]),
                fillerSubjects.contains(words[index + 3])
            {
                return words[index...(index + 3)].joined(separator: " ")
            }
        }
        // "Lecture notes, week 7", "Unit 3 notes: how markets set prices", "notes on …": the
        // document's own label (its course, week, sheet), not what it says.
        if let label = documentLabel(words) { return label }
        // "we discuss", "we will look at", "we'll explore": the writer, not the material.
        for index in words.indices.dropLast()
        where words[index] == "we" || words[index] == "let" && words[index + 1] == "us" {
            let letUs = words[index] == "let"
            let next = letUs ? (words.indices.contains(index + 2) ? words[index + 2] : "") : words[index + 1]
            if discourseVerbs.contains(next) || next == "ll" {
                return words[index...min(index + (letUs ? 2 : 1), words.count - 1)].joined(separator: " ")
            }
        }
        return nil
    }

    /// An issue at `path` when `text` is stock filler.
    static func fillerIssue(_ text: String, path: String, what: String) -> ValidationIssue? {
        if let phrase = stockFiller(in: text) {
            return ValidationIssue(
                path: path, message: "uses the stock phrase \"\(phrase)\"; instead state \(what) in plain words")
        }
        if let phrase = repeatedPhrase(in: text) {
            return ValidationIssue(path: path, message: "repeats \"\(phrase)\"; state \(what) once, in plain words")
        }
        return nil
    }

    /// The first run of four words that `text` says again within the next few words ("the law
    /// of inertia: the law of inertia"), or `nil`. Prose that loops is a small model stuck, not a
    /// summary. Two sentences of the material may well share a phrase; a loop repeats it at once.
    static func repeatedPhrase(in text: String) -> String? {
        let words = Grounding.normalizedWords(text)
        guard words.count >= 8 else { return nil }
        var last: [String: Int] = [:]
        for start in 0...(words.count - 4) {
            let phrase = words[start..<start + 4].joined(separator: " ")
            // Overlapping runs ("a a a a a") count once they no longer overlap.
            if let previous = last[phrase], (4...Self.loopDistance).contains(start - previous) { return phrase }
            last[phrase] = start
        }
        return nil
    }

    /// Whether `text` is prose a blurb or an overview must not be: stock filler, or a loop.
    static func isEmptyProse(_ text: String) -> Bool {
        stockFiller(in: text) != nil || repeatedPhrase(in: text) != nil
    }

    /// How far apart, in words, a phrase said twice is a loop.
    static let loopDistance = 10
}

// MARK: - The grammar's share

extension GenerationSchema.StringConstraints {
    /// The Chinese, Japanese and Korean blocks (``ideographBlocks``) when the string may not
    /// hold them (``ideographs``), else nothing: for the inside of a `[^…]` class.
    var ideographExclusions: String { ideographs ? "" : Self.ideographBlocks }

    /// The blocks of ``CJKScript`` (the table the language rule refuses them by), written for
    /// the inside of a `[^…]` class. A pattern's `\uXXXX` escape has four hex digits, so the
    /// ideographs past U+FFFF, rare in any material, are left out.
    static let ideographBlocks = CJKScript.blocks.filter { $0.range.upperBound <= 0xFFFF }
        .map { String(format: "\\u%04x-\\u%04x", $0.range.lowerBound, $0.range.upperBound) }.joined()

    /// The `pattern` of an item whose ``ItemMeaning`` asks for several words or a whole
    /// sentence and that has no ``sentences`` shape of its own (which carries the minimum in
    /// its pattern instead), `nil` otherwise: at least `minimumWords` words (of at most `maxWords`
    /// with room to finish, 60 when unset, since a pattern replaces the length limit in the grammar), and for a sentence a
    /// last word that ends in `.`, `!` or `?` right after a letter, digit or bracket — never
    /// `…`, a comma or a lone period. Content words and the other rules cannot be written as a
    /// regular expression; the validator checks them.
    var itemPattern: String? {
        guard let meaning, meaning.minimumWords > 1 || meaning.isSentence, sentences == nil else { return nil }
        let excluded = Self.classExclusions(forbiddenCharacters) + ideographExclusions
        let word = Self.word(excluding: excluded)
        // Room to finish past the limit (``grammarWords(_:)``), as for any word-limited field:
        // held to exactly 18 words, Qwen2.5-Coder-0.5B glued a card question's last words
        // ("… under pressure from thesans-culottes?") or escaped into the ideograph branch
        // below ("in the八eenth-century."). The validation keeps the exact limit.
        let most = max(meaning.minimumWords, maxWords.map { min(Self.grammarWords($0), max($0, Self.longestRun)) } ?? 60)
        guard meaning.isSentence else {
            return "^\(word)( \(word)){\(meaning.minimumWords - 1),\(most - 1)}$"
        }
        let last = "[^ \(excluded)]{0,\(Self.longestWord - 2)}[^ .,;:!?…\(excluded)][.!?]"
        let spaced = meaning.minimumWords == 1
            ? "(\(word) ){0,\(most - 1)}\(last)"
            : "\(word)( \(word)){\(meaning.minimumWords - 2),\(most - 2)} \(last)"
        // Material without Chinese, Japanese or Korean has no sentence written in them either.
        guard ideographs else { return "^(\(spaced))$" }
        // Chinese, Japanese and Korean put no spaces between words: a sentence with an
        // ideograph, kana or hangul in it may end in 。！？ and needs no spaces.
        let cjkRun = "[^\(excluded)]{0,\(most * 2)}"
        let cjk = "\(cjkRun)[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af]\(cjkRun)[.!?。！？]"
        return "^(\(spaced)|\(cjk))$"
    }
}
