// MARK: - A deck spread over the sections (#54)

/// How the builtin engine spreads a deck over a document's sections: every body section
/// (``BodySections``) is owed a card, and the rest of the deck is shared out by each section's
/// share of the distinct text. A section that repeats an earlier one word for word is owed
/// nothing: the first copy's cards lie in it too.
///
/// Each section's cards come from its own sentences, in the document's rank order, blanking its
/// own key terms (a section's terms are not the document's 40 best: a chapter on the trial of
/// the king has terms the book's top list never reaches).
struct SectionSpread {
    let analysis: BuiltinAnalysis
    /// The cards the deck is sized for.
    let limit: Int
    /// Whether a body section without a card gets one though the deck is full: yes when the
    /// deck follows the material, no when `--cards` set its size.
    let givesEverySectionACard: Bool
    /// For each section of `analysis.sections`, its prose units' positions in `analysis.ranked`,
    /// most central first.
    private let rankedBySection: [[Int]]
    /// For each section of `analysis.sections`, the units of the analysis in it, its heading first
    /// when it is one.
    private let unitsBySection: [[Int]]

    init(analysis: BuiltinAnalysis, limit: Int, givesEverySectionACard: Bool = true) {
        self.analysis = analysis
        self.limit = limit
        self.givesEverySectionACard = givesEverySectionACard
        let sectionCount = analysis.sections.all.count
        var buckets = [[Int]](repeating: [], count: sectionCount)
        for (position, entry) in analysis.ranked.enumerated() {
            let unit = entry.sentence.index
            guard analysis.bodySectionOfUnit.indices.contains(unit) else { continue }
            buckets[analysis.bodySectionOfUnit[unit]].append(position)
        }
        rankedBySection = buckets
        var units = [[Int]](repeating: [], count: sectionCount)
        for (unit, section) in analysis.bodySectionOfUnit.enumerated() { units[section].append(unit) }
        unitsBySection = units
    }

    /// The body section (its position in `analysis.sections.all`) an item's answer lies in: the
    /// section of the outline the coverage report places the item's quote in.
    func section(of item: ClozeItem) -> Int? {
        analysis.sections.section(at: item.answerOffsets.lowerBound)
    }

    /// Adds cards section by section to a deck that has `items`, through `add(section, ranked,
    /// terms, count, reusing)`, which makes up to `count` cards from the ranked positions given,
    /// blanking the terms given (when `reusing`, terms the deck has asked elsewhere too), and says
    /// how many it made.
    ///
    /// First each section gets its share (a body section at least one, even past `limit` unless
    /// `--cards` set it), counting the cards it has; a body section still without a card then
    /// gets one that may blank a term asked in another section (#54: a manual names its macros in
    /// section after section, and a term asked once per deck left "TITLE" without a card of its
    /// own); then, while the deck is short, one more card per section in turn, the largest first.
    func fill(
        items: [ClozeItem],
        add: (_ section: Int, _ ranked: [Int], _ terms: [Keyphrase], _ count: Int, _ reusing: Bool) -> Int
    ) {
        let sections = analysis.sections.all.filter { $0.copyOf == nil && $0.characters > 0 }
        guard !sections.isEmpty else { return }
        var have = [Int: Int]()
        for item in items { if let section = section(of: item) { have[section, default: 0] += 1 } }
        var total = items.count
        let distinct = max(1, analysis.sections.distinctCharactersWithCode)
        var terms: [Int: [Keyphrase]] = [:]
        func termsOf(_ section: Int) -> [Keyphrase] {
            if let known = terms[section] { return known }
            let found = localTerms(section)
            terms[section] = found
            return found
        }
        func addTo(_ section: Int, _ count: Int, reusing: Bool = false) -> Int {
            guard count > 0, !rankedBySection[section].isEmpty else { return 0 }
            let made = add(section, rankedBySection[section], termsOf(section), count, reusing)
            have[section, default: 0] += made
            total += made
            return made
        }
        // Each section's share, in document order; a body section without a card gets one even
        // when the deck is full.
        for entry in sections {
            let share = limit * entry.charactersWithCode / distinct
            let owed = max(entry.isBody ? 1 : 0, share)
            let has = have[entry.outlineIndex, default: 0]
            guard has < owed, total < limit || (givesEverySectionACard && entry.isBody && has == 0) else { continue }
            let wanted = total < limit ? min(owed - has, limit - total) : 1
            _ = addTo(entry.outlineIndex, wanted)
        }
        // A body section whose own terms were all asked elsewhere: one card that asks one again.
        // Never past the most cards a deck may hold by default (the 500-page book has 501 sections).
        for entry in sections
        where entry.isBody && have[entry.outlineIndex, default: 0] == 0 && (total < limit || givesEverySectionACard) {
            guard total < max(limit, KitSize.cardCap) else { break }
            _ = addTo(entry.outlineIndex, 1, reusing: true)
        }
        // The rest, one card a section in turn, the sections with the most text first.
        var turn = sections.sorted { $0.characters > $1.characters }.map(\.outlineIndex)
        while total < limit, !turn.isEmpty {
            turn = turn.filter { total < limit && addTo($0, 1) > 0 }
        }
    }

    /// `items` taken a section at a time: the first item of each section in document order, then
    /// the second of each, and so on — so the first questions of a quiz come from every section.
    func inTurn(_ items: [ClozeItem]) -> [ClozeItem] {
        var order: [Int?] = []
        var bySection: [Int?: [ClozeItem]] = [:]
        for item in items {
            let section = section(of: item)
            if bySection[section] == nil { order.append(section) }
            bySection[section, default: []].append(item)
        }
        let longest = bySection.values.map(\.count).max() ?? 0
        return (0..<longest).flatMap { round in
            order.compactMap { section in bySection[section].flatMap { round < $0.count ? $0[round] : nil } }
        }
    }

    /// The key terms of one section, best first, from its heading and units (the document's
    /// tokens reused where it has them).
    private func localTerms(_ index: Int) -> [Keyphrase] {
        let units = unitsBySection[index].map { analysis.units[$0] }
        let words = units.map { unit in
            analysis.proseWords(ofUnit: unit.index) ?? (unit.isCode ? [] : TermNormalizer.words(in: unit.text))
        }
        let found = KeyphraseExtractor(weighsGeneralEnglish: analysis.isEnglish)
            .keyphrases(in: units, words: words, limit: Self.termsPerSection, fieldNames: analysis.fieldNames)
        return analysis.isEnglish ? found : found.filter(BuiltinAnalysis.isContentTerm)
    }

    /// Key terms kept per section: more than one section's cards ever need.
    static let termsPerSection = 30

    /// Every run of consecutive words of a term's stem key ("light reaction": "light",
    /// "reaction", "light reaction"): a term whose key is one of these, or holds one as a
    /// run, asks a notion already asked (``ClozeBuilder/overlaps(_:_:)``, found by lookup).
    static func runs(of key: String) -> [String] {
        let words = key.split(separator: " ")
        var runs: [String] = []
        for start in words.indices {
            for end in start..<words.count { runs.append(words[start...end].joined(separator: " ")) }
        }
        return runs
    }
}
