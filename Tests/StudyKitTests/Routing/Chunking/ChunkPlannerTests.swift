import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// Four English documents of the evaluation set, one after the other: real prose with `#` and
/// `##` headings, lists and paragraphs of different lengths.
enum ChunkingFixture {
    static let text: String = {
        let names = ["en-biology-immune.md", "en-computing-hash-tables.md", "en-history-printing.md", "en-physics-newton.txt"]
        let texts = names.map { name in
            (try? String(contentsOf: TestPaths.samples.appendingPathComponent("eval").appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        return texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: "\n\n")
    }()

    static func document(_ text: String = text) -> Document {
        Document(text: text, title: "Four topics", kind: .markdown, origin: "four.md", language: "en")
    }

    /// One token per four bytes, as ``ScriptedModel`` counts.
    static func tokens(_ text: String) -> Int { ScriptedModel.tokens(text) }
}

@Suite("Chunk planner")
struct ChunkPlannerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let budget: Int
        /// Chunks the plan must have at least (a budget below the document forces several).
        let minimumChunks: Int
        var testDescription: String { name }
    }

    static let long = ChunkingFixture.text
    /// One section of many short paragraphs, longer than the budget: cut between paragraphs.
    static let oneLongSection = "# Only\n\n" + (1...40).map { "Paragraph \($0) says that the number \($0) is part of a longer list of facts." }.joined(separator: "\n\n")
    /// One paragraph of many sentences, longer than the budget: cut between sentences.
    static let oneLongParagraph = (1...60).map { "Sentence \($0) states a separate fact about item \($0)." }.joined(separator: " ")

    static let cases: [Case] = [
        Case(name: "whole document fits", text: long, budget: 100_000, minimumChunks: 1),
        Case(name: "four documents, large chunks", text: long, budget: 2_000, minimumChunks: 3),
        Case(name: "four documents, small chunks", text: long, budget: 400, minimumChunks: 12),
        Case(name: "four documents, tiny chunks", text: long, budget: 120, minimumChunks: 40),
        Case(name: "one section longer than the budget", text: oneLongSection, budget: 150, minimumChunks: 4),
        Case(name: "one paragraph longer than the budget", text: oneLongParagraph, budget: 100, minimumChunks: 5),
    ]

    @Test(arguments: cases)
    func everyChunkFitsAndNoSentenceIsSplit(_ example: Case) {
        let outline = DocumentOutline(text: example.text)
        let plan = ChunkPlanner.plan(text: example.text, outline: outline, budget: example.budget, tokens: ChunkingFixture.tokens)
        #expect(plan.chunks.count >= example.minimumChunks)
        // Every chunk fits: its estimate, and the count of the text actually sent.
        for chunk in plan.chunks {
            #expect(chunk.estimatedTokens <= example.budget, "chunk \(chunk.index) is estimated at \(chunk.estimatedTokens)")
            #expect(ChunkingFixture.tokens(chunk.text) <= example.budget, "chunk \(chunk.index) counts \(ChunkingFixture.tokens(chunk.text))")
        }
        // The chunks tile the document, in order.
        #expect(plan.chunks.first?.offsets.lowerBound == 0)
        #expect(plan.chunks.last?.offsets.upperBound == example.text.count)
        for (before, after) in zip(plan.chunks, plan.chunks.dropFirst()) {
            #expect(before.offsets.upperBound == after.offsets.lowerBound)
        }
        // No unit (sentence, list item, heading) is split: each lies inside one chunk's range
        // and its text is in that chunk's text.
        for unit in outline.units {
            let holders = plan.chunks.filter { $0.offsets.lowerBound <= unit.offsets.lowerBound && unit.offsets.upperBound <= $0.offsets.upperBound }
            #expect(holders.count == 1, "unit \(unit.index) \"\(unit.text.prefix(40))\" is in \(holders.count) chunks")
            if let holder = holders.first, !unit.isHeading {
                #expect(holder.text.contains(String(example.text[unit.range])))
            }
        }
        // Section order is kept: a chunk's sections follow the previous chunk's.
        let order: [Int] = plan.chunks.flatMap { (chunk: DocumentChunk) in chunk.sections }
        #expect(order == order.sorted())
        #expect(Set(order) == Set(outline.sections.indices))
    }

    @Test func wholeSectionsArePackedAndASplitSectionRepeatsItsHeading() {
        let text = ChunkingFixture.text
        let outline = DocumentOutline(text: text)
        let budget = 150
        let plan = ChunkPlanner.plan(text: text, outline: outline, budget: budget, tokens: ChunkingFixture.tokens)
        // A section that fits the budget is never split.
        for section in outline.sections {
            let size = ChunkingFixture.tokens(String(text[section.range]))
            let holders = plan.chunks.filter { $0.sections.contains(section.index) }
            if size <= budget { #expect(holders.count == 1, "section \(section.heading ?? "-") (\(size) tokens) is in \(holders.count) chunks") }
        }
        // A chunk that opens inside a section starts with that section's heading, marked continued.
        let continued: [DocumentChunk] = plan.chunks.filter { (chunk: DocumentChunk) -> Bool in
            guard chunk.index > 0, let first = chunk.sections.first else { return false }
            return plan.chunks[chunk.index - 1].sections.last == first
        }
        #expect(!continued.isEmpty)
        for chunk in continued {
            let heading = outline.sections[chunk.sections[0]].heading
            if let heading { #expect(chunk.text.hasPrefix(heading + " (continued)")) }
        }
    }

    @Test func itemSharesFollowChunkLength() {
        let text = ChunkingFixture.text
        let plan = ChunkPlanner.plan(text: text, outline: DocumentOutline(text: text), budget: 400, tokens: ChunkingFixture.tokens)
        let shares = ChunkedRunner.itemShares(plan, task: .flashcards).compactMap { $0 }
        #expect(shares.count == plan.chunks.count)
        #expect(shares.allSatisfy { (3...20).contains($0) })
        // The longest chunk gets at least as many cards as the shortest.
        let longest = plan.chunks.indices.max { plan.chunks[$0].offsets.count < plan.chunks[$1].offsets.count }!
        let shortest = plan.chunks.indices.min { plan.chunks[$0].offsets.count < plan.chunks[$1].offsets.count }!
        #expect(shares[longest] >= shares[shortest])
        #expect(ChunkedRunner.itemShares(plan, task: .summary).allSatisfy { $0 == nil })
    }
}

@Suite("Chunk reduce")
struct ChunkReduceTests {
    @Test func duplicateCardsAreDroppedByNormalizedQuestionOrSharedQuote() {
        let cards = [
            Flashcards.Card(question: "What is a phagocyte?", answer: "A cell that engulfs particles.", quote: "A phagocyte is a cell that engulfs and digests particles."),
            // Same question, other case and punctuation.
            Flashcards.Card(question: "what is a  PHAGOCYTE", answer: "An engulfing cell.", quote: "Neutrophils and macrophages are the main phagocytes."),
            // Another question on the same quote.
            Flashcards.Card(question: "Which cell digests particles?", answer: "A phagocyte.", quote: "A phagocyte is a cell that engulfs and digests particles."),
            Flashcards.Card(question: "What do NK cells destroy?", answer: "Virus-infected cells.", quote: "These destroy virus-infected cells and some tumour cells."),
        ]
        let kept = ChunkReduce.dedupe(cards)
        #expect(kept.map { cards[$0].question } == ["What is a phagocyte?", "What do NK cells destroy?"])
        #expect(cards.count - kept.count == 2)
    }

    @Test func duplicateQuestionsAreDropped() {
        func question(_ prompt: String, quote: String) -> Quiz.Question {
            Quiz.Question(prompt: prompt, choices: ["a", "b", "c", "d"], answerIndex: 0, explanation: "Because.", quote: quote)
        }
        let questions = [
            question("Which force acts?", quote: "Gravity acts."), question("Which force acts ?", quote: "Friction acts."),
            question("What is mass?", quote: "Gravity acts."), question("What is inertia?", quote: "Inertia resists."),
        ]
        let kept = ChunkReduce.dedupe(questions)
        #expect(kept.map { questions[$0].prompt } == ["Which force acts?", "What is inertia?"])
        #expect(questions.count - kept.count == 2)
    }

    @Test func mindMapsMergeUnderTopLevelSections() {
        let first = MindMap(centralTopic: "Innate immunity", branches: [
            .init(label: "Barriers", children: [.init(label: "Skin", children: [.init(label: "Deep detail")])]),
            .init(label: "Phagocytes"),
        ])
        let second = MindMap(centralTopic: "Adaptive immunity", branches: [
            .init(label: "barriers", children: [.init(label: "Mucus"), .init(label: "skin")]),
            .init(label: "Lymphocytes"),
        ])
        let third = MindMap(centralTopic: "Hash functions", branches: [.init(label: "Collisions"), .init(label: "Hash Tables", children: [.init(label: "Buckets")])])
        let merged = ChunkReduce.merge(
            [.init(map: first, section: "The Human Immune System"), .init(map: second, section: "The Human Immune System"), .init(map: third, section: "Hash Tables")],
            centralTopic: "Four topics")
        #expect(merged.centralTopic == "Four topics")
        #expect(merged.branches.map(\.label) == ["The Human Immune System", "Hash Tables"])
        let immune = merged.branches[0]
        // Same-labelled branches of two chunks become one child, their children merged without repeats.
        #expect(immune.children.map(\.label) == ["Barriers", "Phagocytes", "Lymphocytes"])
        #expect(immune.children[0].children.map(\.label) == ["Skin", "Mucus"])
        // Three levels at most: a chunk's grandchildren are left out.
        #expect(immune.children[0].children.allSatisfy { $0.children.isEmpty })
        // A chunk branch named like its section hands its ideas to the section.
        #expect(merged.branches[1].children.map(\.label) == ["Collisions", "Buckets"])
    }
}
