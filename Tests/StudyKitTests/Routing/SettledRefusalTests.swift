import Foundation
import Testing
@testable import StudyKit

/// Some of an item's rules, once an answer breaks them, stay broken however it goes on (a key
/// point past its word limit, an overview whose first sentence is a copy). The finished answer is
/// judged by them first; on an engine that streams cheaply the answer is stopped as soon as it
/// breaks one, kept as stopped, and judged the same way again from the cache.
@Suite("An item answer that breaks a settled rule is stopped there")
struct SettledRefusalTests {
    static let sentence = "On 5 September 1793, under pressure from the sans-culottes, the Convention declared that terror was the order of the day."

    static func keyPoint(_ text: String) -> String? {
        ItemRewriter.keyPointJob(sentence, path: "keyPoints[0]").settledRefusal?(ItemRewriter.AnswerSoFar(partial: text))
    }

    @Test func anAnswerSoFarCountsOnlyTheWordsWrittenToTheEnd() {
        let open = ItemRewriter.AnswerSoFar(partial: #"{"point": "one two thr"#)
        #expect(open.settledWords("point") == ["one", "two"])
        #expect(ItemRewriter.AnswerSoFar(partial: #"{"point": "one two "#).settledWords("point") == ["one", "two"])
        #expect(ItemRewriter.AnswerSoFar(complete: ["point": "one two three"]).settledWords("point") == ["one", "two", "three"])
        #expect(open.settledWords("missing").isEmpty)
    }

    @Test func aFirstSentenceEndsOnlyOnceTheNextOneStarts() {
        let text = #"{"overview": "Louis XVI was executed in 1793."#
        #expect(ItemRewriter.AnswerSoFar(partial: text).firstSentence("overview") == nil)
        #expect(ItemRewriter.AnswerSoFar(partial: text + " Th").firstSentence("overview") == "Louis XVI was executed in 1793.")
        #expect(ItemRewriter.AnswerSoFar(complete: ["overview": "Louis XVI was executed in 1793"]).firstSentence("overview")
            == "Louis XVI was executed in 1793")
    }

    /// The sentence has 21 words: a key point may have 14. The 15th counts once it is written
    /// to its end, and a key point that short is not refused by this rule, whatever else it says.
    @Test func aKeyPointIsRefusedOnceItsFifteenthWordIsWritten() {
        let words = Self.sentence.split(separator: " ")
        let fourteen = words.prefix(14).joined(separator: " ")
        #expect(Self.keyPoint(#"{"point": ""# + fourteen + " " + words[14].prefix(2)) == nil)
        #expect(Self.keyPoint(#"{"point": ""# + fourteen + " " + words[14] + " ")
            == "the key point was not a quarter shorter than the sentence, in at most 14 words")
        #expect(Self.keyPoint(#"{"point": "The Convention declared terror the order of the day on 5 September 1793."}"#) == nil)
    }

    @Test func anOverviewThatOpensWithAKeySentenceCopiedIsRefusedWhateverFollows() {
        let copied = "In September 1792 the Convention abolished the monarchy and declared France a republic."
        #expect(OverviewRewriteJudgeTests.judge(copied + " The king then lost his head, and the Revolution turned against its own.")
            == "the overview's first sentence was a key sentence copied word for word")
        #expect(OverviewRewriteJudgeTests.judge("In September 1792, the Convention abolished the monarchy and declared France a republic. Louis XVI was tried for treason and executed in January 1793.")
            == "the overview's first sentence was a key sentence copied word for word")
        // Written anew, then a copy: the share rule still judges the whole.
        #expect(OverviewRewriteJudgeTests.judge("The Revolution replaced the king in 1792. " + copied)
            == "accepted")
        // Most of a key sentence in another order is no copy of it: judged with the rest.
        #expect(OverviewRewriteJudgeTests.judge("The Convention abolished the monarchy and declared France a republic in 1792. The king was tried and executed in 1793.")
            == "accepted")
    }

    /// An overview that opens as a key sentence opens is stopped once its 10th word is written,
    /// before its first sentence ends (#53: the 0.5B decoded a 38-word copy to have it refused).
    @Test func anOverviewThatOpensAsAKeySentenceIsStoppedAtItsTenthWord() {
        let key = OverviewRewriteJudgeTests.sentences
        let job = ItemRewriter.overviewJob(
            sentences: key, keyPoints: OverviewRewriteJudgeTests.keyPoints, extracted: key.joined(separator: " "),
            materialStems: Set(GroundingWords.contentStems(key.joined(separator: " "))))
        func stopped(_ partial: String) -> String? { job.settledRefusal?(ItemRewriter.AnswerSoFar(partial: #"{"overview": ""# + partial)) }
        let words = key[0].split(separator: " ")
        #expect(stopped(words.prefix(9).joined(separator: " ") + " ") == nil)
        #expect(stopped(words.prefix(10).joined(separator: " ") + " ")
            == "the overview opened as a key sentence does, its first 10 words copied word for word")
        // The same words that open no key sentence, and a sentence written anew, go on.
        #expect(stopped("The Convention abolished the monarchy and declared France a republic in ") == nil)
        #expect(stopped("The Revolution ended the monarchy in 1792, and the Convention declared ") == nil)
    }

    /// A router whose local model streams every answer a word at a time, 30 words long.
    static func wordStream(_ key: String) -> ScriptedModel.Step {
        let words = (1...30).map { "word\($0)" }
        return .stream((1...30).map { count in #"{""# + key + #"": ""# + words.prefix(count).joined(separator: " ") } + [
            #"{""# + key + #"": ""# + words.joined(separator: " ") + #"."}"#,
        ])
    }

    /// Notes whose sentences all have 16 to 19 words and a side detail to drop: each of the
    /// summary's three key points is asked to be shortened.
    static let terror = """
        # The Terror

        In 1793, under pressure from the sans-culottes, the Convention declared that terror was the order of the day. \
        The Committee of Public Safety, which Robespierre dominated, ran the war and the economy from Paris.

        In September 1793 the Law of Suspects, passed by the Convention, allowed the arrest of any enemy of liberty. \
        The revolutionary tribunal, which sat in Paris, sent thousands of suspects to the guillotine within a year.

        In July 1794 the Convention, fearing for its own members, arrested Robespierre and his close allies.
        """

    static func summary(_ local: ScriptedModel, cache: ResultCache?) async throws -> RoutedResult {
        let document = Document(text: terror, title: nil, kind: .text, origin: "test")
        return try await StoredItemAnswerTests.router(local, cache: cache).run(
            RoutingRequest(task: .summary, document: document, useCache: cache != nil, budget: TimeBudget(seconds: 3600, start: Date())))
    }

    /// The most words the shortened form of `sentence` may have.
    static func limit(_ sentence: String) -> Int {
        min(ItemRewriter.shortenedKeyPointWords, ProseText.wordCount(sentence) * 3 / 4)
    }

    @Test func aStreamedKeyPointIsStoppedAtTheWordPastItsLimitAndTheCacheKeepsTheVerdict() async throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: Self.wordStream("point"), count: 20), streamsCheaply: true)
        let first = try await Self.summary(local, cache: cache)
        guard case .summary(let summary) = first.result else { Issue.record("not a summary"); return }
        let asked = first.items.filter { $0.path.hasPrefix("keyPoints") && $0.note?.hasPrefix("not rewritten") == true }
        #expect(asked.count == 3, "\(first.items.map { "\($0.path) \($0.note ?? "")" })")
        var read = 0
        for item in asked {
            let index = try #require(Int(item.path.dropFirst("keyPoints[".count).dropLast()))
            let limit = Self.limit(summary.keyPoints[index])
            // Stopped at the snapshot whose word past the limit is whole: the one that starts the
            // next word, quoted as far as it went.
            let quoted = (1...(limit + 2)).map { "word\($0)" }.joined(separator: " ")
            #expect(item.note == "not rewritten: the key point was not a quarter shorter than the sentence, in at most 14 words (“\(quoted)…”)")
            read += limit + 2
        }
        // The overview's answer (no "overview" in it, so no settled rule broken) was read to its end.
        let overview = try #require(first.items.first { $0.path == "overview" }?.note)
        #expect(overview.hasPrefix("not rewritten: the answer had no overview"))
        #expect(local.calls.snapshots == read + 31)
        #expect(first.attempts.map(\.outcome) == Array(repeating: .invalid, count: asked.count + 1))

        // Kept as stopped, with what was written: another run judges it the same, asking nothing.
        let payloads = try SQLiteDatabase(path: directory.databasePath).query("SELECT payload FROM results WHERE kind = 'item-answer'") { $0.text(at: 0) ?? "" }
        #expect(payloads.filter { $0.contains(#""stopped":true"#) }.count == asked.count, "\(payloads)")
        let second = ScriptedModel(.local, window: 256, steps: [], streamsCheaply: true)
        let again = try await Self.summary(second, cache: cache)
        #expect(second.calls.respond == 0)
        for item in asked {
            let note = try #require(item.note)
            #expect(again.items.first { $0.path == item.path }?.note == note + " (the model's answer of an earlier run, from the cache)")
        }
    }

    /// An engine that does not stream cheaply answers whole, and the same rule refuses it at the end.
    @Test func anAnswerNotStreamedIsRefusedByTheSameRuleAtTheEnd() async throws {
        let long = #"{"point": ""# + (1...30).map { "word\($0)" }.joined(separator: " ") + #"."}"#
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(long), count: 20))
        let routed = try await Self.summary(local, cache: nil)
        let asked = routed.items.filter { $0.path.hasPrefix("keyPoints") && $0.note?.hasPrefix("not rewritten") == true }
        #expect(asked.count == 3)
        #expect(asked.allSatisfy { $0.note?.hasPrefix("not rewritten: the key point was not a quarter shorter than the sentence, in at most 14 words (“word1 ") == true })
        #expect(local.calls.snapshots == 0)
        #expect(local.calls.respond == 4)
    }
}
