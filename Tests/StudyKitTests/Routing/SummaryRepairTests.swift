import Foundation
import Testing

@testable import StudyKit

/// A model's summary mended rather than emptied (#53, session 61): an overview that says the
/// key points again loses those sentences, a key point that opens on "It" gets the subject the
/// material's sentence before it names, and a sentence may hold a decimal number.
@Suite("A model's summary is mended where a rule says how")
struct SummaryRepairTests {
    /// A page written for these tests (on no topic of `samples/eval`).
    static let material = """
        The Great Fire of London
        The Great Fire of London was a fire that burned through the City of London in September 1666. \
        It started in a bakery on Pudding Lane shortly after midnight on Sunday 2 September. \
        Over the next days the flames spread west across the wooden houses of the old city. \
        It then died down when the wind dropped on the Wednesday. \
        The fire destroyed about 13,200 houses and 87 parish churches. \
        Firefighters pulled down houses with hooks to make firebreaks, which was the usual method at the time. \
        Gunpowder was later used to blow up houses in the fire's path. \
        The rebuilt city had wider streets and houses of brick and stone. \
        Its new St Paul's Cathedral, designed by Christopher Wren, took about 35.5 years to finish.
        """

    struct SubjectCase: Sendable, CustomTestStringConvertible {
        let point: String
        let expected: String?
        var testDescription: String { point }
    }

    @Test(arguments: [
        // The sentence before opens on its subject, closed by "was": named.
        SubjectCase(
            point: "It started in a bakery on Pudding Lane shortly after midnight on Sunday 2 September.",
            expected:
                "The Great Fire of London started in a bakery on Pudding Lane shortly after midnight "
                + "on Sunday 2 September."
        ),
        // The sentence before opens on a time, not a subject: still leans, not mended.
        SubjectCase(point: "It then died down when the wind dropped on the Wednesday.", expected: nil),
        // Not the material's sentence: nothing to name it from.
        SubjectCase(point: "It was put out by the mayor himself on Monday.", expected: nil),
        // "This …" points at a whole clause: no subject stands for it.
        SubjectCase(point: "This was the usual method at the time.", expected: nil),
        // A point that opens on its own subject is no case for the rule.
        SubjectCase(point: "The fire destroyed about 13,200 houses and 87 parish churches.", expected: nil),
    ])
    func aLeadingPronounIsNamedFromTheSentenceBefore(_ example: SubjectCase) {
        #expect(ItemRepairs.namedSubject(example.point, material: Self.material) == example.expected)
    }

    struct OverviewCase: Sendable, CustomTestStringConvertible {
        let name: String
        let overview: String
        let removed: [Int]?
        var testDescription: String { name }
    }

    static let points = [
        "The Great Fire of London burned through the City of London in September 1666.",
        "The fire destroyed about 13,200 houses and 87 parish churches.",
        "Gunpowder was later used to blow up houses in the fire's path.",
    ]

    @Test(arguments: [
        OverviewCase(
            name: "two sentences say key points again",
            overview:
                "A bakery fire grew into a blaze across a wooden city. The fire destroyed about 13,200 houses "
                + "and 87 parish churches. Gunpowder was later used to blow up houses in the fire's path.",
            removed: [1, 2]),
        OverviewCase(
            name: "an overview in its own words",
            overview: "A bakery fire spread across a city of wooden houses. The rebuilt city used brick and stone.",
            removed: nil),
    ])
    func anOverviewLosesTheSentencesThatRepeatAKeyPoint(_ example: OverviewCase) {
        let cut = ItemRepairs.overviewWithoutRepeats(example.overview, keyPoints: Self.points)
        #expect(cut?.removed == example.removed)
        if let cut { #expect(cut.kept.count + cut.removed.count == 3) }
    }

    /// The judge keeps the key points and mends the overview (here: the skeleton's stands in, as
    /// one sentence of the model's would be too short), where it used to drop the points.
    @Test func theKeyPointsAreKeptAndTheOverviewGivesWay() throws {
        let answer: JSONValue = [
            "overview": .string(
                "The fire destroyed about 13,200 houses and 87 parish churches. Gunpowder was later used to blow up "
                    + "houses in the fire's path."),
            "keyPoints": .array(
                [
                    "The fire destroyed about 13,200 houses and 87 parish churches.",
                    "Gunpowder was later used to blow up houses in the fire's path.",
                    "It started in a bakery on Pudding Lane shortly after midnight on Sunday 2 September.",
                    "The rebuilt city had wider streets and houses of brick and stone.",
                ].map(JSONValue.string)),
        ]
        let judge = PartJudge(
            material: Self.material, counts: .standard, model: "test-model",
            skeleton: try BuiltinEngine().generate(.summary, text: Self.material, title: nil))
        let judged = try judge.judge(answer, task: .summary)
        guard case .summary(let summary) = judged.result else {
            Issue.record("not a summary")
            return
        }
        #expect(judged.dropped.isEmpty, "\(judged.dropped)")
        #expect(summary.keyPoints.prefix(4).contains { $0.hasPrefix("The Great Fire of London started in a bakery") })
        #expect(!summary.overview.hasPrefix("The fire destroyed"))
        let pronoun = judged.items.first { $0.path == "keyPoints[2]" }
        #expect(pronoun?.kind == .repaired)
    }

    struct SentenceCase: Sendable, CustomTestStringConvertible {
        let text: String
        let matches: Bool
        var testDescription: String { text }
    }

    /// A key point's grammar lets a decimal number stand inside its sentence, and still ends it
    /// at its first full stop.
    @Test(arguments: [
        SentenceCase(text: "The new cathedral took about 35.5 years to finish.", matches: true),
        SentenceCase(text: "The cathedral took about 35. 5 years went by.", matches: false),
        SentenceCase(text: "The pH of blood is close to 7.4.", matches: true),
        SentenceCase(text: "The fire spread west. It died down later.", matches: false),
    ])
    func aKeyPointMayHoldADecimal(_ example: SentenceCase) throws {
        let pattern = try #require(
            Summary.generationSchema.jsonSchema(strict: false)["properties"]?["keyPoints"]?["items"]?["pattern"]?
                .stringValue)
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(example.text.startIndex..., in: example.text)
        let found = expression.firstMatch(in: example.text, range: range)
        #expect((found != nil) == example.matches)
    }

    struct AskedCase: Sendable, CustomTestStringConvertible {
        let question: String
        let quote: String
        let dropped: Bool
        var testDescription: String { question }
    }

    /// A question about the document itself is dropped; one about its material is not.
    @Test(arguments: [
        AskedCase(
            question: "What is the name of the handout?", quote: "Astronomy club handout, session 4", dropped: true),
        AskedCase(
            question: "What is the name of the session?", quote: "Astronomy club handout, session 4", dropped: true),
        AskedCase(
            question: "What is the title of the document?", quote: "The Great Fire of London", dropped: true),
        AskedCase(
            question: "Where did the fire start?",
            quote: "It started in a bakery on Pudding Lane shortly after midnight on Sunday 2 September.",
            dropped: false),
        // A sentence of the material that names a week is no label of the document.
        AskedCase(
            question: "When did the rebuilding start?",
            quote: "In week 3 after the fire the rebuilding of the city started with brick houses.", dropped: false),
        AskedCase(
            question: "What was the session of parliament called in 1667?",
            quote: "The rebuilt city had wider streets and houses of brick and stone.", dropped: false),
    ])
    func aQuestionAboutTheDocumentIsDropped(_ example: AskedCase) {
        let issues = ModelAnswerRules.aboutTheDocument([(example.question, example.quote)], list: "cards")
        #expect(issues.isEmpty != example.dropped)
    }
}

