import Foundation

/// An Anki package (`.apkg`): what a student double-clicks to import a deck with its note
/// types, deck name and tags.
///
/// The package is a zip (``ZipArchive``, deflated with zlib) holding `collection.anki2`, a SQLite
/// collection in the legacy schema (version 11) that every Anki since 2.1 imports, and `media`,
/// the media map (`{}`: studykit notes have no media). The collection holds:
/// - `col`: one row whose `models`, `decks` and `dconf` columns are JSON (note types, the deck
///   named after the document and its subdecks, one per top-level section that has notes
///   (`Document::Section`, ``SectionGroups``), default options);
/// - `notes` and `cards`: one note per card or question with its GUID (the TSV's), fields joined
///   by U+001F and escaped as HTML, tags; one new card per note (a Cloze note's card is `c1`);
/// - empty `revlog` and `graves`.
///
/// Note types, each with a fixed id so that importing a later package reuses them:
/// `studykit Basic` (Front, Back), `studykit Cloze` (Text, Back Extra; a cloze type) and
/// `studykit Multiple choice` (Question, Choices, Answer, Explanation) for quiz questions. The
/// names are studykit's own so that an import never changes the student's stock note types.
///
/// Notes carry the export time as their modification time, so re-importing the same package
/// adds and changes nothing, and importing a newer package for the same material updates the
/// notes it shares with the old one (matched by GUID) in place.
public enum AnkiPackage {
    /// The package for `result` (flashcards, a quiz, or a whole kit: its cards then its questions).
    /// - Parameter now: the export time: note and card ids, modification times and zip dates.
    /// - Throws: ``OutputError/formatNotSupported(format:task:supported:)`` for other tasks;
    ///   ``OutputError/packageFailed(reason:)`` when the collection cannot be written.
    public static func bytes(for result: AnyStudyResult, context: RenderContext,
        now: Date = Date()) throws(OutputError) -> [UInt8] {
        let notes: [AnkiNote]
        switch result {
        case .flashcards(let cards): notes = AnkiNotes.notes(cards, context: context)
        case .quiz(let quiz): notes = AnkiNotes.notes(quiz, context: context)
        case .studyKit(let kit): notes = AnkiNotes.notes(kit.flashcards, context: context) + AnkiNotes.notes(kit.quiz,
            context: context)
        default:
            throw .formatNotSupported(format: .apkg, task: result.task, supported: RenderFormat.apkg.supportedTasks)
        }
        return try package(notes: notes, context: context, now: now)
    }

    /// The zip of a collection holding `notes`.
    static func package(notes: [AnkiNote], context: RenderContext, now: Date) throws(OutputError) -> [UInt8] {
        let directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("studykit-apkg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(collectionName).path
        let collection: [UInt8]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try writeCollection(notes: notes, context: context, now: now, to: path)
            collection = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as CacheError {
            throw .packageFailed(reason: error.message)
        } catch {
            throw .packageFailed(reason: (error as NSError).localizedDescription.lowercased())
        }
        var zip = ZipArchive(date: now)
        zip.add(collectionName, collection)
        zip.add("media", Array("{}".utf8))
        return zip.bytes
    }

    /// The collection's name inside the package: the legacy one, which every Anki 2.1 reads.
    static let collectionName = "collection.anki2"

    // MARK: - Collection

    /// Writes a fresh collection holding `notes` at `path`.
    static func writeCollection(notes: [AnkiNote], context: RenderContext, now: Date,
        to path: String) throws(CacheError) {
        let database = try SQLiteDatabase(path: path, managed: false)
        let seconds = Int64(now.timeIntervalSince1970)
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let deck = deckID(context)
        let decks = AnkiNotes.decks(notes, context: context)
        let ids = Dictionary(decks.map { ($0, deckID(name: $0, context: context)) }, uniquingKeysWith: { a, _ in a })
        // A scratch file read back at once: no journal and no fsync (they cost a loaded disk
        // hundreds of milliseconds and protect nothing here).
        try database.execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF")
        try database.immediateTransaction { () throws(CacheError) in
            try database.execute(schema)
            try database.run(
                "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')",
                [.integer(seconds - seconds % 86_400), .integer(milliseconds), .integer(milliseconds),
                 .text(configuration(deck: deck).compactText),
                 .text(models(deck: deck, modified: seconds).compactText),
                 .text(Self.decks(decks.map { (ids[$0] ?? deck, $0) }, modified: seconds).compactText),
                 .text(deckOptions.compactText)])
            for (index, note) in notes.enumerated() {
                let id = milliseconds + Int64(index)
                let fields = note.fields.map(html)
                try database.run(
                    "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')",
                    [.integer(id), .text(note.guid), .integer(NoteTypeID.of(note.type)), .integer(seconds),
                     .text(" " + note.tags.joined(separator: " ") + " "), .text(fields.joined(separator: "\u{1F}")),
                     .text(note.fields.first ?? ""), .integer(checksum(note.fields.first ?? "", context: context))])
                // One new card, ord 0 (a Basic note's only template, a Cloze note's c1), due in note order.
                try database.run(
                    "INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')",
                    [.integer(id), .integer(id), .integer(ids[note.deck] ?? deck), .integer(seconds),
                     .integer(Int64(index + 1))])
            }
        }
    }

    /// The legacy (schema 11) tables and indexes, as Anki 2.1 creates them.
    static let schema = """
        CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
          ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL, conf text NOT NULL,
          models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
        CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
          usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL,
          flags integer NOT NULL, data text NOT NULL);
        CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
          mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT \
        NULL,
          ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
          left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL, flags integer NOT NULL, data text NOT \
        NULL);
        CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
          ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL, type integer \
        NOT NULL);
        CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
        CREATE INDEX ix_notes_usn ON notes (usn);
        CREATE INDEX ix_cards_usn ON cards (usn);
        CREATE INDEX ix_revlog_usn ON revlog (usn);
        CREATE INDEX ix_cards_nid ON cards (nid);
        CREATE INDEX ix_cards_sched ON cards (did, queue, due);
        CREATE INDEX ix_revlog_cid ON revlog (cid);
        CREATE INDEX ix_notes_csum ON notes (csum);
        """

    // MARK: - Note types

    /// Fixed note type ids: the same in every package, so Anki recognises its own copy.
    enum NoteTypeID {
        static let basic: Int64 = 1_764_547_200_001
        static let cloze: Int64 = 1_764_547_200_002
        static let multipleChoice: Int64 = 1_764_547_200_003

        static func of(_ type: AnkiNote.NoteType) -> Int64 {
            switch type {
            case .basic: return basic
            case .cloze: return cloze
            case .multipleChoice: return multipleChoice
            }
        }
    }

    /// The names the note types appear under in Anki.
    static let noteTypeNames: [AnkiNote.NoteType: String] = [
        .basic: "studykit Basic", .cloze: "studykit Cloze", .multipleChoice: "studykit Multiple choice",
    ]

    private static let css = """
        .card { font-family: arial; font-size: 20px; line-height: 1.5; text-align: center; color: black; \
        background-color: white; }
        .cloze { font-weight: bold; color: blue; }
        .nightMode .cloze { color: lightblue; }
        .choices { display: inline-block; text-align: left; }
        .source { font-size: 16px; color: #555; }
        .nightMode .source { color: #aaa; }
        """

    /// The `models` JSON: the three note types, keyed by id.
    static func models(deck: Int64, modified: Int64) -> JSONValue {
        func model(_ type: AnkiNote.NoteType, fields: [String],
            template: (name: String, front: String, back: String)) -> (String, JSONValue) {
            let id = NoteTypeID.of(type)
            let value: JSONValue = [
                "id": .integer(Int(id)), "name": .string(noteTypeNames[type] ?? "studykit"),
                "type": .integer(type == .cloze ? 1 : 0),
                "mod": .integer(Int(modified)), "usn": -1, "sortf": 0, "did": .integer(Int(deck)),
                "flds": .array(fields.enumerated().map { ord, name in
                    ["name": .string(name), "ord": .integer(ord), "sticky": false, "rtl": false, "font": "Arial",
                        "size": 20, "media": []]
                }),
                "tmpls": [[
                    "name": .string(template.name), "ord": 0, "qfmt": .string(template.front),
                    "afmt": .string(template.back),
                    "bqfmt": "", "bafmt": "", "did": .null,
                ]],
                "css": .string(css),
                "latexPre": .string(
                    "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n"
                        + "\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n"
                        + "\\begin{document}\n"),
                "latexPost": "\\end{document}", "latexsvg": false,
                // The card needs its first field (legacy requirement list; Anki recomputes it).
                "req": [[0, "any", [0]]],
                "tags": [], "vers": [],
            ]
            return (String(id), value)
        }
        let members = [
            model(.basic, fields: ["Front", "Back"],
                template: ("Card 1", "{{Front}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}")),
            model(.cloze, fields: ["Text", "Back Extra"],
                template: ("Cloze", "{{cloze:Text}}", "{{cloze:Text}}<br>\n<div class=source>{{Back Extra}}</div>")),
            model(.multipleChoice, fields: ["Question", "Choices", "Answer", "Explanation"], template: (
                "Card 1", "{{Question}}<br><br>\n<div class=choices>{{Choices}}</div>",
                "{{FrontSide}}\n\n<hr id=answer>\n\n<b>{{Answer}}</b>{{#Explanation}}<br><br>\n<div "
                    + "class=source>{{Explanation}}</div>{{/Explanation}}")),
        ]
        var object = JSONObject()
        for (key, value) in members { object[key] = value }
        return .object(object)
    }

    // MARK: - Decks and options

    /// The deck's id: from a hash of its name, so the same document's packages share one deck.
    static func deckID(_ context: RenderContext) -> Int64 {
        deckID(name: AnkiNotes.deckName(context), context: context)
    }

    /// A deck's id from a hash of its full name (`Deck::Section` for a subdeck), so the same
    /// document's packages share their decks.
    static func deckID(name: String, context: RenderContext) -> Int64 {
        let digest = context.digest("studykit-deck/1\n" + name)
        // 44 bits of the digest, kept clear of the small ids Anki gives its own decks.
        if digest.count >= 11, let value = Int64(digest.prefix(11), radix: 16) { return 1 << 44 + value }
        return 1 << 44
    }

    /// The `decks` JSON: Anki's Default deck and `decks` (the document's, then its subdecks), by id.
    static func decks(_ decks: [(id: Int64, name: String)], modified: Int64) -> JSONValue {
        func entry(_ id: Int64, _ name: String) -> JSONValue {
            [
                "id": .integer(Int(id)), "name": .string(name), "desc": "", "mod": .integer(Int(modified)), "usn": -1,
                "collapsed": false, "browserCollapsed": false, "dyn": 0, "conf": 1, "extendNew": 0, "extendRev": 0,
                "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0],
            ]
        }
        var object = JSONObject()
        object["1"] = entry(1, "Default")
        for deck in decks { object[String(deck.id)] = entry(deck.id, deck.name) }
        return .object(object)
    }

    static func configuration(deck: Int64) -> JSONValue {
        [
            "activeDecks": [.integer(Int(deck))], "curDeck": .integer(Int(deck)), "newSpread": 0, "collapseTime": 1200,
            "timeLim": 0, "estTimes": true, "dueCounts": true, "curModel": .string(String(NoteTypeID.basic)),
            "nextPos": 1, "sortType": "noteFld", "sortBackwards": false, "addToCur": true,
        ]
    }

    /// Anki's default options group (id 1), which the deck uses.
    static let deckOptions: JSONValue = [
        "1": [
            "id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60, "autoplay": true, "timer": 0,
            "replayq": true,
            "dyn": false,
            "new": ["delays": [1, 10], "ints": [1, 4, 0], "initialFactor": 2500, "order": 1, "perDay": 20,
                "bury": false],
            "rev": ["perDay": 200, "ease4": 1.3, "ivlFct": 1, "maxIvl": 36500, "bury": false, "hardFactor": 1.2],
            "lapse": ["delays": [10], "mult": 0, "minInt": 1, "leechFails": 8, "leechAction": 1],
        ],
    ]

    // MARK: - Fields

    /// A plain-text field as Anki stores it: HTML with `&`, `<` and `>` escaped and line breaks as `<br>`.
    static func html(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\n", "\r\n": escaped += "<br>"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The first-field checksum Anki's duplicate check reads: the first 8 hex digits of the
    /// field's SHA-1 as a number. Anki recomputes it on import; this is a stand-in of the same
    /// width from the context's digest, so the column is never left at zero.
    static func checksum(_ field: String, context: RenderContext) -> Int64 {
        Int64(context.digest(field).prefix(8), radix: 16) ?? 0
    }
}
