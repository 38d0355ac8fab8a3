import Foundation
import Testing
@testable import StudyKit

/// Fixed typed values, contexts and golden-file helpers for the Output suites.
enum OutputFixtures {
    // MARK: Hostile text

    static let esc = "\u{1b}"
    /// An OSC 8 hyperlink whose visible text is "click".
    static let hyperlink = "\u{1b}]8;;http://evil.example/x\u{1b}\\click\u{1b}]8;;\u{1b}\\"
    /// A BEL-terminated OSC that sets the window title.
    static let titleChange = "\u{1b}]0;pwned\u{07}"
    static let red = "\u{1b}[31m"
    static let reset = "\u{1b}[0m"
    static let zeroWidth = "\u{200B}"
    static let rightToLeftOverride = "\u{202E}"
    static let byteOrderMark = "\u{FEFF}"

    // MARK: Values

    static let nastyHeadline = Headline(
        title: "Cells & <Energy> " + red + "🧠" + reset,
        blurb: "How cells make ATP — read " + hyperlink + " for \"more\" | or `not`" + zeroWidth + ".")

    static let nastyFeynman = FeynmanFeedback(
        verdict: .partial, score: 6,
        whatWasRight: ["# Mitochondria make ATP", "- glucose is the fuel " + rightToLeftOverride + "evil"],
        gaps: [
            .init(point: "Missed the <b>electron transport</b> chain", correction: "It pumps H+ ions;\nthen ATP synthase [spins].",
                  quote: "The chain pumps H+ ions; then ATP synthase [spins]."),
            .init(point: "1. Confused *glycolysis*", correction: "Glycolysis happens in the cytoplasm & yields 2 ATP.",
                  quote: "Glycolysis happens in the cytoplasm & yields 2 ATP."),
        ],
        followUpQuestion: "Why does oxygen matter? " + titleChange)

    static let nastySummary = Summary(
        overview: "Cells turn glucose into ATP.\tThey use oxygen " + byteOrderMark + "(mostly). See [link](http://x.example).",
        keyPoints: ["Glycolysis: 2 ATP", "Krebs cycle | citric acid", "ETC → ~34 ATP", "שלום and مرحبا stay", "> not a quote"])

    static let nastyFlashcards = Flashcards(cards: [
        .init(question: "What is \"ATP\"?", answer: "Adenosine\ttriphosphate", quote: "ATP is the cell's \"energy currency\"."),
        .init(question: "# Where does glycolysis happen?", answer: "In the cytoplasm\n(not the mitochondria)",
              quote: "Glycolysis occurs in the cytoplasm.\nIt needs no oxygen."),
        .init(question: "Which ion " + red + "flows" + reset + " through ATP synthase?", answer: "H+ <protons> & nothing else",
              quote: hyperlink + " Protons flow back " + zeroWidth + "through the enzyme 👩‍🔬."),
    ])

    static let nastyQuiz = Quiz(questions: [
        .init(prompt: "Where does the Krebs cycle run?", choices: ["Cytoplasm", "Mitochondrial matrix", "Nucleus", "Ribosome (free)"],
              answerIndex: 1, explanation: "In the matrix of the mitochondrion.", quote: "The Krebs cycle runs in the mitochondrial <matrix>."),
        .init(prompt: "What does `ETC` stand for?", choices: ["Electron transport chain", "Energy | transfer", "<script>x</script>", "[None]"],
              answerIndex: 0, explanation: "The electron\ttransport chain.", quote: "ETC | the electron transport chain"),
        .init(prompt: "How many ATP from glycolysis? " + rightToLeftOverride, choices: ["1", "2", "4", "36"],
              answerIndex: 1, explanation: "Net 2 ATP per \"glucose\".", quote: "Glycolysis yields a net 2 ATP per \"glucose\"."),
    ])

    static let nastyMindMap = MindMap(centralTopic: "Cell (respiration) " + red + "[ATP]" + reset, branches: [
        .init(label: "Glycolysis {cytoplasm}", children: [
            .init(label: "Glucose → 2 \"pyruvate\"", children: [.init(label: "Net: 2 ATP"), .init(label: "%% not a comment")]),
            .init(label: "No O₂ needed"),
        ]),
        .init(label: "Krebs <cycle> & ETC", children: [
            .init(label: "::icon(fa fa-book) in matrix", children: [.init(label: "`CO2` out")]),
            .init(label: ":::urgent " + hyperlink),
        ]),
        .init(label: "مرحبا " + zeroWidth + "🧠 / 'quotes'"),
    ])

    static let nastyKit = StudyKitBundle(
        headline: nastyHeadline, summary: nastySummary, flashcards: nastyFlashcards, quiz: nastyQuiz, mindMap: nastyMindMap)

    static let cleanKit = StudyKitBundle(
        headline: Headline(title: "Cellular Respiration", blurb: "How cells turn glucose and oxygen into usable energy."),
        summary: Summary(
            overview: "Cells break down glucose in three stages. Most ATP comes from the electron transport chain.",
            keyPoints: ["Glycolysis splits glucose in the cytoplasm.", "The Krebs cycle runs in the mitochondrial matrix.",
                        "The electron transport chain makes most of the ATP."]),
        flashcards: Flashcards(cards: [
            .init(question: "What is ATP?", answer: "The cell's energy currency.", quote: "ATP is the energy currency of the cell."),
            .init(question: "Where does glycolysis happen?", answer: "In the cytoplasm.", quote: "Glycolysis takes place in the cytoplasm."),
            .init(question: "What is the final electron acceptor?", answer: "Oxygen.", quote: "Oxygen is the final electron acceptor."),
        ]),
        quiz: Quiz(questions: [
            .init(prompt: "Where does the Krebs cycle run?", choices: ["Cytoplasm", "Mitochondrial matrix", "Nucleus", "Cell wall"],
                  answerIndex: 1, explanation: "It runs in the mitochondrial matrix.", quote: "The Krebs cycle runs in the mitochondrial matrix."),
            .init(prompt: "What does glycolysis split?", choices: ["Glucose", "Oxygen", "Water", "ATP"],
                  answerIndex: 0, explanation: "Glycolysis splits one glucose into two pyruvate.",
                  quote: "Glycolysis splits glucose in the cytoplasm."),
            .init(prompt: "Which stage makes the most ATP?", choices: ["Glycolysis", "Krebs cycle", "Electron transport chain", "Fermentation"],
                  answerIndex: 2, explanation: "The electron transport chain makes about 34 ATP.",
                  quote: "The electron transport chain makes most of the ATP."),
        ]),
        mindMap: MindMap(centralTopic: "Cellular respiration", branches: [
            .init(label: "Glycolysis", children: [.init(label: "In the cytoplasm"), .init(label: "Makes 2 ATP")]),
            .init(label: "Krebs cycle", children: [.init(label: "In the matrix", children: [.init(label: "Releases CO2")])]),
            .init(label: "Electron transport chain"),
        ]))

    // MARK: Context

    /// FNV-1a, 64-bit, as 16 hex digits: deterministic and good enough to tell inputs apart.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func context(source: String = "/home/student/notes/cells.pdf", title: String? = "Cells " + red + "101" + reset)
        -> RenderContext
    {
        RenderContext(sourceIdentity: source, title: title, deckName: "Biology::Cells", tags: ["studykit", "cell biology"],
                      digest: fnv1a)
    }

    // MARK: Goldens

    /// Compares `actual` with `Fixtures/Output/<name>.golden` exactly.
    ///
    /// With `STUDYKIT_UPDATE_GOLDENS=1` the golden is rewritten in the source tree instead
    /// (review the diff, then rebuild so the bundle copies it).
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment["STUDYKIT_UPDATE_GOLDENS"] == "1" {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/Output/\(name).golden")
            try Data(actual.utf8).write(to: url)
            return
        }
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "golden", subdirectory: "Fixtures/Output"),
            "missing golden \(name).golden; run with STUDYKIT_UPDATE_GOLDENS=1", sourceLocation: sourceLocation)
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "output differs from \(name).golden", sourceLocation: sourceLocation)
    }

    // MARK: Safety

    /// Scalars no output may contain: escapes, controls other than LF and tab, invisible and bidi characters.
    static func unsafeScalars(in text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        return scalars.enumerated().compactMap { index, scalar in
            switch scalar.value {
            case 0x09, 0x0A: return nil
            case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x061C, 0xFEFF, 0x200B, 0x200C, 0x200E, 0x200F,
                 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xE0000...0xE007F:
                return scalar
            case 0x200D:
                // Allowed only inside an emoji sequence.
                let before = index > 0 ? scalars[index - 1] : nil
                let after = index + 1 < scalars.count ? scalars[index + 1] : nil
                let joins = (before.map { $0.value > 0xFF && $0.properties.isEmoji } ?? false)
                    && (after.map { $0.value > 0xFF && $0.properties.isEmoji } ?? false)
                return joins ? nil : scalar
            default: return nil
            }
        }
    }
}
