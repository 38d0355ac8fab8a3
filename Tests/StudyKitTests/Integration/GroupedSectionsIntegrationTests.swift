import Foundation
import Testing
@testable import StudyKit

/// #54 against the real llama-cpp-python server (8,192 tokens, as `scripts/serve-models`' remote):
/// a document that fits the window but asks for more cards than one answer writes well is asked
/// per group of sections, each group for its share, the answers joined and deduplicated, and
/// `--json` reports the coverage; samples/notes.pdf (12 cards) stays one request. The model's
/// words are never asserted: the number of group requests, the join and the coverage are.
@Suite("Integration: groups of sections through a remote")
struct GroupedSectionsIntegrationTests {
    @Test(.timeLimit(.minutes(10)))
    func aDocumentThatFitsIsAskedPerGroupOfSections() async throws {
        let (server, scratch, environment, file) = try await twoTopics("grouped-sections")
        defer { withExtendedLifetime(scratch) {} }

        // The page of notes: no plan of chunks or groups, one request.
        let notesPlan = try await StudykitBinary.run(
            ["route", "flashcards", TestPaths.samples.appendingPathComponent("notes.pdf").path, "--explain", "--json"],
            environment: environment)
        #expect(notesPlan.status == 0, "\(notesPlan.stderr)")
        let notesRoute = try #require(try JSONSerialization.jsonObject(with: notesPlan.stdoutData) as? [String: Any])
        #expect(notesRoute["chunks"] is NSNull, "\(notesPlan.stdout)")

        // 24 cards of two topics that fit the window: groups of at most 12, one request each.
        let run = try await StudykitBinary.run(
            ["flashcards", file.path, "--json", "--cards", "24", "--budget", "900"], environment: environment)
        // 12 questions: groups of at most 10.
        let quizRun = try await StudykitBinary.run(
            ["quiz", file.path, "--json", "--questions", "12", "--budget", "900"], environment: environment)
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
        let coverage = try #require(envelope["coverage"] as? [String: Any], "not grouped: \(run.stdout)")
        #expect(coverage["chunksAre"] as? String == "groups of sections", "\(coverage)")
        #expect(coverage["itemsAsked"] as? Int == 24)
        let groups = coverage["chunks"] as? Int ?? 0
        #expect(groups >= 2)
        // One request a group at least (a re-ask adds one), none cut to fit the window.
        let perChunk = try #require(coverage["perChunk"] as? [[String: Any]])
        #expect(perChunk.count == groups)
        #expect(perChunk.allSatisfy { $0["fitted"] as? Bool == false })
        let remoteAttempts = (envelope["attempts"] as? [[String: Any]] ?? [])
            .filter { $0["engine"] as? String == "remote" }
        #expect(remoteAttempts.count >= groups, "\(envelope["attempts"] ?? "no attempts")")
        // The join: the deck is the groups' items less the duplicates and what the rules dropped.
        let cards = (envelope["result"] as? [String: Any])?["cards"] as? [Any] ?? []
        let made = perChunk.reduce(0) { $0 + ($1["items"] as? Int ?? 0) }
        let duplicates = coverage["duplicatesDropped"] as? Int ?? -1
        #expect(duplicates >= 0)
        #expect(cards.count <= made - duplicates, "\(cards.count) cards of \(made) made, \(duplicates) duplicates")
        #expect(!cards.isEmpty)
        // Body sections with cards, out of all: reported on the run.
        let sections = try #require(coverage["sections"] as? [String: Any], "\(coverage)")
        #expect((sections["total"] as? Int ?? 0) >= 2)

        // The deck holds what was asked, however many groups fell back to the builtin engine.
        try await expectAskedCount(cardsRun: run, quizRun: quizRun, file: file, environment: environment)
    }

    /// `import` of a document that fits the window but asks for more cards and questions than one
    /// answer writes well is not one kit request: its deck and quiz are asked per group of
    /// sections, as `flashcards` and `quiz` ask them, and the kit's coverage says so per part.
    @Test(.timeLimit(.minutes(10)))
    func importAsksTheDeckAndQuizPerGroupOfSections() async throws {
        let (server, scratch, environment, file) = try await twoTopics("grouped-import")
        defer { withExtendedLifetime(scratch) {} }
        let run = try await StudykitBinary.run(
            ["import", file.path, "--json", "--cards", "24", "--questions", "12", "--budget", "900"],
            environment: environment)
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
        let coverage = try #require(envelope["coverage"] as? [String: Any], "not grouped: \(run.stdout)")
        #expect(coverage["chunksAre"] as? String == "groups of sections", "\(coverage)")
        let perChunk = try #require(coverage["perChunk"] as? [[String: Any]])
        let groups = Dictionary(grouping: perChunk) { $0["part"] as? String ?? "" }.mapValues(\.count)
        #expect(groups["flashcards", default: 0] >= 2 && groups["quiz", default: 0] >= 2, "\(groups)")
        // The kit holds what was asked, not each group's count added up.
        let result = try #require(envelope["result"] as? [String: Any])
        let cards = ((result["flashcards"] as? [String: Any])?["cards"] as? [Any] ?? []).count
        let questions = ((result["quiz"] as? [String: Any])?["questions"] as? [Any] ?? []).count
        #expect(cards > 0 && cards <= 24 && questions > 0 && questions <= 12, "\(cards) cards, \(questions) questions")
        let parts = try #require(envelope["parts"] as? [[String: Any]])
        #expect(parts.map { $0["task"] as? String ?? "" } == ["headline", "summary", "flashcards", "quiz", "mindmap"])
    }

    /// The grouped deck and quiz hold at most the 24 cards and 12 questions asked; when every
    /// group fell back (SmolLM2 fails often), exactly what the builtin engine makes of the whole
    /// document for the same request — not each group's builtin answer added up (30 cards).
    /// The remote server (8,192 tokens), a scratch folder named `name` with its cache, studykit's
    /// environment, and a document of two topics that fits the window: the immune system and hash
    /// tables of the evaluation set, one after the other.
    private func twoTopics(_ name: String) async throws -> (
        server: OwnModelServer, scratch: ScratchDirectory, environment: [String: String], file: URL
    ) {
        let server = try await OwnModelServer.start(
            contextSize: 8192, alias: "smollm2-135m-remote", apiKey: "group-key")
        let scratch = try ScratchDirectory(name)
        var environment = try server.studykitEnvironment(
            local: false, remote: true, cache: scratch.url.appendingPathComponent("cache"), remoteWindow: 8192)
        // A request this small model cannot finish ends here, not at the 300 s of a busy machine.
        environment["STUDYKIT_DEADLINE"] = "90"
        let notes = try ["en-biology-immune.md", "en-computing-hash-tables.md"].map { name in
            let url = TestPaths.samples.appendingPathComponent("eval").appendingPathComponent(name)
            return try String(contentsOf: url, encoding: .utf8)
        }
        let file = scratch.url.appendingPathComponent("two-topics.md")
        try notes.joined(separator: "\n\n").write(to: file, atomically: true, encoding: .utf8)
        return (server, scratch, environment, file)
    }

    private func expectAskedCount(
        cardsRun: StudykitBinary.Result, quizRun: StudykitBinary.Result, file: URL, environment: [String: String]
    ) async throws {
        #expect(quizRun.status == 0, "\(quizRun.stderr)")
        for (run, list, asked, flag) in [(cardsRun, "cards", 24, "--cards"), (quizRun, "questions", 12, "--questions")] {
            let envelope = try #require(
                try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
            let coverage = try #require(envelope["coverage"] as? [String: Any], "not grouped: \(run.stdout)")
            #expect(coverage["itemsAsked"] as? Int == asked)
            let items = ((envelope["result"] as? [String: Any])?[list] as? [Any] ?? []).count
            #expect(items <= asked, "\(items) \(list) for \(asked) asked")
            let perChunk = coverage["perChunk"] as? [[String: Any]] ?? []
            guard !perChunk.isEmpty, perChunk.allSatisfy({ $0["engine"] as? String == "builtin" }) else { continue }
            let task = list == "cards" ? "flashcards" : "quiz"
            let builtin = try await StudykitBinary.run(
                [task, file.path, "--json", flag, String(asked), "--engine", "builtin"], environment: environment)
            let whole = try #require(
                try JSONSerialization.jsonObject(with: builtin.stdoutData) as? [String: Any], "\(builtin.stderr)")
            let expected = ((whole["result"] as? [String: Any])?[list] as? [Any] ?? []).count
            #expect(items == expected, "every group fell back: \(items) \(list), the builtin engine's \(expected)")
        }
    }
}
