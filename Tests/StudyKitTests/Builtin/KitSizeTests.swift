import Foundation
import Testing

@testable import StudyKit

/// #54: a deck and a quiz that grow with the material, spread over its body sections, and the
/// coverage every run reports.
@Suite struct KitSizeTests {
    // MARK: sizing

    struct SizeCase: Sendable, CustomStringConvertible {
        let distinct: Int
        let sections: Int
        let size: KitSize
        let cards: Int
        let questions: Int
        var description: String { "\(distinct) chars, \(sections) sections, \(size) → \(cards)/\(questions)" }
    }

    @Test(arguments: [
        // A page of notes keeps what it always got.
        SizeCase(distinct: 2_000, sections: 2, size: .followsMaterial, cards: 12, questions: 8),
        SizeCase(distinct: 8_531, sections: 4, size: .followsMaterial, cards: 12, questions: 8),
        // One card per 700 distinct characters, half as many questions.
        SizeCase(distinct: 33_000, sections: 30, size: .followsMaterial, cards: 47, questions: 23),
        // One card per body section when the sections are many and short.
        SizeCase(distinct: 30_000, sections: 55, size: .followsMaterial, cards: 55, questions: 27),
        // The cap, unless the request says otherwise.
        SizeCase(distinct: 1_000_000, sections: 300, size: .followsMaterial, cards: 400, questions: 200),
        SizeCase(distinct: 1_000_000, sections: 300, size: KitSize(cards: 600), cards: 600, questions: 300),
        SizeCase(distinct: 2_000, sections: 1, size: KitSize(cards: 5, questions: 4), cards: 5, questions: 4),
        SizeCase(distinct: 2_000, sections: 1, size: KitSize(questions: 30), cards: 12, questions: 30),
    ])
    func countsFollowTheMaterialOrTheRequest(_ row: SizeCase) {
        let cards = row.size.cardCount(distinctCharacters: row.distinct, bodySections: row.sections)
        #expect(cards == row.cards)
        #expect(row.size.questionCount(cards: cards) == row.questions)
    }

    @Test func schemaLimitsScaleWithTheRequest() throws {
        let cards = (1...30).map { year in
            Flashcards.Card(
                question: "In which year did treaty number \(year) of the archive come into force?", answer: "\(1700 + year)",
                quote: "Treaty \(year) came into force in \(1700 + year).")
        }
        let deck = AnyStudyResult.flashcards(Flashcards(cards: cards))
        // One answer may hold 20; a deck sized for 30 may hold 30, and no more.
        #expect(!deck.value.validationIssues().isEmpty)
        #expect(deck.validationIssues(size: KitSize(cards: 30)).isEmpty)
        #expect(deck.validationIssues(size: .followsMaterial).isEmpty)
        #expect(deck.validationIssues(size: KitSize(cards: 25)).map(\.path) == ["cards"])
    }

    // MARK: the builtin deck

    /// The English notes of samples/eval, each under one heading with its own headings taken
    /// out: six body sections of about 4,000 characters on six subjects.
    static let sections: [(heading: String, text: String)] = {
        let names = [
            "en-biology-immune.md", "en-computing-hash-tables.md", "en-economics-supply-demand.txt",
            "en-history-printing.md", "en-physics-newton.txt",
        ]
        return names.map { name in
            let url = TestPaths.packageRoot.appendingPathComponent("samples/eval/\(name)")
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let prose = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("#") }.joined(separator: "\n")
            return (String(name.split(separator: ".")[0]), prose)
        }
    }()

    static func markdown(_ sections: [(heading: String, text: String)]) -> String {
        sections.map { "# \($0.heading)\n\n\($0.text)" }.joined(separator: "\n\n")
    }

    static func deck(_ text: String, size: KitSize = .followsMaterial) throws -> [Flashcards.Card] {
        guard case .flashcards(let deck) = try BuiltinEngine().generate(.flashcards, text: text, title: nil, size: size) else {
            Issue.record("not a deck")
            return []
        }
        return deck.cards
    }

    static func coverage(_ text: String, of result: AnyStudyResult) throws -> ChunkCoverage {
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        return try #require(SectionItems(document: document).coverage(of: result))
    }

    @Test func aLongerTextGetsMoreCardsFromEverySection() throws {
        let text = Self.markdown(Self.sections)
        let cards = try Self.deck(text)
        let analysis = BuiltinAnalysis(text: text, title: nil)
        let sized = BuiltinEngine.cardCount(analysis, size: .followsMaterial)
        #expect(analysis.sections.distinctBody.count == Self.sections.count)
        #expect(sized > BuiltinEngine.flashcardLimit)
        #expect(cards.count > BuiltinEngine.flashcardLimit && cards.count <= sized)
        #expect(Set(cards.map { $0.question.lowercased() }).count == cards.count)
        let coverage = try Self.coverage(text, of: .flashcards(Flashcards(cards: cards)))
        #expect(coverage.bodySections.count == Self.sections.count)
        #expect(coverage.bodySectionsCovered == Self.sections.count)
        #expect(coverage.chunks.isEmpty)
    }

    @Test func aSectionRepeatedWordForWordGivesItsCardsOnce() throws {
        let once = Self.markdown(Array(Self.sections.prefix(2)))
        let thrice = (1...3).map { "# Part \($0)\n\n" + once }.joined(separator: "\n\n")
        let cardsOnce = try Self.deck(once)
        let cardsThrice = try Self.deck(thrice)
        // The same distinct text: the same size, and no question asked twice.
        #expect(BuiltinAnalysis(text: thrice, title: nil).sections.distinctCharacters
            == BuiltinAnalysis(text: once, title: nil).sections.distinctCharacters)
        // Headings count in the deck's size: the copies add only their part headings.
        #expect(BuiltinAnalysis(text: thrice, title: nil).sections.distinctCharactersWithCode
            == BuiltinAnalysis(text: "# Part 1\n\n" + once, title: nil).sections.distinctCharactersWithCode
            + "Part 2".count + "Part 3".count)
        #expect(cardsThrice.count == cardsOnce.count)
        #expect(Set(cardsThrice.map(\.question)).count == cardsThrice.count)
        // Every copy is covered by the first copy's cards.
        let coverage = try Self.coverage(thrice, of: .flashcards(Flashcards(cards: cardsThrice)))
        #expect(coverage.bodySections.count == 6)
        #expect(coverage.bodySectionsCovered == 6)
    }

    /// Code is body text (`text --body` prints it): the deck is sized by the distinct body with
    /// its code, one card per 700 characters, and a code-heavy section's share comes from the
    /// prose around its code — while a body section is still one with 500 characters of prose.
    @Test func codeCountsInTheDecksSizeNotInWhatMakesABodySection() throws {
        let code = "```\n" + (1...300).map { "let value\($0) = table.lookup(key: \($0))" }.joined(separator: "\n") + "\n```"
        let text = Self.markdown(Self.sections) + "\n\n" + code + "\n"
        let analysis = BuiltinAnalysis(text: text, title: nil)
        let prose = BuiltinAnalysis(text: Self.markdown(Self.sections), title: nil)
        #expect(analysis.sections.distinctCharacters == prose.sections.distinctCharacters)
        #expect(analysis.sections.distinctCharactersWithCode >= prose.sections.distinctCharactersWithCode + 9_000)
        #expect(analysis.sections.distinctBody.count == prose.sections.distinctBody.count)
        let sized = BuiltinEngine.cardCount(analysis, size: .followsMaterial)
        #expect(sized == max(12, analysis.sections.distinctCharactersWithCode / 700, analysis.sections.distinctBody.count))
        #expect(sized > BuiltinEngine.cardCount(prose, size: .followsMaterial))
        let cards = try Self.deck(text)
        #expect(cards.count > (try Self.deck(Self.markdown(Self.sections))).count)
        #expect(cards.count <= sized)
    }

    /// An API page gives each example twice, in CommonJS and again as an ES module: lines said
    /// twice in a section that is mostly new are body there too, so they count in the deck's size
    /// each time; a section mostly said before (a copy) adds only its new lines.
    @Test func linesSaidTwiceInASectionCountTowardTheDeck() throws {
        func example(_ section: Int, _ opening: String) -> String {
            "```\n\(opening)\n" + (1...30).map { "emitter\(section).on('event\($0)', listener\($0));" }
                .joined(separator: "\n") + "\n```"
        }
        let cjs = "const EventEmitter = require('node:events');"
        let esm = "import { EventEmitter } from 'node:events';"
        let once = Self.sections.enumerated().map { index, section in
            (heading: section.heading, text: section.text + "\n\n" + example(index, cjs))
        }
        let twice = Self.sections.enumerated().map { index, section in
            (heading: section.heading, text: section.text + "\n\n" + example(index, cjs) + "\n\n" + example(index, esm))
        }
        let onceSections = BuiltinAnalysis(text: Self.markdown(once), title: nil).sections
        let twiceAnalysis = BuiltinAnalysis(text: Self.markdown(twice), title: nil)
        let repeated = (0..<Self.sections.count).reduce(0) { sum, index in
            sum + (1...30).reduce(0) { $0 + "emitter\(index).on('event\($1)', listener\($1));".count }
        }
        #expect(twiceAnalysis.sections.distinctCharactersWithCode >= onceSections.distinctCharactersWithCode + repeated)
        #expect(twiceAnalysis.sections.distinctCharacters == onceSections.distinctCharacters)
        #expect(BuiltinEngine.cardCount(twiceAnalysis, size: .followsMaterial)
            > BuiltinEngine.cardCount(BuiltinAnalysis(text: Self.markdown(once), title: nil), size: .followsMaterial))
    }

    /// An API page documents the same options under each entry (`vm.runInNewContext` repeats
    /// `vm.runInContext`'s list): an entry that brings a body section's worth of its own text
    /// besides is an entry of its own and counts whole in the deck's size; an entry that adds less
    /// than that to a list said before is a copy, and only what it adds counts.
    @Test func anEntryRepeatingAnOptionListButWithItsOwnTextCountsWhole() throws {
        let options = (1...24)
            .map { "- option\($0) <integer> Sets how many milliseconds step \($0) may run before it stops" }
            .joined(separator: "\n")
        func own(_ index: Int, _ length: Int) -> String {
            let text = Self.sections[index].text.trimmingCharacters(in: .whitespacesAndNewlines)
            let cut = text.prefix(length)
            return String(cut[..<(cut.lastIndex(of: ".").map { cut.index(after: $0) } ?? cut.endIndex)])
        }
        func entry(_ heading: String, _ text: String) -> String { "## \(heading)\n\n\(options)\n\n\(text)" }
        let first = entry("run.inContext(code)", own(0, 900))
        let ownEntry = entry("run.inNewContext(code)", own(1, 900))
        let copy = entry("run.inThisContext(code)", own(2, 300))
        let sections = { (text: String) in BuiltinAnalysis(text: text, title: nil).sections }
        let alone = sections(first).distinctCharactersWithCode
        let whole = sections(ownEntry).distinctCharactersWithCode
        // The second entry's list was said before, but its own text makes it an entry: all of it counts.
        #expect(sections(first + "\n\n" + ownEntry).distinctCharactersWithCode == alone + whole)
        // The third adds under 500 characters to the list: a copy, its list counted once.
        let withCopy = sections(first + "\n\n" + copy).distinctCharactersWithCode
        #expect(withCopy > alone)
        #expect(withCopy < alone + sections(copy).distinctCharactersWithCode - options.count / 2)
    }

    @Test(arguments: [5, 12, 30])
    func cardsSetsTheDeck(_ count: Int) throws {
        let text = Self.markdown(Self.sections)
        let cards = try Self.deck(text, size: KitSize(cards: count))
        #expect(cards.count <= count)
        #expect(cards.count >= min(count, 12))
    }

    @Test func questionsSetsTheQuizAndItAsksFromEverySection() throws {
        let text = Self.markdown(Self.sections)
        let engine = BuiltinEngine()
        guard case .quiz(let quiz) = try engine.generate(.quiz, text: text, title: nil, size: KitSize(questions: 15)) else {
            Issue.record("not a quiz")
            return
        }
        #expect(quiz.questions.count <= 15 && quiz.questions.count >= 10)
        #expect(try Self.coverage(text, of: .quiz(quiz)).bodySectionsCovered == Self.sections.count)
        // By default, about half as many questions as cards.
        guard case .studyKit(let kit) = try engine.generate(.studyKit, text: text, title: nil) else {
            Issue.record("not a kit")
            return
        }
        #expect(kit.quiz.questions.count >= kit.flashcards.cards.count / 2 - 2)
        #expect(kit.quiz.questions.count <= max(BuiltinEngine.quizLimit, kit.flashcards.cards.count / 2))
    }

    @Test func aPageOfNotesKeepsItsDeck() throws {
        // One section of notes: 12 cards at most, as before #54.
        let text = Self.sections[0].text
        let cards = try Self.deck(text)
        #expect((8...13).contains(cards.count))
    }

    // MARK: coverage

    @Test func coverageCountsBodySectionsOnly() throws {
        let short = "# A short section\n\nIt has one sentence about nothing much at all."
        let text = short + "\n\n" + Self.markdown(Array(Self.sections.prefix(2)))
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let items = SectionItems(document: document)
        let quote = try #require(Self.sections[1].text.split(separator: ".").first.map { String($0) + "." })
        let coverage = try #require(items.coverage(of: .flashcards(Flashcards(cards: [
            Flashcards.Card(question: "What was said?", answer: "something", quote: quote),
            Flashcards.Card(question: "What else was said?", answer: "nothing", quote: "Words found nowhere in the text at all."),
        ]))))
        // The short section is no body section; the quote lies in the second body section.
        #expect(coverage.bodySections.map(\.heading) == Self.sections.prefix(2).map(\.heading))
        #expect(coverage.bodySections.map(\.items) == [0, 1])
        let json = coverage.jsonValue
        #expect(json["sections"]?["covered"] == .integer(1))
        #expect(json["sections"]?["total"] == .integer(2))
        #expect(json["notCovered"] == .array([.string(Self.sections[0].heading)]))
        #expect(json["read"] == .null)
        #expect(coverage.markdownFooter.contains("Items come from 1 of 2 body sections (50%)"))
        #expect(coverage.markdownFooter.contains("- \(Self.sections[0].heading)"))
        #expect(!coverage.markdownFooter.contains("chunks"))
        // A result without quotes has no coverage to report.
        #expect(items.coverage(of: .headline(Headline(title: "Notes", blurb: "Two subjects in brief."))) == nil)
    }

    /// A quote that opens where the text has punctuation before it (a manual's ".PAGE 11i 17i",
    /// quoted from "PAGE") lies in its section: the coverage finds it where the deck's spread
    /// put it, as on groff's typesetting page, where such cards were found nowhere.
    @Test func aQuoteOpeningAfterPunctuationIsFound() throws {
        let text = Self.markdown(Array(Self.sections.prefix(2)))
            + "\n\n.PAGE 11i 17i 1i Now suppose you also want to set the top margin as well."
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let coverage = try #require(SectionItems(document: document).coverage(of: .flashcards(Flashcards(cards: [
            Flashcards.Card(question: "What sets the page?", answer: "PAGE", quote: "PAGE 11i 17i 1i Now suppose you also want to set"),
        ]))))
        #expect(coverage.bodySections.map(\.items) == [0, 1])
    }
}

/// #54, one outline for the deck and the coverage report: an API reference's section headed by a
/// signature, whose parameter lines (never a card) and two sentences of prose make 500
/// characters, is a body section to both, and the deck gives it a card.
@Suite struct SignatureSectionTests {
    /// Twenty sections, four from each English note of samples/eval: a signature heading, five
    /// parameter lines and two sentences of the note's prose (sentences a card can be made from).
    static let text: String = {
        var sections: [String] = []
        for (topic, note) in KitSizeTests.sections.enumerated() {
            let sentences = note.text.replacingOccurrences(of: "\n", with: " ")
                .components(separatedBy: ". ").map { $0.trimmingCharacters(in: .whitespaces) }
                // Sentences of prose: no list run into them, no arithmetic.
                .filter { $0.count > 40 && !$0.contains(" - ") && !$0.contains(":") && !$0.contains(where: \.isNumber) }
            for part in 0..<4 where sentences.count > part * 4 + 1 {
                let name = "topic\(topic).method\(part)"
                let parameters = ["value", "options", "callback", "signal", "encoding"].map { parameter in
                    "- \(parameter) <string> | <Object> The \(parameter) given to \(name), "
                        + "read once and kept for later calls."
                }
                let prose = sentences[part * 4] + ". " + sentences[part * 4 + 1] + "."
                let heading = "###### \(name)(value[, options])"
                sections.append(heading + "\n\n" + parameters.joined(separator: "\n") + "\n\n" + prose)
            }
        }
        return sections.joined(separator: "\n\n")
    }()

    @Test func everySignatureSectionWithProseGetsACard() throws {
        let analysis = BuiltinAnalysis(text: Self.text, title: nil)
        let document = Document(text: Self.text, title: nil, kind: .markdown, origin: "api.md")
        let items = SectionItems(document: document)
        // The deck's body sections are the coverage report's.
        #expect(analysis.sections.body.map(\.heading) == items.sections.body.map(\.heading))
        #expect(analysis.sections.body.count == 20)
        let cards = try KitSizeTests.deck(Self.text)
        let coverage = try #require(items.coverage(of: .flashcards(Flashcards(cards: cards))))
        #expect(
            coverage.bodySectionsCovered == coverage.bodySections.count, "\(coverage.jsonValue["notCovered"] ?? .null)")
        // No card blanks a parameter line.
        #expect(!cards.contains { $0.quote.contains("<string>") })
    }
}
