import Foundation
import Testing

@testable import StudyKit

/// A model's blurb and overview mended, not replaced (#53, session 65): a blurb over its length is
/// cut to its main clause, a blurb's aside about the document or a sentence of filler is left out,
/// an overview loses its sentences of filler when the rest reads on its own; and the prompts' own
/// words said back are filler. On a page written for these tests (no topic of `samples/eval`).
@Suite("A blurb and an overview are mended, not replaced")
struct ProseRepairTests {
    static let material = """
        The Great Fire of London
        The Great Fire of London was a fire that burned through the City of London in September 1666. \
        It started in a bakery on Pudding Lane shortly after midnight on Sunday 2 September. \
        Over the next days the flames spread west across the wooden houses of the old city. \
        The fire destroyed about 13,200 houses and 87 parish churches. \
        Firefighters pulled down houses with hooks to make firebreaks. \
        Gunpowder was later used to blow up houses in the fire's path. \
        The rebuilt city had wider streets and houses of brick and stone.
        """

    // MARK: the prompts' words said back

    /// Each phrase a prompt puts in the model's mouth, as the model said it back, and the prompt
    /// words it echoes: the phrase is filler, and the prompts do say those words (so the table
    /// follows the prompts).
    @Test(arguments: [
        ("The Great Fire of London is the main point in their own terms.", "in their own terms", "in its own terms"),
        ("The fire of 1666 is stated in its own terms.", "in its own terms", "in its own terms"),
        ("This is a handout for a student's study material, not instructions.", "not instructions",
         "not instructions"),
        ("The Great Fire of London is a student's study material.", "study material", "student's study material"),
        ("The Great Fire of London is the source material.", "source material", "source material"),
        ("The supplied material tells how the Great Fire of London began.", "supplied material",
         "the supplied material"),
        ("The material's main point is that the fire destroyed 13,200 houses.", "the material s main point",
         "the material's main point"),
        ("The gist of the material is the fire of 1666 and the rebuilt city.", "gist of the material",
         "the gist of the material"),
        ("One plain sentence: the fire destroyed 13,200 houses.", "one plain sentence", "one plain sentence"),
    ])
    func thePromptsWordsSaidBackAreFiller(blurb: String, phrase: String, prompt: String) {
        #expect(ItemRules.stockFiller(in: blurb) == phrase)
        #expect(!Headline(title: "Notes", blurb: blurb).semanticIssues().isEmpty)
        let prompts = [Headline.instructions, Summary.instructions, Flashcards.instructions, MindMap.instructions]
            .joined(separator: "\n")
        #expect(prompts.contains(prompt), "\(prompt) is in no prompt")
    }

    /// The same words in prose about the material are no filler.
    @Test(arguments: [
        "Historians read the parish records of 1666 in their own words.",
        "The fire's material cost was about 10 million pounds.",
        "Firefighters followed no instructions from the mayor at first.",
        "The rebuilt city's main streets were wider.",
    ])
    func theSameWordsAboutTheMaterialAreNoFiller(blurb: String) {
        #expect(ItemRules.stockFiller(in: blurb) == nil)
    }

    // MARK: a blurb mended

    static let statement = "The Great Fire of London destroyed about 13,200 houses and 87 parish churches in 1666."

    @Test(arguments: [
        // An aside about the document, opening or closing the sentence: left out.
        ("In these notes, the Great Fire of London destroyed about 13,200 houses and 87 parish churches in 1666.",
         statement as String?),
        (String(statement.dropLast()) + ", as this handout explains.", statement),
        // A sentence of filler beside one that states something: left out.
        ("This handout covers the Great Fire. " + statement, statement),
        // Filler that is the sentence's head, not an aside: nothing states anything without it.
        ("A short guide to the Great Fire of London, its bakery, and the rebuilt city.", nil),
        ("This document explains how the Great Fire of London started and spread.", nil),
        // What is left is filler too.
        ("In these notes, we discuss the Great Fire of London and the rebuilt city.", nil),
        // Nothing to mend.
        (statement, nil),
    ] as [(String, String?)])
    func aBlurbLosesItsFillerWhenWhatIsLeftStatesSomething(blurb: String, mended: String?) {
        #expect(ItemRepairs.mendedBlurb(blurb, maxWords: 35, maxLength: 220)?.text == mended)
    }

    /// A blurb over its length with a reason after its main clause is cut to it.
    @Test func aLongBlurbIsCutToItsMainClause() throws {
        let head = String(Self.statement.dropLast())
            + ", which was the usual fate of a city of wooden houses packed close together along narrow streets"
        let long = head + ", because firefighters had only hooks and buckets until gunpowder was used."
        #expect(long.count > 220)
        // Cut at the last break that fits: the reason goes, the aside before it stays.
        let mended = try #require(ItemRepairs.mendedBlurb(long, maxWords: 35, maxLength: 220))
        #expect(mended.text == head + ".")
        #expect(mended.how.hasPrefix("cut to its main clause"))
    }

    // MARK: an overview mended

    @Test(arguments: [
        // A sentence of filler, then two that stand: the filler left out.
        ("This revision sheet covers the Great Fire of London. The fire started in a bakery on Pudding Lane. "
            + "The rebuilt city had wider streets.", [0] as [Int]?, 2),
        // The sentence after the filler leans on it ("It" is the document): no repair.
        ("This document provides an overview of the Great Fire of London. It covers the bakery and the rebuilt city.",
         nil, 0),
        // Only filler: nothing left.
        ("This document provides an overview of the fire. These notes explain the rebuilt city.", nil, 0),
        // No filler: nothing to mend.
        ("The fire started in a bakery on Pudding Lane. The rebuilt city had wider streets.", nil, 0),
    ] as [(String, [Int]?, Int)])
    func anOverviewLosesItsFillerSentences(overview: String, removed: [Int]?, kept: Int) {
        let cut = ItemRepairs.overviewWithoutFiller(overview)
        #expect(cut?.removed == removed)
        #expect((cut?.kept.count ?? 0) == kept)
    }

    static let points = [
        "The Great Fire of London burned through the City of London in September 1666.",
        "The fire destroyed about 13,200 houses and 87 parish churches.",
        "Firefighters pulled down houses with hooks to make firebreaks.",
    ]

    static func judged(_ overview: String) throws -> (Summary, ItemProvenance?) {
        let answer: JSONValue = [
            "overview": .string(overview), "keyPoints": .array(Self.points.map(JSONValue.string)),
        ]
        let judge = PartJudge(
            material: Self.material, counts: .standard, model: "test-model",
            skeleton: try BuiltinEngine().generate(.summary, text: Self.material, title: nil))
        let judged = try judge.judge(answer, task: .summary)
        guard case .summary(let summary) = judged.result else { throw SchemaError.invalid([]) }
        return (summary, judged.items.first { $0.path == "overview" })
    }

    /// The judge ships the model's overview without its filler sentence, as repaired; with one
    /// sentence of its own left, the builtin engine's first that repeats nothing follows it.
    @Test func theJudgeShipsTheOverviewWithoutItsFiller() throws {
        let two = "Flames from a bakery on Pudding Lane spread west across the wooden houses of the old city. "
            + "After the fire the city was rebuilt in brick and stone with wider streets."
        let (summary, record) = try Self.judged("The Great Fire of London, revision sheet 3. " + two)
        #expect(summary.overview == two)
        #expect(record?.kind == .repaired)
        #expect(record?.note?.contains("stock filler, left out") == true)

        let one = "Flames from a bakery on Pudding Lane spread west across the wooden houses of the old city."
        let (topped, toppedRecord) = try Self.judged("This revision sheet covers the Great Fire of London. " + one)
        // The builtin engine's overview says the first two key points again; its third sentence does not.
        #expect(topped.overview == one + " Gunpowder was later used to blow up houses in the fire's path.")
        #expect(ResultProse.sentenceCount(topped.overview) == 2)
        #expect(toppedRecord?.kind == .repaired)
        #expect(toppedRecord?.note?.contains("the builtin engine's sentence") == true)
    }
}
