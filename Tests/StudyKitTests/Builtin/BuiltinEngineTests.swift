import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

// MARK: - Fixtures

/// The engine's sample inputs and golden outputs (`Fixtures/Builtin/engine`).
enum BuiltinEngineFixtures {
    static func text(_ name: String, _ ext: String) throws -> String {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures/Builtin/engine"),
            "missing fixture Fixtures/Builtin/engine/\(name).\(ext)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The source-tree folder, for regenerating goldens with `STUDYKIT_UPDATE_GOLDENS=1`.
    static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Builtin/engine")
    }
}

/// One sample document with the Feynman concept and explanation to use on it.
struct BuiltinEngineSample: Sendable, CustomTestStringConvertible {
    let name: String
    let concept: String
    let explanation: String

    var testDescription: String { name }

    func text() throws -> String {
        switch name {
        case "photosynthesis": return try BuiltinFixtures.photosynthesis()
        case "pasted-note": return try BuiltinEngineFixtures.text("pasted-note", "txt")
        default: return try BuiltinEngineFixtures.text(name, "md")
        }
    }

    static let photosynthesis = BuiltinEngineSample(
        name: "photosynthesis", concept: "the light reactions",
        explanation: "The light reactions use light energy in the thylakoid to split water and make ATP.")
    static let all: [BuiltinEngineSample] = [
        photosynthesis,
        BuiltinEngineSample(
            name: "pasted-note", concept: "precipitation",
            explanation: "Water vapour condenses into clouds and falls back as rain or snow."),
        BuiltinEngineSample(
            name: "long-article", concept: "the Senate",
            explanation: "The Senate was made of former magistrates and advised the consuls."),
    ]
}

/// A sample and a task, for the table of every task on every sample.
struct BuiltinEngineCase: Sendable, CustomTestStringConvertible {
    let sample: BuiltinEngineSample
    let task: StudyTask
    var testDescription: String { "\(sample.name) \(task.name)" }

    static let all = BuiltinEngineSample.all.flatMap { sample in StudyTask.allCases.map { BuiltinEngineCase(sample: sample, task: $0) } }
}

private func run(
    _ task: StudyTask, _ text: String, title: String? = nil, concept: String? = nil, explanation: String? = nil
) throws -> AnyStudyResult {
    try BuiltinEngine().generate(task, text: text, title: title, concept: concept, explanation: explanation)
}

private func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

// MARK: - Every task validates

@Suite struct BuiltinEngineTests {
    @Test(arguments: BuiltinEngineCase.all)
    func everyResultValidatesAndRoundTrips(_ testCase: BuiltinEngineCase) throws {
        let text = try testCase.sample.text()
        let result = try run(
            testCase.task, text, concept: testCase.sample.concept, explanation: testCase.sample.explanation)
        #expect(result.task == testCase.task)
        #expect(result.value.validationIssues() == [])
        let decoded = try decodeResult(for: testCase.task, json: result.jsonValue)
        #expect(decoded == result)
        // Through text too, as the cache stores it.
        #expect(try decodeResult(for: testCase.task, modelOutput: result.jsonValue.prettyText) == result)
    }

    /// The photosynthesis outputs are pinned byte for byte. To accept a deliberate change, run
    /// with `STUDYKIT_UPDATE_GOLDENS=1`, review the diff of `Fixtures/Builtin/engine`, and run again
    /// (and bump `BuiltinEngine.algorithmVersion`).
    @Test(arguments: StudyTask.allCases)
    func photosynthesisMatchesGolden(_ task: StudyTask) throws {
        let sample = BuiltinEngineSample.photosynthesis
        let result = try run(task, try sample.text(), concept: sample.concept, explanation: sample.explanation)
        let emitted = result.jsonValue.prettyText + "\n"
        let name = "photosynthesis." + task.name
        if ProcessInfo.processInfo.environment["STUDYKIT_UPDATE_GOLDENS"] == "1" {
            try emitted.write(
                to: BuiltinEngineFixtures.sourceFolder.appendingPathComponent(name + ".json"), atomically: true,
                encoding: .utf8)
        }
        #expect(emitted == (try BuiltinEngineFixtures.text(name, "json")))
    }

    @Test(arguments: BuiltinEngineCase.all)
    func sameInputSameOutput(_ testCase: BuiltinEngineCase) throws {
        let text = try testCase.sample.text()
        let first = try run(testCase.task, text, concept: testCase.sample.concept, explanation: testCase.sample.explanation)
        let second = try run(testCase.task, text, concept: testCase.sample.concept, explanation: testCase.sample.explanation)
        #expect(first.jsonValue.prettyText == second.jsonValue.prettyText)
    }

    @Test func modelNameIsVersioned() {
        #expect(BuiltinEngine().modelName == "builtin-extractive/\(BuiltinEngine.algorithmVersion)")
        #expect(BuiltinEngine().modelName.hasPrefix("builtin-extractive/"))
    }

    @Test(arguments: BuiltinEngineSample.all)
    func studyKitIsItsParts(_ sample: BuiltinEngineSample) throws {
        let text = try sample.text()
        guard case .studyKit(let kit) = try run(.studyKit, text) else { Issue.record("not a study kit"); return }
        #expect(AnyStudyResult.headline(kit.headline) == (try run(.headline, text)))
        #expect(AnyStudyResult.summary(kit.summary) == (try run(.summary, text)))
        #expect(AnyStudyResult.flashcards(kit.flashcards) == (try run(.flashcards, text)))
        #expect(AnyStudyResult.quiz(kit.quiz) == (try run(.quiz, text)))
        #expect(AnyStudyResult.mindMap(kit.mindMap) == (try run(.mindmap, text)))
    }
}

// MARK: - Headline

@Suite struct BuiltinHeadlineTests {
    private func headline(_ text: String, title: String? = nil) throws -> Headline {
        guard case .headline(let value) = try run(.headline, text, title: title) else { throw CancellationError() }
        return value
    }

    @Test func prefersTheDocumentHeadingAndTheLeadSentence() throws {
        let value = try headline(try BuiltinFixtures.photosynthesis())
        #expect(value.title == "Photosynthesis")
        #expect(value.blurb.hasPrefix("Photosynthesis is the process by which plants"))
    }

    @Test func prefersAShortGivenTitle() throws {
        let value = try headline(try BuiltinFixtures.photosynthesis(), title: "Biology notes, week 3")
        #expect(value.title == "Biology notes, week 3")
    }

    @Test(arguments: [
        "A \"quoted\" title", "One two three four five six seven", String(repeating: "x", count: 61), "  ", "—",
    ])
    func ignoresAGivenTitleThatBreaksTheBounds(_ given: String) throws {
        let value = try headline(try BuiltinFixtures.photosynthesis(), title: given)
        #expect(value.title == "Photosynthesis")
    }

    /// A book's chapter title is too long for a headline with its label and subtitle; the
    /// headline shortens it rather than composing one from key terms ("Packages and Debian").
    @Test(arguments: [
        ("Chapter 6. Maintenance and Updates: The APT Tools", "Maintenance and Updates: The APT Tools"),
        ("Chapter 11. Network Services: Postfix, Apache, NFS, Samba, Squid, LDAP, SIP", "Network Services"),
        ("12.2. Virtualization of Whole Server Farms Today", "Virtualization of Whole Server Farms Today"),
        ("4. More Control Flow Tools", "4. More Control Flow Tools"),
    ])
    func shortensALongChapterTitleToTheChaptersOwn(_ given: String, _ expected: String) throws {
        #expect(try headline(try BuiltinFixtures.photosynthesis(), title: given).title == expected)
        // The same when the page's title is its first heading.
        let text = "# \(given)\n\n" + (try BuiltinFixtures.photosynthesis())
        #expect(try headline(text).title == expected)
    }

    @Test func composesATitleFromKeyTermsWithoutHeadings() throws {
        let value = try headline(try BuiltinEngineFixtures.text("pasted-note", "txt"))
        #expect(value.validationIssues() == [])
        #expect(value.title.split(separator: " ").count <= 6)
        #expect(value.title.first?.isUppercase == true)
        #expect(value.blurb == "The water cycle describes how water moves between the oceans, the air and the land.")
    }

    @Test func shortensALongLeadSentenceToOneSentence() throws {
        let long = (1...50).map { "word\($0)" }.joined(separator: " ")
        let text = "The first sentence of these notes says that " + long + ".\n\nA second sentence follows here."
        let value = try headline(text)
        #expect(value.validationIssues() == [])
        #expect(value.blurb.split(separator: " ").count <= 35)
        #expect(value.blurb.hasSuffix("."))
    }
}

// MARK: - Summary, flashcards, mind map

@Suite struct BuiltinSummaryAndCardsTests {
    @Test(arguments: BuiltinEngineSample.all)
    func summaryQuotesTheSource(_ sample: BuiltinEngineSample) throws {
        let text = oneLine(try sample.text())
        guard case .summary(let summary) = try run(.summary, try sample.text()) else { throw CancellationError() }
        #expect((2...3).contains(ResultProse.sentenceCount(summary.overview)))
        #expect((3...8).contains(summary.keyPoints.count))
        for point in summary.keyPoints {
            let body = point.hasSuffix("…") ? String(point.dropLast()) : point
            #expect(text.contains(body), "\(point)")
        }
    }

    /// Sentences of tables are many words in few characters ("AES | ✔ | ✔ …"): the overview
    /// keeps to the schema's 120 words as well as its 1,000 characters, instead of failing its
    /// own validation (Node.js's webcrypto page: 261 words).
    @Test func anOverviewOfTableRowsKeepsToTheWordBound() throws {
        let marks = Array(repeating: "| ✔", count: 65).joined(separator: " ")
        let table = "The algorithms sign and verify data \(marks) in every mode."
        let prose = [
            "Every algorithm signs data with a private key and verifies it with the public key.",
            "Browsers expose the same interface through the global crypto object on every page.",
            "Random values for nonces come from a secure generator seeded by the operating system.",
            "Exported keys can be written as JSON Web Keys or as raw bytes for storage.",
            "Deriving bits from a password needs a salt and a count of hashing iterations.",
        ]
        let text = ([table] + prose).joined(separator: " ")
        guard case .summary(let summary) = try run(.summary, text) else { throw CancellationError() }
        #expect(oneLine(summary.overview).split(separator: " ").count <= 120)
        #expect(summary.semanticIssues().isEmpty)
    }

    /// A sentence that stops at a comma or colon above the list that finishes it is no point of
    /// its own: shown with a period it reads as a claim it does not make.
    @Test func unfinishedSentencesAreNeitherKeyPointsNorOverview() throws {
        let text = """
            An emitter calls every registered listener when its event is emitted.

            If an async listener returns a promise and the returned promise rejects,

            - the rejection is passed to the error handler of the emitter
            - the process keeps running while the handler deals with it

            The order of registration decides the order in which listeners run.

            A listener added with once runs at most one time and is then removed.

            Listeners for the error event keep a failing emitter from stopping the process.

            The number of listeners per event is limited to ten by default:

            - raising the limit silences the warning about possible leaks
            """
        guard case .summary(let summary) = try run(.summary, text) else { throw CancellationError() }
        for unfinished in ["the returned promise rejects", "ten by default"] {
            #expect(!summary.overview.contains(unfinished))
            #expect(!summary.keyPoints.contains { $0.contains(unfinished) }, "\(summary.keyPoints)")
        }
    }

    /// A card stands alone: never a sentence that stops above the code or list that finishes it,
    /// that breaks off without its end ("…, so that"), or that leans on the one before ("This is
    /// useful when …", "If used, these symbols …"); and never a blank where the sentence says a
    /// term as a verb ("passed" for the term "pass").
    @Test func cardsStandAloneAndBlankNouns() throws {
        let text = """
            A function definition associates the function name with the function object in the symbol table.

            For example, the following function accumulates the arguments passed to it on subsequent calls:

            ```
            def f(a, L=[]):
                L.append(a)
            ```

            This is useful when parameter names have no real meaning for the keyword arguments of the caller.

            If used, these symbols indicate the kind of parameter by how the arguments reach the function body.

            The default values are evaluated at the point of function definition in the defining scope, so that

            The pass statement does nothing and serves as a placeholder for a function body.

            The pass is silently ignored when the interpreter reaches it inside a loop body.

            Keyword arguments are passed by name and positional arguments are passed by position to a function.

            Arguments passed to a function land in the local symbol table of the called function.

            The return statement returns with a value from a function to the caller of the function.

            A docstring is the string literal on the first line of the function body of a function.

            Positional-only parameters are placed before a slash in the parameter list of a function.
            """
        guard case .flashcards(let deck) = try run(.flashcards, text) else { throw CancellationError() }
        #expect(deck.cards.count >= 3)
        for card in deck.cards {
            for leaning in ["the following function accumulates", "This is useful when", "If used, these symbols", "so that"] {
                #expect(!card.quote.contains(leaning), "\(card.quote)")
            }
            #expect(card.answer.lowercased() != "passed", "\(card.question)")
        }
    }

    /// A run-on sentence is cut into pieces for ranking; a piece ("static version of busybox
    /// (…), which is even more") is no sentence of its own, so never a card's quote.
    @Test func aPieceOfARunOnSentenceIsNoCard() throws {
        let runOn = "If your system suffered some even more outrageous fortune, and even these tools do not work because "
            + "the deepest system libraries are missing, you should try the static version of busybox, provided in the "
            + "busybox-static package, which is even more self-contained, and provides subcommands such as busybox ar, "
            + "busybox tar and busybox xz for every package archive and every compressed busybox archive."
        let runOns = [runOn, runOn.replacingOccurrences(of: "If your system", with: "When a machine")]
        let text = runOns + [
                    "The dpkg program handles package files and extracts their archives.",
                    "A package archive holds the control files and the data files of one package.",
                    "The busybox tool replaces many small programs with one static binary.",
                    "The xz compressor makes package archives smaller than gzip does."]
        guard case .flashcards(let deck) = try run(.flashcards, text.joined(separator: "\n\n")) else { throw CancellationError() }
        for card in deck.cards {
            #expect(!runOns.contains { $0.contains(card.quote) && $0 != card.quote }, "a piece as a card: \(card.quote)")
        }
    }

    /// A manual's prototype, central as it is (it names every term), is neither in the overview nor a key point.
    @Test func aPrototypeIsNoSentenceOfTheSummary() throws {
        let text = """
            int kit_encode_element (kit_node element, const char * name, void * buffer, int * length).

            The kit encoding library writes each element of a record into a buffer as a tag, a length and a value.

            The buffer must hold the whole element, and the length then says how many bytes of the buffer were written.

            When the element has no value, the encoder returns an error code and leaves the buffer and the length unchanged.

            A name selects the element inside the record, and an unknown name is an error as well.

            Decoders read the tag first, so a reader can skip any element whose tag it does not know.

            Every record starts with a version byte that tells the decoder which rules the encoder followed.

            Lengths above 127 bytes take several bytes of their own, with the first byte giving their count.

            Strings are stored without a terminating null byte, because the length already says where they end.

            Nested records are encoded inside their parent element, one level of tags for each level of nesting.
            """
        guard case .summary(let summary) = try run(.summary, text) else { throw CancellationError() }
        #expect(!summary.overview.contains("kit_encode_element"), "\(summary.overview)")
        #expect(!summary.keyPoints.contains { $0.contains("kit_encode_element") })
    }

    @Test func keyPointsComeFromDifferentSections() throws {
        let text = try BuiltinFixtures.photosynthesis()
        guard case .summary(let summary) = try run(.summary, text) else { throw CancellationError() }
        let outline = DocumentOutline(text: text)
        let sections = summary.keyPoints.compactMap { point in
            outline.units.firstIndex { oneLine($0.text) == point }.map { outline.sectionOfUnit[$0] }
        }
        #expect(sections.count == summary.keyPoints.count)
        #expect(Set(sections).count >= 5)
    }

    @Test(arguments: BuiltinEngineSample.all)
    func flashcardsAreClozeDeletionsOfSourceSentences(_ sample: BuiltinEngineSample) throws {
        let text = oneLine(try sample.text())
        guard case .flashcards(let deck) = try run(.flashcards, try sample.text()) else { throw CancellationError() }
        #expect((3...20).contains(deck.cards.count))
        for card in deck.cards {
            #expect(card.question.contains("_____"))
            #expect(text.contains(card.quote))
            #expect(card.quote.contains(card.answer))
            #expect(!card.question.lowercased().contains(card.answer.lowercased()))
        }
    }

    @Test func mindMapFollowsNestedHeadings() throws {
        guard case .mindMap(let map) = try run(.mindmap, try BuiltinEngineFixtures.text("long-article", "md")) else {
            throw CancellationError()
        }
        #expect(map.centralTopic == "The Roman Republic")
        #expect(map.branches.map(\.label) == ["Government", "Society", "Expansion", "The fall of the Republic"])
        #expect(map.branches[0].children.map(\.label) == ["The magistrates", "The Senate", "The assemblies"])
        #expect(map.branches.allSatisfy { $0.children.allSatisfy { !$0.children.isEmpty } })
    }

    @Test func mindMapBranchesAreSectionsWithTheirTerms() throws {
        guard case .mindMap(let map) = try run(.mindmap, try BuiltinFixtures.photosynthesis()) else { throw CancellationError() }
        #expect(map.centralTopic == "Photosynthesis")
        // The "Summary" heading names no idea of the material (and is a field name of the
        // study kit's schema, which the label rules reject): it is no branch.
        #expect(map.branches.map(\.label) == [
            "Where it happens", "The light reactions", "The Calvin cycle", "Limiting factors", "C4 and CAM plants",
        ])
        #expect(map.branches.contains { !$0.children.isEmpty })
    }

    /// A numbered document: the numbers leave the labels (a heading whose words alone would be
    /// refused, "Overview", is named with the centre), and a subtitle heading with nothing under
    /// it is no branch.
    @Test(arguments: [
        ("Enzymes and substrates", ["Enzymes and substrates", "Measuring reaction rates", "Temperature and pH effects"]),
        ("Overview", ["Overview of Enzyme Kinetics", "Measuring reaction rates", "Temperature and pH effects"]),
    ])
    func mindMapNumberedHeadings(firstTitle: String, expected: [String]) throws {
        let text = """
            # Enzyme Kinetics

            ## Chemistry 210, Unit 3

            ## 1. \(firstTitle)
            Enzymes bind their substrates at the active site and lower the activation energy of the reaction. Each enzyme works on a small set of substrates because of the shape of its active site.

            ## 2. Measuring reaction rates
            The rate of an enzyme reaction is measured as product formed per second. At high substrate concentration the enzyme is saturated and the rate reaches its maximum.

            ## 3. Temperature and pH effects
            Enzyme activity rises with temperature until the protein denatures. Every enzyme has an optimum pH at which its active site keeps its shape.
            """
        guard case .mindMap(let map) = try run(.mindmap, text) else { throw CancellationError() }
        #expect(map.branches.map(\.label) == expected)
    }

    /// A printed manual numbers its chapters; the short lines between them that read as headings
    /// (a table's "Size", a listed constant, a line of code) are no branches.
    @Test func inANumberedDocumentUnnumberedHeadingLinesAreNoBranches() throws {
        let text = """
            bzip2 manual

            1. Introduction

            bzip2 compresses files using the Burrows-Wheeler block-sorting compression algorithm and Huffman coding. Compression is generally better than that of more conventional compressors.

            2. How to use bzip2

            bzip2 expects a list of file names to go with the command-line flags. Each file is replaced by a compressed version of itself, with the name of the original and the suffix bz2.

            Size

            Each block is compressed with a block size set by the flags, from 100k to 900k bytes, and the same size is needed again to decompress it.

            3. Programming with libbzip2

            The library offers a low-level interface for streams and a high-level interface for files, and every function returns an error code.

            BZ_OUTBUFF_FULL

            The output buffer was too small for the compressed data, so the caller must pass a larger buffer and try again.

            LEN = strlen(VALUE)+1

            The length of a string value counts its terminating null byte, so the caller adds one to the length of the text.
            """
        guard case .mindMap(let map) = try run(.mindmap, text) else { throw CancellationError() }
        #expect(map.branches.map(\.label) == ["Introduction", "How to use bzip2", "Programming with libbzip2"])
    }

    @Test func mindMapClustersKeyTermsWithoutHeadings() throws {
        guard case .mindMap(let map) = try run(.mindmap, try BuiltinEngineFixtures.text("pasted-note", "txt")) else {
            throw CancellationError()
        }
        #expect(map.branches.count >= 2)
        #expect(map.branches.contains { !$0.children.isEmpty })
        let labels = map.branches.flatMap { [$0.label] + $0.children.map(\.label) }
        #expect(Set(labels.map { $0.lowercased() }).count == labels.count)
    }
}

// MARK: - Quiz

@Suite struct BuiltinQuizTests {
    private func quizAndDeck(_ text: String) throws -> (Quiz, Flashcards) {
        guard case .quiz(let quiz) = try run(.quiz, text), case .flashcards(let deck) = try run(.flashcards, text) else {
            throw CancellationError()
        }
        return (quiz, deck)
    }

    @Test(arguments: BuiltinEngineSample.all)
    func theRightChoiceIsTheClozeAnswer(_ sample: BuiltinEngineSample) throws {
        let (quiz, deck) = try quizAndDeck(try sample.text())
        #expect((3...10).contains(quiz.questions.count))
        for question in quiz.questions {
            let card = try #require(deck.cards.first { $0.question == question.prompt })
            #expect(question.choices[question.answerIndex] == card.answer)
            #expect(question.prompt.contains("_____"))
            #expect(question.explanation.contains(card.quote))
        }
    }

    @Test(arguments: BuiltinEngineSample.all)
    func choicesAreDistinctAndPositionsVary(_ sample: BuiltinEngineSample) throws {
        let (quiz, _) = try quizAndDeck(try sample.text())
        for question in quiz.questions {
            #expect(question.choices.count == 4)
            #expect(Set(question.choices.map { oneLine($0.lowercased()) }).count == 4)
        }
        #expect(Set(quiz.questions.map(\.answerIndex)).count > 1)
    }
}

// MARK: - Feynman

@Suite struct BuiltinFeynmanTests {
    private let engine = BuiltinEngine()

    private func feedback(_ explanation: String?, concept: String = "photosynthesis") throws -> FeynmanFeedback {
        guard case .feynman(let value) = try run(.feynman, try BuiltinFixtures.photosynthesis(), concept: concept,
                                                 explanation: explanation)
        else { throw CancellationError() }
        return value
    }

    /// The key terms the claim check measures coverage against, for an explanation that covers none.
    private func keyTerms(concept: String = "photosynthesis") throws -> [String] {
        let check = engine.feynmanCheck(
            BuiltinAnalysis(text: try BuiltinFixtures.photosynthesis(), title: nil), concept: concept, explanation: "Unsure.")
        #expect(check.coveredTerms.isEmpty)
        return check.missedTerms.map(\.text)
    }

    @Test func moreKeyTermsScoreHigher() throws {
        let terms = try keyTerms()
        #expect(terms.count >= 3)
        let few = try feedback("It is about " + terms[0] + ".")
        let many = try feedback(terms.map { "It is about \($0)." }.joined(separator: " "))
        #expect(many.score > few.score)
        #expect(many.whatWasRight.count > few.whatWasRight.count)
        #expect(many.gaps.count < few.gaps.count)
    }

    @Test func allKeyTermsIsSolid() throws {
        // Inflected forms count: stems are compared, so plurals and singulars meet.
        let terms = try keyTerms()
        let value = try feedback("Photosynthesis involves " + terms.joined(separator: " and ") + ".")
        #expect(value.verdict == .solid)
        #expect(value.score == 10)
        #expect(value.gaps.isEmpty)
    }

    @Test func anUnsureAnswerIsTooVagueToCheck() throws {
        let value = try feedback("Unsure.")
        #expect(value.verdict == .confused)
        #expect(value.gaps.first?.point.contains("too vague") == true)
        #expect(value.whatWasRight.isEmpty)
    }

    @Test(arguments: [nil, "", "   \n "] as [String?])
    func aMissingExplanationIsReported(_ explanation: String?) throws {
        let value = try feedback(explanation)
        #expect(value.score <= 2)
        #expect(value.verdict == .confused)
        #expect(value.whatWasRight.isEmpty)
        #expect(value.gaps.count >= 2)
        #expect(value.gaps[0].point.contains("No explanation"))
        #expect(value.validationIssues() == [])
    }

    @Test func gapsQuoteTheSourceAndTheQuestionIsAboutTheFirstGap() throws {
        let text = oneLine(try BuiltinFixtures.photosynthesis())
        let value = try feedback("Plants use sunlight.")
        // The question follows the first gap: back to the concept after a wrong claim, else to the first term left out.
        let first = try #require(value.gaps.first)
        if first.point.hasPrefix("You said") {
            #expect(value.followUpQuestion.contains("photosynthesis"))
        } else {
            #expect(value.followUpQuestion.contains(first.point.dropFirst("Your explanation leaves out ".count).dropLast()))
        }
        for gap in value.gaps {
            let quote = try #require(gap.correction.split(separator: "“").last?.split(separator: "”").first)
            let body = quote.hasSuffix("…") ? String(quote.dropLast()) : String(quote)
            #expect(text.contains(body))
        }
    }

    @Test func withoutAConceptTheMainTopicIsUsed() throws {
        guard case .feynman(let value) = try run(.feynman, try BuiltinFixtures.photosynthesis(), explanation: "Plants make sugar.")
        else { throw CancellationError() }
        #expect(value.validationIssues() == [])
        #expect(value.followUpQuestion.contains("Photosynthesis"))
    }
}

// MARK: - Edge cases

/// A text the engine must survive: every task gives a valid result or a clear `BuiltinError`.
struct BuiltinEdgeText: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    var testDescription: String { name }

    static let all: [BuiltinEdgeText] = [
        BuiltinEdgeText(name: "two sentences", text: "Mitochondria produce most of the cell's energy. They have their own DNA."),
        BuiltinEdgeText(name: "one word", text: "Photosynthesis"),
        BuiltinEdgeText(
            name: "no punctuation",
            // Six different statements run together: one statement said six times has no summary
            // whose points are not near-copies of each other.
            text: [
                "plants take in carbon dioxide and water and use the energy of sunlight to build glucose and release oxygen into the air around the leaves",
                "chlorophyll inside the chloroplasts absorbs red and blue light while green light is reflected which is why most leaves look green to us",
                "the light reactions split water molecules in the thylakoid membranes and store energy in ATP and NADPH for the next stage of the process",
                "the Calvin cycle runs in the stroma where the enzyme rubisco fixes carbon dioxide into sugars using that stored chemical energy",
                "temperature light intensity and carbon dioxide concentration all limit how fast photosynthesis can run on a given summer day",
                "desert plants such as cacti open their stomata only at night and store carbon as malic acid to save water during the hot daytime hours",
                "maize and sugar cane first fix carbon dioxide into a four carbon compound inside mesophyll cells before the bundle sheath releases it again",
                "nearly every food chain on land starts with this captured solar energy so grazing animals and their predators depend on green plants too",
            ].joined(separator: " ")),
        BuiltinEdgeText(
            name: "german",
            text: """
                Die Fotosynthese ist ein Prozess, bei dem Pflanzen Lichtenergie in chemische Energie umwandeln. \
                Dabei nehmen sie Kohlendioxid und Wasser auf und geben Sauerstoff ab. \
                Die Lichtreaktionen finden in den Thylakoiden der Chloroplasten statt. \
                Der Calvin-Zyklus findet im Stroma statt und baut aus Kohlendioxid Zucker auf. \
                Ohne Fotosynthese gäbe es kaum Sauerstoff in der Atmosphäre.
                """),
        BuiltinEdgeText(
            name: "japanese",
            text: "光合成は植物が光のエネルギーを使って糖を作る仕組みです。葉緑体の中で行われます。二酸化炭素と水から酸素が生まれます。光の強さや温度が速さに影響します。"),
        BuiltinEdgeText(name: "headings only", text: "# Biology\n\n## Cells\n\n## Energy"),
        BuiltinEdgeText(name: "list", text: "- carbon dioxide\n- water\n- light\n- chlorophyll\n- glucose and oxygen"),
        BuiltinEdgeText(name: "quotes and symbols", text: "\"Quoted\" «text» — with “marks”! Is it fine? Yes: it is “fine”, really."),
        BuiltinEdgeText(name: "repeated sentence", text: String(repeating: "Cells divide by mitosis. ", count: 8)),
    ]
}

@Suite struct BuiltinEdgeCaseTests {
    @Test(arguments: BuiltinEdgeText.all)
    func neverInvalidNeverACrash(_ edge: BuiltinEdgeText) throws {
        for task in StudyTask.allCases {
            do {
                let result = try run(task, edge.text, concept: "energy", explanation: "It makes energy.")
                #expect(result.value.validationIssues() == [], "\(task)")
                #expect(try decodeResult(for: task, json: result.jsonValue) == result)
            } catch let error as BuiltinError {
                guard case .tooShort(let failed, _) = error else {
                    Issue.record("\(task): unexpected \(error)")
                    continue
                }
                #expect(failed == task)
                #expect(error.exitCode == .dataError)
                #expect(error.message.hasPrefix("the text is too short for "))
            }
        }
    }

    /// Texts assembled from awkward pieces (abbreviations, decimals, quotes, bullets, headings,
    /// emoji, ideographs, line breaks) by a fixed-seed generator: every task on every text gives
    /// a valid result or `tooShort`.
    @Test(arguments: 0..<24)
    func generatedTextsNeverGiveInvalidResults(_ seed: Int) throws {
        let pieces = [
            "Dr. Smith", "e.g. this", "the U.S. Army", "3.14", "1905", "\"quoted\"", "“curly”", "«guillemets»",
            "photosynthesis", "carbon dioxide", "Calvin cycle", "ATP", "light reactions", "mitochondria", "the",
            "and", "of", "is", "were", "plants", "energy", "water", "🌱", "光合成", "é", "naïve café", "—", "(aside)",
            ".", ".", ".", "?", "!", ",", ";", ":", "…", "\n", "\n\n", "\n\n## Section\n\n", "\n- ", "\n1. ", "#",
        ]
        var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let length = 5 + next(400)
        let text = (0..<length).map { _ in pieces[next(pieces.count)] }.joined(separator: " ")
        for task in StudyTask.allCases {
            do {
                let result = try run(task, text, title: next(2) == 0 ? nil : pieces[next(pieces.count)],
                                     concept: "energy", explanation: next(3) == 0 ? nil : "plants and energy")
                #expect(result.value.validationIssues() == [], "\(task): \(text)")
            } catch let error as BuiltinError {
                switch error {
                case .tooShort(let failed, _): #expect(failed == task)
                case .emptyText: break
                case .invalidResult: Issue.record("\(task): \(error.message) for \(text)")
                }
            }
        }
    }

    @Test func aTwoSentenceTextStillGetsAHeadline() throws {
        let text = BuiltinEdgeText.all[0].text
        guard case .headline(let value) = try run(.headline, text) else { throw CancellationError() }
        #expect(value.validationIssues() == [])
        #expect(value.blurb == "Mitochondria produce most of the cell's energy.")
    }

    @Test func aTwoSentenceQuizIsValidOrTheClearError() throws {
        do {
            let result = try run(.quiz, BuiltinEdgeText.all[0].text)
            #expect(result.value.validationIssues() == [])
        } catch let error as BuiltinError {
            #expect(error == .tooShort(task: .quiz, usableSentences: 2))
            #expect(error.message == "the text is too short for a quiz: it has 2 usable sentences; add more material")
        }
    }

    @Test func textWithoutPunctuationIsCutIntoUsableChunks() throws {
        let text = BuiltinEdgeText.all[2].text
        for task in [StudyTask.headline, .summary, .flashcards, .quiz] {
            #expect(try run(task, text).value.validationIssues() == [])
        }
    }

    @Test func aKitThatCannotBeBuiltNamesTheKit() {
        #expect(throws: BuiltinError.tooShort(task: .studyKit, usableSentences: 0)) { try run(.studyKit, "Photosynthesis") }
    }

    @Test func listMarkersAreLeftOutOfProse() throws {
        let text = BuiltinEdgeText.all.first { $0.name == "list" }!.text
        guard case .headline(let headline) = try run(.headline, text) else { throw CancellationError() }
        #expect(headline.blurb == "Glucose and oxygen.")
        guard case .feynman(let feedback) = try run(.feynman, text, concept: "photosynthesis", explanation: "Light.") else {
            throw CancellationError()
        }
        #expect(!feedback.gaps.contains { $0.correction.contains("“-") })
    }

    @Test func foreignFunctionWordsAreNoKeyTerms() throws {
        let text = BuiltinEdgeText.all.first { $0.name == "german" }!.text
        guard case .headline(let headline) = try run(.headline, text) else { throw CancellationError() }
        #expect(headline.title == "Fotosynthese and Kohlendioxid")
        guard case .flashcards(let deck) = try run(.flashcards, text) else { throw CancellationError() }
        let answers = Set(deck.cards.map { $0.answer.lowercased() })
        #expect(answers.isDisjoint(with: ["der", "die", "und", "auf", "ist"]))
    }

    @Test func ideographTermsAreShownWithoutSpaces() throws {
        let text = BuiltinEdgeText.all.first { $0.name == "japanese" }!.text
        guard case .quiz(let quiz) = try run(.quiz, text) else { throw CancellationError() }
        #expect(quiz.questions.allSatisfy { $0.choices.allSatisfy { !$0.contains(" ") } })
        guard case .headline(let headline) = try run(.headline, text) else { throw CancellationError() }
        #expect(headline.title.hasPrefix("光合成は"))
    }

    @Test(arguments: ["", "   \n\t ", "!!! ??? ..."])
    func textWithoutWordsIsAnError(_ text: String) {
        #expect(throws: BuiltinError.emptyText) { try run(.headline, text) }
        #expect(BuiltinError.emptyText.exitCode == .dataError)
    }

    @Test func errorMessages() {
        #expect(BuiltinError.tooShort(task: .quiz, usableSentences: 1).message
            == "the text is too short for a quiz: it has 1 usable sentence; add more material")
        #expect(BuiltinError.tooShort(task: .mindmap, usableSentences: 0).message
            == "the text is too short for a mind map: it has 0 usable sentences; add more material")
        let invalid = BuiltinError.invalidResult(task: .summary, issues: [ValidationIssue(path: "overview", message: "is empty")])
        #expect(invalid.exitCode == .failure)
        #expect(invalid.message.contains("overview is empty"))
    }
}
