import Foundation

// MARK: - Ranked sentence

/// A unit with its TextRank centrality.
struct RankedSentence: Sendable, Hashable {
    /// The unit that was ranked.
    let sentence: Sentence
    /// Its PageRank score; scores of one ranking sum to about 1.
    let score: Double
    /// 0 for the most central unit, then 1, 2, … (ties go to the earlier unit).
    let rank: Int
}

// MARK: - Ranker

/// TextRank over sentences: a sentence is central when it shares terms with many sentences that
/// are central themselves.
///
/// Similarity of two sentences is the number of stems they share divided by
/// `log(1 + |terms a|) + log(1 + |terms b|)` (the TextRank normalization, shifted by one so that
/// one-word sentences do not divide by zero). Terms are lower-cased words without stopwords,
/// folded by a light stemmer; a unit without content terms still gets the baseline score.
///
/// Cost: each sentence becomes a set of integer term ids once; pairs are found through an
/// inverted index, so only sentences that share a term are ever compared and no string is
/// touched in the pair loop. PageRank runs on the sparse weighted graph with damping 0.85
/// until no score moves by more than `tolerance`, or `maxIterations`.
struct SentenceRanker: Sendable {
    /// PageRank damping: the chance of following an edge rather than jumping anywhere.
    var damping: Double
    /// Upper bound on PageRank iterations, so a pathological graph cannot loop for long.
    var maxIterations: Int
    /// Convergence threshold on the largest score change of one iteration.
    var tolerance: Double

    /// Creates a ranker with the classic TextRank settings.
    init(damping: Double = 0.85, maxIterations: Int = 100, tolerance: Double = 1e-7) {
        self.damping = damping
        self.maxIterations = max(1, maxIterations)
        self.tolerance = tolerance
    }

    /// Ranks the given units, most central first; ties keep document (input) order.
    ///
    /// Every unit given is ranked, headings included; filter them out first when only prose
    /// should compete (as `topSentences` does).
    func rank(_ sentences: [Sentence]) -> [RankedSentence] {
        let scores = self.scores(of: sentences)
        let order = sentences.indices.sorted { a, b in
            scores[a] != scores[b] ? scores[a] > scores[b] : a < b
        }
        return order.enumerated().map { position, i in
            RankedSentence(sentence: sentences[i], score: scores[i], rank: position)
        }
    }

    /// The `count` most central prose sentences of `text`, returned in document order.
    ///
    /// Headings are left out: they are labels, not statements.
    func topSentences(in text: String, count: Int) -> [Sentence] {
        let prose = SentenceSplitter().split(text).filter { !$0.isHeading }
        return rank(prose).prefix(max(0, count)).map(\.sentence).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
    }

    /// PageRank scores aligned with `sentences`.
    func scores(of sentences: [Sentence]) -> [Double] {
        let n = sentences.count
        guard n > 0 else { return [] }
        let termSets = Self.termIDs(of: sentences)
        let graph = Self.similarityGraph(termSets)
        return pageRank(graph, count: n)
    }

    // MARK: Terms

    /// Each sentence as a sorted set of term ids.
    private static func termIDs(of sentences: [Sentence]) -> [[Int]] {
        var ids: [String: Int] = [:]
        return sentences.map { sentence in
            var set = Set<Int>()
            for word in BuiltinTerms.words(in: sentence.text) where !word.isStopword {
                // Single Latin letters and lone digits are noise, not topics.
                if word.stem.count < 2, !BuiltinTerms.isCJK(word.surface.first ?? " ") { continue }
                let id: Int
                if let known = ids[word.stem] {
                    id = known
                } else {
                    id = ids.count
                    ids[word.stem] = id
                }
                set.insert(id)
            }
            return set.sorted()
        }
    }

    // MARK: Graph

    /// Weighted undirected edges as adjacency lists, built through an inverted index.
    private static func similarityGraph(_ terms: [[Int]]) -> [[(Int, Double)]] {
        let n = terms.count
        var postings: [Int: [Int]] = [:]
        for (i, set) in terms.enumerated() {
            for t in set { postings[t, default: []].append(i) }
        }
        let logSize = terms.map { log(1 + Double($0.count)) }
        var adjacency = Array(repeating: [(Int, Double)](), count: n)
        var shared = Array(repeating: 0, count: n)
        var touched: [Int] = []
        for i in 0..<n {
            // Count shared terms with every later sentence j > i.
            for t in terms[i] {
                guard let list = postings[t] else { continue }
                for j in list where j > i {
                    if shared[j] == 0 { touched.append(j) }
                    shared[j] += 1
                }
            }
            touched.sort()
            for j in touched {
                let denominator = logSize[i] + logSize[j]
                if denominator > 0 {
                    let w = Double(shared[j]) / denominator
                    adjacency[i].append((j, w))
                    adjacency[j].append((i, w))
                }
                shared[j] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
        return adjacency
    }

    // MARK: PageRank

    private func pageRank(_ adjacency: [[(Int, Double)]], count n: Int) -> [Double] {
        let outWeight = adjacency.map { $0.reduce(0) { $0 + $1.1 } }
        var score = Array(repeating: 1 / Double(n), count: n)
        var next = score
        let base = (1 - damping) / Double(n)
        for _ in 0..<maxIterations {
            // Dangling units (no shared term) spread their score evenly, keeping the sum at 1.
            var dangling = 0.0
            for i in 0..<n where outWeight[i] == 0 { dangling += score[i] }
            let spread = damping * dangling / Double(n)
            var delta = 0.0
            for i in 0..<n {
                var sum = 0.0
                for (j, w) in adjacency[i] { sum += w / outWeight[j] * score[j] }
                next[i] = base + spread + damping * sum
                delta = max(delta, abs(next[i] - score[i]))
            }
            swap(&score, &next)
            if delta < tolerance { break }
        }
        return score
    }
}
