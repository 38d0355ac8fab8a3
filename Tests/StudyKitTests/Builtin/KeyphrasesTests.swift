import Testing
@testable import StudyKit

@Suite struct KeyphrasesTests {
    @Test func fixtureKeyTermsAreOnTop() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 20)
        let top10 = phrases.prefix(10).map { $0.text.lowercased() }
        for term in ["carbon dioxide", "calvin cycle", "light reactions", "photosynthesis"] {
            #expect(top10.contains(term), "\(term) not in top 10: \(top10)")
        }
        let top20 = phrases.map { $0.text.lowercased() }
        for term in ["atp", "nadph", "thylakoid membrane"] {
            #expect(top20.contains(term), "\(term) not in top 20: \(top20)")
        }
    }

    @Test func mostCommonSurfaceFormIsShown() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 20)
        let calvin = try #require(phrases.first { $0.key == "calvin cycl" })
        #expect(calvin.text == "Calvin cycle")
        #expect(calvin.wordCount == 2)
    }

    @Test func inflectionsMeetUnderOneStem() throws {
        let text = "The Light Reactions come first. A light reaction needs light. Light reactions make ATP."
        let phrases = KeyphraseExtractor().keyphrases(in: text, limit: 10)
        let matches = phrases.filter { $0.key == "light reaction" }
        #expect(matches.count == 1)
        let phrase = try #require(matches.first)
        #expect(phrase.occurrences == 3)
        #expect(phrase.text == "Light Reactions")
        #expect(phrases.first?.key == "light reaction")
    }

    @Test func stopwordsNeverStartOrEndAPhrase() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 50)
        #expect(!phrases.isEmpty)
        for phrase in phrases {
            let words = phrase.text.lowercased().split(separator: " ").map(String.init)
            #expect(words.allSatisfy { !BuiltinStopwords.contains($0) }, "\(phrase.text)")
            #expect((1...3).contains(words.count))
        }
    }

    @Test func phrasesNeverCrossPunctuation() {
        let phrases = KeyphraseExtractor().keyphrases(in: "Glucose, starch; cellulose. Glucose starch.", limit: 10)
        #expect(phrases.first { $0.key == "glucos starch" }?.occurrences == 1)
        #expect(!phrases.contains { $0.key == "starch cellulos" })
    }

    @Test func deterministicAndBounded() throws {
        let text = try BuiltinFixtures.photosynthesis()
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 15) == KeyphraseExtractor().keyphrases(in: text, limit: 15))
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 5).count == 5)
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 0).isEmpty)
    }

    @Test(arguments: ["", "   ", "!!! ??? ...", "🌱🌱 🚀", "光合作用是植物的过程。植物需要光。", "a b c d e"])
    func oddInputsDoNotCrash(_ text: String) {
        let phrases = KeyphraseExtractor().keyphrases(in: text, limit: 10)
        #expect(phrases.allSatisfy { !$0.text.isEmpty && $0.occurrences > 0 })
    }

    @Test(arguments: [
        ("reactions", "reaction"), ("studies", "study"), ("processes", "process"), ("running", "run"),
        ("produced", "produc"), ("producing", "produc"), ("plant's", "plant"), ("glass", "glass"),
        ("analysis", "analysis"), ("string", "string"), ("atp", "atp"),
    ])
    func stemmer(_ pair: (String, String)) {
        #expect(BuiltinTerms.stem(pair.0) == pair.1)
    }
}
