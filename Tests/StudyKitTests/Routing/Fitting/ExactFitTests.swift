import Foundation
import Synchronization
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// The exact fit (``fitContent(_:documentTokens:budget:count:)``) against scripted tokenizers:
/// one count of the fitted text, then a top-up or trim that fills the budget without going over.
@Suite struct ExactFitTests {
    /// A tokenizer that is not what ``TokenFeatures`` assumes: whole words, a few bytes a
    /// token, CJK characters at 1.4 tokens, astral scalars (emoji) at 3, every line break one.
    struct Tokenizer: Sendable {
        var asciiBytesPerToken = 4.0
        var cjk = 1.4
        var astral = 3.0
        /// Multiplies every count: a tokenizer that is dearer (or cheaper) than the document's own
        /// count suggested, so the first selection comes out over (or under) the budget.
        var bias = 1.0

        func count(_ text: String) -> Int {
            var total = 0.0
            for word in text.split(whereSeparator: { $0 == " " }) {
                var ascii = 0
                for scalar in word.unicodeScalars {
                    switch scalar.value {
                    case 0x0A: total += 1
                    case ..<0x80: ascii += 1
                    case ..<0x10000: total += cjk
                    default: total += astral
                    }
                }
                total += (Double(ascii) / asciiBytesPerToken).rounded(.up)
            }
            return Int((total * bias).rounded(.up))
        }
    }

    /// Counts the calls a fit makes to its tokenizer.
    final class Calls: Sendable {
        let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
    }

    enum Script: String, CaseIterable, Sendable {
        case english, chinese, emoji, mixed

        func sentence(_ index: Int) -> String {
            let organs = ["leaf", "root", "stem", "flower", "seed"]
            switch self {
            case .english:
                return "Cell \(index) in the \(organs[index % 5]) turns light into chemical energy and stores sugar \(index * 7 % 97)."
            case .chinese:
                return "第\(index)个细胞在\(["叶", "根", "茎", "花", "种子"][index % 5])中把光能转化为化学能，并储存为第\(index * 7 % 97)号糖。"
            case .emoji:
                return "Cell \(index) 🌱 in the \(organs[index % 5]) turns light ☀️ into sugar \(index % 13) 🍬."
            case .mixed:
                return [Script.english, .chinese, .emoji][index / 12 % 3].sentence(index)
            }
        }

        /// Headed parts of paragraphs, long enough for five times any budget below.
        func text(sentences: Int) -> String {
            var paragraphs: [String] = []
            var current: [String] = []
            for index in 0..<sentences {
                if index % 24 == 0 {
                    if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
                    current = []
                    paragraphs.append("Part \(index / 24 + 1)")
                }
                current.append(sentence(index))
                if current.count == 4 {
                    paragraphs.append(current.joined(separator: " "))
                    current = []
                }
            }
            if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
            return paragraphs.joined(separator: "\n\n")
        }
    }

    struct Outcome {
        var fitted: FittedContent
        var tokens: Int
        var calls: Int
    }

    /// A document of `multiple` times `budget` tokens (by `tokenizer`), fitted to `budget`.
    static func fit(_ script: Script, multiple: Double, budget: Int, tokenizer: Tokenizer) async throws -> Outcome {
        let long = script.text(sentences: 600)
        // Whole paragraphs: under the budget the longest prefix within `multiple × budget`
        // tokens, over it the shortest prefix that reaches it.
        let target = Int(Double(budget) * multiple)
        var text = ""
        for paragraph in long.components(separatedBy: "\n\n") {
            let next = text.isEmpty ? paragraph : text + "\n\n" + paragraph
            if multiple < 1, tokenizer.count(next) > target { break }
            text = next
            if multiple >= 1, tokenizer.count(next) >= target { break }
        }
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let calls = Calls()
        let fitted = try await fitContent(document, documentTokens: tokenizer.count(text), budget: budget) { fitted in
            calls.value.withLock { $0 += 1 }
            return tokenizer.count(fitted)
        }
        return Outcome(fitted: fitted, tokens: tokenizer.count(fitted.text), calls: calls.count)
    }

    @Test(arguments: Script.allCases, [1.01, 2, 5])
    func aDocumentOverTheBudgetFillsItAndNeverExceedsIt(script: Script, multiple: Double) async throws {
        let budget = 1_352
        let outcome = try await Self.fit(script, multiple: multiple, budget: budget, tokenizer: Tokenizer())
        #expect(outcome.fitted.report.cut)
        #expect(outcome.tokens <= budget, "\(outcome.tokens) tokens over the \(budget)-token budget")
        #expect(Double(outcome.tokens) >= 0.97 * Double(budget), "fills \(outcome.tokens) of \(budget)")
        #expect(outcome.calls == 1, "one count of the fitted text, no re-count loop")
        #expect(outcome.fitted.report.method == .exact)
        #expect(outcome.fitted.text.contains(ContentFitter.marker))
        #expect(outcome.fitted.text.hasPrefix("Part 1"), "the opening is kept")
    }

    @Test(arguments: Script.allCases)
    func aDocumentUnderTheBudgetIsSentWholeWithoutACount(script: Script) async throws {
        let outcome = try await Self.fit(script, multiple: 0.99, budget: 1_352, tokenizer: Tokenizer())
        #expect(!outcome.fitted.report.cut)
        #expect(outcome.calls == 0)
        #expect(outcome.fitted.report.keptCharacters == outcome.fitted.report.totalCharacters)
    }

    /// The first selection is priced from the document's own count; a tokenizer that charges the
    /// fitted text more (a dearer mix of sentences, the markers) or less than that makes it come
    /// out over or under the budget, and the one count shows by how much.
    @Test(arguments: [0.85, 0.93, 1.07, 1.2])
    func theCountedErrorIsTrimmedOrToppedUp(bias: Double) async throws {
        let budget = 900
        let plain = Tokenizer()
        let text = Script.mixed.text(sentences: 300)
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let biased = Tokenizer(bias: bias)
        let calls = Calls()
        // The document's count says nothing of the bias: only the fitted text's count does.
        let fitted = try await fitContent(document, documentTokens: plain.count(text), budget: budget) { fitted in
            calls.value.withLock { $0 += 1 }
            return biased.count(fitted)
        }
        let tokens = biased.count(fitted.text)
        #expect(tokens <= budget, "bias \(bias): \(tokens) of \(budget)")
        // The margin grows with what the top-up or trim changes: a fifth off costs a few per cent.
        let floor = abs(bias - 1) < 0.1 ? 0.97 : 0.93
        #expect(Double(tokens) >= floor * Double(budget), "bias \(bias): only \(tokens) of \(budget)")
        #expect(calls.count == 1)
        #expect(fitted.report.keptTokens.map { abs($0 - tokens) <= max(4, tokens / 50) } == true, "reported \(fitted.report.keptTokens ?? -1), counted \(tokens)")
    }

    @Test func aTopUpAddsOnlyWhatThePredictionSaysFits() {
        let text = Script.english.text(sentences: 120)
        let outline = DocumentOutline(text: text)
        let units = ContentFitter.units(of: outline) { _ in 0 }
        let features = units.map { TokenFeatures(text[$0.range]) }
        let plan = ExactFitPlan(units: units, features: features, rates: TokenRates(ascii: 0.25, other: 1), text: text)
        let base = plan.select(budget: 500)
        let estimate = Int(plan.rates.tokens(TokenFeatures(base.text)).rounded())
        // Counted 100 under the estimate: the top-up must use those 100 tokens, less the margin.
        let (topped, tokens) = plan.adjust(base, counted: estimate - 100, budget: 500)
        #expect(topped.keptUnits.count > base.keptUnits.count)
        #expect(tokens <= 500)
        #expect(tokens >= 480)
        // Counted 40 over: the trim removes at least that much, and the prediction says so.
        let (trimmed, after) = plan.adjust(base, counted: 540, budget: 500)
        #expect(Set(trimmed.keptUnits) != Set(base.keptUnits))
        #expect(after <= 500)
        let removed = plan.rates.tokens(TokenFeatures(base.text)) - plan.rates.tokens(TokenFeatures(trimmed.text))
        #expect(removed >= 40)
        // Counted exactly at the budget: nothing changes.
        let (same, exact) = plan.adjust(base, counted: 500, budget: 500)
        #expect(same == base)
        #expect(exact == 500)
    }

    @Test func ratesAreSolvedFromTwoMixesAndRefusedForOne() throws {
        let english = TokenFeatures("Cells turn light into sugar.")
        let chinese = TokenFeatures("细胞把光能转化为化学能。")
        let truth = TokenRates(ascii: 0.3, other: 1.3)
        let document = english + chinese + chinese
        let fitted = english + english + chinese
        let solved = try #require(
            TokenRates.solving(
                (document, Int(truth.tokens(document).rounded())), (fitted, Int(truth.tokens(fitted).rounded()))))
        #expect(abs(solved.ascii - 0.3) < 0.05 && abs(solved.other - 1.3) < 0.1)
        // The same mix twice tells the two rates nothing apart.
        #expect(TokenRates.solving((english, 7), (english + english, 14)) == nil)
    }
}
