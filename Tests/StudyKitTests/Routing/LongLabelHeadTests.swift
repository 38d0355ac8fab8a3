import Testing

@testable import StudyKit

/// A model's mind-map label whose head phrase is itself over the limit is cut before the detail
/// its "of", "instead of" or "such as" opens (#53, session 65); a piece of a sentence still has
/// no head and is dropped.
@Suite("A long label's head phrase cut before its detail")
struct LongLabelHeadTests {
    @Test(arguments: [
        // The 1.5B's label on binary search: its head phrase runs 7 words to "in".
        ("Finding the first version of a program in whichabugappears", "Finding the first version"),
        ("Sites called origins of replication of the DNA molecule", "Sites called origins of replication"),
        ("Origins of replication of the parent DNA molecule in each cell", "Origins of replication"),
        ("Choosing the middle index of the part instead of the first one", "Choosing the middle index"),
    ])
    func aHeadPhraseOverTheLimitIsCutBeforeItsDetail(label: String, head: String) {
        #expect(ItemRepairs.headPhrase(label, maxWords: MindMap.labelWords) == nil)
        #expect(ItemRepairs.shortenedHeadPhrase(label, maxWords: MindMap.labelWords) == head)
    }

    @Test(arguments: [
        // Fits, or the head phrase alone repairs it.
        "Okazaki fragments",
        "Okazaki fragments joined together by DNA ligase",
        // Pieces of a sentence: a pronoun, a clause word, a conjunction opens them.
        "It was carried by fleas living on black rats",
        "When an infected flea bit a person, the bacteria entered",
        "Because so many workers died, labour became scarce and",
        // The 1.5B's label that goes on with a sentence cut before it (verdict: junk).
        "third and a half of the population of Europe,perhaps",
        // No detail to cut before.
        "Mitochondrial DNA polymerase gamma subunit B structure overview",
        // The only detail opener leaves one word.
        "Replication of the leading and lagging strands of DNA pieces",
    ])
    func aLabelWithNoShorterHeadIsNotCut(label: String) {
        #expect(ItemRepairs.shortenedHeadPhrase(label, maxWords: MindMap.labelWords) == nil)
    }

    @Test func aJudgedMapKeepsTheShortenedLabelAsRepaired() throws {
        let map = #"""
            {"centralTopic":"DNA replication","branches":[
            {"label":"Unwinding","children":[
              {"label":"Origins of replication of the parent DNA molecule in each cell","children":[]},
              {"label":"Replication fork","children":[]}]},
            {"label":"Finishing","children":[
              {"label":"DNA ligase","children":[]},{"label":"RNA primers","children":[]}]}]}
            """#
        let judged = try PartJudgeTests.judge(map, task: .mindmap)
        guard case .mindMap(let result) = judged.result else { throw BuiltinError.emptyText }
        #expect(result.branches[0].children[0].label == "Origins of replication")
        #expect(judged.dropped.isEmpty, "\(judged.dropped)")
        #expect(judged.items.first { $0.path == "branches[0]" }?.kind == .repaired)
        #expect(judged.items.first { $0.path == "branches[1]" }?.kind == .written)
    }
}
