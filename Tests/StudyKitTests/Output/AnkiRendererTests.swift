import Testing
@testable import StudyKit

@Suite struct AnkiRendererTests {
    /// The file split like Anki's reader does: `#` lines before the first note are headers;
    /// records are separated by newlines outside quotes; a field that starts with `"` runs to
    /// the next lone `"`, and `""` inside it is one quote.
    struct ParsedFile {
        var headers: [String] = []
        var records: [[String]] = []
    }

    static func parse(_ text: String) throws -> ParsedFile {
        var file = ParsedFile()
        var lines = Substring(text)
        while lines.hasPrefix("#"), let end = lines.firstIndex(of: "\n") {
            file.headers.append(String(lines[..<end]))
            lines = lines[lines.index(after: end)...]
        }
        var characters = Array(lines)[...]
        var record: [String] = []
        var field = ""
        while let character = characters.first {
            characters = characters.dropFirst()
            if field.isEmpty && character == "\"" {
                // Quoted field.
                var closed = false
                while let next = characters.first {
                    characters = characters.dropFirst()
                    if next == "\"" {
                        if characters.first == "\"" {
                            field.append("\"")
                            characters = characters.dropFirst()
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        field.append(next)
                    }
                }
                try #require(closed, "unterminated quoted field")
                let after = characters.first
                try #require(after == nil || after == "\t" || after == "\n", "text after a closing quote")
                continue
            }
            switch character {
            case "\t":
                record.append(field)
                field = ""
            case "\n":
                record.append(field)
                file.records.append(record)
                record = []
                field = ""
            default:
                try #require(character != "\"", "a quote inside an unquoted field")
                field.append(character)
            }
        }
        try #require(record.isEmpty && field.isEmpty, "the last record has no newline")
        return file
    }

    static let context = OutputFixtures.context()

    @Test func headersFollowAnkisManual() throws {
        let file = try Self.parse(AnkiRenderer.render(OutputFixtures.nastyFlashcards, context: Self.context))
        #expect(file.headers == [
            "#separator:tab", "#html:false", "#notetype:Basic", "#deck:Biology::Cells", "#guid column:1", "#tags column:4",
            "#columns:GUID\tFront\tBack\tTags",
        ])
    }

    @Test(arguments: [
        AnkiRenderer.render(OutputFixtures.nastyFlashcards, context: context),
        AnkiRenderer.render(OutputFixtures.nastyQuiz, context: context),
        AnkiRenderer.render(OutputFixtures.cleanKit.flashcards, context: context),
    ])
    func everyRowHasTheDeclaredColumns(_ text: String) throws {
        let file = try Self.parse(text)
        #expect(!file.records.isEmpty)
        for record in file.records {
            #expect(record.count == AnkiRenderer.columns.count, "\(record)")
            #expect(!(record.first?.hasPrefix("#") ?? true))
        }
    }

    @Test func fieldsRoundTripThroughTheQuotingRules() throws {
        let file = try Self.parse(AnkiRenderer.render(OutputFixtures.nastyFlashcards, context: Self.context))
        let cards = OutputFixtures.nastyFlashcards.cards
        try #require(file.records.count == cards.count)
        #expect(file.records[0][1] == "What is \"ATP\"?")
        #expect(file.records[0][2] == "Adenosine\ttriphosphate\n\n“ATP is the cell's \"energy currency\".”\n— Cells 101")
        #expect(file.records[1][1] == "# Where does glycolysis happen?")
        #expect(file.records[1][2].hasPrefix("In the cytoplasm\n(not the mitochondria)"))
        #expect(file.records[2][1] == "Which ion flows through ATP synthase?")
        #expect(file.records[2][2] == "H+ <protons> & nothing else\n\n“click Protons flow back through the enzyme 👩‍🔬.”\n— Cells 101")
        // No document to find the quotes in: the task's tag, no section tag.
        for record in file.records { #expect(record[3] == "studykit cell_biology studykit::flashcards") }
    }

    @Test func quotesOnlyFieldsThatNeedIt() {
        let nasty = AnkiRenderer.render(OutputFixtures.nastyFlashcards, context: Self.context)
        #expect(nasty.contains("\t\"What is \"\"ATP\"\"?\"\t"))
        let clean = AnkiRenderer.render(OutputFixtures.cleanKit.flashcards, context: Self.context)
        #expect(clean.contains("\tWhat is ATP?\t\"The cell's energy currency.\n"))
        #expect(clean.contains("\tstudykit cell_biology studykit::flashcards\n"))
        #expect(!clean.contains("\"studykit"))
    }

    @Test func quizCardsShowLetteredChoicesAndTheAnswer() throws {
        let file = try Self.parse(AnkiRenderer.render(OutputFixtures.cleanKit.quiz, context: Self.context))
        #expect(file.records[0][1] == "Where does the Krebs cycle run?\nA. Cytoplasm\nB. Mitochondrial matrix\nC. Nucleus\nD. Cell wall")
        #expect(file.records[0][2] == "B. Mitochondrial matrix\n\nIt runs in the mitochondrial matrix.\n\n“The Krebs cycle runs in the mitochondrial matrix.”\n— Cells 101")
    }

    // MARK: - GUIDs

    static func guids(_ flashcards: Flashcards, source: String = "/notes/cells.pdf") throws -> [String] {
        try parse(AnkiRenderer.render(flashcards, context: OutputFixtures.context(source: source))).records.map { $0[0] }
    }

    static func deck(_ questions: [String]) -> Flashcards {
        Flashcards(cards: questions.map { .init(question: $0, answer: "answer", quote: "quote") })
    }

    @Test func guidsAreStableAcrossRuns() throws {
        let first = try Self.guids(OutputFixtures.cleanKit.flashcards)
        let second = try Self.guids(OutputFixtures.cleanKit.flashcards)
        #expect(first == second)
        #expect(Set(first).count == first.count)
    }

    @Test func guidsIgnoreTheAnswerSoAnUpdatedCardUpdatesItsNote() throws {
        let before = Flashcards(cards: [.init(question: "What is ATP?", answer: "Energy.", quote: "q")])
        let after = Flashcards(cards: [.init(question: "What is ATP?", answer: "The energy currency.", quote: "other")])
        #expect(try Self.guids(before) == Self.guids(after))
    }

    @Test func guidsDifferForDifferentQuestions() throws {
        let guids = try Self.guids(Self.deck(["What is ATP?", "What is ADP?", "What is NADH?"]))
        #expect(Set(guids).count == 3)
    }

    @Test func guidsDifferForDifferentSources() throws {
        let deck = Self.deck(["What is ATP?"])
        #expect(try Self.guids(deck, source: "/notes/a.pdf") != Self.guids(deck, source: "/notes/b.pdf"))
    }

    @Test(arguments: ["  What is ATP?", "What  is\tATP?", "What is\nATP? ", "what is atp?", "What is ATP?\u{200B}", "What is \u{1b}[1mATP?"])
    func guidsIgnoreWhitespaceCaseAndInvisibleChanges(_ variant: String) throws {
        #expect(try Self.guids(Self.deck([variant])) == Self.guids(Self.deck(["What is ATP?"])))
    }

    @Test func guidsIgnoreUnicodeComposition() throws {
        #expect(try Self.guids(Self.deck(["Qu'est-ce que l'e\u{301}nergie?"])) == Self.guids(Self.deck(["Qu'est-ce que l'\u{e9}nergie?"])))
    }

    @Test func flashcardAndQuizNotesNeverShareAGUID() {
        let context = Self.context
        #expect(AnkiRenderer.guid(kind: "card", question: "What?", context: context)
            != AnkiRenderer.guid(kind: "quiz", question: "What?", context: context))
    }

    @Test func guidFromAHexSHA256DigestIs22Base62Characters() {
        let sha = RenderContext(sourceIdentity: "s", digest: { _ in String(repeating: "ff", count: 32) })
        let guid = AnkiRenderer.guid(kind: "card", question: "q", context: sha)
        // 2^128 - 1 in base 62.
        #expect(guid == "7n42DGM5Tflk9n8mt7Fhc7")
        #expect(guid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test(arguments: [([UInt8]([0]), "00"), ([0, 0, 0, 0, 0, 0, 0, 1], "00000000001"), ([0, 0, 0, 0, 0, 0, 0, 62], "00000000010"),
                      ([255], "47")])
    func base62IsFixedWidth(_ bytes: [UInt8], _ expected: String) {
        #expect(AnkiRenderer.base62(bytes) == expected)
    }

    @Test func aNonHexDigestStillGivesAStableGUID() {
        let context = RenderContext(sourceIdentity: "s", digest: { "not hex: " + $0.suffix(3) })
        let guid = AnkiRenderer.guid(kind: "card", question: "abc", context: context)
        #expect(guid == AnkiRenderer.guid(kind: "card", question: "ABC", context: context))
        #expect(guid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
