import Foundation
import Testing
@testable import StudyKit

/// Anki's own library (`anki` from PyPI, installed into .venv by scripts/setup) imports what the
/// studykit binary exports, through scripts/check-apkg: notes and cards counted, note types,
/// cloze cards rendered as blanks by Anki's renderer, the deck and tags, no duplicates on a
/// second import, and a newer kit updating notes in place by GUID.
///
/// CI always runs it (scripts/setup installed `anki`, and a missing one fails it); elsewhere it
/// runs when the Python has `anki`, so a developer whose shared venv predates it is not blocked.
@Suite("Anki imports the exports (IntegrationTests)", .enabled(if: AnkiPython.shouldRun))
struct AnkiClientIntegrationTests {
    static var python: String { AnkiPython.path }

    /// Runs the binary on the builtin engine and writes its stdout to `file`.
    static func export(_ arguments: [String], to file: URL, cache: URL) async throws {
        let run = try await StudykitBinary.run(arguments + ["--engine", "builtin"], environment: ["STUDYKIT_CACHE_DIR": cache.path])
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        try run.stdoutData.write(to: file)
    }

    static func checkApkg(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = TestPaths.packageRoot.appendingPathComponent("scripts/check-apkg")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["ANKI_PYTHON"] = python
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.timeLimit(.minutes(6)))
    func ankiImportsThePackageAndTheTSVOfNotesPDF() async throws {
        let scratch = try ScratchDirectory("anki")
        let cache = scratch.url.appendingPathComponent("cache")
        let package = scratch.url.appendingPathComponent("notes.apkg"), tsv = scratch.url.appendingPathComponent("notes.tsv")
        try await Self.export(["flashcards", "samples/notes.pdf", "--format", "apkg"], to: package, cache: cache)
        try await Self.export(["flashcards", "samples/notes.pdf", "--format", "anki"], to: tsv, cache: cache)
        let check = try Self.checkApkg([package.path, "--tsv", tsv.path])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("note types: ['studykit Cloze']"), "\(check.output)")
        #expect(check.output.contains("deck named after the document: ['Photosynthesis: Study Notes']"), "\(check.output)")
        #expect(check.output.contains("re-import adds 0 notes"), "\(check.output)")
        #expect(check.output.hasSuffix("all checks passed\n"), "\(check.output)")
    }

    /// A deck per document, a subdeck per top-level section (#54): long.pdf's package and TSV
    /// land in its chapters' subdecks with section tags, and a second import adds nothing; the
    /// kit directory's `cards.apkg` of notes.pdf (cards and quiz) too; paste.txt (one section)
    /// has no subdeck.
    @Test(.timeLimit(.minutes(8)))
    func ankiImportsSubdecksPerSectionAndAReimportAddsNothing() async throws {
        let scratch = try ScratchDirectory("anki")
        let cache = scratch.url.appendingPathComponent("cache")
        let package = scratch.url.appendingPathComponent("long.apkg"), tsv = scratch.url.appendingPathComponent("long.tsv")
        try await Self.export(["flashcards", "samples/long.pdf", "--format", "apkg"], to: package, cache: cache)
        try await Self.export(["flashcards", "samples/long.pdf", "--format", "anki"], to: tsv, cache: cache)
        let long = try Self.checkApkg([package.path, "--tsv", tsv.path])
        #expect(long.status == 0, "\(long.output)")
        let deck = "The French Revolution, 1789-1799: Revision Notes"
        #expect(long.output.contains("subdecks: 10 ['\(deck)::01. Why study the Revolution?', '\(deck)::02. The Old Regime"), "\(long.output)")
        #expect(long.output.contains("'section::3_1789_the_year_of_revolutions::The_fall_of_the_Bastille'"), "\(long.output)")
        #expect(long.output.contains("ok    every card arrives in the deck the package names"), "\(long.output)")
        #expect(long.output.contains("ok    re-import adds 0 notes") && long.output.contains("ok    re-import adds no deck"), "\(long.output)")
        #expect(long.output.contains("long.tsv: the same decks as the package (10 decks)"), "\(long.output)")

        let kit = scratch.url.appendingPathComponent("kit")
        let run = try await StudykitBinary.run(
            ["import", "samples/notes.pdf", "--engine", "builtin", "--out", kit.path], environment: ["STUDYKIT_CACHE_DIR": cache.path])
        #expect(run.status == 0, "\(run.stderr)")
        let notes = try Self.checkApkg([kit.appendingPathComponent("cards.apkg").path, "--tsv", kit.appendingPathComponent("cards.tsv").path])
        #expect(notes.status == 0, "\(notes.output)")
        #expect(notes.output.contains("subdecks: 7 ['Photosynthesis: Study Notes::1. Overview'"), "\(notes.output)")
        #expect(notes.output.contains("note types: ['studykit Cloze', 'studykit Multiple choice']"), "\(notes.output)")

        let paste = scratch.url.appendingPathComponent("paste.apkg")
        try await Self.export(["flashcards", "samples/paste.txt", "--format", "apkg"], to: paste, cache: cache)
        let one = try Self.checkApkg([paste.path])
        #expect(one.status == 0 && one.output.contains("subdecks: 0 []"), "\(one.output)")
    }

    /// A deck of question and cloze cards (what a model writes): one package, the one-file TSV
    /// with a note type column, and the two files of a kit directory all import as Basic and
    /// Cloze notes with the same GUIDs.
    @Test(.timeLimit(.minutes(6)))
    func aMixedDeckImportsAsBasicAndClozeNotes() throws {
        let scratch = try ScratchDirectory("anki")
        var deck = OutputFixtures.cleanKit.flashcards
        deck.cards += AnkiClozeTests.clozeDeck.cards
        let context = AnkiClozeTests.context
        let package = scratch.url.appendingPathComponent("mixed.apkg"), single = scratch.url.appendingPathComponent("mixed.tsv")
        try Data(try AnkiPackage.bytes(for: .flashcards(deck), context: context)).write(to: package)
        try Data(AnkiRenderer.render(deck, context: context).utf8).write(to: single)
        var arguments = [package.path, "--tsv", single.path]
        for file in AnkiRenderer.files(deck, context: context) {
            let url = scratch.url.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            arguments += ["--tsv", url.path]
        }
        let check = try Self.checkApkg(arguments)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("note types: ['studykit Basic', 'studykit Cloze']"), "\(check.output)")
        #expect(check.output.contains("mixed.tsv: 6 notes (['Basic', 'Cloze'])"), "\(check.output)")
        #expect(check.output.contains("cards.tsv: 3 notes (['Basic'])") && check.output.contains("cloze.tsv: 3 notes (['Cloze'])"), "\(check.output)")
        #expect(check.output.contains("cloze renders its blank [a pigment]"), "the hint shows in the blank: \(check.output)")
    }

    /// A quiz package, and a newer kit for the same file: the notes it shares with the first
    /// are updated in place (its title, and so every note's source line, changed), one is added.
    @Test(.timeLimit(.minutes(6)))
    func aQuizPackageImportsAndANewerKitUpdatesNotesInPlace() async throws {
        let scratch = try ScratchDirectory("anki")
        let cache = scratch.url.appendingPathComponent("cache")
        let quiz = scratch.url.appendingPathComponent("quiz.apkg")
        try await Self.export(["quiz", "samples/notes.pdf", "--format", "apkg"], to: quiz, cache: cache)
        let quizCheck = try Self.checkApkg([quiz.path])
        #expect(quizCheck.status == 0, "\(quizCheck.output)")
        #expect(quizCheck.output.contains("note types: ['studykit Multiple choice']"), "\(quizCheck.output)")

        let paste = try String(contentsOf: TestPaths.samples.appendingPathComponent("paste.txt"), encoding: .utf8)
        let material = scratch.url.appendingPathComponent("cells.md")
        let first = scratch.url.appendingPathComponent("first.apkg"), newer = scratch.url.appendingPathComponent("newer.apkg")
        try Data(("# Cell division\n\n" + paste).utf8).write(to: material)
        try await Self.export(["flashcards", material.path, "--format", "apkg", "--no-cache"], to: first, cache: cache)
        // Anki updates a note only from a newer one (modification times in whole seconds).
        try await Task.sleep(for: .milliseconds(1100))
        let added = "\n\nCytokinesis is the division of the cytoplasm that follows mitosis and forms two separate daughter cells."
        try Data(("# Cell division, revised\n\n" + paste + added).utf8).write(to: material)
        try await Self.export(["flashcards", material.path, "--format", "apkg", "--no-cache"], to: newer, cache: cache)
        let check = try Self.checkApkg([first.path, newer.path])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("ok    changed notes are updated in place, by GUID"), "\(check.output)")
    }
}

/// The Python that has Anki's library.
enum AnkiPython {
    /// `ANKI_PYTHON` if set, else the project venv's.
    static var path: String {
        ProcessInfo.processInfo.environment["ANKI_PYTHON"] ?? TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path
    }

    /// Always in CI; elsewhere when ``path`` can import `anki`.
    static var shouldRun: Bool {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", "import anki"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
