#if LlamaCpp
import Foundation
import Testing
@testable import StudyKit

/// Feynman feedback on the default setup (the in-process model), end to end through the
/// binary: the whole answer does not fit the budget, so the builtin claim check judges and
/// the model, for each wrong claim, points a misplaced one to where the material puts it or
/// writes a one-sentence correction of any other from the material's sentence. Whatever the model writes, the planted errors are named, every gap is either
/// rewritten (grounded in the material) or extracted with a reason, and every model attempt was
/// a small item job.
@Suite("Feynman on the in-process model, end to end")
struct FeynmanRewriteTests {
    @Test func theModelPhrasesCorrectionsOfTheClaimsTheCheckFound() async throws {
        let row = try #require(try FeynmanCase.all().first { $0.id == "prophase-copy-split" })
        // 12 s rather than the default 5 s. The whole answer is ruled out on every machine: with a
        // fresh cache there is no measured speed, so its duration is the default estimate (17 s),
        // not what this machine would take. What the model then writes, item by item, is judged
        // whatever it is: a correction grounded in the material, or the claim kept with a reason.
        let run = try await row.run(["--budget", "12"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONValue.parse(run.stdout)
        let feedback = try FeynmanFeedback(json: try #require(json["result"]))
        #expect(feedback.validationIssues().isEmpty)
        for error in row.planted {
            #expect(FeynmanCase.names(error, in: feedback), "\(error) not named in \(feedback.gaps)")
        }
        // The whole answer was skipped for the budget, and --json says why.
        let fallbacks = json["fallbacks"]?.arrayValue ?? []
        #expect(fallbacks.contains {
            $0["engine"]?.stringValue == "local" && ($0["reason"]?.stringValue ?? "").hasPrefix("skipped: expected to take")
        })
        // Every item says how it was made; every gap is rewritten by the model or extracted with a reason.
        let items = try #require(json["items"]?.arrayValue)
        let gaps = items.filter { ($0["path"]?.stringValue ?? "").hasPrefix("gaps[") }
        #expect(gaps.count == feedback.gaps.count)
        let paste = try String(contentsOf: TestPaths.samples.appendingPathComponent("paste.txt"), encoding: .utf8)
        let material = " " + GroundingWords.normalizedWords(paste).joined(separator: " ") + " "
        for (index, item) in gaps.enumerated() {
            switch item["provenance"]?.stringValue {
            case "rewritten":
                // The model pointed into the material's sentence or wrote the correction from it:
                // what it quotes is the material's, or every content word of it is, and the gap
                // still quotes the material.
                let correction = feedback.gaps[index].correction
                if correction.contains("“") {
                    let phrase = try #require(correction.split(separator: "“").dropFirst().first?.split(separator: "”").first)
                    #expect(material.contains(" " + GroundingWords.normalizedWords(String(phrase)).joined(separator: " ") + " "), "\(phrase)")
                } else {
                    let stems = Set(GroundingWords.contentStems(paste))
                    #expect(GroundingWords.contentStems(correction).allSatisfy(stems.contains), "\(correction)")
                }
                #expect(material.contains(" " + GroundingWords.normalizedWords(feedback.gaps[index].quote).joined(separator: " ") + " "))
            case "extracted":
                #expect(item["note"]?.stringValue?.isEmpty == false, "gaps[\(index)] has no reason")
            default:
                Issue.record("gaps[\(index)] is \(item["provenance"]?.stringValue ?? "nothing")")
            }
        }
        // The model was asked only for corrections, one claim at a time.
        let attempts = try #require(json["attempts"]?.arrayValue)
        #expect(!attempts.isEmpty)
        #expect(attempts.allSatisfy { $0["job"]?.stringValue == "item" })
        #expect(attempts.count <= BuiltinEngine.maximumFeynmanGaps)
    }
}
#endif
