import Foundation
import Testing
@testable import StudyKit

/// The Feynman case table, end to end through the `studykit` binary: the builtin claim check
/// names every planted error — a wrong fact with where the material puts it, a missing key
/// step, a vague explanation — and calls no claim of a right explanation wrong.
@Suite("Feynman case table, end to end")
struct FeynmanCaseTests {
    static let cases = (try? FeynmanCase.all()) ?? []

    @Test func theTableHasAtLeastEightCasesOfEveryKind() throws {
        let cases = try FeynmanCase.all()
        #expect(cases.count >= 8)
        #expect(Set(cases.map(\.kind)).isSuperset(of: ["right", "partly", "wrong", "vague"]))
    }

    @Test(arguments: cases)
    func theBuiltinCheckNamesThePlantedErrors(_ row: FeynmanCase) async throws {
        let run = try await row.run(["--engine", "builtin"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONValue.parse(run.stdout)
        let feedback = try FeynmanFeedback(json: try #require(json["result"]))
        #expect(feedback.validationIssues().isEmpty)
        for error in row.planted {
            #expect(FeynmanCase.names(error, in: feedback), "\(row.id): \(error) not named in \(feedback.gaps)")
        }
        let wrong = FeynmanCase.wrongClaimGaps(in: feedback)
        switch row.kind {
        case "right":
            #expect(wrong.isEmpty, "\(row.id): a right explanation was called wrong: \(wrong)")
            #expect(feedback.verdict != .confused)
            #expect(!feedback.whatWasRight.isEmpty)
        case "wrong":
            #expect(feedback.verdict == .confused || feedback.verdict == .partial)
            #expect(feedback.verdict != .solid)
        case "partly":
            #expect(feedback.verdict == .partial)
        default:
            #expect(wrong.isEmpty)
            #expect(feedback.verdict != .solid)
        }
        // At most three gaps, the wrong claims first.
        #expect(feedback.gaps.count <= 3)
        if let firstOther = feedback.gaps.firstIndex(where: { !$0.point.hasPrefix("You said") }) {
            #expect(!feedback.gaps[firstOther...].contains { $0.point.hasPrefix("You said") })
        }
        // A wrong claim's correction quotes the material.
        for gap in wrong { #expect(gap.correction.contains("“")) }
    }

    /// The issue's example: key terms are the concept's, never "two", "cell" or "starts".
    @Test func keyTermsAreNeverStopwordsOrCommonVerbs() async throws {
        let run = try await FeynmanCase.run(
            source: "samples/paste.txt", concept: "prophase", explanation: "Chromosomes condense.", ["--engine", "builtin"])
        #expect(run.status == 0, "\(run.stderr)")
        let feedback = try FeynmanFeedback(json: try #require(try JSONValue.parse(run.stdout)["result"]))
        let text = (feedback.whatWasRight + feedback.gaps.map(\.point)).joined(separator: " ").lowercased()
        for word in ["“two”", " two,", "out two", "out cell", "out starts", "in two,", "in starts"] {
            #expect(!text.contains(word), "\(word) in \(text)")
        }
        #expect(feedback.gaps.contains { $0.point.contains("leaves out") })
        #expect(FeynmanCase.wrongClaimGaps(in: feedback).isEmpty)
    }
}
