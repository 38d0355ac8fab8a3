import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite struct SentenceRankerTests {
    static let cluster = """
        Plants use light to make sugar in their leaves. Light lets plants build sugar from water. \
        My neighbour bought a red bicycle yesterday. Leaves catch light so plants can make sugar. \
        The plant makes sugar from light, water and air in its leaves.
        """

    @Test func centralSentenceOutranksOffTopicOne() throws {
        let sentences = SentenceSplitter().split(Self.cluster)
        let ranked = SentenceRanker().rank(sentences)
        #expect(ranked.count == 5)
        let bicycle = try #require(ranked.first { $0.sentence.text.contains("bicycle") })
        let central = try #require(ranked.first { $0.sentence.text.hasPrefix("The plant makes sugar") })
        #expect(central.score > bicycle.score)
        #expect(bicycle.rank == 4)
        #expect(ranked.map(\.rank) == [0, 1, 2, 3, 4])
    }

    @Test func sameInputGivesSameOutput() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let sentences = SentenceSplitter().split(text)
        let first = SentenceRanker().rank(sentences)
        let second = SentenceRanker().rank(sentences)
        #expect(first == second)
        #expect(SentenceRanker().topSentences(in: text, count: 4) == SentenceRanker().topSentences(in: text, count: 4))
    }

    @Test func tiesGoToTheEarlierSentence() {
        let text = "Alpha beta gamma. Delta epsilon zeta. Alpha beta gamma. Eta theta iota."
        let ranked = SentenceRanker().rank(SentenceSplitter().split(text))
        // The two identical sentences tie and reinforce each other; the earlier one wins.
        #expect(ranked.map(\.sentence.index) == [0, 2, 1, 3])
    }

    @Test func scoresFormADistribution() throws {
        let ranked = SentenceRanker().rank(SentenceSplitter().split(try BuiltinFixtures.photosynthesis()))
        let sum = ranked.reduce(0) { $0 + $1.score }
        #expect(abs(sum - 1) < 1e-6)
        #expect(zip(ranked, ranked.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test func topSentencesAreProseInDocumentOrder() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let top = SentenceRanker().topSentences(in: text, count: 6)
        #expect(top.count == 6)
        #expect(top.allSatisfy { !$0.isHeading })
        #expect(zip(top, top.dropFirst()).allSatisfy { $0.offsets.lowerBound < $1.offsets.lowerBound })
        #expect(SentenceRanker().topSentences(in: text, count: 0).isEmpty)
        #expect(SentenceRanker().topSentences(in: "", count: 3).isEmpty)
    }

    @Test func unusualScriptsDoNotBreakRanking() {
        let text = "光合作用是植物的过程。植物需要光。🌱🌱🌱. Ça va très bien. ¿Qué es la fotosíntesis?"
        let ranked = SentenceRanker().rank(SentenceSplitter().split(text))
        #expect(ranked.count == 5)
        #expect(Set(ranked.map(\.rank)) == Set(0..<5))
        // The two Chinese sentences share 植 and 物, so they rank above the unrelated ones.
        #expect(Set(ranked.prefix(2).map(\.sentence.index)) == [0, 1])
    }

    @Test func largeDocumentIsRankedCompletely() {
        // ~1,500 sentences, ~100,000 characters, with a shared vocabulary so the graph is dense.
        let vocabulary = [
            "chlorophyll", "stroma", "thylakoid", "glucose", "oxygen", "carbon", "dioxide", "enzyme",
            "membrane", "electron", "energy", "light", "water", "sugar", "cycle", "leaf", "root", "cell",
            "protein", "starch", "mitochondria", "respiration", "nucleus", "gene",
        ]
        var sentences: [String] = []
        var seed: UInt64 = 42
        for _ in 0..<1_500 {
            var words: [String] = []
            for _ in 0..<8 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                words.append(vocabulary[Int((seed >> 33) % UInt64(vocabulary.count))])
            }
            sentences.append("The " + words.joined(separator: " and ") + ".")
        }
        let text = sentences.joined(separator: " ")
        #expect(text.count > 100_000)
        let units = SentenceSplitter().split(text)
        #expect(units.count == 1_500)
        let ranked = SentenceRanker().rank(units)
        #expect(ranked.count == 1_500)
        #expect(Set(ranked.map(\.sentence.index)).count == 1_500)
    }
}
