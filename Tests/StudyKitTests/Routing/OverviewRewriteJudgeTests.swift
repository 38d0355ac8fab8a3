import Testing
@testable import StudyKit

/// How a rewritten overview is judged (``ItemRewriter/overviewJob(sentences:keyPoints:extracted:materialStems:)``):
/// SmolLM2's overview of samples/long.pdf, which passed the shape and the four-fifths rule.
@Suite("A rewritten overview uses the material's words or plain English")
struct OverviewRewriteJudgeTests {
    static let sentences = [
        "In September 1792 the Convention abolished the monarchy and declared France a republic.",
        "Louis XVI was tried for treason and executed in January 1793.",
        "The Revolution replaced the rule of the king with the rule of an elected assembly.",
    ]
    static let keyPoints = [
        "The Estates-General met at Versailles in May 1789 for the first time since 1614.",
        "The Third Estate declared itself the National Assembly in June 1789.",
        "The storming of the Bastille on 14 July 1789 became the symbol of the Revolution.",
    ]

    static func judge(_ overview: String) -> String {
        let material = (sentences + keyPoints).joined(separator: " ")
        let job = ItemRewriter.overviewJob(
            sentences: sentences, keyPoints: keyPoints, extracted: sentences.joined(separator: " "),
            materialStems: Set(GroundingWords.contentStems(material)))
        switch job.verdict(["overview": .string(overview)]) {
        case .success: return "accepted"
        case .failure(let rejection): return rejection.reason
        }
    }

    @Test func anOverviewInTheMaterialsWordsIsAccepted() {
        #expect(Self.judge("The Convention abolished the monarchy and declared France a republic in 1792. The king was tried and executed in 1793.") == "accepted")
    }

    /// Qwen2.5-Coder-0.5B on long.pdf strung the key sentences together with a comma added;
    /// the check that it differs from the extracted overview let it through as "rewritten".
    @Test func keySentencesStrungTogetherAreRefused() {
        #expect(Self.judge("The Convention abolished the monarchy in 1792. Louis XVI was tried for treason and executed in January 1793. The Revolution replaced the rule of the king with the rule of an elected assembly.")
            == "the overview copied the key sentences word for word")
        #expect(ItemRules.copiedShare("The king was tried and executed in 1793.", from: Self.sentences) == 0)
        #expect(ItemRules.copiedShare("Louis XVI was tried for treason and executed then.", from: Self.sentences) > 0.75)
    }

    @Test func aMadeUpWordIsRefused() {
        #expect(
            Self.judge("The Convention declared France a republic in 1792, and the monarchy was arepublican. The king was executed in 1793.")
                == "the overview used a word that is neither the material's nor English (arepublican)")
    }
}
