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
///
/// Long documents (more than `exactLimit` units, a book rather than a chapter): the exact graph
/// keeps every pair that shares a term, which is O(n²) edges when common terms are everywhere
/// (3.4 GB and minutes for 500 pages). Above the limit each unit keeps only its
/// `neighbourLimit` strongest neighbours (ties to the earlier unit), chosen with a bounded heap
/// while the pairs are counted, and the graph is their union: at most n · `neighbourLimit`
/// edges, so memory and PageRank grow linearly. Units at or under the limit are ranked exactly,
/// so every sample and golden output is unchanged.
struct SentenceRanker: Sendable {
    /// PageRank damping: the chance of following an edge rather than jumping anywhere.
    var damping: Double
    /// Upper bound on PageRank iterations, so a pathological graph cannot loop for long.
    var maxIterations: Int
    /// Convergence threshold on the largest score change of one iteration.
    var tolerance: Double

    /// Most units ranked on the exact graph; longer inputs get the nearest-neighbour graph.
    var exactLimit: Int
    /// Strongest neighbours each unit keeps above `exactLimit`.
    var neighbourLimit: Int

    /// Units ranked exactly by default: a 100-page textbook (about 900 units) stays exact; a
    /// 500-page book (about 13,000) does not.
    static let defaultExactLimit = 2_000
    /// Neighbours kept per unit on long documents: enough that a unit's centrality still comes
    /// from many sentences, few enough that PageRank touches at most 32 · n edges.
    static let defaultNeighbourLimit = 32

    /// Creates a ranker with the classic TextRank settings.
    init(
        damping: Double = 0.85, maxIterations: Int = 100, tolerance: Double = 1e-7,
        exactLimit: Int = SentenceRanker.defaultExactLimit, neighbourLimit: Int = SentenceRanker.defaultNeighbourLimit
    ) {
        self.damping = damping
        self.maxIterations = max(1, maxIterations)
        self.tolerance = tolerance
        self.exactLimit = max(0, exactLimit)
        self.neighbourLimit = max(1, neighbourLimit)
    }

    /// Ranks the given units, most central first; ties keep document (input) order.
    ///
    /// Every unit given is ranked, headings included; filter them out first when only prose
    /// should compete (as `topSentences` does).
    func rank(_ sentences: [Sentence], words: [[NormalizedWord]]? = nil) -> [RankedSentence] {
        let scores = self.scores(of: sentences, words: words)
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
        return rank(prose).prefix(max(0,
            count)).map(\.sentence).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
    }

    /// PageRank scores aligned with `sentences`.
    ///
    /// `words`, when given, are the units' words as `TermNormalizer.words(in:)` returns them (a
    /// caller that tokenized already saves a second pass over a book).
    func scores(of sentences: [Sentence], words: [[NormalizedWord]]? = nil) -> [Double] {
        let n = sentences.count
        guard n > 0 else { return [] }
        let termSets = Self.termIDs(of: words ?? sentences.map { TermNormalizer.words(in: $0.text) })
        return pageRank(self.graph(termSets), count: n)
    }

    /// The graph PageRank runs on: exact up to `exactLimit` units, else each unit's
    /// `neighbourLimit` strongest neighbours. Adjacency lists are sorted by neighbour index, so
    /// both graphs sum scores in the same order and an unpruned bounded graph ranks identically.
    func graph(_ terms: [[Int]]) -> [[(Int, Double)]] {
        terms.count <= exactLimit ? Self.exactGraph(terms) : Self.nearestNeighbourGraph(terms, limit: neighbourLimit)
    }

    // MARK: Terms

    /// Each sentence as a sorted set of term ids.
    static func termIDs(of sentences: [Sentence]) -> [[Int]] {
        termIDs(of: sentences.map { TermNormalizer.words(in: $0.text) })
    }

    /// Each unit's words as a sorted set of term ids.
    static func termIDs(of units: [[NormalizedWord]]) -> [[Int]] {
        var ids: [String: Int] = [:]
        return units.map { words in
            var set = Set<Int>()
            for word in words where !word.isStopword {
                // Single Latin letters and lone digits are noise, not topics.
                if word.stem.count < 2, !TermNormalizer.isCJK(word.surface.first ?? " ") { continue }
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

    /// Calls `body(i, j, weight)` once for every pair i < j of units that share a term, found
    /// through an inverted index so that only such pairs are ever compared. With `inOrder` the
    /// j of each i come in increasing order (a sort per unit, which a book's dense graph cannot
    /// afford when the order does not matter).
    @inline(__always)
    private static func forEachSimilarPair(_ terms: [[Int]], inOrder: Bool, _ body: (Int, Int, Double) -> Void) {
        let n = terms.count
        // Term ids are 0, 1, 2 …: the postings are an array, each list in increasing unit order.
        var postings: [[Int]] = []
        for (i, set) in terms.enumerated() {
            for t in set {
                while postings.count <= t { postings.append([]) }
                postings[t].append(i)
            }
        }
        // Where unit i sits in each of its terms' lists when its turn comes: the units before it
        // that have the term. The later units are the rest of the list, read without a test.
        var passed = Array(repeating: 0, count: postings.count)
        let logSize = terms.map { log(1 + Double($0.count)) }
        var shared = Array(repeating: 0, count: n)
        var touched: [Int] = []
        for i in 0..<n {
            // Count shared terms with every later sentence j > i.
            for t in terms[i] {
                passed[t] += 1
                postings[t].withUnsafeBufferPointer { list in
                    for j in list[passed[t]...] {
                        if shared[j] == 0 { touched.append(j) }
                        shared[j] += 1
                    }
                }
            }
            if inOrder { touched.sort() }
            for j in touched {
                let denominator = logSize[i] + logSize[j]
                if denominator > 0 { body(i, j, Double(shared[j]) / denominator) }
                shared[j] = 0
            }
            touched.removeAll(keepingCapacity: true)
        }
    }

    /// Weighted undirected edges as adjacency lists, sorted by neighbour.
    static func exactGraph(_ terms: [[Int]]) -> [[(Int, Double)]] {
        var adjacency = Array(repeating: [(Int, Double)](), count: terms.count)
        forEachSimilarPair(terms, inOrder: true) { i, j, w in
            adjacency[i].append((j, w))
            adjacency[j].append((i, w))
        }
        return adjacency
    }

    /// The union of each unit's `limit` strongest edges of the exact graph (same weights; ties
    /// to the earlier neighbour), as sorted adjacency lists: at most n · `limit` edges.
    ///
    /// Every pair is still weighed once, and offered to both ends' bounded heaps; nothing of
    /// size n² is ever stored.
    static func nearestNeighbourGraph(_ terms: [[Int]], limit: Int) -> [[(Int, Double)]] {
        let n = terms.count
        var strongest = Array(repeating: NeighbourHeap(limit: limit), count: n)
        // The weakest entry each full heap keeps: an offer that does not beat it (a lower
        // weight, or the same weight from a later neighbour) is dropped here, without touching
        // the heap. On a book's dense graph most offers are such, many of them ties.
        var floor = Array(repeating: NeighbourHeap.Floor.open, count: n)
        forEachSimilarPair(terms, inOrder: false) { i, j, w in
            if floor[i].admits(j, weight: w) { floor[i] = strongest[i].offer(j, weight: w) }
            if floor[j].admits(i, weight: w) { floor[j] = strongest[j].offer(i, weight: w) }
        }
        // Each undirected edge is counted once, by the end that keeps it (the lower one when
        // both do), so edges ≤ n · limit.
        var adjacency = Array(repeating: [(Int, Double)](), count: n)
        for i in 0..<n {
            for (j, w) in strongest[i].entries where i < j
                || !strongest[j].entries.contains(where: { $0.neighbour == i }) {
                adjacency[i].append((j, w))
                adjacency[j].append((i, w))
            }
        }
        for i in 0..<n { adjacency[i].sort { $0.0 < $1.0 } }
        return adjacency
    }

    /// The `limit` best (neighbour, weight) offers: highest weight first, ties to the lower
    /// neighbour index, whatever order they were offered in. A min-heap on that order, so the
    /// worst kept offer is at the root and a weaker one is rejected in O(1).
    struct NeighbourHeap: Sendable {
        let limit: Int
        private(set) var entries: [(neighbour: Int, weight: Double)] = []

        init(limit: Int) { self.limit = limit }

        /// Whether `a` ranks below `b` (lower weight, or equal weight and later neighbour).
        private static func worse(_ a: (neighbour: Int, weight: Double),
            _ b: (neighbour: Int, weight: Double)) -> Bool {
            a.weight != b.weight ? a.weight < b.weight : a.neighbour > b.neighbour
        }

        /// The weakest entry of a full heap, which an offer must beat to enter.
        struct Floor: Sendable {
            var weight: Double
            var neighbour: Int
            /// A heap that is not full: every offer enters.
            static let open = Floor(weight: -Double.infinity, neighbour: .max)

            /// Whether an offer beats it: more weight, or the same from an earlier neighbour.
            func admits(_ neighbour: Int, weight: Double) -> Bool {
                weight > self.weight || (weight == self.weight && neighbour < self.neighbour)
            }
        }

        /// Keeps the offer if it is among the `limit` best so far; returns the weakest entry
        /// kept once the heap is full (only what beats it can enter), else ``Floor/open``.
        @discardableResult
        mutating func offer(_ neighbour: Int, weight: Double) -> Floor {
            insert((neighbour: neighbour, weight: weight))
            return entries.count < limit ? .open : Floor(weight: entries[0].weight, neighbour: entries[0].neighbour)
        }

        private mutating func insert(_ entry: (neighbour: Int, weight: Double)) {
            if entries.count < limit {
                entries.append(entry)
                var child = entries.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard Self.worse(entries[child], entries[parent]) else { break }
                    entries.swapAt(child, parent)
                    child = parent
                }
                return
            }
            guard Self.worse(entries[0], entry) else { return }
            entries[0] = entry
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var worst = parent
                if left < entries.count, Self.worse(entries[left], entries[worst]) { worst = left }
                if right < entries.count, Self.worse(entries[right], entries[worst]) { worst = right }
                guard worst != parent else { break }
                entries.swapAt(parent, worst)
                parent = worst
            }
        }
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
