import Foundation
import Testing
@testable import StudyKit

/// The merged mind map of a long document (#17): no section's subtree is lost to the merged
/// map's rules, and a book under one heading still gets real branches.
@Suite("Mind map merge")
struct MindMapMergeTests {
    typealias Part = ChunkReduce.MapPart

    static func map(_ topic: String, _ branches: [(String, [String])]) -> MindMap {
        MindMap(centralTopic: topic, branches: branches.map { MindMap.Node(label: $0.0, children: $0.1.map { MindMap.Node(label: $0) }) })
    }

    struct MergeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let topic: String
        let parts: [Part]
        var branchLimit: Int? = nil
        /// Each branch's label and its children's labels, in order.
        let expected: [(String, [String])]
        var testDescription: String { name }
    }

    static let title = "The French Revolution, 1789-1799: Revision Notes"
    /// The first chunk of a document whose title page is its first top-level heading.
    static let opening = Part(
        map: map("Why study it", [("Causes of the Revolution", ["Debt", "Bread prices"]), ("Old Regime society", ["Three estates"])]),
        section: title, headings: [title, "Why study the Revolution?", "Society of orders"])
    static let oldRegime = Part(
        map: map("Old Regime", [("Financial crisis", ["Calonne", "Necker"])]), section: "The Old Regime and its problems",
        headings: ["The Old Regime and its problems"])
    static let terror = Part(
        map: map("Terror", [("Committee of Public Safety", ["Robespierre"])]), section: "The Republic and the Terror",
        headings: ["The Republic and the Terror"])

    static let cases: [MergeCase] = [
        MergeCase(
            name: "first section named like the central topic: its ideas become branches", topic: title,
            parts: [opening, oldRegime, terror],
            expected: [
                ("Causes of the Revolution", ["Debt", "Bread prices"]), ("Old Regime society", ["Three estates"]),
                ("The Old Regime and its problems", ["Financial crisis"]), ("The Republic and the Terror", ["Committee of Public Safety"]),
            ]),
        MergeCase(
            name: "a section whose heading equals the topic exactly", topic: "Hash Tables",
            parts: [
                Part(map: map("Hashing", [("Hash functions", ["Uniformity"])]), section: "Hash Tables", headings: ["Hash Tables"]),
                Part(map: map("Collisions", [("Chaining", []), ("Open addressing", ["Probing"])]), section: "Collision handling"),
            ],
            expected: [("Hash functions", ["Uniformity"]), ("Collision handling", ["Chaining", "Open addressing"])]),
        MergeCase(
            name: "a section that only resembles the topic", topic: title,
            parts: [
                Part(map: map("Notes", [("Key dates", ["Storming of the Bastille"])]), section: "French Revolution revision notes", headings: []),
                oldRegime,
            ],
            expected: [("Key dates", ["Storming of the Bastille"]), ("The Old Regime and its problems", ["Financial crisis"])]),
        MergeCase(
            name: "no room for its ideas: kept under its chunk's next heading", topic: title,
            parts: [opening, oldRegime], branchLimit: 2,
            expected: [
                ("Why study the Revolution?", ["Causes of the Revolution", "Old Regime society"]),
                ("The Old Regime and its problems", ["Financial crisis"]),
            ]),
        MergeCase(
            name: "an opening chunk without a heading of its own, no room: under its first heading that says something", topic: title,
            parts: [
                Part(
                    map: map(title, [("Why study the Revolution?", ["Sources of change"]), ("Society of orders", [])]), section: nil,
                    // The title page's second line (an en dash where the title has a hyphen), a course code, the sections.
                    headings: ["1789–1799: Revision Notes", "History 210", "1. Why study the Revolution?", "Society of orders"]),
                oldRegime,
            ],
            branchLimit: 2,
            expected: [
                ("Why study the Revolution?", ["Sources of change", "Society of orders"]),
                ("The Old Regime and its problems", ["Financial crisis"]),
            ]),
        MergeCase(
            name: "a chunk's branch named like its section hands its ideas to the section", topic: title,
            parts: [
                Part(map: map("Ideas", [("Enlightenment", ["Rousseau", "Voltaire"]), ("Salons", [])]), section: "The Enlightenment"),
                oldRegime,
            ],
            expected: [("The Enlightenment", ["Rousseau", "Voltaire", "Salons"]), ("The Old Regime and its problems", ["Financial crisis"])]),
        MergeCase(
            name: "a chunk that runs into the next section gives that section its ideas", topic: "A Reader in Three Subjects",
            parts: [
                Part(map: map("Hashing", [("Time Complexity", ["Constant time"]), ("The Printing Press", ["Gutenberg"])]), section: "Hash Tables"),
                Part(map: map("Printing", [("Spread of printing", ["Venice"])]), section: "The Printing Press"),
            ],
            expected: [("Hash Tables", ["Time Complexity"]), ("The Printing Press", ["Gutenberg", "Spread of printing"])]),
        MergeCase(
            name: "an idea the topic's section shares with a later section joins that section", topic: title,
            parts: [
                Part(map: map("Opening", [("Financial crisis", ["Debt"]), ("Key dates", [])]), section: title, headings: [title]),
                Part(map: map("Old Regime", [("Tax privileges", [])]), section: "Financial crisis"),
            ],
            expected: [("Key dates", []), ("Financial crisis", ["Debt", "Tax privileges"])]),
    ]

    @Test(arguments: cases)
    func noBranchIsLostToTheCentralTopic(_ test: MergeCase) throws {
        let merged = ChunkReduce.merge(test.parts, centralTopic: test.topic, branchLimit: test.branchLimit)
        #expect(merged.branches.map(\.label) == test.expected.map(\.0))
        #expect(merged.branches.map { $0.children.map(\.label) } == test.expected.map(\.1))
        // The merged map's own rules keep every branch: none is named like the central topic,
        // none like a sibling, no idea like its branch.
        var labels = [test.topic]
        for part in test.parts {
            labels += [part.section ?? "", part.map.centralTopic] + part.headings
            for branch in part.map.branches { labels += [branch.label] + branch.children.map(\.label) }
        }
        let checked = try StudyTask.mindmap.checkedMerge(.mindMap(merged), chunks: test.parts.count, source: labels.joined(separator: ". "))
        #expect(checked.dropped.isEmpty, "\(checked.dropped)")
    }

    struct OwnerCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// Each outline section's heading level (0: no heading).
        let levels: [Int]
        /// The sections each chunk holds.
        let chunks: [[Int]]
        let level: Int?
        let owners: [Int?]
        var testDescription: String { name }
    }

    static let ownerCases: [OwnerCase] = [
        OwnerCase(name: "several top-level sections", levels: [1, 2, 2, 1, 2], chunks: [[0, 1], [2], [3], [4]], level: 1, owners: [0, 0, 3, 3]),
        OwnerCase(
            name: "a book under one heading: its chapters", levels: [1, 2, 3, 2, 3, 2], chunks: [[0, 1, 2], [3], [4], [5]], level: 2,
            owners: [1, 3, 3, 5]),
        OwnerCase(
            name: "one title, one chapter, then sections", levels: [1, 2, 3, 3, 3], chunks: [[0, 1, 2], [3], [4]], level: 3, owners: [2, 3, 4]),
        OwnerCase(name: "a title alone in its chunk keeps it", levels: [1, 2, 2], chunks: [[0], [1], [2]], level: 2, owners: [0, 1, 2]),
        OwnerCase(name: "a preamble before the first heading", levels: [0, 1, 1], chunks: [[0], [1], [2]], level: 1, owners: [nil, 1, 2]),
        OwnerCase(name: "a preamble, then one chapter of sections", levels: [0, 1, 2, 2], chunks: [[0, 1], [2], [3]], level: 2, owners: [nil, 2, 3]),
        OwnerCase(name: "one heading and nothing under it", levels: [1], chunks: [[0], [0]], level: 1, owners: [0, 0]),
        OwnerCase(name: "no headings", levels: [0], chunks: [[0], [0], [0]], level: nil, owners: [nil, nil, nil]),
    ]

    @Test(arguments: ownerCases)
    func chunksAreMergedUnderTheFirstLevelWithMoreThanOneSection(_ test: OwnerCase) {
        #expect(ChunkReduce.mergeLevel(test.levels) == test.level)
        #expect(ChunkReduce.owners(levels: test.levels, chunks: test.chunks) == test.owners)
    }

    // MARK: through the chunked runner

    /// The four sample documents as the chapters of one book: one `#` heading over them all.
    static let book: Document = {
        let chapters = ChunkingFixture.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") ? "#" + line : String(line)
        }.joined(separator: "\n")
        return Document(text: "# A Reader in Four Subjects\n\n" + chapters, title: "A Reader in Four Subjects", kind: .markdown, origin: "book.md", language: "en")
    }()

    static func run(_ document: Document) async throws -> RoutedResult {
        let router = RoutingEngine(local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: ChunkEchoModel(window: 2_048))
        return try await ChunkedRunner(router: router).run(RoutingRequest(task: .mindmap, document: document, useCache: false))
    }

    @Test func aBookUnderOneHeadingGetsABranchPerChapter() async throws {
        let routed = try await Self.run(Self.book)
        guard case .mindMap(let map) = routed.result else { Issue.record("not a mind map"); return }
        // Before: one branch, which the merged map's rules refuse, so the builtin engine mapped the book.
        #expect(!routed.fallbacks.contains { $0.reason.contains("failed validation") })
        #expect(routed.engine == .remote)
        #expect(Array(map.branches.map(\.label).prefix(3)) == ["The Human Immune System", "Hash Tables", "The Printing Press in Fifteenth-Century Europe"])
        #expect(map.branches.allSatisfy { !$0.children.isEmpty })
    }

    @Test func aFirstSectionNamedLikeTheDocumentKeepsItsSubtree() async throws {
        // The document's title is its first top-level heading, as on a PDF's title page.
        let document = Document(
            text: ChunkingFixture.text, title: "The Human Immune System", kind: .markdown, origin: "four.md", language: "en")
        let routed = try await Self.run(document)
        guard case .mindMap(let map) = routed.result else { Issue.record("not a mind map"); return }
        #expect(!routed.fallbacks.contains { $0.reason.contains("failed validation") })
        // No whole branch was dropped, and the first section's ideas are in the map.
        #expect(!routed.dropped.contains { $0.path.range(of: #"^branches\[\d+\]$"#, options: .regularExpression) != nil }, "\(routed.dropped)")
        let labels = Set(map.branches.flatMap { [$0.label] + $0.children.map(\.label) }.map(ChunkReduce.normalized))
        let immune = try #require(routed.coverage?.chunks.first)
        #expect(immune.headings.first == "The Human Immune System")
        #expect(labels.contains { $0.contains("innate") || $0.contains("adaptive") || $0.contains("immun") })
        #expect(map.branches.contains { $0.label == "Hash Tables" })
    }
}

@Suite("Chunked run under --budget")
struct ChunkedBudgetTests {
    @Test func theBudgetIsTheWholeJobsAndTheBuiltinEngineTakesTheChunksAfterIt() async throws {
        let clock = TestClock()
        // Every answer (a chunk's, or an item rewrite's) takes 40 s of the clock; once two chunks
        // are on record a chunk is expected to take what they took (before, a chunk of a few
        // cards is expected in seconds at the default speed, #53).
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.url.appendingPathComponent("db.sqlite3").path)
        let remote = ChunkEchoModel(window: 2_048, onAnswer: { clock.advance(by: 40) })
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: remote, memory: ledger, clock: clock)
        // `flashcards --budget 100`: the request and every chunk share one deadline.
        let budget = TimeBudget(seconds: 100, start: clock.now())
        let runner = ChunkedRunner(router: router, jobs: 1, budget: budget)
        let request = RoutingRequest(task: .flashcards, document: ChunkingFixture.document(), useCache: false, budget: budget)
        let planned = try #require(await runner.plan(request))
        let total = planned.plan.chunks.count
        #expect(total >= 5)
        let routed = try await runner.run(request)
        // Chunks 1 and 2 are read by the model (0–40 s, 40–80 s); chunk 3, with 20 s left, is
        // not expected to fit: the builtin engine extracts it and the model's one rewrite ends
        // at 120 s; every chunk after that starts with the whole job's budget spent.
        #expect(remote.parts == [1, 2])
        let coverage = try #require(routed.coverage)
        // Chunk 1 is the immune system's 419-character introduction: its two sentences hold
        // fewer than three terms to ask about, so the echoed answer (the builtin engine's cards)
        // and the builtin engine itself make no card of it. It took its 40 s all the same.
        #expect(coverage.chunks[0].engine == nil && coverage.chunks[0].items == 0, "\(coverage.chunks[0])")
        #expect(coverage.chunks.dropFirst().map(\.engine) == [.remote] + Array(repeating: .builtin, count: total - 2))
        #expect(coverage.chunks[2].fallbacks.first?.reason == "skipped: expected to take 40 s, with only 20 s of the 100 s budget left")
        #expect(coverage.chunks[3...].allSatisfy { $0.fallbacks.first?.reason == "skipped: the 100 s budget was used up before its turn" })
        #expect(coverage.budget == ChunkCoverage.BudgetUse(seconds: 100, chunksAfter: total - 3))
        guard case .object(let json) = coverage.jsonValue, case .object(let reported)? = json["budget"] else {
            Issue.record("no budget in coverage")
            return
        }
        #expect(reported["for"] == .string("the whole job"))
        #expect(reported["seconds"] == .number(100))
        #expect(reported["chunksAfterBudget"] == .integer(total - 3))
        #expect(coverage.markdownFooter.contains("The 100 s budget for the whole job ran out: the builtin engine answered the last \(total - 3) chunks"))
    }

    @Test func withoutABudgetNothingIsReported() async throws {
        let router = RoutingEngine(local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: ChunkEchoModel(window: 2_048))
        let routed = try await ChunkedRunner(router: router).run(RoutingRequest(task: .quiz, document: ChunkingFixture.document(), useCache: false))
        #expect(routed.coverage?.budget == nil)
        guard case .object(let json)? = routed.coverage?.jsonValue else { Issue.record("no coverage"); return }
        #expect(json["budget"] == .null)
    }
}
