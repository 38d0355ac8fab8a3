import Testing
@testable import StudyKit

/// A part merged from a long document's chunks passes the same rules as one answer, with limits
/// that scale with the chunks, and is repaired by dropping what breaks them. Every case below is
/// a merged part that `ChunkedRunner` shipped as it was before this check.
@Suite("Merged parts")
struct MergedPartTests {
    static let material = """
        Photosynthesis converts light energy into chemical energy in plants.
        Chlorophyll absorbs mostly blue and red light in the chloroplasts.
        The light reactions split water and release oxygen as a by-product.
        The Calvin cycle fixes carbon dioxide into sugars using ATP.
        Mitochondria release energy from glucose during cellular respiration.
        Enzymes speed up chemical reactions without being used up.
        """
    static let lines = material.split(separator: "\n").map(String.init)

    static func card(_ question: String, _ answer: String, line: Int) -> Flashcards.Card {
        Flashcards.Card(question: question, answer: answer, quote: lines[line])
    }

    static let goodCards = [
        card("What does photosynthesis convert light energy into?", "Chemical energy", line: 0),
        card("Which pigment absorbs blue and red light?", "Chlorophyll", line: 1),
        card("What do the light reactions release as a by-product?", "Oxygen", line: 2),
        card("What does the Calvin cycle fix into sugars?", "Carbon dioxide", line: 3),
    ]

    static func question(_ prompt: String, _ choices: [String], line: Int) -> Quiz.Question {
        Quiz.Question(prompt: prompt, choices: choices, answerIndex: 0, explanation: lines[line], quote: lines[line])
    }

    static let goodQuestions = [
        question("Which pigment absorbs blue and red light?", ["Chlorophyll", "Glucose", "Oxygen", "Water"], line: 1),
        question("What do the light reactions release?", ["Oxygen", "Glucose", "Enzymes", "Sugars"], line: 2),
        question("What does the Calvin cycle fix into sugars?", ["Carbon dioxide", "Oxygen", "Water", "Light"], line: 3),
    ]

    static let overview = "Photosynthesis converts light energy into chemical energy in plants. Mitochondria release that energy from glucose."
    static let goodPoints = [
        "Chlorophyll absorbs mostly blue and red light in the chloroplasts.",
        "The light reactions split water and release oxygen.",
        "The Calvin cycle fixes carbon dioxide into sugars using ATP.",
    ]

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var task: StudyTask
        var chunks: Int
        var part: AnyStudyResult
        /// The paths `dropped` names, in order.
        var dropped: [String]
        /// What each dropped item's reason says.
        var because: String
        var testDescription: String { name }
    }

    static let repaired: [Case] = [
        Case(
            name: "a card that is a near-copy of another chunk's card", task: .flashcards, chunks: 2,
            part: .flashcards(Flashcards(cards: goodCards + [card("What does photosynthesis convert the light energy into?", "Chemical energy", line: 0)])),
            dropped: ["cards[4]"], because: "near-copy of cards[0]"),
        Case(
            name: "a junk question (a placeholder)", task: .flashcards, chunks: 2,
            part: .flashcards(Flashcards(cards: [card("Point 2", "Chlorophyll", line: 1)] + goodCards)),
            dropped: ["cards[0]"], because: "placeholder"),
        Case(
            name: "an answer that repeats its question", task: .flashcards, chunks: 3,
            part: .flashcards(Flashcards(cards: goodCards + [card("Mitochondria release energy", "Mitochondria release energy", line: 4)])),
            dropped: ["cards[4]"], because: "repeats the question"),
        Case(
            name: "a card whose quote is not in the document", task: .flashcards, chunks: 2,
            part: .flashcards(Flashcards(cards: goodCards + [
                Flashcards.Card(question: "What do enzymes speed up?", answer: "Reactions", quote: "Enzymes are made of magic dust."),
            ])),
            dropped: ["cards[4]"], because: "not in the material"),
        Case(
            name: "a quiz question whose choices repeat (a choice cannot go alone)", task: .quiz, chunks: 2,
            part: .quiz(Quiz(questions: goodQuestions + [
                question("What speeds up chemical reactions?", ["Enzymes", "Water", "Water", "Light"], line: 5),
            ])),
            dropped: ["questions[3]"], because: "repeats"),
        Case(
            name: "a key point repeated across chunks, another near the overview", task: .summary, chunks: 2,
            part: .summary(Summary(overview: overview, keyPoints: goodPoints + [
                "The Calvin cycle fixes the carbon dioxide into sugars using ATP.",
                "Photosynthesis converts the light energy into chemical energy in plants.",
            ])),
            dropped: ["keyPoints[3]", "keyPoints[4]"], because: "near-copy"),
        Case(
            name: "a label repeated in a merged subtree, and one that repeats its branch", task: .mindmap, chunks: 2,
            part: .mindMap(MindMap(centralTopic: "Photosynthesis", branches: [
                MindMap.Node(label: "Light reactions", children: [
                    MindMap.Node(label: "Chlorophyll"), MindMap.Node(label: "Oxygen"), MindMap.Node(label: "Chlorophyll"),
                ]),
                MindMap.Node(label: "Calvin cycle", children: [MindMap.Node(label: "The Calvin cycle"), MindMap.Node(label: "Carbon dioxide")]),
            ])),
            dropped: ["branches[0].children[2]", "branches[1].children[0]"], because: "label "),
    ]

    @Test(arguments: repaired)
    func aMergedPartThatBreaksARuleIsRepairedByDroppingTheItem(_ case: Case) throws {
        // What shipped before: the part as merged does not pass one answer's rules.
        #expect(!`case`.part.validationIssuesForTest.isEmpty)
        let checked = try `case`.task.checkedMerge(`case`.part, chunks: `case`.chunks, source: Self.material)
        #expect(checked.dropped.map(\.path) == `case`.dropped)
        #expect(checked.dropped.allSatisfy { $0.reason.contains(`case`.because) })
        // What ships now passes every rule of a single answer (and its items are within one answer's limit here).
        #expect(checked.result.validationIssuesForTest.isEmpty)
        #expect(Grounding.issues(in: checked.result, source: Self.material).isEmpty)
    }

    static let unrepairable: [Case] = [
        Case(
            name: "a deck left with fewer cards than a deck needs", task: .flashcards, chunks: 2,
            part: .flashcards(Flashcards(cards: Array(goodCards.prefix(2)) + [card("Item 3", "Oxygen", line: 2)])),
            dropped: [], because: "placeholder"),
        Case(
            name: "an overview of stock filler", task: .summary, chunks: 2,
            part: .summary(Summary(overview: "This document covers photosynthesis in plants. It is a must-read for biology students.", keyPoints: goodPoints)),
            dropped: [], because: "overview"),
        Case(
            name: "a central topic the document does not have", task: .mindmap, chunks: 2,
            part: .mindMap(MindMap(centralTopic: "Quantum chromodynamics", branches: [
                MindMap.Node(label: "Light reactions"), MindMap.Node(label: "Calvin cycle"),
            ])),
            dropped: [], because: "centralTopic"),
    ]

    @Test(arguments: unrepairable)
    func aMergedPartThatDroppingCannotMendIsRejected(_ case: Case) {
        do {
            _ = try `case`.task.checkedMerge(`case`.part, chunks: `case`.chunks, source: Self.material)
            Issue.record("\(`case`.name) was accepted")
        } catch {
            guard case .invalid(let issues) = error else { Issue.record("not an invalid part: \(error)"); return }
            #expect(issues.contains { $0.description.contains(`case`.because) })
        }
    }

    // MARK: limits that scale

    struct Limit: Sendable {
        var task: StudyTask
        var list: [PathStep]
        var chunks: Int
        var most: Int?
    }

    @Test(arguments: [
        Limit(task: .flashcards, list: [.member("cards")], chunks: 1, most: 20),
        Limit(task: .flashcards, list: [.member("cards")], chunks: 5, most: 50),
        Limit(task: .quiz, list: [.member("questions")], chunks: 6, most: 30),
        Limit(task: .quiz, list: [.member("questions"), .index(0), .member("choices")], chunks: 6, most: 4),
        Limit(task: .summary, list: [.member("keyPoints")], chunks: 10, most: 40),
        Limit(task: .mindmap, list: [.member("branches")], chunks: 12, most: 12),
        Limit(task: .mindmap, list: [.member("branches"), .index(0), .member("children")], chunks: 12, most: 36),
        Limit(task: .mindmap, list: [.member("branches"), .index(0), .member("children"), .index(0), .member("children")], chunks: 12, most: 5),
    ])
    func listLimitsScaleWithTheChunks(_ limit: Limit) throws {
        let merged = limit.task.generationSchema.merged(chunks: limit.chunks, perChunk: limit.task.mergedItemsPerChunk)
        guard case .array(_, _, let most, _)? = merged.at(limit.list) else {
            Issue.record("no list at \(PathStep.text(limit.list))")
            return
        }
        #expect(most == limit.most)
    }

    @Test func aListOverItsLimitKeepsEverySectionInBalanceAndInOrder() throws {
        let schema: GenerationSchema = .object([
            .init("items", description: "", .array(items: .string(maxLength: 40), minItems: 1, maxItems: 2, distinct: .items)),
        ])
        let part = MergedPart(schema: schema, chunks: 2, perChunk: ["items": 2])
        let value: JSONValue = ["items": .array(["a1", "a2", "a3", "a4", "b1", "b2", "c1"].map(JSONValue.string))]
        let repaired = try part.repaired(value, groups: ["items": [0, 0, 0, 0, 1, 1, 2]])
        // Four kept of seven: one from each section in turn, then section a's second, in document order.
        #expect(repaired.value == ["items": .array(["a1", "a2", "b1", "c1"].map(JSONValue.string))])
        #expect(repaired.dropped.map(\.path) == ["items[2]", "items[3]", "items[5]"])
        #expect(repaired.dropped.allSatisfy { $0.reason.contains("merged limit of 4 items (2 per chunk × 2 chunks)") })
        // Without groups, the list is cut evenly along its length.
        let even = try part.repaired(value)
        #expect(even.value["items"]?.arrayValue?.count == 4)
        #expect(even.value["items"]?.arrayValue?.first == "a1")
        #expect(even.value["items"]?.arrayValue?.last != "a4")
    }

    @Test func droppedPathsNameTheItemsAsMergedWhenSeveralRoundsDrop() throws {
        // A junk card, then (once it is gone) a list still over its limit: paths stay those of the part as given.
        let cards = (0..<21).map { index in
            Self.card("What does the Calvin cycle fix into sugars, case \(index)?", "Carbon dioxide \(index)", line: 3)
        }
        let deck = Flashcards(cards: [Self.card("Point 2", "Chlorophyll", line: 1)] + cards)
        let checked = try StudyTask.flashcards.checkedMerge(.flashcards(deck), chunks: 1, source: Self.material)
        #expect(checked.dropped.first?.path == "cards[0]")
        guard case .flashcards(let kept) = checked.result else { Issue.record("not a deck"); return }
        #expect(kept.cards.count <= 20)
        #expect(!checked.dropped.contains { $0.path == "cards[1]" })
    }

    @Test func pathsParseAndPrintBack() {
        for path in ["cards[3].question", "branches[1].children[0].label", "keyPoints[12]", "overview", ""] {
            #expect(PathStep.text(PathStep.parse(path)) == path)
        }
        #expect(PathStep.pattern(PathStep.parse("branches[1].children[0]")) == "branches[].children[]")
    }
}

extension AnyStudyResult {
    /// One answer's schema, semantic and grounding issues.
    var validationIssuesForTest: [ValidationIssue] {
        var issues = Grounding.issues(in: self, source: MergedPartTests.material)
        do { _ = try decodeResult(for: task, json: jsonValue) } catch { if case .invalid(let found) = error { issues += found } }
        return issues
    }
}
