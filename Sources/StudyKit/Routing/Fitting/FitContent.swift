import Foundation

// MARK: - Report

/// What was cut to fit a window: reported with every result and in a routing plan.
public struct FitReport: Sendable, Equatable {
    /// Whether anything was cut.
    public var cut: Bool
    /// Characters of the document that were sent.
    public var keptCharacters: Int
    /// Characters of the whole normalized document.
    public var totalCharacters: Int
    /// Tokens of the document that were sent (apportioned from one exact tokenization, or estimated).
    public var keptTokens: Int?
    /// Tokens of the whole document.
    public var totalTokens: Int?
    /// Fraction of the document's sections with at least one kept sentence.
    public var sectionCoverage: Double?
    /// How the cut was measured: `exact` when the engine's tokenizer counted the fitted text
    /// (``fitContent(_:documentTokens:budget:count:)``; ``keptTokens`` is that count, adjusted by
    /// the estimated top-up or trim made after it), `estimate` when the engine has no tokenizer
    /// and the cut rests on a conservative estimate; `nil` for content sent whole.
    public var method: TokenCount.Method?

    /// The report for content sent whole.
    public static func whole(_ document: Document, tokens: Int? = nil) -> FitReport {
        FitReport(
            cut: false, keptCharacters: document.characterCount, totalCharacters: document.characterCount,
            keptTokens: tokens, totalTokens: tokens, sectionCoverage: 1)
    }

    /// As JSON for the envelope and the cache.
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "cut": .bool(cut), "keptCharacters": .integer(keptCharacters), "totalCharacters": .integer(totalCharacters),
        ]
        object["keptTokens"] = keptTokens.map(JSONValue.integer)
        object["totalTokens"] = totalTokens.map(JSONValue.integer)
        object["sectionCoverage"] = sectionCoverage.map { .number(($0 * 1000).rounded() / 1000) }
        object["tokens"] = method.map { .string($0.rawValue) }
        return .object(object)
    }
}

extension FitReport {
    /// Reads a report written by ``jsonValue``.
    init?(json: JSONValue) {
        guard let cut = json["cut"], case .bool(let flag) = cut,
            let kept = json["keptCharacters"]?.integerValue, let total = json["totalCharacters"]?.integerValue
        else { return nil }
        self.init(
            cut: flag, keptCharacters: kept, totalCharacters: total, keptTokens: json["keptTokens"]?.integerValue,
            totalTokens: json["totalTokens"]?.integerValue, sectionCoverage: json["sectionCoverage"]?.doubleValue,
            method: json["tokens"]?.stringValue.flatMap(TokenCount.Method.init(rawValue:)))
    }
}

// MARK: - Fitting

/// Content cut to a token budget, keeping coverage.
public struct FittedContent: Sendable, Equatable {
    /// The text to send in place of the document.
    public var text: String
    /// What was kept.
    public var report: FitReport
}

/// Fits `document` into `budget` tokens from a single tokenization (`documentTokens` of the
/// whole text), never re-counting: the conservative estimate for engines without a tokenizer
/// (remote APIs with no tokenize endpoint). Engines with one use
/// ``fitContent(_:documentTokens:budget:count:)``, which fills the budget.
///
/// Each sentence's cost is apportioned from the exact total by its share of UTF-8 bytes, plus a
/// margin, so the cuts fall on sentence boundaries (which are token boundaries) and the kept
/// text stays under the budget without a second count. The opening, every heading and the
/// best-ranked sentences of every section — the last one included — are kept in document order
/// (``ContentFitter``).
public func fitContent(_ document: Document, documentTokens: Int, budget: Int) -> FittedContent {
    let text = document.text
    let totalBytes = max(1, text.utf8.count)
    let tokensPerByte = Double(documentTokens) / Double(totalBytes)
    // 10% over the average plus one token per unit: a sentence's real cost can sit above the
    // document's average, and a unit boundary may split what the tokenizer would have merged.
    let cost: (Substring) -> Int = { Int((Double($0.utf8.count) * tokensPerByte * 1.1).rounded(.up)) + 1 }
    let outline = DocumentOutline(text: text)
    let units = ContentFitter.units(of: outline) { cost(text[$0]) }
    let fitter = ContentFitter(separatorCost: 1, markerCost: cost(Substring(ContentFitter.marker)) + 1)
    let selection = fitter.select(units, from: text, budget: max(0, budget))
    let report = FitReport(
        cut: !selection.isComplete, keptCharacters: selection.keptCharacters, totalCharacters: document.characterCount,
        keptTokens: min(documentTokens, Int((Double(selection.text.utf8.count) * tokensPerByte).rounded())),
        totalTokens: documentTokens,
        sectionCoverage: selection.sectionCoverage, method: .estimate)
    if selection.isComplete { return FittedContent(text: text, report: .whole(document, tokens: documentTokens)) }
    return FittedContent(text: selection.text, report: report)
}
