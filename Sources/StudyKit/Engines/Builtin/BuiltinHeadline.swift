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

    /// The source's own title when it is short and has no quotation marks (or one of its shorter
    /// ``titleForms(of:)``), else the first heading of the document when it opens with one (the
    /// same), else the top key term(s) in Title Case,
    /// else the first words of the text. Never empty.
    func documentTitle(_ analysis: BuiltinAnalysis) -> String {
        func acceptable(_ candidate: String?) -> String? {
            guard let candidate else { return nil }
            let line = ProseText.oneLine(candidate)
            guard !line.isEmpty, line.contains(where: { $0.isLetter || $0.isNumber }),
                ProseText.wordCount(line) <= Self.titleWords, ProseText.length(line) <= Self.titleLength,
                !line.contains(where: ProseText.quoteCharacters.contains)
            else { return nil }
            return line
        }
        // A chapter's title too long for a headline is still the chapter's: "Chapter 6. Maintenance
        // and Updates: The APT Tools" is "Maintenance and Updates: The APT Tools", not two key terms.
        if let given = Self.titleForms(of: analysis.givenTitle).lazy.compactMap(acceptable).first { return given }
        if let first = analysis.units.first, first.isHeading,
            let heading = Self.titleForms(of: first.text).lazy.compactMap(acceptable).first
        {
            return heading
        }
        if let composed = acceptable(composedTitle(analysis)) { return composed }
        let lead = ProseText.withoutQuotes(ProseText.withoutListMarker(analysis.prose[0].text))
        // Scripts without spaces: the lead's first clause, at most 20 characters.
        if let first = lead.first, TermNormalizer.isCJK(first) {
            let clause = lead.prefix { !"、，。！？：；,.!?".contains($0) }.prefix(20)
            return String(clause)
        }
        var words = ProseText.shortened(lead, maxWords: Self.titleWords, maxLength: Self.titleLength, ending: "")
        while let last = words.last, !(last.isLetter || last.isNumber || last == ")") { words.removeLast() }
        return words.isEmpty ? "Study Notes" : words
    }

    /// A title as given, then without its label ("Chapter 6.", "Part II:", "12.2."), then the
    /// main title before its subtitle ("Network Services: Postfix, Apache, NFS …" → "Network
    /// Services"): the forms a headline may shorten a long title to, longest first.
    static func titleForms(of title: String?) -> [String] {
        guard let title = title.map(ProseText.oneLine), !title.isEmpty else { return [] }
        let unlabelled = withoutLabel(title)
        var forms = [title, unlabelled, mainTitle(unlabelled), mainTitle(title)].compactMap { $0 }
        // Each once, in that order: the label goes before the subtitle does.
        var seen = Set<String>()
        forms.removeAll { !seen.insert($0).inserted }
        return forms
    }

    /// `title` without a leading chapter or section label ("Chapter 6. ", "Part II: ", "12.2. ");
    /// the title itself when nothing would be left.
    private static func withoutLabel(_ title: String) -> String {
        let label =
            #"^((chapter|part|section|appendix|lesson|unit|module|book|lecture)\s+[0-9IVXLCivxlc]+(\.[0-9]+)*[.:]?|"#
            + #"[0-9]+(\.[0-9]+)*\.)\s+"#
        guard let range = title.range(of: label, options: [.regularExpression, .caseInsensitive]) else { return title }
        let rest = title[range.upperBound...].trimmingCharacters(in: .whitespaces)
        return rest.contains(where: \.isLetter) ? rest : title
    }

    /// The part of `title` before its subtitle (after ": ", " — ", " – " or " - "), if it has both.
    private static func mainTitle(_ title: String) -> String? {
        let cut = [": ", " — ", " – ",
            " - "].compactMap { title.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
        guard let cut else { return nil }
        let main = title[..<cut.lowerBound].trimmingCharacters(in: .whitespaces)
        return main.contains(where: \.isLetter) && !title[cut.upperBound...].isEmpty ? main : nil
    }

    /// The best key term, joined by the next one that shares no word with it when the first is a
    /// single word ("Rome and Senate"); `nil` when there is no word term.
    func composedTitle(_ analysis: BuiltinAnalysis) -> String? {
        // CJK terms come out of the extractor as characters joined by spaces: no title.
        let terms = analysis.keyphrases.filter { phrase in
            phrase.text.contains { $0.isLetter } && !phrase.text.contains(where: TermNormalizer.isCJK)
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
        return ProseText.shortened(
            ProseText.titleCased(ProseText.withoutQuotes(title)), maxWords: Self.titleWords,
            maxLength: Self.titleLength, ending: "")
    }

    /// The lead sentence when it reads as a blurb, else the most central sentence that does;
    /// else the lead sentence cut to one sentence within the bounds.
    private func blurb(_ analysis: BuiltinAnalysis, title: String) -> String {
        let lead = Self.lead(analysis)
        let candidates = [lead] + analysis.ranked.map(\.sentence).filter { $0.index != lead.index }
        for (position, unit) in candidates.enumerated() {
            let text = ProseText.sentence(unit.text)
            let words = ProseText.wordCount(text)
            // A very short lead ("Notes.") says less than a central sentence.
            guard words >= (position == 0 ? 5 : 3), words <= Self.blurbWords,
                ProseText.length(text) <= Self.blurbLength, ResultProse.sentenceCount(text) == 1,
                Self.reads(text, asBlurbUnder: title), !Self.isPieceOfLongerSentence(unit, in: analysis)
            else { continue }
            return text
        }
        for unit in candidates {
            let text = Self.oneSentence(unit.text, maxWords: Self.blurbWords, maxLength: Self.blurbLength)
            if !text.isEmpty, Self.reads(text, asBlurbUnder: title) { return text }
        }
        let named = Self.oneSentence("A study note on \(title).", maxWords: Self.blurbWords,
            maxLength: Self.blurbLength)
        return ItemRules.sentenceCut(named) == nil ? named : "A study note."
    }

    /// Whether `text` passes the blurb's own rules (``Headline/semanticIssues()``): more than the
    /// title, no stock filler or loop, and a sentence that is not cut off; and it reads on its
    /// own (``opensOnItsOwn(_:)``): a blurb has no sentence before it.
    private static func reads(_ text: String, asBlurbUnder title: String) -> Bool {
        !ResultProse.sameText(text, title) && !ItemRules.isEmptyProse(text) && ItemRules.sentenceCut(text) == nil
            && opensOnItsOwn(text) && !ProseText.isUnfinished(text)
    }

    /// `text` cut to one sentence within the bounds, ending with a period where it was cut.
    static func oneSentence(_ text: String, maxWords: Int, maxLength: Int) -> String {
        var sentence = ProseText.sentence(text)
        if ProseText.wordCount(sentence) > maxWords || ProseText.length(sentence) > maxLength {
            sentence = ProseText.shortened(sentence, maxWords: maxWords, maxLength: maxLength, ending: ".")
        }
        // The source sentence may hold a second sentence by the validator's rules ("… U.S. Army").
        var words = sentence.split(separator: " ")
        while ResultProse.sentenceCount(sentence) > 1, words.count > 1 {
            words.removeLast()
            sentence = ProseText.shortened(words.joined(separator: " "), maxLength: maxLength, ending: "")
            sentence = ProseText.sentence(sentence.trimmingTrailingPunctuation)
        }
        return sentence
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
