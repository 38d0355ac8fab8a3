import Foundation

// MARK: - Token rates

/// What a text costs in tokens between exact counts: its ASCII bytes and its other scalars,
/// weighted by how many tokens byte-level tokenizers usually give them (a CJK character about
/// one, an emoji's scalar two or three), at rates measured on the document itself.
///
/// A single average over a document that mixes scripts misprices every sentence: an English
/// sentence in a Chinese text looks three times dearer than it is. Two classes, calibrated by
/// two exact counts (the document, then the fitted text), price each sentence within a few
/// per cent.
struct TokenFeatures: Sendable, Equatable {
    /// ASCII bytes.
    var ascii: Double = 0
    /// Non-ASCII scalars, weighted (see ``weight(_:)``).
    var other: Double = 0

    /// The features of `text`.
    init(_ text: Substring) {
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 { ascii += 1 } else { other += Self.weight(scalar) }
        }
    }

    /// The features of `text`.
    init(_ text: String) { self.init(Substring(text)) }

    private init(ascii: Double, other: Double) {
        self.ascii = ascii
        self.other = other
    }

    /// Tokens per scalar relative to a CJK character, before calibration: two-byte scalars
    /// (accented Latin, Cyrillic, Greek) often merge with their neighbours; scalars outside the
    /// Basic Multilingual Plane (emoji) are split into byte tokens.
    static func weight(_ scalar: Unicode.Scalar) -> Double {
        switch scalar.value {
        case ..<0x800: return 0.6
        case 0xFE00...0xFE0F, 0x200D: return 1  // variation selectors, zero-width joiner
        case ..<0x10000: return 1
        default: return 2.5
        }
    }

    static func + (a: TokenFeatures, b: TokenFeatures) -> TokenFeatures {
        TokenFeatures(ascii: a.ascii + b.ascii, other: a.other + b.other)
    }

    static func - (a: TokenFeatures, b: TokenFeatures) -> TokenFeatures {
        TokenFeatures(ascii: a.ascii - b.ascii, other: a.other - b.other)
    }
}

/// Tokens per ASCII byte and per weighted other scalar.
struct TokenRates: Sendable, Equatable {
    var ascii: Double
    var other: Double

    /// Before any count: about four ASCII bytes a token, a CJK character a token.
    static let prior = TokenRates(ascii: 0.25, other: 1)

    /// The tokens `features` cost at these rates.
    func tokens(_ features: TokenFeatures) -> Double { features.ascii * ascii + features.other * other }

    /// These rates scaled so that `features` cost `tokens`.
    func scaled(toCount tokens: Int, of features: TokenFeatures) -> TokenRates {
        let estimated = self.tokens(features)
        guard estimated > 0, tokens > 0 else { return self }
        let factor = Double(tokens) / estimated
        return TokenRates(ascii: ascii * factor, other: other * factor)
    }

    /// The rates for pricing changes to a fitted text, from `prior` (calibrated on the document)
    /// and two exact counts, best guess first: the rates that price both counts exactly
    /// (``solving(_:_:)``), when they lie within a factor of two of the second guess, `prior`
    /// scaled to the fitted text's count. The two disagree when the fitted text costs more or
    /// less per character than the document for a reason other than its mix of scripts (its
    /// markers and joins, sentences that split differently); a prediction takes the worse of them.
    static func calibrated(
        _ prior: TokenRates, document: (features: TokenFeatures, tokens: Int),
        fitted: (features: TokenFeatures, tokens: Int)
    ) -> [TokenRates] {
        let scaled = prior.scaled(toCount: fitted.tokens, of: fitted.features)
        guard let solved = solving(document, fitted) else { return [scaled] }
        func near(_ a: Double, _ b: Double) -> Bool { a <= b * 2 && b <= a * 2 }
        return near(solved.ascii, scaled.ascii) && near(solved.other, scaled.other) ? [solved, scaled] : [scaled]
    }

    /// The rates that price both measured texts exactly, when the two texts mix the classes
    /// differently enough to tell the rates apart and both rates come out plausible; else `nil`.
    static func solving(
        _ a: (features: TokenFeatures, tokens: Int), _ b: (features: TokenFeatures, tokens: Int)
    ) -> TokenRates? {
        let det = a.features.ascii * b.features.other - a.features.other * b.features.ascii
        let scale = (a.features.ascii + a.features.other) * (b.features.ascii + b.features.other)
        // Nearly parallel feature vectors (one script, or the same mix in both) leave the
        // system ill-conditioned: a token of counting noise would swing the rates.
        guard scale > 0, abs(det) / scale > 0.02 else { return nil }
        let ascii = (Double(a.tokens) * b.features.other - Double(b.tokens) * a.features.other) / det
        let other = (a.features.ascii * Double(b.tokens) - b.features.ascii * Double(a.tokens)) / det
        guard (0.05...1.5).contains(ascii), (0.1...6).contains(other) else { return nil }
        return TokenRates(ascii: ascii, other: other)
    }
}

// MARK: - Fitting against a tokenizer

/// Fits `document` into `budget` tokens with exactly one more tokenizer call, `count`, so the
/// fitted text fills the budget instead of the fifth or so that a padded estimate leaves free.
///
/// 1. Every sentence is priced at rates calibrated on the document's exact count
///    (`documentTokens`, from ``checkBudget``), without padding, and the fitter chooses the best
///    sentences for the whole budget (``ContentFitter``).
/// 2. `count` measures that selection exactly as it will be sent: the only count of the fit.
/// 3. The rates are recalibrated on both counts (``TokenRates/calibrated(_:document:fitted:)``),
///    and the selection is topped up (under budget) or trimmed (over it): among selections for
///    other budgets, the fullest whose predicted count — the exact count plus the estimated cost
///    of what changed (the worse of the calibrations), plus a margin of a tenth of that change
///    and two tokens — stays within `budget`. What
///    changes is a few per cent of the text, so the estimate's error is a fraction of a token per
///    sentence and the margin absorbs it.
///
/// `count` returns the tokens the fitted text takes in the request, in the same units as
/// `budget` (for the router: the templated prompt's tokens less its frame). It is called once.
public func fitContent(
    _ document: Document, documentTokens: Int, budget: Int, count: (String) async throws -> Int
) async throws -> FittedContent {
    let text = document.text
    let outline = DocumentOutline(text: text)
    let units = ContentFitter.units(of: outline) { _ in 0 }
    let features = units.map { TokenFeatures(text[$0.range]) }
    let prior = TokenRates.prior.scaled(toCount: documentTokens, of: TokenFeatures(text))
    let first = ExactFitPlan(units: units, features: features, rates: prior, text: text)
    let budget = max(0, budget)
    let selection = first.select(budget: Double(budget))
    if selection.isComplete {
        return FittedContent(text: text, report: .whole(document, tokens: documentTokens))
    }
    let counted = try await count(selection.text)
    let rates = TokenRates.calibrated(
        prior, document: (TokenFeatures(text), documentTokens), fitted: (TokenFeatures(selection.text), counted))
    let adjusted = ExactFitPlan(units: units, features: features, rates: rates[0], text: text, checks: rates)
        .adjust(selection, counted: counted, budget: budget)
    let final = adjusted.selection
    let report = FitReport(
        cut: !final.isComplete, keptCharacters: final.keptCharacters, totalCharacters: document.characterCount,
        keptTokens: adjusted.tokens, totalTokens: documentTokens, sectionCoverage: final.sectionCoverage, method: .exact
    )
    if final.isComplete { return FittedContent(text: text, report: .whole(document, tokens: documentTokens)) }
    return FittedContent(text: final.text, report: report)
}

/// Fits `document` to `target` tokens for the engine `budget` was counted against: with one
/// more tokenizer call when `budget` is exact (`request` builds the text the engine counts — the
/// instructions and the prompt around the fitted document, as ``checkBudget`` counted them),
/// else by the conservative estimate (an engine without a tokenizer).
func fitContent(
    _ document: Document, budget: BudgetCheck, target: Int, engine: any LanguageModel, request: (String) -> String
) async throws -> FittedContent {
    guard budget.method == .exact else {
        return fitContent(document, documentTokens: budget.documentTokens, budget: target)
    }
    return try await fitContent(document, documentTokens: budget.documentTokens, budget: target) { fitted in
        try await engine.tokenCount(for: request(fitted)).count - budget.overheadTokens
    }
}

/// Units priced at some rates, in thousandths of a token so rounding does not add up.
struct ExactFitPlan {
    /// Costs and budgets are in thousandths of a token.
    static let scale = 1000.0
    let units: [FitUnit]
    let rates: TokenRates
    /// The rates a prediction tries, taking the dearest change (``rates`` among them).
    let checks: [TokenRates]
    let text: String
    let fitter: ContentFitter

    init(units: [FitUnit], features: [TokenFeatures], rates: TokenRates, text: String, checks: [TokenRates] = []) {
        self.rates = rates
        self.checks = checks.isEmpty ? [rates] : checks
        self.text = text
        self.units = zip(units, features).map { unit, features in
            var priced = unit
            priced.cost = Int((rates.tokens(features) * Self.scale).rounded(.up))
            return priced
        }
        func cost(_ piece: String) -> Int { Int((rates.tokens(TokenFeatures(piece)) * Self.scale).rounded(.up)) }
        self.fitter = ContentFitter(separatorCost: cost("\n\n"), markerCost: cost(ContentFitter.marker + "\n\n"))
    }

    /// The fitter's choice for `budget` tokens at these rates.
    func select(budget: Double) -> FittedSelection {
        fitter.select(units, from: text, budget: Int((budget * Self.scale).rounded(.down)))
    }

    /// The tokens `selection` is predicted to take, knowing that `base` takes `counted`: the
    /// count plus the estimated difference, and a margin for the estimate's error on what changed.
    func predicted(
        _ selection: FittedSelection, from base: FittedSelection, counted: Int
    ) -> (tokens: Double, margin: Double) {
        let kept = Set(selection.keptUnits)
        let baseKept = Set(base.keptUnits)
        let changed = kept.symmetricDifference(baseKept)
        guard !changed.isEmpty || selection.text != base.text else { return (Double(counted), 0) }
        let added = TokenFeatures(selection.text) - TokenFeatures(base.text)
        let difference = checks.map { $0.tokens(added) }.max() ?? 0
        let churn = changed.reduce(0.0) { $0 + Double(units[$1].cost) / Self.scale }
        return (Double(counted) + difference, (0.1 * churn).rounded(.up) + 2)
    }

    /// The fullest selection predicted to fit `budget` (see ``predicted(_:from:counted:)``),
    /// `base` itself when it fits and nothing predicted fuller does.
    func adjust(_ base: FittedSelection, counted: Int, budget: Int) -> (selection: FittedSelection, tokens: Int) {
        var best: (selection: FittedSelection, tokens: Double)? = counted <= budget ? (base, Double(counted)) : nil
        func consider(_ candidateBudget: Double) -> Bool {
            let candidate = select(budget: candidateBudget)
            let (tokens, margin) = predicted(candidate, from: base, counted: counted)
            guard tokens + margin <= Double(budget) else { return false }
            if tokens > best?.tokens ?? -1 { best = (candidate, tokens) }
            return true
        }
        // The predicted count grows with the fitter's budget, though not strictly (a unit that
        // no longer fits can make room for smaller ones): bisect for the largest budget that
        // fits, keeping the fullest selection seen.
        let error = Double(counted - budget)
        var low = 0.0
        var high = Double(budget) * 1.5 + 16
        // Start near the answer: the selection was made for `budget` and came out `error` off.
        let guess = max(0, Double(budget) - error)
        if consider(guess) { low = guess } else { high = guess }
        for _ in 0..<18 where high - low > 0.5 {
            let middle = (low + high) / 2
            if consider(middle) { low = middle } else { high = middle }
        }
        guard let best else {
            let empty = select(budget: 0)
            return (empty, 0)
        }
        return (best.selection, Int(best.tokens.rounded(.up)))
    }
}
