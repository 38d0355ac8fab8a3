import Testing
@testable import StudyKit

@Suite struct EnglishWordClassTests {
    /// Verbs, adjectives and adverbs in any form are no nouns: no term on their own.
    @Test(arguments: ["occurs", "occur", "useful", "iterating", "iterates", "readable", "overwrites", "receives", "define", "stopped", "applied"])
    func wordsThatAreNeverNouns(_ word: String) {
        #expect(EnglishWordClass.isNeverNoun(word))
    }

    /// Nouns, forms that are nouns though they look like a verb's ("wedding", "news"), words
    /// WordNet does not know ("keyword", "docstring") and names or codes are never judged so.
    @Test(arguments: ["loop", "loops", "building", "wedding", "news", "adapter", "keyword", "docstring", "statement",
                      "function", "run", "NADPH", "Python", "sha256", "ok", "of"])
    func wordsThatMayBeNouns(_ word: String) {
        #expect(!EnglishWordClass.isNeverNoun(word))
    }

    @Test func endingsAreStrippedBackToTheLemma() {
        #expect(EnglishWordClass.candidateLemmas(of: "iterating").contains("iterate"))
        #expect(EnglishWordClass.candidateLemmas(of: "applies").contains("apply"))
        #expect(EnglishWordClass.candidateLemmas(of: "stopped").contains("stop"))
        #expect(EnglishWordClass.candidateLemmas(of: "bigger").contains("big"))
        // Nothing shorter than three letters is a lemma.
        #expect(!EnglishWordClass.candidateLemmas(of: "ads").contains("a"))
    }
}
