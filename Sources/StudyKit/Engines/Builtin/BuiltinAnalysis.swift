// MARK: - Analysis

/// Everything the builtin engine derives from one document, computed once per `generate` call
/// so the whole study kit splits, ranks and extracts only once.
struct BuiltinAnalysis: Sendable {
    /// Every unit, headings included, with run-on units cut into readable chunks.
    let units: [Sentence]
    /// The units grouped at their headings.
    let outline: DocumentOutline
    /// Prose units (no headings, no code), in document order.
    let prose: [Sentence]
    /// Prose units, most central first.
    let ranked: [RankedSentence]
    /// The document's key terms, best first.
    let keyphrases: [Keyphrase]
    /// The stems of the terms of two words or more the text says at least twice, among many more
    /// than the key terms ("reaction centre", said three times in samples/notes.pdf): a blank
    /// never takes a part of one of them ("a _____ centre").
    let compounds: [[String]]
    /// How many key terms the analysis keeps.
    static let keyphraseLimit = 40
    /// How many terms, best first, the compounds are taken from.
    static let compoundLimit = 200
    /// The stems of each prose unit, aligned with `prose`.
    let proseStems: [Set<String>]
    /// The words of each prose unit (``TermNormalizer/words(in:)``), aligned with `prose`: a part
    /// that reads every word again need not tokenize the book again.
    let proseWords: [[NormalizedWord]]
    /// For each unit, its position in `prose`, or -1 for a heading or a unit without words.
    private let prosePositionOfUnit: [Int]
    /// The body sections of the whole text, and its distinct characters (#54): what the deck is
    /// sized and spread by. They come from the outline of every unit of the text (`studykit text
    /// --body`), signature lines, licences and front matter included, as the coverage report
    /// counts them: a section headed by a signature ("readable.read([size])") stays a section of
    /// its own, though its heading and parameter lines are never a card.
    let sections: BodySections
    /// For each unit of `units`, its section's position in `sections.all`.
    let bodySectionOfUnit: [Int]
    /// The last deck of cloze items built from this analysis, by its size: a kit's deck and quiz
    /// draw on the same items, and a book's deck is worth building once.
    let decks = LastValue<ClozeDeckKey, [ClozeItem]>()
    /// The source's title as given by the caller, if any.
    let givenTitle: String?
    /// Prose units that are long enough to say something (three words or more), for messages.
    let usableSentenceCount: Int
    /// Whether the text reads as English, so terms can be weighed against general English.
    /// (Text in French, whose function words the stopword list also covers, counts too.)
    let isEnglish: Bool
    /// Whether English word classes apply to the text's words: it reads as English and says
    /// more English function words than French ones ("long" opens a French term, "long terme").
    let usesEnglishWords: Bool
    /// Stem keys of the field names that open unit after unit ("Type:", "Returns:"): never a
    /// term, in a section's terms either (``KeyphraseExtractor/fieldNames(in:words:)``).
    let fieldNames: Set<String>
    /// The entries of the document's definition lists (a glossary, a "key people" section).
    let definitions: [DefinitionEntry]
    /// Every word the text writes, lower-cased: what tells a verb the text inflects ("reduces",
    /// "reduced") from a modifier it never does ("new", "cheap", "civil").
    let vocabulary: Set<String>
    /// The lower-case words the text uses as verbs and never as nouns (``verbsByUse(_:)``:
    /// "removes" of "DNA polymerase I later removes the RNA primers"): never a term of the mind
    /// map, alone or ending one ("shadow falls").
    let verbs: Set<String>

    /// Lines of at most this many words that are front matter (``FrontMatter``: authors,
    /// addresses, URLs, dates) are left out: never a branch, key point or card. A licence
    /// notice and an edition statement ("This is version 0.21 of …, last updated …") are left
    /// out at any length, and so are a block of code (``Sentence/isCode``) and a signature line
    /// (``isSignature(_:)``).
    static let frontMatterWords = 14

    /// Whether a unit of `words` words is short enough to be checked for every kind of front
    /// matter (``frontMatterWords``). A URL counts as one word: "GNU Libtasn1 home page:
    /// <https://www.gnu.org/software/libtasn1/> General help using GNU software: <…>" is 11 words
    /// to a reader and 21 tokens, and a help page's section, owed a card since #54's one outline,
    /// made its card of it.
    static func isShortLine(_ text: String, words: Int) -> Bool {
        words <= frontMatterWords
            || (text.contains("://") && text.split(whereSeparator: \.isWhitespace).count <= frontMatterWords)
    }

    /// Longest unit before it is cut into chunks: the cloze builder skips longer sentences, and
    /// text without punctuation would otherwise leave nothing to ask about.
    static let runOnWords = 40
    /// Size of a chunk cut from a run-on unit.
    static let chunkWords = 25

    init(text: String, title: String?) {
        let all = SentenceSplitter().split(text)
        // Tokenize once; every measure below reads these words.
        let allWords = all.map { TermNormalizer.words(in: $0.text) }
        let legal = Self.legalSections(all)
        // A short line is checked for every kind of front matter (a licence notice among them),
        // a longer one for a licence notice only. Code is no sentence: never a key point, a
        // card's quote or a cloze answer.
        let content = all.indices.filter {
            guard !all[$0].isCode, !Self.isSignature(all[$0].text) else { return false }
            let text = all[$0].text
            let front = Self.isShortLine(text, words: allWords[$0].count)
                ? FrontMatter.isFrontMatter(text) : FrontMatter.isLicenceNotice(text.lowercased())
                || FrontMatter.isEditionStatement(text.lowercased())
            return !front && !legal.contains($0)
        }
        // Text that is all front matter is still the text: better a card about it than none.
        let kept = content.contains { !all[$0].isHeading } ? content : Array(all.indices)
        // One outline for the deck and the coverage report: the whole text's.
        let whole = DocumentOutline(units: all)
        var units: [Sentence] = []
        var unitWords: [[NormalizedWord]] = []
        var bodySectionOfUnit: [Int] = []
        for i in kept {
            let unit = all[i]
            let pieces = Self.chunks(of: unit, words: allWords[i], in: text)
            for piece in pieces {
                units.append(
                    Sentence(
                        index: units.count, text: piece.text, range: piece.range, offsets: piece.offsets,
                        paragraph: unit.paragraph, isHeading: unit.isHeading, headingLevel: unit.headingLevel,
                        isListItem: unit.isListItem, isCode: unit.isCode))
                // A unit left whole keeps its words; the pieces of a cut one are tokenized anew.
                unitWords.append(pieces.count == 1 ? allWords[i] : TermNormalizer.words(in: piece.text))
                bodySectionOfUnit.append(whole.sectionOfUnit[i])
            }
        }
        self.units = units
        self.bodySectionOfUnit = bodySectionOfUnit
        definitions = DefinitionEntry.entries(in: units)
        outline = DocumentOutline(units: units)
        let proseIndices = units.indices.filter { !units[$0].isHeading && !unitWords[$0].isEmpty }
        prose = proseIndices.map { units[$0] }
        proseWords = proseIndices.map { unitWords[$0] }
        proseStems = proseWords.map { Set($0.map(\.stem)) }
        var prosePositionOfUnit = [Int](repeating: -1, count: units.count)
        for (position, unit) in proseIndices.enumerated() { prosePositionOfUnit[unit] = position }
        self.prosePositionOfUnit = prosePositionOfUnit
        sections = BodySections(outline: whole)
        usableSentenceCount = proseIndices.count { unitWords[$0].count >= 3 }
        ranked = SentenceRanker().rank(prose, words: proseIndices.map { unitWords[$0] })
        let functionWords = Self.functionWords(unitWords)
        isEnglish = functionWords.fit
        usesEnglishWords = functionWords.fit && functionWords.english
        // Counted over every unit: the parameter lines that name them most are signature lines, left out above.
        let fieldNames = KeyphraseExtractor.fieldNames(in: all, words: allWords)
        self.fieldNames = fieldNames
        vocabulary = Set(allWords.joined().map(\.lowercased))
        verbs = usesEnglishWords ? Self.verbsByUse(proseWords) : []
        let extracted = KeyphraseExtractor(weighsGeneralEnglish: isEnglish)
            .keyphrases(in: units, words: unitWords, limit: Self.compoundLimit, fieldNames: fieldNames)
        let top = Array(extracted.prefix(Self.keyphraseLimit))
        keyphrases = isEnglish ? top : top.filter(Self.isContentTerm)
        compounds =
            extracted.filter { $0.occurrences >= 2 }
                .map { $0.key.split(separator: " ").map(String.init) }
                .filter { $0.count >= 2 }
        givenTitle = title
    }

    /// The lower-case words that `unitWords` (each unit's words) use as a verb at least once
    /// and never as a noun (English). A verb's use: right after a subject pronoun, "to", a modal
    /// or an adverb of time ("it removes", "which joins", "can bind", "later removes"), or right
    /// before an object pronoun or an article ("removes the", "shortens it"). A noun's use: right
    /// after an article, a possessive, a quantifier or a preposition ("the fragments", "of
    /// replication"). Read from the text, not from a dictionary: "pulls" and "removes" are nouns
    /// somewhere, but not in "the Moon pulls the oceans".
    static func verbsByUse(_ unitWords: [[NormalizedWord]]) -> Set<String> {
        var verbUse = Set<String>()
        var nounUse = Set<String>()
        for words in unitWords {
            for (index, word) in words.enumerated() where !word.isStopword && !word.isNumber
                && word.surface == word.lowercased {
                let before = index > 0 && !word.followsBreak ? words[index - 1].lowercased : nil
                let after = index + 1 < words.count
                    && !words[index + 1].followsBreak ? words[index + 1].lowercased : nil
                if let before, nounBefore.contains(before) {
                    nounUse.insert(word.lowercased)
                } else if before.map(verbBefore.contains) == true || after.map(objectAfter.contains) == true {
                    verbUse.insert(word.lowercased)
                }
            }
        }
        return verbUse.subtracting(nounUse)
    }

    private static let nounBefore: Set<String> = [
        "the", "a", "an", "these", "those", "its", "their", "his", "her", "our", "your", "my", "each", "every", "some",
        "many", "few", "several", "no", "of", "two", "three", "four", "five", "all", "both", "any", "such", "more",
        "most",
    ]
    private static let verbBefore: Set<String> = [
        "it", "they", "he", "she", "we", "which", "who", "can", "cannot", "could", "may", "might", "must", "should",
        "would", "will", "later", "also", "often", "always", "never", "usually",
    ]
    /// Object pronouns only: an article after a word may open the next clause ("In mesophyll
    /// cells the enzyme …").
    private static let objectAfter: Set<String> = ["it", "them", "him", "us", "itself", "themselves"]

    /// Whether the stopword list fits the text (in English prose roughly every third word is a
    /// function word; in languages other than English and French almost none of ours are), and
    /// whether the text says more English function words than French ones — one pass over the words.
    private static func functionWords(_ unitWords: [[NormalizedWord]]) -> (fit: Bool, english: Bool) {
        var latin = 0
        var stopwords = 0
        var englishOverFrench = 0
        for words in unitWords {
            for word in words where !TermNormalizer.isCJK(word.surface.first ?? " ") {
                latin += 1
                guard word.isStopword else { continue }
                stopwords += 1
                let english = Stopwords.english.contains(word.lowercased)
                if english != Stopwords.french.contains(word.lowercased) {
                    englishOverFrench += english ? 1 : -1
                }
            }
        }
        return (latin > 0 && Double(stopwords) >= 0.15 * Double(latin), englishOverFrench > 0)
    }

    /// For text our stopword list does not cover: a term is kept only when it has no short
    /// word that is likely a function word of that language ("der", "und", "ist"; acronyms such
    /// as "DNA" are kept) and, in CJK, no hiragana (particles and endings are hiragana; Japanese
    /// terms come out of the extractor as whole runs of kanji or katakana).
    static func isContentTerm(_ phrase: Keyphrase) -> Bool {
        let words = TermNormalizer.words(in: phrase.text)
        guard !words.isEmpty else { return false }
        return words.allSatisfy { word in
            if TermNormalizer.isCJK(word.surface.first ?? " ") {
                return !word.surface.unicodeScalars.contains { CJKScript($0) == .hiragana }
            }
            return word.isNumber || word.surface.count > 3 || word.surface.allSatisfy { $0.isUppercase || $0.isNumber }
        }
    }


    /// Whether a unit spells out a signature: a type or placeholder in angle brackets as a word
    /// of its own ("offset <integer> Number of bytes to skip", "value <string> | <Buffer>",
    /// "check_memory [addressable|defined] <addr> [<len>]"). An API reference's parameter
    /// lines are fields to look up, not sentences: as a card they blank a type name.
    static func isSignature(_ text: String) -> Bool {
        guard text.contains("<") else { return false }
        return text.split(whereSeparator: \.isWhitespace).contains { word in
            var core = Substring(word)
            while let first = core.first, "[](),|*".contains(first) { core = core.dropFirst() }
            while let last = core.last, "[](),|*".contains(last) { core = core.dropLast() }
            guard core.count >= 3, core.first == "<", core.last == ">" else { return false }
            let name = core.dropFirst().dropLast()
            return name.first?.isLetter == true && name.allSatisfy { $0.isLetter || $0.isNumber || "_.-".contains($0) }
        }
    }

    /// The words of the unit at `index` of `units` when it is prose, tokenized once by the analysis.
    func proseWords(ofUnit index: Int) -> [NormalizedWord]? {
        guard prosePositionOfUnit.indices.contains(index), prosePositionOfUnit[index] >= 0 else { return nil }
        return proseWords[prosePositionOfUnit[index]]
    }

    /// Whether a keyphrase (by its stem key) occurs in the prose unit at `proseIndex`.
    func mentions(_ key: String, inProse proseIndex: Int) -> Bool {
        key.split(separator: " ").allSatisfy { proseStems[proseIndex].contains(String($0)) }
    }

    /// A unit cut at word boundaries into pieces of at most `chunkWords` words when it has more
    /// than `runOnWords`, preferring a cut after a comma or semicolon in the second half of a piece.
    /// In Chinese and Japanese every character is a word, so a unit mostly of such characters
    /// gets three times the room: a 60-character Japanese sentence is no run-on.
    /// The units of sections headed "Copyright", "License", "Legal notice" …, heading included,
    /// up to the next heading of the same or a higher level: who may copy the work is no
    /// matter for a student. Under a heading that is not a licence's name, the section's own text
    /// must read as legal too (one of its first ``legalLinesRead`` units,
    /// ``FrontMatter/readsAsLegal(_:)``), or have none before its subsections: groff's
    /// "COPYRIGHT" is a macro, its section a manual's content.
    static func legalSections(_ units: [Sentence]) -> Set<Int> {
        var legal = Set<Int>()
        var level: Int?
        // The next number of the licence's own numbered sections ("0. PREAMBLE", "1. APPLICABILITY …").
        var nextNumber: Int?
        for (index, unit) in units.enumerated() {
            if unit.isHeading {
                // A subsection, a short line taken for a heading that is itself front matter
                // ("1999-2021, Software in the Public Interest"), or the licence's own numbered
                // sections (numbering from 0 or 1 again, then in order) stay in the section.
                let number = Int(unit.text.prefix { $0.isNumber })
                let licenceSection = number.map { n in nextNumber.map { n == $0 || ($0 == 0 && n == 1) } ?? false }
                    ?? false
                if let open = level, unit.headingLevel > open || FrontMatter.isFrontMatter(unit.text)
                    || licenceSection {
                    if licenceSection, let number { nextNumber = number + 1 }
                    legal.insert(index)
                    continue
                }
                // A licence's name is legal by itself; "Copyright" may head a macro of that name.
                let namesLicence = FrontMatter.namesLicence(unit.text)
                let legalHeading = namesLicence
                    || (FrontMatter.isLegalHeading(unit.text) && Self.sectionReadsAsLegal(units, after: index))
                level = legalHeading ? unit.headingLevel : nil
                nextNumber = namesLicence ? 0 : nil
            }
            if level != nil { legal.insert(index) }
        }
        return legal
    }

    /// The units read under a legal heading before its section is judged content.
    static let legalLinesRead = 3

    /// Whether the section headed at `heading` reads as legal: no text of its own before the next
    /// heading, or a notice among its first units.
    private static func sectionReadsAsLegal(_ units: [Sentence], after heading: Int) -> Bool {
        let own = units[(heading + 1)...].prefix { !$0.isHeading }.prefix(legalLinesRead)
        return own.isEmpty || own.contains { FrontMatter.readsAsLegal($0.text) }
    }

    private static func chunks(
        of unit: Sentence, words: [NormalizedWord], in source: String
    ) -> [(text: String, range: Range<String.Index>, offsets: Range<Int>)] {
        let whole = [(unit.text, unit.range, unit.offsets)]
        let scale = words.count { TermNormalizer.isCJK($0.surface.first ?? " ") } * 2 > words.count ? 3 : 1
        let runOnWords = Self.runOnWords * scale
        let chunkWords = Self.chunkWords * scale
        guard !unit.isHeading, words.count > runOnWords else { return whole }
        let chars = Array(unit.text)
        var pieces: [(String, Range<String.Index>, Range<Int>)] = []
        var start = 0  // a word index
        while start < words.count {
            var end = min(words.count, start + chunkWords)
            if end < words.count {
                var w = end - 1
                while w > start + chunkWords / 2 {
                    let after = words[w].offsets.upperBound
                    if after < chars.count, ",;:、，；：".contains(chars[after]) {
                        end = w + 1
                        break
                    }
                    w -= 1
                }
                // Leave no tiny tail: share the last words between the last two pieces instead.
                if words.count - end < chunkWords / 3 { end = start + (words.count - start + 1) / 2 }
            }
            let lower = words[start].offsets.lowerBound
            var upper = chars.count
            if end < words.count {
                upper = words[end - 1].offsets.upperBound
                // Keep the punctuation that closes the piece (a comma, a closing bracket).
                while upper < words[end].offsets.lowerBound, !chars[upper].isWhitespace { upper += 1 }
            }
            let base = unit.offsets.lowerBound
            let from = source.index(unit.range.lowerBound, offsetBy: lower)
            let to = source.index(from, offsetBy: upper - lower)
            pieces.append((String(chars[lower..<upper]), from..<to, (base + lower)..<(base + upper)))
            start = end
        }
        return pieces
    }
}

extension BuiltinAnalysis {
    /// Whether the text writes `word` (lower case) inflected as a verb: with "-s", "-es", "-ed"
    /// or "-ing" ("reduce": "reduces", "reduced", "reducing").
    func inflectsAsAVerb(_ word: String) -> Bool {
        let stem = word.hasSuffix("e") ? String(word.dropLast()) : word
        return [word + "s", word + "es", stem + "ed", stem + "ing"].contains(where: vocabulary.contains)
    }
}

/// What a deck of cloze items is built for: its size, and whether no section may take it past.
struct ClozeDeckKey: Equatable, Sendable {
    let limit: Int
    let exact: Bool
}
