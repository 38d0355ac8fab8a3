import Foundation
import Testing

@testable import StudyKit

/// Judging by meaning (#53): a quote carries its answer, a blurb says what the material says
/// rather than what the document does, a reworded statement stays true to its source, and the
/// builtin skeleton blanks terms, not verbs or words that name a kind of thing.
@Suite("Items are judged by what they mean")
struct JudgeByMeaningTests {
    // MARK: the quote carries the answer

    static let quote = "In 1455 Fust sued Gutenberg to recover his money and took over much of the workshop."

    @Test(arguments: [
        ("Whom did Fust sue in 1455?", "Gutenberg", nil as String?),
        ("Who took over much of the workshop?", "Fust", nil),
        // The answer is not in the quote.
        ("Whom did Fust sue in 1455?", "Peter Schöffer", "does not hold the answer"),
        // The question's words are not there: a quote that happens to hold the answer.
        ("Who printed the first Bible in Mainz?", "Gutenberg", "of the question's words"),
        // A bare year, and the sentence that holds it says what the question asks.
        ("In what year did Fust sue Gutenberg?", "1455", nil),
        ("What year was the energy of New Zealand reported?", "1455", "not in a sentence about what the question asks"),
    ])
    func aQuoteCarriesTheAnswerAndTheQuestion(question: String, answer: String, problem: String?) {
        let found = Grounding.supportProblem(question: question, answer: answer, quote: Self.quote)
        if let problem {
            #expect(found?.contains(problem) == true, "\(found ?? "nil")")
        } else {
            #expect(found == nil, "\(found ?? "")")
        }
    }

    @Test func aYearInAnotherSentenceOfTheQuoteDoesNotCarryTheQuestion() {
        let quote = "Energy in New Zealand was reviewed by the ministry. Sources: Statistics report, 2016."
        #expect(
            Grounding.supportProblem(
                question: "What year was energy in New Zealand reviewed?", answer: "2016", quote: quote) != nil)
        #expect(
            Grounding.supportProblem(question: "What year is the Statistics report from?", answer: "2016", quote: quote)
                == nil)
    }

    // MARK: filler

    @Test(arguments: [
        ("In the lecture notes, we discuss the process of DNA replication.", "in the lecture notes"),
        ("This text explains how acids and bases react.", "this text explains"),
        ("In these notes, the Moon's phases, tides and eclipses are described.", "in these notes"),
        ("We will look at how binary search halves a sorted array.", "we will"),
        ("This revision sheet covers the causes and consequences of the Black Death.", "this revision sheet covers"),
        ("These notes explain the pH scale.", "these notes explain"),
        // The document's own label: the tuning half's "Unit 3 notes", the issue's "Lecture notes, week 7".
        ("Unit 3 notes: how markets set prices.", "unit 3"),
        ("Lecture notes, week 7.", "lecture notes"),
        ("Notes on the replication of DNA before a cell divides.", "notes on"),
        // Session 62, the general form: the document's noun (after one modifier), then what it does.
        ("This article will explain how acids and bases react.", "this article will explain"),
        ("These notes are about the causes of the Black Death.", "these notes are about"),
        ("The following notes describe how binary search halves a sorted array.", "the following notes describe"),
        ("The handout is an introduction to the phases of the Moon.", "the handout is an introduction"),
        ("This lecture aims to explain the pH scale.", "this lecture aims to explain"),
        ("This document provides notes on acids, bases and the pH scale.", "this document provides"),
        // The reader addressed (the 1.5B's Moon blurb, a calibration verdict of junk).
        ("Learn about the phases of the Moon, how tides are formed, and what happens during lunar eclipses.",
         "learn about"),
        ("Discover how the Black Death reached Europe in 1347.", "discover"),
        // Session 63: the text opening on itself as a kind of document.
        ("A detailed guide to how vaccines train the immune system.", "a detailed guide to"),
        ("An overview of supply, demand and the equilibrium price.", "an overview of"),
        ("A beginner's guide to hash tables and their collisions.", "a beginner s guide to"),
        ("An introduction to Newton's three laws of motion.", "an introduction to"),
    ])
    func aBlurbAboutTheDocumentIsFiller(blurb: String, phrase: String) {
        #expect(ItemRules.stockFiller(in: blurb) == phrase)
        #expect(!Headline(title: "Notes", blurb: blurb).semanticIssues().isEmpty)
    }

    @Test(arguments: [
        "We see the Moon because it reflects sunlight.",
        "Binary search finds a word in the text by halving a sorted array.",
        "Functions defined in the module run when it is imported.",
        "In the course of a day most coasts have two high tides.",
        "Acids release hydrogen ions in water, and bases accept them.",
        "Musical notes are written on a staff of five lines.",
        "One unit of demand costs 3 dollars more each week.",
        // The document's nouns in real prose: a treaty's text, a material heated, a study, musical notes.
        "The text of the treaty was signed in 1648.",
        "The material is heated until it melts.",
        "The study is designed to test whether the drug lowers blood pressure.",
        "The notes are played in the order the score gives.",
        "This page table maps virtual addresses to physical ones.",
        "Learning how tides form starts with the Moon's gravity.",
        "Explorers reached the South Pole in 1911.",
        "The section of the pipe is narrow, so the water speeds up.",
        // Session 63: a kind of document's word as content, not as the text's opening.
        "An introduction of rabbits to Australia in 1859 changed its ecology.",
        "A guide RNA leads the enzyme to the gene it cuts.",
        "A short overview map shows every plate boundary.",
        "The printing press was a guide to later inventions.",
    ])
    func aBlurbThatSaysWhatTheMaterialSaysIsNoFiller(blurb: String) {
        #expect(ItemRules.stockFiller(in: blurb) == nil)
    }

    // MARK: a reworded statement that is false

    static let economics = """
        Demand is the quantity of a good that buyers are willing and able to purchase at each possible price, over a given period. \
        Supply is the quantity of a good that sellers are willing and able to offer for sale at each possible price, over a given period. \
        The equilibrium price is the price at which the quantity demanded equals the quantity supplied. \
        If the price is above equilibrium, there is a surplus. A demand curve normally slopes downwards from left to right.
        """

    @Test(arguments: [
        // The issue's own example: what the material says of demand, said of both.
        "Supply and demand are the quantity of a good that buyers are willing and able to purchase.",
        // The opposite of its source.
        "A demand curve does not slope downwards from left to right.",
        "If the price is above equilibrium, there is no surplus.",
    ])
    func aRewordingThatSaysSomethingFalseIsRefused(statement: String) {
        #expect(ClaimCheck(material: Self.economics).misstatement(statement) != nil)
    }

    @Test(arguments: [
        "Demand is the quantity of a good that buyers are willing and able to buy at each price.",
        "The equilibrium price is where the quantity demanded equals the quantity supplied.",
        "Supply and demand set the equilibrium price, where the quantity demanded equals the quantity supplied.",
        "Above the equilibrium price there is a surplus.",
        "The demand curve normally slopes downwards.",
    ])
    func aTrueRewordingPasses(statement: String) {
        #expect(ClaimCheck(material: Self.economics).misstatement(statement) == nil)
    }

    // MARK: a subject swapped for another of the material's

    static let moon = """
        The Moon: Phases, Tides and Eclipses
        Half of the Moon is always lit by the Sun, but as the Moon orbits the Earth we see different amounts of \
        that lit half. A full cycle of phases takes about 29.5 days. \
        Tides are caused mainly by the Moon's gravity pulling on the Earth's oceans. \
        When the Sun and the Moon are at right angles, the pulls partly cancel and give neap tides.
        """
    static let plague = """
        The Black Death, 1347-1351
        The Black Death was a pandemic of plague that swept through Europe between 1347 and 1351. \
        The disease was caused by the bacterium Yersinia pestis, which was carried by fleas living on black rats.
        """
    static let animals = """
        Mammals and reptiles are both vertebrates. \
        Mammals are warm-blooded animals that feed their young on milk. \
        Reptiles are cold-blooded animals whose skin is covered in dry scales.
        """

    struct Swap: Sendable, CustomTestStringConvertible {
        let material: String
        let statement: String
        let refused: Bool
        var testDescription: String { statement }
    }

    @Test(arguments: [
        // The 1.5B's Moon overview (#53): what the material says of tides, said of phases, which
        // its title names beside them.
        Swap(material: moon, statement: "Phases are caused by the Moon's gravity pulling on the Earth's oceans.",
            refused: true),
        Swap(
            material: moon,
            statement: "The Moon has phases, tides, and eclipses. Phases are caused by the Moon's gravity pulling on "
                + "the Earth's oceans. Tides are caused by the Moon's gravity pulling on the Earth's oceans.",
            refused: true),
        Swap(material: animals, statement: "Reptiles are warm-blooded animals that feed their young on milk.",
            refused: true),
        // The issue's headline, with the material's title naming the two side by side.
        Swap(material: "Supply and Demand\n" + economics,
            statement: "Supply and demand are the quantity of a good that buyers are willing and able to purchase.",
            refused: true),
        Swap(material: "Supply and Demand\n" + economics,
            statement: "Supply is the quantity of a good that buyers are willing and able to purchase at each price.",
            refused: true),
        // True restatements.
        Swap(material: moon, statement: "Tides are caused by the Moon's gravity pulling on the Earth's oceans.",
            refused: false),
        Swap(material: moon, statement: "The Moon's gravity pulling on the Earth's oceans causes the tides.",
            refused: false),
        Swap(material: moon, statement: "A full cycle of phases takes about 29.5 days.", refused: false),
        Swap(material: animals, statement: "Reptiles are cold-blooded animals covered in dry scales.", refused: false),
        Swap(material: animals, statement: "Mammals are warm-blooded and feed their young on milk.", refused: false),
        Swap(material: "Supply and Demand\n" + economics,
            statement: "Supply is the quantity of a good that sellers are willing and able to offer for sale.",
            refused: false),
        Swap(material: "Supply and Demand\n" + economics,
            statement: "Demand is the quantity of a good that buyers are willing and able to purchase at each price.",
            refused: false),
        // A sentence that says something of each of the two things.
        Swap(
            material: "Acids and Bases\nAn acid is a substance that releases hydrogen ions when it dissolves in water. "
                + "A base is a substance that accepts hydrogen ions; an alkali releases hydroxide ions.",
            statement: "Acids are substances that release hydrogen ions, while bases are substances that accept "
                + "hydrogen ions.",
            refused: false),
        // A subject the material calls otherwise, never beside it: "the disease" is the Black Death.
        Swap(
            material: plague,
            statement: "The Black Death was caused by the bacterium Yersinia pestis, which was carried by fleas "
                + "living on black rats.",
            refused: false),
    ])
    func aSubjectSwappedForAnotherOfTheMaterialsIsRefused(_ swap: Swap) {
        let reason = ClaimCheck(material: swap.material).misstatement(swap.statement)
        #expect((reason != nil) == swap.refused, "\(reason ?? "accepted")")
    }

    @Test func aSwappedSubjectSaysWhichSentenceItTookItsPredicateFrom() throws {
        let reason = try #require(
            ClaimCheck(material: Self.moon).misstatement(
                "Phases are caused by the Moon's gravity pulling on the Earth's oceans."))
        #expect(reason.hasPrefix("says of one thing what the material says of another"))
        #expect(reason.contains("Tides are caused mainly"))
    }

    /// The 1.5B's Moon summary (#53), judged as the router judges a model's part.
    static func judgedMoonSummary(overview: String) async throws -> PartJudge.Judged {
        let document = try await CalibrationTests.material("samples/eval/en-astronomy-moon.txt")
        let router = RoutingEngine(local: ScriptedModel(.local), remote: ScriptedModel(.remote))
        let judge = PartJudge(
            material: document.titleAndText, counts: .standard, model: "test-model",
            skeleton: router.skeleton(.summary, document: document))
        let answer = JSONValue.object([
            "overview": .string(overview),
            "keyPoints": .array([
                .string("We see different amounts of the Moon's lit half as it orbits the Earth."),
                .string("A full cycle of the Moon's phases lasts about 29.5 days."),
                .string("The largest tidal range, spring tides, comes when the Sun, Moon and Earth are in line."),
            ]),
        ])
        return try judge.judge(answer, task: .summary)
    }

    static let swappedSentence = "Phases are caused by the Moon's gravity pulling on the Earth's oceans."

    @Test func anOverviewLosesItsSentenceWithASwappedSubject() async throws {
        let judged = try await Self.judgedMoonSummary(
            overview: "The Moon has phases, tides, and eclipses. \(Self.swappedSentence) "
                + "Tides are caused by the Moon's gravity pulling on the Earth's oceans.")
        guard case .summary(let result) = judged.result else { throw BuiltinError.emptyText }
        #expect(
            result.overview
                == "The Moon has phases, tides, and eclipses. "
                + "Tides are caused by the Moon's gravity pulling on the Earth's oceans.")
        let overview = try #require(judged.items.first { $0.path == "overview" })
        #expect(overview.kind == .repaired)
        #expect(
            overview.note?.contains("its sentence 2, which says of one thing what the material says of another")
                == true, "\(overview.note ?? "")")
        // The model's key points stay.
        #expect(judged.items.filter { $0.path.hasPrefix("keyPoints") && $0.kind == .written }.count == 3)
    }

    @Test func anOverviewLeftWithOneSentenceFallsBackToTheSkeletonsWithTheReason() async throws {
        let judged = try await Self.judgedMoonSummary(
            overview: "\(Self.swappedSentence) Tides come in two highs and two lows a day on most coasts.")
        guard case .summary(let result) = judged.result else { throw BuiltinError.emptyText }
        #expect(!result.overview.contains("Phases are caused"))
        let overview = try #require(judged.items.first { $0.path == "overview" })
        #expect(overview.kind == .extracted)
        #expect(overview.note?.contains("says of one thing what the material says of another") == true)
    }

    @Test func aFalseHeadlineIsNotGrounded() {
        let headline = Headline(
            title: "Supply and Demand",
            blurb: "Supply and demand are the quantity of a good that buyers are willing and able to purchase.")
        #expect(Grounding.issues(in: .headline(headline), source: Self.economics).first?.path == "blurb")
    }

    // MARK: the skeleton blanks terms

    @Test func theSkeletonBlanksNoVerbAndNoWordThatNamesAKind() throws {
        guard
            case .flashcards(let deck) = try BuiltinEngine().generate(
                .flashcards, text: PartJudgeTests.material, title: nil)
        else {
            throw BuiltinError.emptyText
        }
        let answers = deck.cards.map(\.answer)
        for verb in ["removes", "starts", "helix opens", "strand"] { #expect(!answers.contains(verb), "\(answers)") }
        #expect(deck.cards.count >= 6)
    }

    @Test(arguments: [
        ("DNA polymerase I removes the RNA primers and fills the gaps with DNA.", "removes", true),
        ("Replication starts at sites called origins of replication.", "starts", true),
        ("The point where the helix opens is the replication fork.", "helix opens", true),
        ("Net forces acting on an object add up.", "forces acting", true),
        ("Sellers want to sell more than buyers want to buy.", "want", true),
        ("Binary search is used to find the first version of a program.", "find", true),
        // Nouns where a verb could stand.
        ("DNA ligase then joins the fragments into one continuous strand.", "fragments", false),
        ("Most coasts have two high tides and two low tides a day.", "tides", false),
        ("The hydrogen ions of the acid and the hydroxide ions of the alkali join to form water.", "ions", false),
        ("Spring tides are the largest.", "Spring tides", false),
    ])
    func aBlankThatEndsOnTheSentencesVerbIsNoTerm(sentence: String, blank: String, verb: Bool) throws {
        let words = TermNormalizer.words(in: sentence)
        let blankWords = TermNormalizer.words(in: blank).map(\.lowercased)
        let start = try #require(
            words.indices.first { index in
                index + blankWords.count <= words.count
                    && words[index..<(index + blankWords.count)].map(\.lowercased) == blankWords
            })
        #expect(ClozeBuilder.endsOnAVerb(words, start: start, length: blankWords.count) == verb)
    }

    // MARK: the card judge

    @Test func aQuestionThatTurnsTheSentenceAroundIsRefused() {
        // A passive sentence's agent made the verb's object.
        let tides = JudgeByMeaningTests.cloze(
            "Tides are caused mainly by the Moon's gravity pulling on the Earth's oceans.", "Tides")
        #expect(
            ItemRewriter.swapsSubjectAndObject(
                "What causes the Moon's gravity pulling on the Earth's oceans?", of: tides))
        #expect(!ItemRewriter.swapsSubjectAndObject("What is caused mainly by the Moon's gravity?", of: tides))
        // A subject with "of" made the verb's object.
        let feudal = JudgeByMeaningTests.cloze(
            "In the long run, the shortage of labour weakened the feudal system in western Europe.", "feudal system")
        #expect(
            ItemRewriter.swapsSubjectAndObject("What weakened the shortage of labour in western Europe?", of: feudal))
        #expect(
            !ItemRewriter.swapsSubjectAndObject(
                "What did the shortage of labour weaken in western Europe?", of: feudal))
    }

    @Test func aQuestionThatJoinsTwoMentionsOfAWordIsRefused() {
        let tilt = Self.cloze(
            "Eclipses do not happen every month because the Moon's orbit is tilted by about 5 degrees to the Earth's orbit around the Sun.",
            "5 degrees")
        #expect(
            ItemRewriter.splicesTwoMentions("What is the tilt of the Moon's orbit around the Sun?", of: tilt) != nil)
        #expect(
            ItemRewriter.splicesTwoMentions("By how much is the Moon's orbit tilted to the Earth's orbit?", of: tilt)
                == nil)
        #expect(
            ItemRewriter.splicesTwoMentions(
                "What is the lagging strand made away from?", of: PartJudgeTestsCard.lagging) == nil)
    }

    enum PartJudgeTestsCard {
        static let lagging = JudgeByMeaningTests.cloze(
            "The lagging strand is made away from the fork, in short pieces called Okazaki fragments.", "fork")
    }

    static func cloze(_ quote: String, _ blank: String) -> Flashcards.Card {
        Flashcards.Card(question: quote.replacingOccurrences(of: blank, with: "_____"), answer: blank, quote: quote)
    }

    @Test func aModelsKeyPointStandsOnItsOwnAndKeepsItsNumbersWhole() {
        let material =
            "A full cycle of phases takes about 29.5 days. Pure water has a pH of 7. Blood stays close to 7.4."
        #expect(
            ModelAnswerRules.cutInsideANumber("A full cycle of phases takes about 29.", material: material) == "29.5")
        #expect(
            ModelAnswerRules.cutInsideANumber("5 days, and the Moon turns on its axis.", material: material) == "29.5")
        #expect(ModelAnswerRules.cutInsideANumber("Pure water has a pH of 7.", material: material) == nil)
        let summary = Summary(
            overview: "The Moon has phases. It reflects sunlight.",
            keyPoints: [
                "A full cycle of phases takes about 29.", "It then shrinks through the last quarter.",
                "Pure water has a pH of 7.",
            ])
        #expect(
            ModelAnswerRules.issues(in: .summary(summary), material: material).map(\.path) == [
                "keyPoints[0]", "keyPoints[1]",
            ])
        let map = MindMap(
            centralTopic: "Moon",
            branches: [
                MindMap.Node(label: "Phases", children: [MindMap.Node(label: "Labour became scarce and")]),
                MindMap.Node(label: "Tides"),
            ])
        #expect(
            ModelAnswerRules.issues(in: .mindMap(map), material: material).map(\.path) == [
                "branches[0].children[0].label"
            ])
    }

    @Test func aQuestionThatEndsWhereTheBlankStandsIsAccepted() {
        let quote = "The lagging strand is made away from the fork, in short pieces called Okazaki fragments."
        let card = Flashcards.Card(
            question: quote.replacingOccurrences(of: "fork", with: "_____"), answer: "fork", quote: quote)
        // The lagging strand's question, accepted as the rewrite of `card` against `material`.
        func accepted(_ card: Flashcards.Card, material: String) -> Bool {
            let job = ItemRewriter.cardJob(card, path: "cards[0]", materialStems: Set(GroundingWords.contentStems(material)))
            if case .success = job.accept(["question": "What is the lagging strand made away from?", "answer": "fork"]) {
                return true
            }
            return false
        }
        #expect(accepted(card, material: PartJudgeTests.material))
        // Not any question that ends on "from": the clause before the blank is the lagging strand's.
        #expect(ItemRewriter.endsWhereTheBlankStands("What is the lagging strand made away from?", of: card))
        #expect(!ItemRewriter.endsWhereTheBlankStands("What are Okazaki fragments made away from?", of: card))
        #expect(!ItemRewriter.endsWhereTheBlankStands("What is the lagging strand?", of: card))
        // Without the comma too.
        let shorter = Flashcards.Card(
            question: "The lagging strand is made away from the _____ in short pieces called Okazaki fragments.",
            answer: "fork",
            quote: "The lagging strand is made away from the fork in short pieces called Okazaki fragments.")
        #expect(accepted(shorter, material: shorter.quote))
    }
}
