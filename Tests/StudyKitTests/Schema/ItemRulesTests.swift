import Foundation
import Testing
@testable import StudyKit

/// A whole answer that a model gave (or could give) and the items the rules must name in their
/// rejection: each `(path, shown)` is an issue's path and the text its message quotes.
struct JunkAnswer: Sendable, CustomTestStringConvertible {
    let name: String
    let task: StudyTask
    let output: String
    let rejected: [(path: String, shown: String)]

    var testDescription: String { "\(task.name): \(name)" }
}

/// A whole answer that carries meaning and must stay accepted.
struct GoodAnswer: Sendable, CustomTestStringConvertible {
    let name: String
    let task: StudyTask
    let output: String

    var testDescription: String { "\(task.name): \(name)" }
}

@Suite("Item rules: every list item carries meaning")
struct ItemRulesTests {
    /// The overview of the run in #23, before its key points.
    static let mitosisOverview =
        "Mitosis is a process that allows one cell to divide into two identical daughter cells. Before mitosis, in interphase, the cell copies its DNA."

    // MARK: The junk table (from real runs, then the same faults in the other item kinds)

    static let junk: [JunkAnswer] = [
        // SmolLM2 on samples/paste.txt (#23): "overview and keyPoints is a json object", one word a point,
        // after a point that repeats the overview and stops mid-sentence.
        JunkAnswer(
            name: "the key points of #23", task: .summary,
            output: summary(mitosisOverview, [
                "Mitosis is a process that allows … Before mitosis, in interphase, … Comparing meiosis, a",
                "overview", "and", "keyPoints", "is", "a", "json", "object",
            ]),
            rejected: [
                ("keyPoints[0]", "Mitosis is a process that allows"), ("keyPoints[1]", "\"overview\""), ("keyPoints[2]", "\"and\""),
                ("keyPoints[3]", "\"keyPoints\""), ("keyPoints[4]", "\"is\""), ("keyPoints[5]", "\"a\""), ("keyPoints[6]", "\"json\""),
                ("keyPoints[7]", "\"object\""),
            ]),
        // The loopback servers' mind map (#23).
        JunkAnswer(
            name: "the mind map of #23", task: .mindmap,
            output: #"""
                {"centralTopic": "CentralTopic", "branches": [
                  {"label": "Branches", "children": [{"label": "branch1", "children": []}, {"label": "branch2", "children": []}]},
                  {"label": "branch1", "children": []}, {"label": "branch2", "children": []}]}
                """#,
            rejected: [
                ("centralTopic", "\"CentralTopic\""), ("branches[0].label", "\"Branches\""),
                ("branches[0].children[0].label", "\"branch1\""), ("branches[0].children[1].label", "\"branch2\""),
                ("branches[1].label", "\"branch1\""), ("branches[2].label", "\"branch2\""),
            ]),
        // The kit's headline on samples/notes.pdf (#12): empty praise that passed grounding.
        JunkAnswer(
            name: "the must-read blurb of #12", task: .headline,
            output: #"""
                {"title": "Photosynthesis: Study Notes",
                 "blurb": "Photosynthesis: Study Notes, a short summary of the study, is a must-read for anyone interested in the science of life."}
                """#,
            rejected: [("blurb", "stock phrase")]),
        // SmolLM2's headline of samples/notes.pdf in session 28's default import: the text
        // announcing itself, then cut off after "to,".
        JunkAnswer(
            name: "the summary-of-the-study blurb cut after a comma", task: .headline,
            output: #"""
                {"title": "Photosynthesis: Study Notes",
                 "blurb": "Photosynthesis: Study Notes, this is a summary of the study on photosynthesis, which is a process that plants use to convert light energy into chemical energy, and it is a process that is important to,."}
                """#,
            rejected: [("blurb", "stock phrase \"this is a summary\""), ("blurb", "cut off mid-sentence")]),
        // SmolLM2 on samples/eval/en-physics-newton.txt: a blurb stuck in a loop.
        JunkAnswer(
            name: "a blurb that loops", task: .headline,
            output: #"""
                {"title": "Newton's Three Laws of Motion",
                 "blurb": "The First Law: Inertia, and the Third Law: The Law of Inertia, and the Law of Inertia: The Law of Inertia: Theory."}
                """#,
            rejected: [("blurb", "repeats \"the law of inertia\"")]),
        JunkAnswer(
            name: "the JSON-object blurb of #7", task: .headline,
            output: #"{"title": "Study Notes", "blurb": "This is a JSON object with the headline."}"#,
            rejected: [("blurb", "stock phrase \"json object\"")]),
        JunkAnswer(
            name: "an overview of empty praise", task: .summary,
            output: summary(
                "This document covers photosynthesis in plants. It is a must-read for anyone interested in biology.",
                ["Chlorophyll in the chloroplasts absorbs light.", "The light-dependent reactions split water and release oxygen.",
                 "The Calvin cycle fixes carbon dioxide into sugar."]),
            rejected: [("overview", "stock phrase \"must read\"")]),
        JunkAnswer(
            name: "points that repeat each other", task: .summary,
            output: summary(mitosisOverview, [
                "Metaphase lines the chromosomes up along the spindle.",
                "Prophase condenses the chromosomes into visible threads.",
                "The chromosomes condense into visible threads during prophase.",
            ]),
            rejected: [("keyPoints[2]", "near-copy of keyPoints[1]")]),
        // Checked once the points pass on their own: the overview's sentences are the type's concern.
        JunkAnswer(
            name: "a point that repeats the overview", task: .summary,
            output: summary(mitosisOverview, [
                "Mitosis allows one cell to divide into two identical daughter cells.",
                "Prophase condenses the chromosomes into visible threads.",
                "Metaphase lines the chromosomes up along the spindle.",
            ]),
            rejected: [("keyPoints[0]", "near-copy of sentence 1 of the overview")]),
        JunkAnswer(
            name: "points that are not sentences", task: .summary,
            output: summary(mitosisOverview, [
                "Prophase condenses the long chromosomes and.", "Anaphase pulls sister chromatids apart…",
                "ATP.", "Metaphase lines the chromosomes up along the spindle",
            ]),
            rejected: [
                ("keyPoints[0]", "it ends on \"and\""), ("keyPoints[1]", "ellipsis"), ("keyPoints[2]", "needs at least 4"),
                ("keyPoints[3]", "no final period"),
            ]),
        JunkAnswer(
            name: "placeholder cards", task: .flashcards,
            output: #"""
                {"cards": [
                  {"question": "question1", "answer": "string", "quote": "Photosynthesis takes place in the chloroplasts of plant cells."},
                  {"question": "Which gas is released by photosynthesis?", "answer": "the", "quote": "Water is split and oxygen is released."},
                  {"question": "What does the Calvin cycle produce?", "answer": "answer", "quote": "The Calvin cycle fixes carbon dioxide into sugar."}]}
                """#,
            rejected: [
                ("cards[0].question", "\"question1\""), ("cards[0].answer", "\"string\""), ("cards[1].answer", "\"the\""),
                ("cards[2].answer", "\"answer\""),
            ]),
        JunkAnswer(
            name: "placeholder choices", task: .quiz,
            output: #"""
                {"questions": [
                  {"prompt": "Where does photosynthesis take place?", "choices": ["Option A", "Option B", "Chloroplasts", "…"], "answerIndex": 2, "explanation": "The material says so.", "quote": "Photosynthesis takes place in the chloroplasts."},
                  {"prompt": "Which gas is released?", "choices": ["Oxygen", "choices", "example", "of the"], "answerIndex": 0, "explanation": "Splitting water releases oxygen.", "quote": "Splitting water releases oxygen."},
                  {"prompt": "What does the Calvin cycle fix?", "choices": ["Oxygen", "Water", "Nitrogen", "Carbon dioxide"], "answerIndex": 3, "explanation": "The Calvin cycle fixes carbon dioxide.", "quote": "The Calvin cycle fixes carbon dioxide."}]}
                """#,
            rejected: [
                ("questions[0].choices[0]", "\"Option A\""), ("questions[0].choices[1]", "\"Option B\""),
                ("questions[0].choices[3]", "\"…\""), ("questions[1].choices[1]", "\"choices\""),
                ("questions[1].choices[2]", "\"example\""), ("questions[1].choices[3]", "\"of the\""),
            ]),
        JunkAnswer(
            name: "feedback that talks about the format", task: .feynman,
            output: #"""
                {"verdict": "partial", "score": 5, "whatWasRight": ["a JSON object", "whatWasRight"],
                 "gaps": [{"point": "item", "correction": "Plants take in carbon dioxide from the air.", "quote": "Plants take in carbon dioxide from the air."}],
                 "followUpQuestion": "Where do the light-dependent reactions take place?"}
                """#,
            rejected: [("whatWasRight[0]", "\"a JSON object\""), ("whatWasRight[1]", "\"whatWasRight\""), ("gaps[0].point", "\"item\"")]),
        JunkAnswer(
            name: "labels that repeat the level above", task: .mindmap,
            output: #"""
                {"centralTopic": "Photosynthesis in plants", "branches": [
                  {"label": "Photosynthesis in plants", "children": []},
                  {"label": "The light reactions", "children": [{"label": "light reaction", "children": []}]},
                  {"label": "The Calvin cycle in the stroma", "children": []}]}
                """#,
            rejected: [("branches[0].label", "near-copy of centralTopic"), ("branches[1].children[0].label", "near-copy of branches[1].label")]),
    ]

    @Test(arguments: junk)
    func junkIsRejectedAndEveryBadItemIsNamed(_ answer: JunkAnswer) throws {
        let error = #expect(throws: SchemaError.self) { try decodeResult(for: answer.task, modelOutput: answer.output) }
        guard case .invalid(let issues) = error else {
            Issue.record("expected .invalid, got \(String(describing: error))")
            return
        }
        for (path, shown) in answer.rejected {
            #expect(issues.contains { $0.path == path && $0.message.contains(shown) }, "no issue at \(path) saying \(shown): \(issues)")
        }
        // Nothing but the named items is rejected: the good items next to them stay.
        #expect(Set(issues.map(\.path)).isSubset(of: Set(answer.rejected.map(\.path))), "\(issues)")
    }

    // MARK: Good answers stay accepted

    static let good: [GoodAnswer] = [
        GoodAnswer(
            name: "sentences of four content words and more", task: .summary,
            output: summary(mitosisOverview, [
                "Prophase condenses the chromosomes into visible threads.", "Metaphase lines the chromosomes up along the spindle.",
                "Anaphase pulls the sister chromatids toward opposite poles!", "Does cytokinesis split the cytoplasm between daughter cells?",
            ])),
        GoodAnswer(
            name: "numbers and single terms as choices", task: .quiz,
            output: #"""
                {"questions": [
                  {"prompt": "How many chromosomes does a human body cell hold?", "choices": ["46", "23", "92", "4"], "answerIndex": 0, "explanation": "Body cells are diploid.", "quote": "A human body cell holds 46 chromosomes."},
                  {"prompt": "When was the structure of DNA published?", "choices": ["1953", "1869", "2001", "All of the above"], "answerIndex": 0, "explanation": "Watson and Crick published it in 1953.", "quote": "Watson and Crick published the structure of DNA in 1953."},
                  {"prompt": "Which molecule carries energy in the cell?", "choices": ["ATP", "DNA", "RNA", "None of the above"], "answerIndex": 0, "explanation": "ATP stores chemical energy.", "quote": "ATP carries energy in the cell."}]}
                """#),
        GoodAnswer(
            name: "short labels of one to six words", task: .mindmap,
            output: #"""
                {"centralTopic": "Photosynthesis", "branches": [
                  {"label": "Light reactions", "children": [{"label": "ATP", "children": [{"label": "NADPH"}]}, {"label": "Water splitting", "children": []}]},
                  {"label": "Calvin cycle", "children": [{"label": "Rubisco fixes carbon", "children": []}]},
                  {"label": "C4 and CAM plants", "children": []}]}
                """#),
        GoodAnswer(
            name: "terms and numbers as answers", task: .flashcards,
            output: #"""
                {"cards": [
                  {"question": "Which organelle hosts photosynthesis?", "answer": "Chloroplasts", "quote": "Photosynthesis takes place in the chloroplasts of plant cells."},
                  {"question": "How many chromosomes does a human body cell hold?", "answer": "46", "quote": "A human body cell holds 46 chromosomes."},
                  {"question": "What does the Calvin cycle produce?", "answer": "Sugar, from carbon dioxide.", "quote": "The Calvin cycle fixes carbon dioxide into sugar."}]}
                """#),
        GoodAnswer(
            name: "a blurb that states the point", task: .headline,
            output: #"{"title": "How Plants Make Food", "blurb": "Photosynthesis turns light, water and carbon dioxide into sugar and oxygen inside chloroplasts."}"#),
        GoodAnswer(
            name: "points of feedback", task: .feynman,
            output: #"""
                {"verdict": "partial", "score": 6, "whatWasRight": ["Plants use light energy to make sugar.", "Oxygen is a by-product."],
                 "gaps": [{"point": "Carbon dioxide was not mentioned.", "correction": "Plants fix carbon dioxide into sugar.", "quote": "Plants fix carbon dioxide into sugar."}],
                 "followUpQuestion": "Where do the light-dependent reactions take place?"}
                """#),
    ]

    @Test(arguments: good)
    func goodAnswersAreAccepted(_ answer: GoodAnswer) throws {
        let result = try decodeResult(for: answer.task, modelOutput: answer.output)
        #expect(result.value.validationIssues().isEmpty)
    }

    @Test func theTablesCoverEveryKindOfItem() {
        let junkTasks = Set(Self.junk.map(\.task))
        let goodTasks = Set(Self.good.map(\.task))
        for task: StudyTask in [.summary, .mindmap, .flashcards, .quiz, .feynman, .headline] {
            #expect(junkTasks.contains(task) && goodTasks.contains(task), "\(task)")
        }
    }

    /// Schema's list of field names (it may not ask Tasks for them) is every member name of every
    /// task's schema, no more and no less: a field added to a task fails here until it is listed.
    @Test func theFieldNamesAreEveryTasksSchemaMembers() {
        var collected: Set<String> = []
        func collect(_ schema: GenerationSchema) {
            switch schema {
            case .object(let properties):
                for property in properties {
                    collected.insert(property.name)
                    collect(property.schema)
                }
            case .array(let items, _, _, _): collect(items)
            default: break
            }
        }
        for task in StudyTask.allCases { collect(task.generationSchema) }
        let listed = Set(ItemRules.allFieldNames)
        #expect(collected.subtracting(listed).sorted() == [], "fields ItemRules.allFieldNames lacks")
        #expect(listed.subtracting(collected).sorted() == [], "names ItemRules.allFieldNames has that no task has")
        #expect(ItemRules.allFieldNames.count == listed.count, "each name once")
    }

    // MARK: Minimums are per field

    @Test(arguments: [
        ("4", true), ("1953", true), ("ATP", true), ("Sometimes", true), ("All of the above", true),
        ("and", false), ("of the", false), ("Option C", false), ("keyPoints", false), ("json", false), ("…", false), ("?!", false),
    ])
    func aChoiceMayBeANumberOrASingleTermButNoPlaceholder(_ text: String, accepted: Bool) {
        #expect((ItemRules.problem(text, .choice) == nil) == accepted)
    }

    /// A function's parameter list (a manual's prototype, or its tail cut off by a page) is code, not a key point or a question.
    @Test(arguments: [
        ("Int asn1_der_coding (asn1 node const element, const char * name, void * ider, int * len, char * ErrorDescription).", false),
        ("ider, int ider_len, const char * name_element, int * start, int * end) element: pointer to an ASN1 element ider: vector that contains the DER encoding.", false),
        ("long asn1_get_length_der (const unsigned char * der, _____ der_len, _____ * len) der: DER data to decode.", false),
        ("A void pointer, which C uses for memory of any type, must be cast before use (see the manual).", true),
        ("The function returns an int (the length) and writes the bytes into the buffer you pass, if any.", true),
        // A line of TeX markup (session 31, a LaTeX package's documentation) is code too.
        (#"\expandafter\def\expandafter\@tempa\string\dimen{}% \edef\kernel@stockheight{\expandafter\@tempa\meaning\stockheight}%."#, false),
        (#"Defaults are authoryear, round, comma, aysep={;}, yysep={,}, notesep={, } and \setcitestyle{square,aysep={},yysep={;}} changes them."#, false),
        (#"The natbib package has two basic citation commands, \citet and \citep for textual and parenthetical citations."#, true),
    ])
    func aCodeDeclarationIsNoKeyPointOrQuestion(_ text: String, accepted: Bool) {
        #expect((ItemRules.problem(text, .keyPoint) == nil) == accepted)
        #expect((ItemRules.problem(text, .question) == nil) == accepted)
        #expect(ItemRules.problem("const char", .answer) == nil, "a type may still be an answer or a choice")
    }

    @Test(arguments: ["ATP", "46", "Light reactions", "Calvin cycle."])
    func whatAChoiceMayBeIsNoKeyPoint(_ text: String) {
        #expect(ItemRules.problem(text, .keyPoint) != nil)
    }

    @Test(arguments: [("ATP", true), ("C4 and CAM plants", true), ("the", false), ("branch2", false), ("Subtopic 3", false), ("label", false)])
    func aLabelNeedsOneContentWord(_ text: String, accepted: Bool) {
        #expect((ItemRules.problem(text, .label) == nil) == accepted)
    }

    @Test func everyTasksFieldNamesAreRejectedInEveryField() {
        for name in ["centralTopic", "keyPoints", "followUpQuestion", "answerIndex", "whatWasRight", "blurb", "overview"] {
            for meaning: ItemMeaning in [.keyPoint, .label, .question, .answer, .choice, .feedbackPoint] {
                #expect(ItemRules.problem(name, meaning)?.contains("field name") == true, "\(name) as \(meaning.noun)")
            }
        }
    }

    // MARK: The grammar carries what it can

    @Test func theKeyPointGrammarAsksForFourWordsAndASentenceEnd() throws {
        let pattern = try #require(keyPointConstraints().pattern)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("Prophase condenses the chromosomes."))
        #expect(!matches("overview"))
        #expect(!matches("Comparing meiosis, a"))
        #expect(!matches("Prophase condenses chromosomes"))
        #expect(!matches("Condenses the chromosomes…"))
    }

    @Test func theLabelGrammarAllowsOneToNineWordsForASixWordLimit() throws {
        guard case .object(let properties) = MindMap.generationSchema,
            case .array(let branch, _, _, _)? = properties.first(where: { $0.name == "branches" })?.schema,
            case .object(let branchProperties) = branch,
            case .string(let label)? = branchProperties.first(where: { $0.name == "label" })?.schema
        else {
            Issue.record("the mind map schema changed shape")
            return
        }
        let regex = try NSRegularExpression(pattern: try #require(label.pattern))
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("ATP"))
        #expect(matches("One two three four five six"))
        // Room to finish a seventh word instead of gluing it on; validation keeps the 6-word limit.
        #expect(matches("One two three four five six seven"))
        #expect(!matches("One two three four five six seven eight nine ten"))
    }

    /// A card question (at most 18 words) has the grammar's room to finish, as a label has: a
    /// 19th word is written as a word, not glued on; validation and the judge keep the limit.
    @Test func theCardQuestionGrammarHasRoomToFinish() throws {
        guard case .object(let properties) = ItemRewriter.cardSpec.schema,
            case .string(let question)? = properties.first(where: { $0.name == "question" })?.schema
        else {
            Issue.record("the card schema changed shape")
            return
        }
        let regex = try NSRegularExpression(pattern: try #require(question.pattern))
        func matches(_ words: Int) -> Bool {
            let text = (["What"] + Array(repeating: "word", count: words - 1)).joined(separator: " ") + "?"
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(!matches(3))
        #expect(matches(18))
        #expect(matches(19))
        #expect(matches(GenerationSchema.StringConstraints.grammarWords(18)))
        #expect(!matches(GenerationSchema.StringConstraints.grammarWords(18) + 1))
    }

    // MARK: Helpers

    private static func summary(_ overview: String, _ points: [String]) -> String {
        JSONValue.object(["overview": .string(overview), "keyPoints": .array(points.map(JSONValue.string))]).prettyText
    }

    private func keyPointConstraints() throws -> GenerationSchema.StringConstraints {
        guard case .object(let properties) = Summary.generationSchema,
            case .array(let items, _, _, _)? = properties.first(where: { $0.name == "keyPoints" })?.schema,
            case .string(let constraints) = items
        else { throw CancellationError() }
        return constraints
    }
}
