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

    /// `count` sentences of eight words drawn from a 24-word vocabulary: every sentence shares
    /// terms with most others, so the exact graph is dense (the worst case for TextRank).
    static func denseText(sentences count: Int, seed start: UInt64 = 42) -> String {
        let vocabulary = [
            "chlorophyll", "stroma", "thylakoid", "glucose", "oxygen", "carbon", "dioxide", "enzyme",
            "membrane", "electron", "energy", "light", "water", "sugar", "cycle", "leaf", "root", "cell",
            "protein", "starch", "mitochondria", "respiration", "nucleus", "gene",
        ]
        var sentences: [String] = []
        var seed = start
        for _ in 0..<count {
            var words: [String] = []
            for _ in 0..<8 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                words.append(vocabulary[Int((seed >> 33) % UInt64(vocabulary.count))])
            }
            sentences.append("The " + words.joined(separator: " and ") + ".")
        }
        return sentences.joined(separator: " ")
    }

    @Test func largeDocumentIsRankedCompletely() {
        // ~1,500 sentences, ~100,000 characters, with a shared vocabulary so the graph is dense.
        let text = Self.denseText(sentences: 1_500)
        #expect(text.count > 100_000)
        let units = SentenceSplitter().split(text)
        #expect(units.count == 1_500)
        let ranked = SentenceRanker().rank(units)
        #expect(ranked.count == 1_500)
        #expect(Set(ranked.map(\.sentence.index)).count == 1_500)
    }

    // MARK: Long documents: the nearest-neighbour graph

    /// Inputs for comparing the two graphs: the tests' own texts and a dense generated one.
    static let comparisonInputs: [String] = ["cluster", "ties", "scripts", "photosynthesis", "dense300"]

    static func input(_ name: String) throws -> [Sentence] {
        switch name {
        case "cluster": return SentenceSplitter().split(cluster)
        case "ties": return SentenceSplitter().split("Alpha beta gamma. Delta epsilon zeta. Alpha beta gamma. Eta theta iota.")
        case "scripts": return SentenceSplitter().split("光合作用是植物的过程。植物需要光。🌱🌱🌱. Ça va très bien. ¿Qué es la fotosíntesis?")
        case "photosynthesis": return SentenceSplitter().split(try BuiltinFixtures.photosynthesis())
        default: return SentenceSplitter().split(denseText(sentences: 300, seed: 7))
        }
    }

    @Test(arguments: comparisonInputs)
    func boundedGraphRanksExactlyWhenItPrunesNothing(_ name: String) throws {
        let units = try Self.input(name)
        let exact = SentenceRanker(exactLimit: .max).rank(units)
        // Every unit may keep all others: the bounded graph is the exact graph, so the ranking,
        // scores included, is identical.
        let bounded = SentenceRanker(exactLimit: 0, neighbourLimit: units.count).rank(units)
        #expect(bounded == exact)
    }

    @Test(arguments: comparisonInputs)
    func defaultRankerIsExactUnderTheLimit(_ name: String) throws {
        let units = try Self.input(name)
        #expect(units.count <= SentenceRanker.defaultExactLimit)
        #expect(SentenceRanker().rank(units) == SentenceRanker(exactLimit: .max).rank(units))
    }

    /// (sentences, neighbours kept): the bound must hold whatever the limit.
    @Test(arguments: [(400, 1), (400, 5), (1_200, 8), (2_500, 32)])
    func boundedGraphKeepsAtMostNTimesKEdges(_ count: Int, _ limit: Int) {
        let units = SentenceSplitter().split(Self.denseText(sentences: count, seed: UInt64(count)))
        let terms = SentenceRanker.termIDs(of: units)
        let graph = SentenceRanker.nearestNeighbourGraph(terms, limit: limit)
        let edges = graph.reduce(0) { $0 + $1.count } / 2
        #expect(graph.count == count)
        #expect(edges <= count * limit)
        // Every unit keeps its limit: on this dense text each shares terms with far more.
        #expect(graph.allSatisfy { $0.count >= limit })
        // Undirected, no loops, sorted by neighbour (the order PageRank sums in).
        for (i, list) in graph.enumerated() {
            #expect(list.allSatisfy { j, w in j != i && graph[j].contains { $0.0 == i && $0.1 == w } })
            #expect(zip(list, list.dropFirst()).allSatisfy { $0.0 < $1.0 })
        }
        // The exact graph of the same text is what the bound saves: far more than n · limit.
        if count <= 1_200 {
            let exactEdges = SentenceRanker.exactGraph(terms).reduce(0) { $0 + $1.count } / 2
            #expect(exactEdges > 10 * count * limit)
        }
    }

    @Test func boundedGraphKeepsEachUnitsStrongestNeighbours() {
        let units = SentenceSplitter().split(Self.denseText(sentences: 400, seed: 3))
        let terms = SentenceRanker.termIDs(of: units)
        let exact = SentenceRanker.exactGraph(terms)
        let bounded = SentenceRanker.nearestNeighbourGraph(terms, limit: 6)
        for i in units.indices {
            // The exact graph's six best for i (weight, then the earlier neighbour) are all kept,
            // with their exact weights.
            let best = exact[i].sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(6)
            #expect(best.allSatisfy { j, w in bounded[i].contains { $0.0 == j && $0.1 == w } })
            // Nothing is kept that the exact graph does not have.
            #expect(bounded[i].allSatisfy { j, w in exact[i].contains { $0.0 == j && $0.1 == w } })
        }
    }

    @Test func longDocumentStillRanksOnTopicAboveOffTopic() {
        // 2,400 sentences on one subject and 100 that share no term with anything, spread among
        // them: above the exact limit, the off-topic sentences must still come last.
        let onTopic = SentenceSplitter().split(Self.denseText(sentences: 2_400)).map(\.text)
        var sentences: [String] = []
        for (k, sentence) in onTopic.enumerated() {
            sentences.append(sentence)
            if k % 24 == 0 { sentences.append("Quartz\(k) sandstone\(k) granite\(k) basalt\(k) erode\(k).") }
        }
        let units = SentenceSplitter().split(sentences.joined(separator: " "))
        #expect(units.count > SentenceRanker.defaultExactLimit)
        let ranked = SentenceRanker().rank(units)
        #expect(ranked.count == units.count)
        #expect(Set(ranked.map(\.sentence.index)).count == units.count)
        let offTopic = ranked.filter { $0.sentence.text.hasPrefix("Quartz") }
        #expect(offTopic.count == 100)
        #expect(offTopic.allSatisfy { $0.rank >= units.count - 100 })
        #expect(abs(ranked.reduce(0) { $0 + $1.score } - 1) < 1e-6)
        #expect(SentenceRanker().rank(units) == ranked)
    }
}
