import Testing
@testable import StudyKit

@Suite("Sentence counting in results")
struct SentenceCountTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let sentences: Int
        var testDescription: String { "\(sentences): \(text)" }
    }

    @Test(arguments: [
        Case(text: "", sentences: 0),
        Case(text: "Plants make sugar from light.", sentences: 1),
        Case(text: "Plants make sugar. They store it as starch!", sentences: 2),
        Case(text: "Light drives it, e.g. in leaves. Dr. Calvin mapped the cycle in 1950.", sentences: 2),
        Case(text: "J. S. Haldane wrote on it. \"Why?\" he asked. (Nobody knew.)", sentences: 3),
        Case(text: "Version 2.0 shipped. 3 fixes followed.", sentences: 2),
        // Chinese and Japanese: no space after the stop, no capitals.
        Case(text: "光合作用把光能转化为化学能。", sentences: 1),
        Case(text: "光合作用把光能转化为化学能。它发生在叶绿体中。", sentences: 2),
        Case(text: "光合成は葉緑体で起こる。なぜか？光が必要だからだ！", sentences: 3),
        Case(text: "彼は「光が必要だ。」と言った。次の段階は暗反応だ。", sentences: 2),
        Case(text: "“光是必需的。”他说。", sentences: 1),
        Case(text: "光是必需的。」 下一步是暗反应。", sentences: 2),
        Case(text: "本当に？！ 答えは二つ。", sentences: 2),
        Case(text: "Mixed text 混合。 Then English.", sentences: 2),
    ])
    func countsSentences(_ example: Case) {
        #expect(ResultProse.sentenceCount(example.text) == example.sentences)
    }

    @Test func aChineseOverviewOfTwoSentencesIsASummary() {
        let summary = Summary(overview: "光合作用把光能转化为化学能。它发生在叶绿体中。", keyPoints: ["叶绿体吸收光"])
        #expect(summary.semanticIssues().isEmpty)
        let one = Summary(overview: "光合作用把光能转化为化学能。", keyPoints: ["叶绿体吸收光"])
        #expect(one.semanticIssues().map(\.message) == ["has 1 sentence, but it must have 2 to 3"])
    }
}
