import Foundation
import Testing

@testable import StudyKit

/// A model's key point over its word limit is cut to its main clause where the clause left out
/// only adds a reason, a comment or a contrast; never where it is a condition (#53, session 63).
@Suite("A long key point is cut to its main clause")
struct KeyPointClauseTests {
    struct ClauseCase: Sendable, CustomTestStringConvertible {
        let point: String
        let expected: String?
        var testDescription: String { point }
    }

    @Test(arguments: [
        // A reason after the fact: cut before ", because".
        ClauseCase(
            point:
                "Firefighters pulled down whole rows of wooden houses with long iron hooks to make firebreaks, "
                + "because the narrow streets let the flames jump easily from one roof to the next one in the wind.",
            expected: "Firefighters pulled down whole rows of wooden houses with long iron hooks to make firebreaks."),
        // An aside after a semicolon: cut before it.
        ClauseCase(
            point:
                "The fire destroyed about 13,200 houses and 87 parish churches across the old walled city; "
                + "most of the people who lost their homes camped in the fields to the north for weeks.",
            expected: "The fire destroyed about 13,200 houses and 87 parish churches across the old walled city."),
        // The last break that leaves the point within the limit is taken, not the first.
        ClauseCase(
            point:
                "The rebuilt city had wider streets, which let carts pass, and houses of brick and stone, "
                + "which burn far less easily than the timber houses of the old city, "
                + "although many owners complained about the cost.",
            expected:
                "The rebuilt city had wider streets, which let carts pass, and houses of brick and stone, "
                + "which burn far less easily than the timber houses of the old city."),
        // A condition is part of the claim: no cut at ", when" or ", if".
        ClauseCase(
            point:
                "The flames spread west across the wooden houses of the old city for three whole days and nights, "
                + "when the strong east wind kept blowing over the roofs of Thames Street.",
            expected: nil),
        ClauseCase(
            point:
                "Gunpowder was used to blow up houses standing in the fire's path on the third day of the fire, "
                + "if the owners of those houses gave their consent to the Lord Mayor first.",
            expected: nil),
        // A list is no clause: no cut at ", and".
        ClauseCase(
            point:
                "The fire burned the old St Paul's Cathedral, 87 parish churches, 44 company halls, "
                + "the Royal Exchange, the Custom House, Bridewell Palace, the old city gates, "
                + "and about 13,200 houses of timber.",
            expected: nil),
        // Within the limit: nothing to cut.
        ClauseCase(
            point: "The fire started in a bakery on Pudding Lane, which belonged to Thomas Farriner.", expected: nil),
        // What is left would be too short to be a point.
        ClauseCase(
            point:
                "Wren designed it, because the old cathedral had burned down in the fire of September 1666 "
                + "and the city wanted a larger and a much grander church in its place on the hill.",
            expected: nil),
        // A cut inside brackets is no cut.
        ClauseCase(
            point:
                "The new cathedral (designed by Wren, which took about 35.5 years to finish) stands on Ludgate Hill "
                + "high above the river and the many roofs of the rebuilt city of London today.",
            expected: nil),
    ])
    func aLongKeyPointLosesTheClauseThatOnlyAdds(_ example: ClauseCase) {
        #expect(ItemRepairs.mainClause(example.point, maxWords: 30, maxLength: 300) == example.expected)
    }

    static let material = SummaryRepairTests.material

    /// In a judged summary the cut point is kept: `repaired` when the model wrote it in its own
    /// words, still the material's own words when it copied a sentence of the material.
    @Test func theCutPointIsKeptWithItsProvenance() throws {
        let answer: JSONValue = [
            "overview": .string(
                "A fire that began in a bakery burned through the City of London in 1666. It took days to burn out."),
            "keyPoints": .array(
                [
                    "Firefighters pulled houses down with hooks to make firebreaks, which was the usual method at the "
                        + "time, because no fire engine of the day could reach the flames in the narrow streets.",
                    "The rebuilt city had wider streets and houses of brick and stone; the new streets were laid "
                        + "out along the lines of the old ones, with the same names as before the fire.",
                    "Gunpowder was later used to blow up houses in the fire's path.",
                    "The fire destroyed about 13,200 houses and 87 parish churches.",
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
        #expect(
            summary.keyPoints.contains(
                "Firefighters pulled houses down with hooks to make firebreaks, which was the usual method "
                    + "at the time."))
        #expect(summary.keyPoints.contains("The rebuilt city had wider streets and houses of brick and stone."))
        let own = judged.items.first { $0.path == "keyPoints[0]" }
        #expect(own?.kind == .repaired)
        let copied = judged.items.first { $0.path == "keyPoints[1]" }
        #expect(copied?.kind == .extracted)
    }
}
