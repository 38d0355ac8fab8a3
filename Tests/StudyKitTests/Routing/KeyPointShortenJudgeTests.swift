import Testing
@testable import StudyKit

/// How a shortened key point is judged (``ItemRewriter/keyPointJob(_:path:)``): answers
/// Qwen2.5-Coder-0.5B gave for the key sentences of samples/notes.pdf and samples/long.pdf.
@Suite("A shortened key point keeps the sentence's fact, its numbers, and nothing else")
struct KeyPointShortenJudgeTests {
    static func judge(_ sentence: String, _ point: String) -> String {
        switch ItemRewriter.keyPointJob(sentence, path: "keyPoints[0]").verdict(["point": .string(point)]) {
        case .success(let text): return text == point ? "accepted" : "changed: \(text)"
        case .failure(let rejection): return rejection.reason
        }
    }

    @Test func theMainFactInFewerWordsIsAccepted() {
        #expect(Self.judge("Normally deflate will consume several K bytes of input data before producing any output (except for the header), in order to accumulate statistics on the data for optimum compression.",
                           "Normally deflate will consume several K bytes of input data before producing any output.") == "accepted")
        #expect(Self.judge("Photosystem I, whose reaction centre is P700, absorbs light and re-energises the electrons.",
                           "Photosystem I absorbs light and re-energises the electrons.") == "accepted")
        #expect(Self.judge("During the day the stomata stay closed to save water, and the stored CO2 is released for the Calvin cycle.",
                           "Stomata stay closed to save water and CO2 is released for the Calvin cycle.") == "accepted")
    }

    @Test(arguments: [
        // The sentence again, a word dropped: not shorter.
        ("On 5 September 1793, under pressure from the sans-culottes, the Convention declared that terror was the order of the day.",
         "On 5 September 1793, under pressure from the sans-culottes, the Convention declared terror was the order of the day.",
         "the key point was not a quarter shorter than the sentence, in at most 14 words"),
        // Cut where the grammar's room ran out.
        ("The pigments are arranged in photosystems: a light-harvesting antenna complex funnels energy to a reaction centre, where a special pair of chlorophyll a molecules gives up an electron.",
         "The pigments funnel energy to a reaction centre, where.",
         "the key point was cut after “where”"),
        // Cut mid-clause, ending on a word the sentence goes on from: it says something else.
        ("On 5 September 1793, under pressure from the sans-culottes, the Convention declared that terror was the order of the day.",
         "On 5 September 1793, the Convention declared terror was.",
         "the key point was cut after “was”"),
        // Cut where the sentence goes on: a figure and its unit lost.
        ("One newton is the force that gives a mass of 1 kg an acceleration of 1 m/s², so 1 N = 1 kg·m/s².",
         "One newton is the force that gives a mass of 1 kg an acceleration.",
         "the key point was cut after “acceleration”"),
        // A package name changed (python-policy.html).
        ("Any package that installs a program which embeds a Python interpreter must declare Build-Depends on pythonX.Y-dev, where X.Y is the Python version the program builds against.",
         "Any package that embeds a Python interpreter must declare Build-Depends:pythonX.Y.",
         "the key point changed the sentence's term (Build-Depends:pythonX.Y)"),
        // A date dropped.
        ("On 10 August 1792 the sections of Paris, organised by a new revolutionary Commune, and the provincial volunteers stormed the Tuileries.",
         "The sections of Paris stormed the Tuileries in August 1792.",
         "the key point dropped the sentence's 10"),
        // A word the sentence does not have.
        ("To make one molecule of glucose the cycle must turn six times, fixing six CO2 and using 18 ATP and 12 NADPH.",
         "The Calvin cycle turns six times, using 18 ATP and 12 NADPH.",
         "the key point added a word the sentence does not have (calvin)"),
        // A numeral that makes the name another one: prophase I is meiosis (SmolLM2 on paste.txt).
        ("Prophase: chromosomes condense and become visible; the spindle starts to form; the nuclear envelope breaks down.",
         "Prophase I: Chromosomes Condense and Become Visible.",
         "the key point added “I”, which the sentence does not have"),
        // A negation: every content word is the sentence's, and it says the opposite.
        ("Mitosis produces two genetically identical daughter cells from a single parent cell in every division.",
         "Mitosis does not produce identical daughter cells.",
         "the key point added “not”, which the sentence does not have"),
    ])
    func aPointThatIsNotTheSentenceShortenedIsRefused(sentence: String, point: String, reason: String) {
        #expect(Self.judge(sentence, point) == reason)
    }

    /// Over 20 words, shortening means dropping most of the sentence: the 0.5B glued words to stay
    /// under the limit or stopped mid-clause on all 6 such sentences of notes.pdf and long.pdf.
    @Test func aKeyPointOverTwentyWordsIsKeptWhole() {
        #expect(ItemRewriter.keyPointFitsTheModel("During the day the stomata stay closed to save water, and the stored CO2 is released for the Calvin cycle."))
        #expect(!ItemRewriter.keyPointFitsTheModel(
            "Paris now had a new elected municipal government and a citizen militia, the National Guard, commanded by the Marquis de Lafayette, a hero of the American war."))
    }

    @Test func onlyLongKeyPointsAreSentToTheModel() {
        #expect(!ItemRewriter.keyPointNeedsShortening("17 June 1789: the Third Estate becomes the National Assembly."))
        #expect(ItemRewriter.keyPointNeedsShortening("Photosystem I, whose reaction centre is P700, absorbs light and re-energises the electrons."))
    }

    /// A sentence with nothing to drop is its own key point; one with a side detail is sent.
    @Test(arguments: [
        ("On 26 August 1789 the Assembly adopted the Declaration of the Rights of Man and of the Citizen.", false),
        ("17 June 1789: the Third Estate declares itself the National Assembly.", false),
        ("The overall equation is usually written as 6 CO2 + 6 H2O + light energy → C6H12O6 + 6 O2.", false),
        ("Photosystem I, whose reaction centre is P700, absorbs light and re-energises the electrons.", true),
        ("Chlorophyll: the green pigment that absorbs light energy in the photosystems.", true),
        ("During the day the stomata stay closed to save water, and the stored CO2 is released for the Calvin cycle.", true),
        ("The Convention declared war on Britain because it feared an invasion of the Netherlands.", true),
    ])
    func onlyAKeyPointWithASideDetailIsSentToTheModel(sentence: String, sent: Bool) {
        #expect(ItemRewriter.keyPointHasASideDetail(sentence) == sent)
    }

    @Test func aClauseCutShortIsNamedByItsLastWord() {
        #expect(ItemRules.openClauseEnd("The pigments funnel energy to a reaction centre, where.") == "where")
        #expect(ItemRules.openClauseEnd("Spain joined the coalition against it.") == nil)
        let sentence = "During the day the stomata stay closed to save water, and the stored CO2 is released for the Calvin cycle."
        #expect(ItemRules.cutMidClause("The stomata stay closed to save water.", from: sentence) == nil)
        #expect(ItemRules.cutMidClause("Stored CO2 is released for the Calvin cycle.", from: sentence) == nil)
        #expect(ItemRules.cutMidClause("The stomata stay closed during the day.", from: sentence) == nil)
        #expect(ItemRules.cutMidClause("Stored CO2 is released for the Calvin cycle during the day.", from: sentence) == nil)
        #expect(ItemRules.cutMidClause("The stored CO2 is.", from: sentence) == "is")
    }
}
