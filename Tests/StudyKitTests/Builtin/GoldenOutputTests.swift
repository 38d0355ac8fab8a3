import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// The checked-in expected output of the builtin algorithms on the photosynthesis fixture.
struct BuiltinGolden: Codable, Equatable {
    var topSentences: [String]
    var keyphrases: [String]
}

/// Golden outputs: any change to the splitter, stemmer, stopwords, ranker or keyphrase scoring
/// that moves these results shows up here. If a change is intended, regenerate
/// `Fixtures/Builtin/photosynthesis.golden.json` and review the diff.
@Suite struct GoldenOutputTests {
    private func golden() throws -> BuiltinGolden {
        try JSONDecoder().decode(BuiltinGolden.self, from: Data(BuiltinFixtures.text("photosynthesis.golden", "json").utf8))
    }

    @Test func topSentencesMatchGolden() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let actual = SentenceRanker().topSentences(in: text, count: 5).map(\.text)
        #expect(actual == (try golden().topSentences))
    }

    @Test func keyphrasesMatchGolden() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let actual = KeyphraseExtractor().keyphrases(in: text, limit: 12).map(\.text)
        #expect(actual == (try golden().keyphrases))
    }
}
