import Testing

@testable import StudyKit

/// A label's word is the material's when the material has it in another form (#53, session 65):
/// a short verb's "-ing" or "-ed", or the other side's spelling. Made-up words stay foreign.
@Suite("Grounding keys: a word the material has in another form")
struct GroundingKeysTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let material: String
        /// The label's stems the material does not have in any form.
        let foreign: [String]
        var testDescription: String { "“\(label)” in “\(material)”" }
    }

    static let cases: [Case] = [
        // A short verb: "moves" keeps its stem "move", "moving" loses the "e" with its ending.
        Case(label: "Moving the low index", material: "It moves low to mid + 1.", foreign: ["index"]),
        Case(label: "Moved forward", material: "The pointer moves forward.", foreign: []),
        Case(label: "Moves forward", material: "The pointer kept moving forward.", foreign: []),
        Case(label: "Using a sorted array", material: "Binary search uses a sorted array.", foreign: []),
        Case(label: "Uses of binary search", material: "Binary search is used in libraries.", foreign: []),
        Case(label: "Making salts", material: "Acids and bases make salts.", foreign: []),
        // British and American spelling meet.
        Case(label: "Indicator color", material: "Indicators show the pH by their colour.", foreign: []),
        Case(label: "Colours of indicators", material: "The indicator changes color.", foreign: []),
        Case(label: "Neutralization", material: "Neutralisation releases heat.", foreign: []),
        Case(label: "Neutralize an acid", material: "A base will neutralise an acid.", foreign: []),
        Case(label: "Labor shortage", material: "The shortage of labour weakened the feudal system.", foreign: []),
        Case(label: "Analyze the data", material: "Students analyse the data.", foreign: []),
        Case(label: "City center", material: "The city centre was empty.", foreign: []),
        Case(label: "Modeling the orbit", material: "Modelling the orbit takes time.", foreign: []),
        // Words the material has in no form stay foreign: the 1.5B's made-up words.
        Case(label: "Definition of acids", material: "Acids release hydrogen ions.", foreign: ["definition"]),
        Case(label: "Causes of acidity", material: "Acids release hydrogen ions because they ionise.",
            foreign: ["caus", "acidity"]),
        Case(label: "Provides protons", material: "An acid donates protons.", foreign: ["provid"]),
        Case(label: "Introduction", material: "The Black Death reached Europe in 1347.", foreign: ["introduction"]),
        // No key links a word to a different one.
        Case(label: "Infection rate", material: "Fleas lived on black rats.", foreign: ["infection", "rate"]),
        Case(label: "Site of the hop", material: "They kept sitting and hopped.", foreign: ["site"]),
        Case(label: "Seeing the seed", material: "Farmers need seed.", foreign: ["see"]),
    ]

    @Test(arguments: cases)
    func aLabelsWordsAreTheMaterialsInAnyOfTheirForms(_ test: Case) {
        let keys = GroundingWords.groundingKeys(of: test.material)
        #expect(GroundingWords.foreignStems(test.label, materialKeys: keys) == test.foreign)
    }

    struct Spelling: Sendable {
        let one: String
        let other: String
    }

    @Test(arguments: [
        Spelling(one: "colour", other: "color"), Spelling(one: "behaviours", other: "behavior"),
        Spelling(one: "favourite", other: "favorite"), Spelling(one: "organisation", other: "organization"),
        Spelling(one: "organisers", other: "organizer"), Spelling(one: "analysed", other: "analyzing"),
        Spelling(one: "metres", other: "meter"), Spelling(one: "fibre", other: "fibers"),
        Spelling(one: "travelled", other: "traveled"),
    ])
    func britishAndAmericanSpellingsShareAKey(_ pair: Spelling) {
        let keys = GroundingWords.groundingKeys(of: pair.one)
        #expect(GroundingWords.foreignStems(pair.other, materialKeys: keys).isEmpty)
        #expect(!keys.isEmpty)
    }

    /// A mind map judged by ``Grounding``: the label with the other spelling is the material's, the
    /// label with a made-up word is not.
    @Test func aMindMapLabelInTheOtherSpellingIsGrounded() throws {
        let material = """
            Acids and bases

            Indicators show the pH by their colour. Universal indicator gives a range of colours \
            from red at pH 1 to purple at pH 14. Neutralisation releases heat.
            """
        let map = MindMap(
            centralTopic: "Acids and bases",
            branches: [
                .init(label: "Indicators", children: [.init(label: "Indicator color", children: [])]),
                .init(label: "Neutralization", children: [.init(label: "Definition of acids", children: [])]),
            ])
        let issues = Grounding.issues(in: .mindMap(map), source: material)
        #expect(issues.map(\.path) == ["branches[1].children[0].label"])
        #expect(issues.first?.message.contains("(definition)") == true)
    }
}
