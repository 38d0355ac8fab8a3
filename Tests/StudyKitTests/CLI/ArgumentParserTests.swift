import Testing
@testable import StudyKit

@Suite("Argument parser")
struct ArgumentParserTests {
    struct Accepted: Sendable, CustomTestStringConvertible {
        let argv: [String]
        let expected: Command
        var testDescription: String { argv.joined(separator: " ") }
    }

    static let accepted: [Accepted] = [
        Accepted(argv: ["--version"], expected: .version),
        Accepted(argv: ["--help"], expected: .help(command: nil)),
        Accepted(argv: ["-h"], expected: .help(command: nil)),
        Accepted(argv: ["help", "quiz"], expected: .help(command: "quiz")),
        Accepted(argv: ["quiz", "--help"], expected: .help(command: "quiz")),
        Accepted(argv: ["text", "notes.pdf"], expected: .text(source: "notes.pdf", SourceSettings())),
        Accepted(argv: ["text", "-"], expected: .text(source: "-", SourceSettings())),
        Accepted(
            argv: ["text", "page.html", "--body"],
            expected: .text(source: "page.html", SourceSettings(), bodyOnly: true)),
        Accepted(
            argv: ["text", "locked.pdf", "--password", "s3cret"],
            expected: .text(source: "locked.pdf", SourceSettings(password: "s3cret"))),
        Accepted(
            argv: ["text", "--password=s3cret", "locked.pdf", "--max-bytes=1000", "--deadline", "2.5"],
            expected: .text(source: "locked.pdf", SourceSettings(password: "s3cret", maxBytes: 1000, deadline: 2.5))),
        Accepted(argv: ["headline"], expected: .generate(GenerateSettings(task: .headline))),
        Accepted(
            argv: ["headline", "-", "--json", "--engine", "builtin"],
            expected: .generate(GenerateSettings(task: .headline, source: "-", format: .json, engine: .builtin))),
        Accepted(
            argv: ["flashcards", "notes.pdf", "--format=anki", "--offline", "--no-cache", "--quiet"],
            expected: .generate(
                GenerateSettings(task: .flashcards, source: "notes.pdf", format: .anki, offline: true, noCache: true, quiet: true))),
        Accepted(
            argv: ["import", "notes.pdf", "--out", "kit/", "--stream", "--verbose"],
            expected: .generate(
                GenerateSettings(task: .studyKit, source: "notes.pdf", stream: true, verbose: true, outputDirectory: "kit/"))),
        Accepted(
            argv: ["feynman", "notes.pdf", "--concept", "osmosis", "--explanation", "water moves"],
            expected: .generate(
                GenerateSettings(task: .feynman, source: "notes.pdf", concept: "osmosis", explanation: "water moves"))),
        Accepted(
            argv: ["route", "headline", "--chars", "2000"],
            expected: .route(task: .headline, input: .characterCount(2000), json: false, SourceSettings())),
        Accepted(
            argv: ["route", "import", "notes.pdf", "--explain", "--json"],
            expected: .route(task: .studyKit, input: .explain(source: "notes.pdf"), json: true, SourceSettings())),
        Accepted(
            argv: ["route", "flashcards", "book.pdf", "--explain", "--max-chunks", "3"],
            expected: .route(task: .flashcards, input: .explain(source: "book.pdf"), json: false, SourceSettings(), maxChunks: 3)),
        Accepted(
            argv: ["route", "quiz", "book.pdf", "--explain", "--jobs", "3", "--json"],
            expected: .route(task: .quiz, input: .explain(source: "book.pdf"), json: true, SourceSettings(), jobs: 3)),
        Accepted(argv: ["quiz", "book.pdf", "--jobs", "2", "--max-chunks=5"], expected: .generate({
            var settings = GenerateSettings(task: .quiz, source: "book.pdf")
            settings.jobs = 2
            settings.maxChunks = 5
            return settings
        }())),
        Accepted(argv: ["import", "book.pdf", "--cards", "60", "--questions=20"], expected: .generate({
            var settings = GenerateSettings(task: .studyKit, source: "book.pdf")
            settings.size = KitSize(cards: 60, questions: 20)
            return settings
        }())),
        Accepted(argv: ["flashcards", "book.pdf", "--cards", "3"], expected: .generate({
            var settings = GenerateSettings(task: .flashcards, source: "book.pdf")
            settings.size = KitSize(cards: 3)
            return settings
        }())),
        Accepted(argv: ["engines", "--json"], expected: .engines(json: true)),
        Accepted(argv: ["schema", "mindmap"], expected: .schema(task: .mindmap, strict: false)),
        Accepted(argv: ["schema", "import", "--strict"], expected: .schema(task: .studyKit, strict: true)),
        Accepted(argv: ["cache", "stats"], expected: .cacheStats(json: false)),
        Accepted(argv: ["cache", "clear"], expected: .cacheClear(task: nil)),
        Accepted(argv: ["cache", "clear", "--task", "quiz"], expected: .cacheClear(task: .quiz)),
        Accepted(argv: ["text", "--", "--odd-name.txt"], expected: .text(source: "--odd-name.txt", SourceSettings())),
    ]

    @Test(arguments: accepted)
    func parses(_ example: Accepted) throws {
        #expect(try parseCommand(example.argv) == example.expected)
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        let argv: [String]
        let message: String
        var testDescription: String { argv.joined(separator: " ") }
    }

    static let rejected: [Rejected] = [
        Rejected(argv: [], message: "Missing command. See 'studykit --help'."),
        Rejected(argv: ["headlin"], message: "Unknown command 'headlin'. Did you mean 'headline'?"),
        Rejected(argv: ["frobnicate"], message: "Unknown command 'frobnicate'. See 'studykit --help'."),
        Rejected(argv: ["summary", "x.txt", "--fromat", "json"], message: "Unknown option '--fromat'. Did you mean '--format'?"),
        Rejected(argv: ["summary", "x.txt", "--jsn"], message: "Unknown option '--jsn'. Did you mean '--json'?"),
        Rejected(argv: ["quiz", "x.txt", "--offlien"], message: "Unknown option '--offlien'. Did you mean '--offline'?"),
        Rejected(argv: ["text", "x.txt", "--xyzzyplugh"], message: "Unknown option '--xyzzyplugh'. See 'studykit text --help'."),
        Rejected(argv: ["text", "x.txt", "-v"], message: "Unknown option '-v'. See 'studykit text --help'."),
        Rejected(argv: ["text"], message: "Missing expected argument '<source>'. See 'studykit text --help'."),
        Rejected(argv: ["text", "a", "b"], message: "Unexpected argument 'b'. See 'studykit text --help'."),
        Rejected(argv: ["summary"], message: "Missing expected argument '<source>'. See 'studykit summary --help'."),
        Rejected(argv: ["summary", "x", "--format"], message: "Missing value for option '--format'."),
        Rejected(argv: ["summary", "x", "--format", "--json"], message: "Missing value for option '--format'."),
        Rejected(argv: ["summary", "x", "--json=yes"], message: "Option '--json' does not take a value."),
        Rejected(
            argv: ["summary", "x", "--format", "pdf"],
            message: "Invalid value 'pdf' for '--format': expected markdown, json, anki, apkg, mermaid, markmap, opml, html, svg, srt."),
        Rejected(
            argv: ["flashcards", "x", "--format", "apkg", "--stream"],
            message: "Invalid value 'apkg' for '--format': expected a text format with --stream, whose preview would land inside the package."),
        Rejected(
            argv: ["summary", "x", "--engine", "gpt"],
            message: "Invalid value 'gpt' for '--engine': expected auto, local, remote, builtin."),
        Rejected(
            argv: ["summary", "x", "--engine", "remote", "--offline"],
            message: "Invalid value 'remote' for '--engine': expected auto, local or builtin with --offline."),
        Rejected(argv: ["feynman", "x.txt"], message: "Missing expected argument '--concept <concept>'. See 'studykit feynman --help'."),
        Rejected(
            argv: ["feynman", "-", "--concept", "c"],
            message: "Invalid value '-' for '<source>': expected a file or URL when the explanation comes from stdin."),
        Rejected(argv: ["route", "headline"], message: "Missing expected argument '--chars <n> or <source> --explain'. See 'studykit route --help'."),
        Rejected(
            argv: ["route", "headline", "--chars", "-3"],
            message: "Invalid value '-3' for '--chars': expected a whole number of characters, 0 or more."),
        Rejected(
            argv: ["route", "essay", "--chars", "3"],
            message: "Invalid value 'essay' for '<task>': expected headline, feynman, summary, flashcards, quiz, mindmap, podcast, import."),
        Rejected(argv: ["route", "quiz", "notes.pdf"], message: "Missing expected argument '--explain'. See 'studykit route --help'."),
        Rejected(argv: ["cache"], message: "Missing expected argument 'stats|clear'. See 'studykit cache --help'."),
        Rejected(argv: ["cache", "purge"], message: "Invalid value 'purge' for 'cache': expected stats or clear."),
        Rejected(argv: ["summary", "x", "--out", "dir"], message: "Unknown option '--out'. See 'studykit summary --help'."),
        Rejected(
            argv: ["text", "x", "--max-bytes", "lots"],
            message: "Invalid value 'lots' for '--max-bytes': expected a positive number of bytes."),
        Rejected(argv: ["--json", "headline"], message: "Unknown option '--json'. See 'studykit --help'."),
        Rejected(argv: ["flashcards", "x", "--jobs", "0"], message: "Invalid value '0' for '--jobs': expected a whole number, 1 or more."),
        Rejected(argv: ["route", "quiz", "x.pdf", "--explain", "--jobs", "0"], message: "Invalid value '0' for '--jobs': expected a whole number, 1 or more."),
        Rejected(argv: ["import", "x", "--max-chunks", "many"], message: "Invalid value 'many' for '--max-chunks': expected a whole number, 1 or more."),
        Rejected(argv: ["headline", "x", "--jobs", "2"], message: "Unknown option '--jobs'. See 'studykit headline --help'."),
        Rejected(argv: ["flashcards", "x", "--cards", "2"], message: "Invalid value '2' for '--cards': expected a whole number from 3 to 5000."),
        Rejected(argv: ["import", "x", "--questions", "lots"], message: "Invalid value 'lots' for '--questions': expected a whole number from 3 to 5000."),
        Rejected(argv: ["quiz", "x", "--cards", "10"], message: "Unknown option '--cards'. See 'studykit quiz --help'."),
        Rejected(argv: ["summary", "x", "--questions", "10"], message: "Unknown option '--questions'. See 'studykit summary --help'."),
    ]

    @Test(arguments: rejected)
    func rejects(_ example: Rejected) {
        do {
            let command = try parseCommand(example.argv)
            Issue.record("expected a usage error, got \(command)")
        } catch {
            #expect(error.message == example.message)
            #expect(error.exitCode == .usage)
        }
    }

    @Test func everyCommandHasHelpListingItsOptions() {
        for spec in CommandSpec.all {
            let help = HelpText.command(spec)
            #expect(help.hasPrefix("USAGE: studykit \(spec.name)"))
            for option in spec.options { #expect(help.contains("--\(option.name)")) }
        }
        let overview = HelpText.overview()
        for spec in CommandSpec.all { #expect(overview.contains("  \(spec.name) ")) }
    }

    @Test(arguments: [("format", "fromat", 2), ("", "abc", 3), ("kitten", "sitting", 3), ("same", "same", 0)])
    func editDistanceCounts(a: String, b: String, distance: Int) {
        #expect(editDistance(a, b) == distance)
    }

    // MARK: the command table

    @Test func everyCommandListsEachOptionOnce() {
        for spec in CommandSpec.all {
            let names = spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(spec.name) lists an option twice: \(names)")
        }
    }

    @Test(arguments: StudyTask.allCases)
    func everyTaskHasItsGeneratingCommand(task: StudyTask) {
        #expect(CommandSpec.named(task.name)?.kind == .generate(task))
    }
}
