// MARK: - Units and selection

/// One unit the fitter may keep or drop whole: a sentence, list item or heading, with its cost.
///
/// The cost is in whatever the budget is in (tokens, characters). The caller computes all costs
/// from one tokenization of the document (for example by summing the tokens that start inside
/// each range), so fitting never re-counts.
struct FitUnit: Sendable, Hashable {
    /// Where the unit lies in the text being fitted.
    var range: Range<String.Index>
    /// Whether the unit is a heading (kept before any prose but the opening).
    var isHeading: Bool
    /// Heading level 1–6 (0 for prose); a lower level is a more important heading.
    var headingLevel: Int
    /// The section (outline index) the unit belongs to.
    var section: Int
    /// The paragraph the unit belongs to; the opening is the document's first prose paragraph.
    var paragraph: Int
    /// Rank among prose units, 0 = most central; `nil` for headings and unranked units, which
    /// come after every ranked unit of their section.
    var rank: Int?
    /// What keeping the unit costs against the budget (never negative).
    var cost: Int

    /// Creates a unit.
    init(
        range: Range<String.Index>, isHeading: Bool = false, headingLevel: Int = 0, section: Int,
        paragraph: Int, rank: Int?, cost: Int
    ) {
        self.range = range
        self.isHeading = isHeading
        self.headingLevel = headingLevel
        self.section = section
        self.paragraph = paragraph
        self.rank = rank
        self.cost = max(0, cost)
    }
}

/// The part of a document that fits a budget, ready to send to a model.
struct FittedSelection: Sendable, Equatable {
    /// The kept units in document order: adjacent units keep the whitespace between them (so
    /// paragraphs stay paragraphs), and each run of skipped units becomes a `[…]` line.
    let text: String
    /// Indices (into the units given) of the kept units, ascending.
    let keptUnits: [Int]
    /// The source ranges of the kept units, in document order.
    let keptRanges: [Range<String.Index>]
    /// Source characters in the kept units (markers and joins not counted).
    let keptCharacters: Int
    /// Source characters in all units.
    let totalCharacters: Int
    /// The selection's cost as the fitter counts it: unit costs, one separator cost per join,
    /// one marker cost per `[…]`. Never above the budget.
    let cost: Int
    /// Fraction (0…1) of sections with at least one kept unit; 1 for a document without units.
    let sectionCoverage: Double
    /// Whether every unit was kept (then `text` is the source from the first unit to the last).
    let isComplete: Bool
}

// MARK: - Fitter

/// Chooses which units of a long document to keep under a budget, keeping coverage.
///
/// Priority, each step only taking what still fits (so the budget is never exceeded):
/// 1. the opening: the first unit, any leading headings and short lines (a title block) and the
///    first prose sentence (``openingUnit(_:in:)``), then the rest of its paragraph up to
///    `openingShare` of the budget — the opening states what a text is about;
/// 2. headings, most important level first and earlier before later, within `headingShare` of
///    the budget, so when headings alone would crowd out the text, the deepest and then the
///    last ones wait; a section whose sentence is kept later gets its heading back if it fits;
/// 3. prose round-robin across sections, each section offering its best-ranked unit not yet
///    kept. The first round starts with the last section (conclusions and summaries live at the
///    end and a plain rank order would starve it), then goes by candidate rank; later rounds go
///    by candidate rank, ties to the earlier section.
///
/// Deterministic; O(n log n) in the number of units.
@_spi(Benchmarks) public struct ContentFitter: Sendable {
    /// The marker line that stands for skipped text.
    @_spi(Benchmarks) public static let marker = "[…]"
    /// Share of the budget the opening may take beyond its first unit.
    var openingShare: Double
    /// Cost of one join between kept units (a paragraph break in the budget's unit).
    var separatorCost: Int
    /// Cost of one `[…]` marker line including its own line break.
    var markerCost: Int
    /// Share of the budget that headings may take on their own, before any section's prose.
    /// Without a cap a document with many short sections would send headings and markers only.
    var headingShare: Double

    /// Creates a fitter. For a token budget pass the token counts of "\n\n" and "[…]\n\n".
    init(openingShare: Double = 0.25, separatorCost: Int = 0, markerCost: Int = 0, headingShare: Double = 0.3) {
        self.openingShare = min(1, max(0, openingShare))
        self.separatorCost = max(0, separatorCost)
        self.markerCost = max(0, markerCost)
        self.headingShare = min(1, max(0, headingShare))
    }

    /// Fit units for an outline: prose ranked by `ranker`, each unit's cost from `cost`.
    ///
    /// `cost` is called once per unit with the unit's range; derive it from one tokenization of
    /// the whole text rather than tokenizing each range.
    static func units(
        of outline: DocumentOutline, ranker: SentenceRanker = SentenceRanker(),
        cost: (Range<String.Index>) -> Int
    ) -> [FitUnit] {
        var rankOfUnit: [Int: Int] = [:]
        let prose = outline.units.enumerated().filter { !$0.element.isHeading }
        let ranked = ranker.rank(prose.map(\.element))
        // `rank` keeps input order for ties, so map back through positions, not indices.
        var positionOfText: [Range<Int>: Int] = [:]
        for (position, unit) in prose { positionOfText[unit.offsets] = position }
        for entry in ranked {
            if let position = positionOfText[entry.sentence.offsets] { rankOfUnit[position] = entry.rank }
        }
        return outline.units.enumerated().map { position, unit in
            FitUnit(
                range: unit.range, isHeading: unit.isHeading, headingLevel: unit.headingLevel,
                section: outline.sectionOfUnit[position], paragraph: unit.paragraph,
                rank: rankOfUnit[position], cost: cost(unit.range))
        }
    }

    /// Fits `text` into `budget` characters; the output's `text.count` never exceeds it.
    static func fitCharacters(_ text: String, budget: Int) -> FittedSelection {
        let outline = DocumentOutline(text: text)
        let units = Self.units(of: outline) { text[$0].count }
        guard let first = units.first, let last = units.last else {
            return ContentFitter().select(units, from: text, budget: budget)
        }
        if text[first.range.lowerBound..<last.range.upperBound].count <= budget {
            return ContentFitter().keepAll(units, from: text)
        }
        // Joins are the source whitespace between adjacent units: charge the widest one.
        var widest = 2
        for (a, b) in zip(units, units.dropFirst()) {
            widest = max(widest, text[a.range.upperBound..<b.range.lowerBound].count)
        }
        let fitter = ContentFitter(separatorCost: widest, markerCost: marker.count + 2)
        return fitter.select(units, from: text, budget: budget)
    }

    /// Chooses units of `text` (given in document order, not overlapping) under `budget`.
    func select(_ units: [FitUnit], from text: String, budget: Int) -> FittedSelection {
        let n = units.count
        let fullCost = units.reduce(0) { $0 + $1.cost } + max(0, n - 1) * separatorCost
        if n > 0, fullCost <= budget {
            return keepAll(units, from: text)
        }
        var state = SelectionState(units: units, separatorCost: separatorCost, markerCost: markerCost, budget: budget)
        guard n > 0 else { return state.result(from: text) }

        // 1. The opening.
        state.add(0)
        let firstProse = Self.openingUnit(units, in: text)
        let openingParagraph = firstProse.map { units[$0].paragraph }
        let openingLimit = Int(Double(budget) * openingShare)
        var i = 1
        while i < n, state.keptCount > 0, let firstProse {
            // Leading headings and the first prose unit are the opening proper: a title alone says
            // little. The rest of the first paragraph is kept while within the opening share.
            // Contiguous, so no marker splits the opening.
            if i <= firstProse {
                guard state.add(i) else { break }
            } else {
                guard units[i].paragraph == openingParagraph, state.cost + state.delta(i) <= openingLimit else { break }
                state.add(i)
            }
            i += 1
        }

        // 2. Headings, most important first, within the heading share of the budget.
        let headings = units.indices.filter { units[$0].isHeading }.sorted { a, b in
            units[a].headingLevel != units[b].headingLevel ? units[a].headingLevel < units[b].headingLevel : a < b
        }
        let headingLimit = state.cost + Int(Double(budget) * headingShare)
        for h in headings where state.cost + state.delta(h) <= headingLimit { state.add(h) }
        // A sentence kept later brings its section's heading along when that still fits.
        var headingOfSection: [Int: Int] = [:]
        for h in headings where headingOfSection[units[h].section] == nil { headingOfSection[units[h].section] = h }

        // 3. Prose, round-robin across sections.
        var queues: [Int: [Int]] = [:]
        for u in units.indices where !units[u].isHeading && !state.isKept(u) {
            queues[units[u].section, default: []].append(u)
        }
        func order(_ a: Int, _ b: Int) -> Bool {
            let ra = units[a].rank ?? Int.max
            let rb = units[b].rank ?? Int.max
            return ra != rb ? ra < rb : a < b
        }
        var heads: [Int: Int] = [:]
        for key in queues.keys {
            queues[key]?.sort(by: order)
            heads[key] = 0
        }
        let lastSection = units.map(\.section).max() ?? 0
        var firstRound = true
        while true {
            var offers: [(section: Int, unit: Int)] = []
            for (section, queue) in queues {
                if let h = heads[section], h < queue.count { offers.append((section, queue[h])) }
            }
            if offers.isEmpty { break }
            offers.sort { a, b in
                if firstRound, (a.section == lastSection) != (b.section == lastSection) {
                    return a.section == lastSection
                }
                let ra = units[a.unit].rank ?? Int.max
                let rb = units[b.unit].rank ?? Int.max
                return ra != rb ? ra < rb : a.section < b.section
            }
            for offer in offers {
                if state.add(offer.unit), let heading = headingOfSection[offer.section], !state.isKept(heading) {
                    state.add(heading)
                }
                heads[offer.section, default: 0] += 1
            }
            firstRound = false
        }
        return state.result(from: text)
    }

    /// A prose unit of at least this many words can open a text; shorter ones are a title
    /// block's lines ("The French Revolution,", "History 210"), which say little.
    static let openingWords = 8
    /// How far into the text the opening sentence is looked for: past a title block, not past a
    /// table of contents.
    static let openingSearch = 12

    /// The unit that ends the opening proper: the first prose unit of at least ``openingWords``
    /// words within the first ``openingSearch`` units (a PDF's title block of short lines comes
    /// before the sentence that says what the text is about), else the first prose unit.
    static func openingUnit(_ units: [FitUnit], in text: String) -> Int? {
        let firstProse = units.firstIndex { !$0.isHeading }
        for index in units.indices.prefix(openingSearch) where !units[index].isHeading {
            if text[units[index].range].split(whereSeparator: \.isWhitespace).count >= openingWords { return index }
        }
        return firstProse
    }

    /// Everything kept: the source text from the first unit to the last, unchanged.
    func keepAll(_ units: [FitUnit], from text: String) -> FittedSelection {
        guard let first = units.first, let last = units.last else {
            return FittedSelection(
                text: "", keptUnits: [], keptRanges: [], keptCharacters: 0, totalCharacters: 0, cost: 0,
                sectionCoverage: 1, isComplete: true)
        }
        let characters = units.reduce(0) { $0 + text[$1.range].count }
        let cost = units.reduce(0) { $0 + $1.cost } + (units.count - 1) * separatorCost
        return FittedSelection(
            text: String(text[first.range.lowerBound..<last.range.upperBound]), keptUnits: Array(units.indices),
            keptRanges: units.map(\.range), keptCharacters: characters, totalCharacters: characters, cost: cost,
            sectionCoverage: 1, isComplete: true)
    }
}

// MARK: - Selection state

/// Kept units in sorted order, with the exact running cost of the text they would produce.
private struct SelectionState {
    let units: [FitUnit]
    let separatorCost: Int
    let markerCost: Int
    let budget: Int
    private(set) var kept: [Int] = []
    private var keptFlags: [Bool]
    private(set) var cost = 0

    init(units: [FitUnit], separatorCost: Int, markerCost: Int, budget: Int) {
        self.units = units
        self.separatorCost = separatorCost
        self.markerCost = markerCost
        self.budget = budget
        self.keptFlags = Array(repeating: false, count: units.count)
    }

    var keptCount: Int { kept.count }

    func isKept(_ u: Int) -> Bool { keptFlags[u] }

    /// Whether skipped units lie between kept neighbours `a` and `b` (-1 and n are the edges).
    private func hasGap(_ a: Int, _ b: Int) -> Bool { b - a > 1 }

    private func insertionPoint(_ u: Int) -> Int {
        var lo = 0
        var hi = kept.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if kept[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The change in total cost if `u` were kept.
    func delta(_ u: Int) -> Int {
        let n = units.count
        if kept.isEmpty {
            let markers = (hasGap(-1, u) ? 1 : 0) + (hasGap(u, n) ? 1 : 0)
            return units[u].cost + markers * markerCost
        }
        let p = insertionPoint(u)
        let prev = p > 0 ? kept[p - 1] : -1
        let next = p < kept.count ? kept[p] : n
        let before = hasGap(prev, next) ? 1 : 0
        let after = (hasGap(prev, u) ? 1 : 0) + (hasGap(u, next) ? 1 : 0)
        return units[u].cost + separatorCost + (after - before) * markerCost
    }

    /// Keeps `u` if it is not kept yet and fits; returns whether it is kept now.
    @discardableResult
    mutating func add(_ u: Int) -> Bool {
        guard !keptFlags[u] else { return true }
        let d = delta(u)
        guard cost + d <= budget else { return false }
        kept.insert(u, at: insertionPoint(u))
        keptFlags[u] = true
        cost += d
        return true
    }

    func result(from text: String) -> FittedSelection {
        let marker = ContentFitter.marker
        var out = ""
        var keptCharacters = 0
        for (position, u) in kept.enumerated() {
            if position == 0 {
                if u > 0 { out += marker + "\n\n" }
            } else {
                let prev = kept[position - 1]
                if u == prev + 1 {
                    let gap = text[units[prev].range.upperBound..<units[u].range.lowerBound]
                    out += gap.allSatisfy(\.isWhitespace) ? String(gap) : "\n\n"
                } else {
                    out += "\n\n" + marker + "\n\n"
                }
            }
            let piece = text[units[u].range]
            keptCharacters += piece.count
            out += piece
        }
        if let last = kept.last, last < units.count - 1 { out += "\n\n" + marker }
        let total = units.reduce(0) { $0 + text[$1.range].count }
        let sections = Set(units.map(\.section))
        let represented = Set(kept.map { units[$0].section })
        return FittedSelection(
            text: out, keptUnits: kept, keptRanges: kept.map { units[$0].range }, keptCharacters: keptCharacters,
            totalCharacters: total, cost: cost,
            sectionCoverage: sections.isEmpty ? 1 : Double(represented.count) / Double(sections.count),
            isComplete: kept.count == units.count)
    }
}
