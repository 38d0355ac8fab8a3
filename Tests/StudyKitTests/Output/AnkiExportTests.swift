import Foundation
import Testing
@testable import StudyKit

/// Cloze notes in the TSV, the card kind they come from, and where a note's quote was found.
@Suite struct AnkiClozeTests {
    static let context = OutputFixtures.context()

    static let clozeDeck = Flashcards(cards: [
        .init(question: "The _____ holds the enzymes of the Calvin cycle.", answer: "stroma",
              quote: "The stroma holds the enzymes of the Calvin cycle.", kind: .cloze),
        .init(question: "Light is caught by ______ in the thylakoids.", answer: "chlorophyll",
              quote: "Chlorophyll, a green pigment, catches light in the thylakoid membranes.", kind: .cloze, hint: "a pigment"),
        .init(question: "Rubisco fixes ___ and, when hot, ___ too.", answer: "CO2", quote: "Rubisco fixes CO2.", kind: .cloze),
    ])

    @Test func aCardWithoutAKindIsAClozeWhenItsQuestionHasABlank() throws {
        let json = try JSONValue.parse(#"""
            {"cards": [
              {"question": "The _____ holds the enzymes of the Calvin cycle.", "answer": "stroma", "quote": "The stroma holds the enzymes."},
              {"question": "Where is chlorophyll?", "answer": "In the thylakoids.", "quote": "Chlorophyll sits in the thylakoids."},
              {"question": "What does the cycle make?", "answer": "Sugar.", "quote": "The cycle makes sugar.", "kind": null, "hint": null}
            ]}
            """#)
        let deck = try Flashcards.decode(json: json)
        #expect(deck.cards.map(\.kind) == [.cloze, .question, .question])
        #expect(deck.cards.map(\.hint) == [nil, nil, nil])
        // Written back, the kind is explicit, and reads the same.
        #expect(deck.jsonValue["cards"]?.arrayValue?.first?["kind"] == "cloze")
        #expect(try Flashcards.decode(json: deck.jsonValue) == deck)
        #expect(Flashcards.Card.Kind.inferred(from: "Fill in: __") == .question, "two underscores are no blank")
    }

    @Test func builtinCardsAreClozeCards() throws {
        let text = "Photosynthesis happens in chloroplasts. The Calvin cycle builds sugar from carbon dioxide in the stroma. "
            + "Chlorophyll absorbs red and blue light in the thylakoid membranes. Oxygen is released when water is split by light. "
            + "The light reactions make ATP and NADPH for the Calvin cycle."
        let cards = try BuiltinEngine().flashcards(BuiltinAnalysis(text: text, title: nil)).cards
        #expect(!cards.isEmpty)
        for card in cards {
            #expect(card.kind == .cloze)
            #expect(card.question.contains("_____"))
        }
    }

    @Test func clozeCardsBecomeClozeNotesWithTheAnswerInTheDeletion() throws {
        let file = try AnkiRendererTests.parse(AnkiRenderer.render(Self.clozeDeck, context: Self.context))
        #expect(file.headers.contains("#notetype:Cloze"))
        #expect(file.headers.last == "#columns:GUID\tText\tBack Extra\tTags")
        #expect(file.records.map { $0[1] } == [
            "The {{c1::stroma}} holds the enzymes of the Calvin cycle.",
            "Light is caught by {{c1::chlorophyll::a pigment}} in the thylakoids.",
            "Rubisco fixes {{c1::CO2}} and, when hot, {{c1::CO2}} too.",
        ])
        // A cloze cut from its quote would only repeat the sentence: the back names the source alone.
        #expect(file.records[0][2] == "— Cells 101")
        #expect(file.records[1][2] == "“Chlorophyll, a green pigment, catches light in the thylakoid membranes.”\n— Cells 101")
        // GUIDs are the card's, whatever its note type.
        #expect(file.records[0][0] == AnkiRenderer.guid(kind: "card", question: Self.clozeDeck.cards[0].question, context: Self.context))
    }

    @Test func aClozeThatAnkiWouldMisreadStaysBasic() {
        #expect(AnkiNotes.clozeText("The _____ is here.", answer: "a::b", hint: nil) == nil)
        #expect(AnkiNotes.clozeText("The _____ is here.", answer: "x", hint: "{{y}}") == nil)
        #expect(AnkiNotes.clozeText("No blank here.", answer: "x", hint: nil) == nil)
        #expect(AnkiNotes.clozeText("A __ and a ____.", answer: "x", hint: "") == "A __ and a {{c1::x}}.")
        let deck = Flashcards(cards: [.init(question: "The _____ is here.", answer: "a::b", quote: "The a::b is here.", kind: .cloze)])
        #expect(AnkiNotes.notes(deck, context: Self.context).map(\.type) == [.basic])
    }

    @Test func aMixedDeckIsOneFileWithANoteTypeColumnOrTwoFiles() throws {
        var mixed = OutputFixtures.cleanKit.flashcards
        mixed.cards += Self.clozeDeck.cards
        let single = try AnkiRendererTests.parse(AnkiRenderer.render(mixed, context: Self.context))
        #expect(single.headers.contains("#notetype column:2"))
        #expect(single.headers.contains("#tags column:5"))
        #expect(single.records.map { $0[1] } == ["Basic", "Basic", "Basic", "Cloze", "Cloze", "Cloze"])
        #expect(single.records.allSatisfy { $0.count == 5 })

        let files = AnkiRenderer.files(mixed, context: Self.context)
        #expect(files.map(\.name) == ["cards.tsv", "cloze.tsv"])
        let basic = try AnkiRendererTests.parse(files[0].contents), cloze = try AnkiRendererTests.parse(files[1].contents)
        #expect(basic.headers.contains("#notetype:Basic") && cloze.headers.contains("#notetype:Cloze"))
        #expect(basic.records.map { $0[0] } + cloze.records.map { $0[0] } == single.records.map { $0[0] })
        #expect(AnkiRenderer.files(Self.clozeDeck, context: Self.context).map(\.name) == ["cards.tsv"])
    }

    @Test func aQuoteFoundInThePDFNamesItsPageAndTagsItsSection() throws {
        let text = "Photosynthesis\n\nPlants make sugar from light.\n\nThe Calvin cycle\n\nThe stroma holds the enzymes\nof the Calvin cycle."
        let secondPage = text.count - 60
        let document = Document(
            text: text, title: "Plant notes", kind: .pdf, origin: "notes.pdf",
            pages: [PageSpan(page: 1, range: 0..<secondPage), PageSpan(page: 2, range: secondPage..<text.count)])
        let locator = QuoteLocator(document: document)
        let location = try #require(locator.locate("the stroma holds the enzymes of the  Calvin cycle."))
        #expect(location.page == 2 && location.section == "The Calvin cycle" && location.sectionPath == ["The Calvin cycle"])
        #expect(location.group == nil, "no section has 500 characters: the deck has no subdecks")
        #expect(locator.locate("Nothing like this sentence is in the notes.") == nil)
        var context = Self.context
        context.quoteLocator = locator
        let file = try AnkiRendererTests.parse(AnkiRenderer.render(Self.clozeDeck, context: context))
        #expect(file.records[0][2] == "— Cells 101, p. 2")
        #expect(file.records[0][3] == "studykit cell_biology studykit::flashcards section::The_Calvin_cycle")
    }
}

/// The `.apkg`: a zip whose collection Anki's legacy importer reads, opened here with our own
/// SQLite and a zip reader written from the format (Anki itself checks it in scripts/check-apkg).
@Suite struct AnkiPackageTests {
    static let now = Date(timeIntervalSince1970: 1_764_590_400)  // 2025-12-01 12:00:00 UTC

    static var deck: Flashcards {
        var cards = OutputFixtures.nastyFlashcards
        cards.cards += AnkiClozeTests.clozeDeck.cards
        return cards
    }

    /// The entries of a zip, read through its central directory, each checked against its local
    /// header and its CRC-32, and inflated when deflated.
    static func unzip(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        try unzipEntries(bytes).mapValues(\.bytes)
    }

    /// Each entry's method (0 stored, 8 deflated), size in the archive and bytes.
    static func unzipEntries(_ bytes: [UInt8]) throws -> [String: (method: Int, packedSize: Int, bytes: [UInt8])] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let end = bytes.count - 22
        try #require(end > 0 && u32(end) == 0x0605_4B50, "end of central directory record at the end")
        let count = u16(end + 10)
        var at = u32(end + 16)
        #expect(at + u32(end + 12) == end, "the central directory ends where the end record starts")
        var entries: [String: (method: Int, packedSize: Int, bytes: [UInt8])] = [:]
        for _ in 0..<count {
            try #require(u32(at) == 0x0201_4B50, "central directory header")
            let (method, crc, packedSize, size, nameLength, local) = (
                u16(at + 10), u32(at + 16), u32(at + 20), u32(at + 24), u16(at + 28), u32(at + 42))
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            try #require(method == 0 || method == 8, "stored or deflated: \(name)")
            try #require(u32(local) == 0x0403_4B50, "local header of \(name)")
            #expect(u16(local + 8) == method && u32(local + 14) == crc && u32(local + 18) == packedSize && u32(local + 22) == size,
                    "local and central headers agree for \(name)")
            #expect(u16(local + 4) == (method == 8 ? 20 : 10), "the version needed to extract \(name)")
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            let packed = Array(bytes[start..<(start + packedSize)])
            let data = try #require(method == 8 ? Zlib.inflate(packed, size: size) : packed, "\(name) inflates to \(size) bytes")
            #expect(data.count == size)
            #expect(ZipArchive.crc32(data) == UInt32(crc), "CRC-32 of \(name)")
            entries[name] = (method, packedSize, data)
            at += 46 + nameLength + u16(at + 30) + u16(at + 32)
        }
        return entries
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(ZipArchive.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(ZipArchive.crc32([]) == 0)
    }

    /// The collection (mostly empty SQLite pages and repeated note-type JSON) is deflated; the
    /// two-byte media map, which deflate would only grow, stays stored. Python's `zipfile` (what
    /// scripts/check-apkg, and Anki's own importer, open a package with) reads both.
    @Test func theCollectionIsDeflatedAndATinyEntryStaysStored() throws {
        let bytes = try AnkiPackage.bytes(for: .flashcards(Self.deck), context: AnkiClozeTests.context, now: Self.now)
        let entries = try Self.unzipEntries(bytes)
        let collection = try #require(entries["collection.anki2"]), media = try #require(entries["media"])
        #expect(collection.method == 8, "deflated")
        #expect(collection.packedSize * 4 < collection.bytes.count, "\(collection.packedSize) of \(collection.bytes.count) bytes")
        #expect(media.method == 0 && media.packedSize == 2, "stored: deflate would not make it smaller")
        #expect(bytes.count < collection.bytes.count / 4, "the package: \(bytes.count) bytes")

        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(UUID().uuidString).apkg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import sys, zipfile, hashlib
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                for info in z.infolist():
                    print(info.filename, info.compress_type, info.file_size, hashlib.sha256(z.read(info)).hexdigest())
            """, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "zipfile reads the package")
        let digest = try SHA256Digest.hex(of: Data(collection.bytes))
        #expect(output == "collection.anki2 8 \(collection.bytes.count) \(digest)\nmedia 0 2 \(try SHA256Digest.hex(of: Data("{}".utf8)))\n", "\(output)")
    }

    @Test func deflateRoundTripsAndRefusesACorruptStream() throws {
        let text = Array(String(repeating: "the Calvin cycle fixes carbon dioxide; ", count: 200).utf8)
        let deflated = try #require(Zlib.deflate(text))
        #expect(deflated.count < text.count / 10)
        #expect(Zlib.inflate(deflated, size: text.count) == text)
        #expect(Zlib.inflate(deflated, size: text.count + 1) == nil, "a size the stream does not have")
        #expect(Zlib.inflate(Array(deflated.prefix(deflated.count / 2)), size: text.count) == nil, "a cut stream")
        #expect(ZipArchive.packed([]).method == 0 && ZipArchive.packed(Array("{}".utf8)).method == 0)
    }

    @Test func thePackageIsAZipOfACollectionAndAnEmptyMediaMap() throws {
        let bytes = try AnkiPackage.bytes(for: .flashcards(Self.deck), context: AnkiClozeTests.context, now: Self.now)
        let entries = try Self.unzip(bytes)
        #expect(Set(entries.keys) == ["collection.anki2", "media"])
        #expect(entries["media"] == Array("{}".utf8))
        #expect(entries["collection.anki2"]?.starts(with: Array("SQLite format 3\0".utf8)) == true)
        #expect(try AnkiPackage.bytes(for: .flashcards(Self.deck), context: AnkiClozeTests.context, now: Self.now) == bytes,
                "the same kit at the same time is the same package")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(UUID().uuidString).apkg")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(bytes).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
            process.arguments = ["-tq", file.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "unzip -t accepts the package")
        }
    }

    /// Opens the package's collection with our SQLite wrapper.
    static func collection(_ result: AnyStudyResult) throws -> (SQLiteDatabase, URL) {
        let bytes = try AnkiPackage.bytes(for: result, context: AnkiClozeTests.context, now: now)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(UUID().uuidString).anki2")
        try Data(try #require(try unzip(bytes)["collection.anki2"])).write(to: file)
        return (try SQLiteDatabase(path: file.path, managed: false), file)
    }

    @Test func theCollectionHoldsTheLegacyTablesNotesCardsAndNoteTypes() throws {
        let (database, file) = try Self.collection(.flashcards(Self.deck))
        defer { try? FileManager.default.removeItem(at: file) }
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(at: 0) ?? "" }
        #expect(tables == ["cards", "col", "graves", "notes", "revlog"])
        #expect(try database.integrityCheck() == "ok")

        let col = try #require(try database.query("SELECT ver, models, decks, dconf, crt, mod FROM col") { row in
            (row.integer(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "", row.text(at: 3) ?? "", row.integer(at: 4), row.integer(at: 5))
        }.first)
        #expect(col.0 == 11, "schema 11, which every Anki 2.1 imports")
        #expect(col.5 == 1_764_590_400_000)
        let models = try JSONValue.parse(col.1)
        let types = try #require(models.objectValue).map { ($0.value["name"]?.stringValue ?? "", $0.value["type"]?.integerValue ?? -1) }
        #expect(types.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" } == ["studykit Basic:0", "studykit Cloze:1", "studykit Multiple choice:0"])
        let cloze = try #require(models[String(AnkiPackage.NoteTypeID.cloze)])
        #expect(cloze["tmpls"]?.arrayValue?.first?["qfmt"] == "{{cloze:Text}}")
        #expect(cloze["flds"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["Text", "Back Extra"])
        let decks = try JSONValue.parse(col.2)
        let deckID = AnkiPackage.deckID(AnkiClozeTests.context)
        #expect(decks[String(deckID)]?["name"] == "Biology::Cells")
        #expect(try JSONValue.parse(col.3)["1"]?["new"]?["perDay"] == 20)

        let notes = try database.query("SELECT guid, mid, flds, tags, sfld, mod FROM notes ORDER BY id") { row in
            (row.text(at: 0) ?? "", row.integer(at: 1), row.text(at: 2) ?? "", row.text(at: 3) ?? "", row.text(at: 4) ?? "", row.integer(at: 5))
        }
        let tsv = try AnkiRendererTests.parse(AnkiRenderer.render(Self.deck, context: AnkiClozeTests.context))
        #expect(notes.map(\.0) == tsv.records.map { $0[0] }, "the TSV's GUIDs, in the deck's order")
        #expect(notes.map(\.1) == [Int64](repeating: AnkiPackage.NoteTypeID.basic, count: 3) + [Int64](repeating: AnkiPackage.NoteTypeID.cloze, count: 3))
        #expect(notes.allSatisfy { $0.3 == " studykit cell_biology studykit::flashcards " && $0.5 == 1_764_590_400 })
        // Fields are HTML: model text is escaped, line breaks are <br>, fields are split by U+001F.
        #expect(notes[2].2 == "Which ion flows through ATP synthase?\u{1F}H+ &lt;protons&gt; &amp; nothing else<br><br>“click Protons flow back through the enzyme 👩‍🔬.”<br>— Cells 101")
        #expect(notes[4].2.hasPrefix("Light is caught by {{c1::chlorophyll::a pigment}} in the thylakoids.\u{1F}"))
        #expect(notes[0].4 == "What is \"ATP\"?", "the sort field is the first field as text")

        let cards = try database.query("SELECT nid, did, ord, type, queue, due FROM cards ORDER BY id") { row in
            [row.integer(at: 0), row.integer(at: 1), row.integer(at: 2), row.integer(at: 3), row.integer(at: 4), row.integer(at: 5)]
        }
        let noteIDs = try database.query("SELECT id FROM notes ORDER BY id") { $0.integer(at: 0) }
        #expect(cards.map { $0[0] } == noteIDs, "one card per note")
        #expect(cards.allSatisfy { $0[1] == deckID && $0[2] == 0 && $0[3] == 0 && $0[4] == 0 }, "new cards in the deck, template or c1 0")
        #expect(cards.map { $0[5] } == Array(1...6), "due in the deck's order")
        #expect(try database.query("SELECT count(*) FROM revlog") { $0.integer(at: 0) } == [0])
    }

    @Test func quizQuestionsAreMultipleChoiceNotes() throws {
        let (database, file) = try Self.collection(.quiz(OutputFixtures.cleanKit.quiz))
        defer { try? FileManager.default.removeItem(at: file) }
        let notes = try database.query("SELECT mid, flds, tags FROM notes ORDER BY id") { ($0.integer(at: 0), $0.text(at: 1) ?? "", $0.text(at: 2) ?? "") }
        #expect(notes.count == OutputFixtures.cleanKit.quiz.questions.count)
        #expect(notes.allSatisfy { $0.0 == AnkiPackage.NoteTypeID.multipleChoice && $0.2.contains(" studykit::quiz ") })
        #expect(notes[0].1 == "Where does the Krebs cycle run?\u{1F}A. Cytoplasm<br>B. Mitochondrial matrix<br>C. Nucleus<br>D. Cell wall"
            + "\u{1F}B. Mitochondrial matrix\u{1F}It runs in the mitochondrial matrix.<br><br>“The Krebs cycle runs in the mitochondrial matrix.”<br>— Cells 101")
        // An explanation that already quotes the material does not get the quote twice.
        let quoting = Quiz(questions: [.init(
            prompt: "Where does glycolysis run?", choices: ["Cytoplasm", "Nucleus", "Matrix", "Wall"], answerIndex: 0,
            explanation: "The material says: “Glycolysis takes place in the cytoplasm of the cell.”",
            quote: "Glycolysis takes place in the cytoplasm of the cell.")])
        #expect(AnkiNotes.notes(quoting, context: AnkiClozeTests.context)[0].fields[3]
            == "The material says: “Glycolysis takes place in the cytoplasm of the cell.”\n\n— Cells 101")
    }

    @Test func aWholeKitPacksItsCardsThenItsQuestionsAndOtherTasksAreRefused() throws {
        let kit = OutputFixtures.cleanKit
        let (database, file) = try Self.collection(.studyKit(kit))
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try database.query("SELECT count(*) FROM notes") { $0.integer(at: 0) } == [Int64(kit.flashcards.cards.count + kit.quiz.questions.count)])
        #expect(throws: OutputError.formatNotSupported(format: .apkg, task: .summary, supported: [.flashcards, .quiz, .studyKit])) {
            try AnkiPackage.bytes(for: .summary(kit.summary), context: AnkiClozeTests.context)
        }
        #expect(throws: OutputError.binaryOutput(format: .apkg)) {
            try OutputRenderer.render(.flashcards(kit.flashcards), as: .apkg, context: AnkiClozeTests.context)
        }
    }
}

/// `--format apkg` through the Runner: bytes to a pipe, a refusal on a terminal.
@Suite struct AnkiPackageCommandTests {
    static let material = """
        Photosynthesis happens in chloroplasts. The Calvin cycle builds sugar from carbon dioxide in the stroma. \
        Chlorophyll absorbs red and blue light in the thylakoid membranes. Oxygen is released when water is split by light. \
        The light reactions make ATP and NADPH for the Calvin cycle.
        """

    static func run(_ arguments: [String], terminal: Bool) async -> (code: ExitCode, output: CapturingSink, errors: CapturingSink) {
        let output = CapturingSink(isTerminal: terminal), errors = CapturingSink()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-apkg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let runner = Runner(
            environment: ["STUDYKIT_CACHE_DIR": cache.path, "XDG_CONFIG_HOME": cache.path],
            standardInput: { Data(material.utf8) }, output: output, errorOutput: errors)
        let code = await runner.run(arguments)
        return (code, output, errors)
    }

    @Test func aPipedPackageIsWrittenAsBytes() async throws {
        let run = await Self.run(["flashcards", "-", "--engine", "builtin", "--format", "apkg"], terminal: false)
        #expect(run.code == .ok, "\(run.errors.text)")
        let entries = try AnkiPackageTests.unzip(run.output.bytes)
        #expect(entries["collection.anki2"] != nil)
    }

    @Test func aTerminalIsRefusedWithOneLineBeforeAnyWork() async {
        let run = await Self.run(["flashcards", "-", "--engine", "builtin", "--format", "apkg"], terminal: true)
        #expect(run.code == .usage)
        #expect(run.output.bytes.isEmpty)
        #expect(run.errors.text == "studykit: --format apkg writes a binary file, not text for a terminal; redirect it (> deck.apkg) or pipe it\n")
    }
}
