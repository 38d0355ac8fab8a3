import Foundation
import Testing

@testable import StudyKit

/// A server model's key points copied word for word are given back to it to restate (#53): a
/// restatement ships as `rewritten` when it is no copy, keeps its sentence's names and numbers,
/// brings in nothing from the material's other sentences and says nothing false; else the copy
/// stays `extracted`.
@Suite("A copied key point is restated by the model, or stays a copy")
struct RestatedKeyPointTests {
    /// A page written for these tests (on no topic of `samples/eval`).
    static let material = """
        The Water Cycle
        Evaporation is driven mainly by the Sun's heat warming the surface of the oceans. \
        Clouds form when rising water vapour cools and condenses into droplets. \
        Rain falls when the droplets in a cloud grow too heavy to stay in the air. \
        About 86 percent of all evaporation happens over the oceans. \
        Rivers carry the water back to the sea, and groundwater seeps slowly through rock.
        """
    static let evaporation = "Evaporation is driven mainly by the Sun's heat warming the surface of the oceans."
    static let clouds = "Clouds form when rising water vapour cools and condenses into droplets."
    static let rain = "Rain falls when the droplets in a cloud grow too heavy to stay in the air."
    static let share = "About 86 percent of all evaporation happens over the oceans."

    struct Case: Sendable, CustomTestStringConvertible {
        let sentence: String
        let point: String
        let problem: String?
        var testDescription: String { point }
    }

    @Test(arguments: [
        // The sentence's words in another order, a clause made a subject: restated.
        Case(
            sentence: clouds, point: "Rising water vapour that cools and condenses into droplets forms clouds.",
            problem: nil),
        Case(
            sentence: rain, point: "Droplets in a cloud fall as rain once they grow too heavy to stay in the air.",
            problem: nil),
        Case(sentence: share, point: "The oceans are where about 86 percent of all evaporation happens.", problem: nil),
        Case(
            sentence: evaporation,
            point: "The Sun's heat warming the oceans' surface is what mainly drives evaporation.",
            problem: nil),
        // A word of another sentence joins two facts into a false one.
        Case(
            sentence: evaporation, point: "Clouds are mainly driven by the Sun warming the oceans' surface.",
            problem: "the key point brought in a word of another sentence of the material (cloud)"),
        // A word of everyday English the material uses elsewhere ("water", in two other sentences) is
        // the restatement's own plain word.
        Case(
            sentence: share, point: "The oceans are where about 86 percent of all evaporation of water happens.",
            problem: nil),
        // The sentence with one word changed is still a copy.
        Case(
            sentence: evaporation,
            point: "Evaporation is driven mostly by the Sun's heat warming the surface of the oceans.",
            problem: "the key point copied its sentence but for a word or two"),
        // A piece of the sentence is the material's words again.
        Case(
            sentence: clouds, point: "Clouds form when rising water vapour cools.",
            problem: "the key point is the material's own words again"),
        // Its figure dropped, or another one added.
        Case(
            sentence: share, point: "Most evaporation on Earth takes place over the oceans.",
            problem: "the key point dropped the sentence's 86"),
        Case(
            sentence: rain, point: "Rain falls from a cloud once 20 droplets are too heavy to stay in the air.",
            problem: "the key point added a number the sentence does not have (20)"),
        // A negation turns it around.
        Case(
            sentence: clouds, point: "Water vapour does not form clouds until it cools and condenses into droplets.",
            problem: "the key point added “not”, which the sentence does not have"),
        // Too little of the sentence is left to be its fact.
        Case(
            sentence: evaporation, point: "Heat makes lakes evaporate in summer.",
            problem: "the key point kept too little of its sentence"),
        // It leans on a sentence before it.
        Case(
            sentence: rain, point: "They fall as rain when they grow too heavy to stay in the air.",
            problem: "the key point leans on a sentence before it"),
    ])
    func aRestatementIsJudgedAgainstItsSentence(_ example: Case) {
        #expect(
            ItemRewriter.restatementProblem(example.point, of: example.sentence, material: Self.material)
                == example.problem)
    }

    /// A restatement that drops its sentence's "no" or "not" and keeps what it denies says the opposite.
    @Test(arguments: [
        (
            "Glass does not conduct electricity, so it is used to insulate the wires of a house.",
            "Glass conducts electricity and so insulates the wires of a house.",
            "the key point left out the sentence's “not” and kept what it denies"
        ),
        (
            "Glass doesn't conduct electricity, so it is used to insulate the wires of a house.",
            "Glass conducts electricity and so insulates the wires of a house.",
            "the key point left out the sentence's “n't” and kept what it denies"
        ),
        // The negation kept, or what it denies left out: the rule has nothing to say.
        (
            "Glass does not conduct electricity, so it is used to insulate the wires of a house.",
            "Because it does not conduct electricity, glass insulates the wires of a house.", nil
        ),
        (
            "Glass does not conduct electricity, so it is used to insulate the wires of a house.",
            "Glass insulates the wires of a house.", nil
        ),
        // The 1.5B's Moon summary (held-out, session 67), which shipped `rewritten`.
        (
            "The Moon makes no light of its own: we see it because it reflects sunlight.",
            "The Moon reflects sunlight to create light.",
            "the key point left out the sentence's “no” and kept what it denies"
        ),
    ] as [(String, String, String?)])
    func aDroppedNegationIsRefused(sentence: String, point: String, problem: String?) {
        #expect(ItemRewriter.droppedNegation(point, from: sentence).map {
            "the key point left out the sentence's “\($0)” and kept what it denies"
        } == problem)
    }

    /// The 1.5B's restatements on the tuning half (session 66, live), judged against their notes.
    @Test(arguments: [
        (
            "samples/eval/en-computing-hash-tables.md",
            "A hash table keeps its entries in an array of slots called buckets.",
            "A hash table uses an array of buckets to store entries.", nil
        ),
        (
            "samples/eval/en-economics-supply-demand.txt",
            "Supply is the quantity of a good that sellers are willing and able to offer for sale at each possible "
                + "price, over a given period.",
            "Supply is the quantity of a good available for sale at various prices.", nil
        ),
        // "Doubling" is the material's word ("the table doubles"), not everyday English, and the
        // purpose is the model's own.
        (
            "samples/eval/en-computing-hash-tables.md",
            "Resizing means allocating a larger array, typically about twice as large, and rehashing every entry "
                + "into it, because each key's bucket index depends on the number of buckets.",
            "Resizing involves doubling the array size and rehashing entries to maintain uniform distribution.",
            "the key point brought in a word of another sentence of the material (doubl)"
        ),
    ] as [(String, String, String, String?)])
    func aTuningRestatementIsJudged(document: String, sentence: String, point: String, problem: String?) async throws {
        let material = try await CalibrationTests.material(document).titleAndText
        #expect(ItemRewriter.restatementProblem(point, of: sentence, material: material) == problem)
    }

    @Test func theVerdictsTravelAsTheItemAnswersText() {
        let verdicts = RestatedPoints(verdicts: [.restated("A \"quoted\" point."), .kept("the key point was cut")])
        #expect(RestatedPoints(encoded: verdicts.encoded) == verdicts)
        #expect(RestatedPoints(encoded: "not json") == nil)
    }

    // MARK: routed

    static let overview = "Water moves between the oceans, the air and the land. The Sun's heat drives it."
    static let summaryAnswer = JSONValue.object([
        "overview": .string(overview),
        "keyPoints": .array([.string(evaporation), .string(clouds), .string(share)]),
    ]).compactText

    static func summary(_ remote: ScriptedModel, engine: EngineChoice = .auto) async throws -> RoutedResult {
        let document = Document(text: material, title: nil, kind: .text, origin: "test")
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote, cache: nil,
            capability: try CapabilityPolicy(environment: [:]))
        return try await router.run(RoutingRequest(task: .summary, document: document, engine: engine))
    }

    @Test func copiedPointsAreRestatedInOneRequestAndTheRefusedOnesStayCopies() async throws {
        let restated = JSONValue.object([
            "points": .array([
                .string("The Sun's heat warming the oceans' surface is what mainly drives evaporation."),
                .string("Rising water vapour that cools and condenses into droplets forms clouds."),
                .string("Most evaporation on Earth takes place over the oceans."),
            ])
        ]).compactText
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.summaryAnswer), .answer(restated)])
        let routed = try await Self.summary(remote)
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 2)
        let prompt = try #require(remote.calls.prompts.last)
        #expect(prompt.contains("1. \(Self.evaporation)"))
        #expect(prompt.contains("3. \(Self.share)"))
        guard case .summary(let summary) = routed.result else {
            Issue.record("not a summary")
            return
        }
        #expect(summary.keyPoints[1] == "Rising water vapour that cools and condenses into droplets forms clouds.")
        #expect(summary.keyPoints[2] == Self.share)
        let kinds = routed.items.filter { $0.path.hasPrefix("keyPoints") }.map(\.kind)
        // The first says the overview's second sentence again; the third drops its figure.
        #expect(kinds == [.extracted, .rewritten, .extracted])
        let repeats = try #require(routed.items.first { $0.path == "keyPoints[0]" }?.note)
        #expect(repeats.contains("repeats another point or the overview"))
        let kept = try #require(routed.items.first { $0.path == "keyPoints[2]" }?.note)
        #expect(kept.contains("dropped the sentence's 86"))
    }

    @Test func anAnswerWithNoUsableRestatementKeepsTheCopies() async throws {
        let copies = JSONValue.object([
            "points": .array([.string(Self.evaporation), .string(Self.clouds), .string(Self.share)])
        ]).compactText
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.summaryAnswer), .answer(copies)])
        let routed = try await Self.summary(remote)
        guard case .summary(let summary) = routed.result else {
            Issue.record("not a summary")
            return
        }
        #expect(summary.keyPoints == [Self.evaporation, Self.clouds, Self.share])
        #expect(routed.items.filter { $0.path.hasPrefix("keyPoints") }.allSatisfy { $0.kind == .extracted })
    }

    /// A forced engine's answer is its answer, as its copies are (``RoutingEngine/copyStop``).
    @Test func aForcedRemoteIsNotAskedAgain() async throws {
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.summaryAnswer)])
        let routed = try await Self.summary(remote, engine: .remote)
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 1)
    }
}
