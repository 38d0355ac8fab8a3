import Testing
@_spi(Benchmarks) @testable import StudyKit

/// What keeps the builtin engine linear on book-length documents (#17) without changing what it
/// answers: the shared analysis and the tokenizer's ASCII short cuts.
@Suite struct BuiltinScaleTests {
    static let other = """
        # Plate tectonics

        The lithosphere is broken into plates that move over the asthenosphere. Plates meet at \
        boundaries where earthquakes and volcanoes are common. At divergent boundaries new crust \
        forms as magma rises. At convergent boundaries one plate sinks below another in subduction. \
        Transform boundaries slide past each other and store strain that earthquakes release.
        """

    /// One engine answering for two documents in turn must answer each as a fresh engine does:
    /// the analysis it keeps belongs to one (text, title) only.
    @Test(arguments: [StudyTask.headline, .summary, .flashcards, .quiz, .mindmap])
    func sharedAnalysisNeverAnswersForAnotherDocument(_ task: StudyTask) throws {
        let photosynthesis = try BuiltinFixtures.photosynthesis()
        let engine = BuiltinEngine()
        let first = try engine.generate(task, text: photosynthesis, title: nil)
        let second = try engine.generate(task, text: Self.other, title: nil)
        let titled = try engine.generate(task, text: Self.other, title: "Moving plates")
        let again = try engine.generate(task, text: photosynthesis, title: nil)
        #expect(first == (try BuiltinEngine().generate(task, text: photosynthesis, title: nil)))
        #expect(second == (try BuiltinEngine().generate(task, text: Self.other, title: nil)))
        #expect(titled == (try BuiltinEngine().generate(task, text: Self.other, title: "Moving plates")))
        #expect(again == first)
        #expect(second != first)
    }

    @Test func kitFromOneEngineEqualsPartsFromFreshEngines() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let engine = BuiltinEngine()
        for task in [StudyTask.headline, .summary, .flashcards, .quiz, .mindmap] {
            #expect(try engine.generate(task, text: text, title: "Photosynthesis") == BuiltinEngine().generate(task, text: text, title: "Photosynthesis"))
        }
    }

    /// Characters whose classification the short cuts must agree on with `Character`'s own:
    /// all of ASCII, CR-LF (one character), and non-ASCII letters, digits, marks and spaces.
    static let characters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) } + [
        "\r\n", "é", "e\u{301}", "ß", "中", "ア", "한", "٣", "Ⅻ", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{85}", "’", "🌱", "ﬁ",
    ]

    @Test func asciiShortCutsAgreeWithUnicodeProperties() {
        for c in Self.characters {
            #expect(TermNormalizer.isLetterOrNumber(c) == (c.isLetter || c.isNumber), "\(c.unicodeScalars.map(\.value))")
            #expect(TermNormalizer.isLetter(c) == c.isLetter, "\(c.unicodeScalars.map(\.value))")
            #expect(TermNormalizer.isWhitespace(c) == c.isWhitespace, "\(c.unicodeScalars.map(\.value))")
        }
    }

    /// (word, stem): the stemmer's suffix rules after their rewrite without allocations.
    @Test(arguments: [
        ("reactions", "reaction"), ("studies", "study"), ("classes", "class"), ("boxes", "box"), ("churches", "church"),
        ("running", "run"), ("falling", "fall"), ("produced", "produc"), ("producing", "produc"), ("quickly", "quick"),
        ("plant's", "plant"), ("plants'", "plant"), ("glass", "glass"), ("virus", "virus"), ("axis", "axis"),
        ("sing", "sing"), ("bed", "bed"), ("naïve", "naïv"), ("café", "café"), ("x-rays", "x-ray"), ("3.14", "3.14"),
    ])
    func stemsAreUnchanged(_ word: String, _ stem: String) {
        #expect(TermNormalizer.stem(word) == stem)
    }
}
