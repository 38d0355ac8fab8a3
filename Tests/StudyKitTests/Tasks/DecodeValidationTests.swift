import Foundation
import Testing
@testable import StudyKit

/// One way a model can get a result wrong, and exactly what we must say about it.
struct BadOutputCase: Sendable, CustomTestStringConvertible {
    let name: String
    let task: StudyTask
    /// Changes to the task's valid fixture: a path and its new value (`nil` removes it).
    var edits: [(String, JSONValue?)] = []
    /// A whole output, used instead of the fixture when set.
    var raw: String? = nil
    let expected: [String]

    var testDescription: String { "\(task.name): \(name)" }

    func output() throws -> String {
        if let raw { return raw }
        var value = try JSONValue.parse(try SchemaFixtures.validOutput(task))
        for (path, newValue) in edits { value = value.editing(path, to: newValue) }
        return value.prettyText
    }
}

@Suite("Decoding and validating model output")
struct DecodeValidationTests {
    /// Nine key points that each pass the item rules, for count checks.
    static let distinctPoints = [
        "Mitosis divides one nucleus into two identical nuclei.", "Prophase condenses chromosomes into visible threads.",
        "Metaphase aligns chromosomes along the spindle equator.", "Anaphase pulls sister chromatids toward opposite poles.",
        "Telophase rebuilds nuclear envelopes around both chromosome sets.", "Cytokinesis splits the cytoplasm between daughter cells.",
        "Interphase copies the DNA before division starts.", "Meiosis yields four haploid gametes with shuffled genes.",
        "Plant cells build a cell plate instead of a furrow.",
    ]
    static let sevenWords: JSONValue = "One Two Three Four Five Six Seven"

    static let badCases: [BadOutputCase] = [
        // Headline
        .init(name: "wrong type", task: .headline, edits: [("title", 42)], expected: ["title is a number, but it must be a string"]),
        .init(name: "null", task: .headline, edits: [("title", .null)], expected: ["title is null, but it must be a string"]),
        .init(name: "missing field", task: .headline, edits: [("blurb", nil)], expected: ["blurb is missing; add it"]),
        .init(name: "extra field", task: .headline, edits: [("tags", ["biology"])], expected: ["tags is not an allowed field; remove it"]),
        .init(name: "too many words", task: .headline, edits: [("title", sevenWords)],
              expected: ["title has 7 words, but at most 6 are allowed"]),
        .init(name: "quote characters", task: .headline, edits: [("title", "The “Green” \"Machine\"")],
              expected: [#"title contains a quotation mark ("), which is not allowed; remove it"#,
                         "title contains a quotation mark (“), which is not allowed; remove it",
                         "title contains a quotation mark (”), which is not allowed; remove it"]),
        .init(name: "too long", task: .headline, edits: [("title", .string(String(repeating: "x", count: 61)))],
              expected: ["title has 61 characters, but at most 60 are allowed"]),
        .init(name: "empty string", task: .headline, edits: [("title", "")], expected: ["title is empty; write some text"]),
        .init(name: "whitespace-only", task: .headline, edits: [("blurb", " \t ")],
              expected: ["blurb contains only whitespace; write some text"]),
        .init(name: "title equals blurb", task: .headline, edits: [("title", "Photosynthesis"), ("blurb", "  photosynthesis. ")],
              expected: ["blurb repeats the title; describe what the material covers instead"]),
        .init(name: "two sentences", task: .headline, edits: [("blurb", "Plants make sugar. They also release oxygen.")],
              expected: ["blurb has 2 sentences, but it must be one sentence"]),
        .init(name: "line break", task: .headline, edits: [("blurb", "Plants make sugar\nfrom light")],
              expected: ["blurb contains a line break, which is not allowed; remove it"]),
        .init(name: "root is an array", task: .headline, raw: #"[{"title": "A", "blurb": "B"}]"#,
              expected: ["the output is an array, but it must be an object"]),
        .init(name: "several problems at once", task: .headline, raw: #"{"title": 1, "extra": true}"#,
              expected: ["title is a number, but it must be a string", "blurb is missing; add it",
                         "extra is not an allowed field; remove it"]),
        // Feynman
        .init(name: "enum case", task: .feynman, edits: [("verdict", "great")],
              expected: [#"verdict is "great", but it must be one of: solid, partial, confused"#]),
        .init(name: "score above range", task: .feynman, edits: [("score", 11)], expected: ["score is 11, but it must be between 0 and 10"]),
        .init(name: "score below range", task: .feynman, edits: [("score", -1)], expected: ["score is -1, but it must be between 0 and 10"]),
        .init(name: "fractional score", task: .feynman, edits: [("score", 6.5)], expected: ["score is 6.5, but it must be a whole number"]),
        .init(name: "score as string", task: .feynman, edits: [("score", "6")], expected: ["score is a string, but it must be an integer"]),
        .init(name: "missing correction", task: .feynman, edits: [("gaps[0].correction", nil)],
              expected: ["gaps[0].correction is missing; add it"]),
        .init(name: "says nothing", task: .feynman, edits: [("whatWasRight", []), ("gaps", [])],
              expected: ["gaps and whatWasRight are both empty; name what was right or what was missed"]),
        .init(name: "correction repeats point", task: .feynman, edits: [("gaps[0].correction", "carbon dioxide was not mentioned as an input")],
              expected: ["gaps[0].correction repeats the point; say what is actually right"]),
        .init(name: "duplicate points", task: .feynman, edits: [("whatWasRight[1]", "  PLANTS use light   energy to make sugar.")],
              expected: ["whatWasRight[1] repeats whatWasRight[0]; make every entry different"]),
        .init(name: "too many items", task: .feynman,
              edits: [("whatWasRight", .array((1...7).map { .string(DecodeValidationTests.distinctPoints[$0 - 1]) }))],
              expected: ["whatWasRight has 7 items, but at most 6 are allowed"]),
        .init(name: "gap is a string", task: .feynman, edits: [("gaps[0]", "CO2")], expected: ["gaps[0] is a string, but it must be an object"]),
        // Summary
        .init(name: "empty array", task: .summary, edits: [("keyPoints", [])], expected: ["keyPoints has 0 items, but at least 3 are required"]),
        .init(name: "one sentence", task: .summary, edits: [("overview", "Plants make sugar from light.")],
              expected: ["overview has 1 sentence, but it must have 2 to 3"]),
        .init(name: "four sentences", task: .summary, edits: [("overview", "One fact. Two facts. Three facts. Four facts.")],
              expected: ["overview has 4 sentences, but it must have 2 to 3"]),
        .init(name: "whitespace-only item", task: .summary, edits: [("keyPoints[1]", "   ")],
              expected: ["keyPoints[1] contains only whitespace; write some text"]),
        .init(name: "item of wrong type", task: .summary, edits: [("keyPoints[2]", ["nested": true])],
              expected: ["keyPoints[2] is an object, but it must be a string"]),
        .init(name: "nine key points", task: .summary, edits: [("keyPoints", .array((1...9).map { .string(DecodeValidationTests.distinctPoints[$0 - 1]) }))],
              expected: ["keyPoints has 9 items, but at most 8 are allowed"]),
        // Flashcards
        .init(name: "duplicate questions", task: .flashcards, edits: [("cards[2].question", "where does PHOTOSYNTHESIS  take place?")],
              expected: ["cards[2].question repeats cards[0].question; make every entry different"]),
        // A card's quote is not asked of a model (QuoteFinder finds it): it may be left out; its answer may not.
        .init(name: "missing answer", task: .flashcards, edits: [("cards[1].answer", nil)], expected: ["cards[1].answer is missing; add it"]),
        .init(name: "extra field in a card", task: .flashcards, edits: [("cards[0].difficulty", "easy")],
              expected: ["cards[0].difficulty is not an allowed field; remove it"]),
        .init(name: "cloze without a blank", task: .flashcards, edits: [("cards[0].kind", "cloze")],
              expected: ["cards[0].question is a cloze without a blank; put _____ where the answer goes, or make the kind \"question\""]),
        .init(name: "unknown card kind", task: .flashcards, edits: [("cards[1].kind", "riddle")],
              expected: ["cards[1].kind is \"riddle\", but it must be one of: question, cloze"]),
        .init(name: "hint gives the answer away", task: .flashcards, edits: [("cards[2].hint", "Sugar")],
              expected: ["cards[2].hint gives the answer away; hint at it instead"]),
        .init(name: "empty hint", task: .flashcards, edits: [("cards[2].hint", "")],
              expected: ["cards[2].hint is empty; write some text"]),
        .init(name: "answer repeats question", task: .flashcards, edits: [("cards[1].answer", "Which gas is released by photosynthesis")],
              expected: ["cards[1].answer repeats the question; give the answer"]),
        .init(name: "cards not an array", task: .flashcards, edits: [("cards", ["question": "Q"])],
              expected: ["cards is an object, but it must be an array"]),
        .init(name: "too few cards", task: .flashcards, edits: [("cards[2]", nil), ("cards[1]", nil)],
              expected: ["cards has 1 item, but at least 3 are required"]),
        // Quiz
        .init(name: "answerIndex out of range", task: .quiz, edits: [("questions[2].answerIndex", 5)],
              expected: ["questions[2].answerIndex is 5, but it must be between 0 and 3"]),
        .init(name: "negative answerIndex", task: .quiz, edits: [("questions[0].answerIndex", -1)],
              expected: ["questions[0].answerIndex is -1, but it must be between 0 and 3"]),
        .init(name: "answerIndex as string", task: .quiz, edits: [("questions[1].answerIndex", "0")],
              expected: ["questions[1].answerIndex is a string, but it must be an integer"]),
        .init(name: "answerIndex as boolean", task: .quiz, edits: [("questions[1].answerIndex", true)],
              expected: ["questions[1].answerIndex is a boolean, but it must be an integer"]),
        .init(name: "three choices", task: .quiz, edits: [("questions[0].choices[3]", nil)],
              expected: ["questions[0].choices has 3 items, but exactly 4 are required"]),
        .init(name: "five choices", task: .quiz, edits: [("questions[0].choices[4]", "Golgi body")],
              expected: ["questions[0].choices has 5 items, but exactly 4 are required"]),
        .init(name: "duplicate choices", task: .quiz, edits: [("questions[1].choices[3]", " oxygen ")],
              expected: ["questions[1].choices[3] repeats questions[1].choices[0]; make every entry different"]),
        .init(name: "duplicate prompts", task: .quiz, edits: [("questions[2].prompt", "Which gas is released?")],
              expected: ["questions[2].prompt repeats questions[1].prompt; make every entry different"]),
        .init(name: "no questions", task: .quiz, edits: [("questions", [])], expected: ["questions has 0 items, but at least 3 are required"]),
        .init(name: "empty explanation", task: .quiz, edits: [("questions[0].explanation", "")],
              expected: ["questions[0].explanation is empty; write some text"]),
        // Mind map
        .init(name: "depth 4", task: .mindmap, edits: [("branches[0].children[0].children[0].children", [["label": "Too deep"]])],
              expected: ["branches[0].children[0].children[0].children is not an allowed field; remove it"]),
        .init(name: "empty label", task: .mindmap, edits: [("branches[1].label", "")], expected: ["branches[1].label is empty; write some text"]),
        .init(name: "one branch", task: .mindmap, edits: [("branches[2]", nil), ("branches[1]", nil)],
              expected: ["branches has 1 item, but at least 2 are required"]),
        .init(name: "duplicate sibling labels", task: .mindmap, edits: [("branches[1].children[0].children[1].label", "rubisco")],
              expected: ["branches[1].children[0].children[1].label repeats branches[1].children[0].children[0].label; make every entry different"]),
        .init(name: "missing children", task: .mindmap, edits: [("branches[2].children", nil)],
              expected: ["branches[2].children is missing; add it"]),
        .init(name: "long central topic", task: .mindmap, edits: [("centralTopic", "How green plants turn light into sugar every day")],
              expected: ["centralTopic has 9 words, but at most 8 are allowed"]),
        // Whole kit: paths carry the part's name
        .init(name: "nested answerIndex", task: .studyKit, edits: [("quiz.questions[2].answerIndex", 5)],
              expected: ["quiz.questions[2].answerIndex is 5, but it must be between 0 and 3"]),
        .init(name: "nested semantic check", task: .studyKit, edits: [("headline.blurb", "How plants make food.")],
              expected: ["headline.blurb repeats the title; describe what the material covers instead"]),
        .init(name: "missing part", task: .studyKit, edits: [("mindMap", nil)], expected: ["mindMap is missing; add it"]),
    ]

    @Test(arguments: badCases)
    func invalidOutputIsReportedPrecisely(_ example: BadOutputCase) throws {
        let output = try example.output()
        let error = #expect(throws: SchemaError.self) { try decodeResult(for: example.task, modelOutput: output) }
        guard case .invalid(let issues) = error else {
            Issue.record("expected .invalid, got \(String(describing: error))")
            return
        }
        #expect(issues.map(\.description) == example.expected)
    }

    @Test func thereAreAtLeastFortyBadCases() {
        #expect(Self.badCases.count >= 40)
    }

    @Test(arguments: StudyTask.allCases)
    func validOutputDecodesAndRoundTrips(_ task: StudyTask) throws {
        let text = try SchemaFixtures.validOutput(task)
        let result = try decodeResult(for: task, modelOutput: text)
        #expect(result.task == task)
        #expect(result.jsonValue == (try JSONValue.parse(text)))
        #expect(try decodeResult(for: task, json: result.jsonValue) == result)
        #expect(result.value.validationIssues().isEmpty)
    }

    @Test(arguments: StudyTask.allCases, [0.2, 0.5, 0.9])
    func outputCutMidwayIsTruncatedNotInvalid(_ task: StudyTask, fraction: Double) throws {
        let text = try SchemaFixtures.validOutput(task).trimmingCharacters(in: .whitespacesAndNewlines)
        let cut = String(text.prefix(Int(Double(text.count) * fraction)))
        #expect(throws: SchemaError.truncated) { try decodeResult(for: task, modelOutput: cut) }
        #expect(throws: SchemaError.truncated) { try decodeResult(for: task, modelOutput: "```json\n" + cut) }
    }

    @Test func headlineDecodesToExpectedValue() throws {
        let headline = try Headline.decode(modelOutput: try SchemaFixtures.validOutput(.headline))
        #expect(headline == Headline(
            title: "How Plants Make Food",
            blurb: "Photosynthesis turns light, water and carbon dioxide into sugar and oxygen inside chloroplasts."))
    }

    @Test(arguments: [
        "```json\n{\"title\": \"Cell Energy\", \"blurb\": \"Cells store energy as ATP.\"}\n```",
        "  ```\n{\"title\": \"Cell Energy\", \"blurb\": \"Cells store energy as ATP.\"}```  \n",
        "\n\n{\"title\": \"  Cell Energy \", \"blurb\": \"Cells store energy as ATP.\"}\n",
        "```JSON {\"title\": \"Cell Energy\", \"blurb\": \"Cells store energy as ATP.\"}```",
    ])
    func fencesAndSurroundingWhitespaceAreTolerated(_ output: String) throws {
        #expect(try Headline.decode(modelOutput: output) == Headline(title: "Cell Energy", blurb: "Cells store energy as ATP."))
    }

    @Test func quizDecodesToExpectedValue() throws {
        let quiz = try Quiz.decode(modelOutput: try SchemaFixtures.validOutput(.quiz))
        #expect(quiz.questions.count == 3)
        #expect(quiz.questions[1] == Quiz.Question(
            prompt: "Which gas is released?", choices: ["Oxygen", "Nitrogen", "Carbon dioxide", "Hydrogen"],
            answerIndex: 0, explanation: "Splitting water releases oxygen.", quote: "Splitting water releases oxygen as a by-product."))
    }

    @Test func feynmanAcceptsAnIntegralScoreWrittenAsDecimal() throws {
        let text = try SchemaFixtures.validOutput(.feynman).replacingOccurrences(of: "\"score\": 6", with: "\"score\": 6.0")
        let feedback = try FeynmanFeedback.decode(modelOutput: text)
        #expect(feedback.score == 6)
        #expect(feedback.verdict == .partial)
        #expect(feedback.gaps.first?.point == "Carbon dioxide was not mentioned as an input.")
    }

    @Test func mindMapDecodesAllThreeLevels() throws {
        let map = try MindMap.decode(modelOutput: try SchemaFixtures.validOutput(.mindmap))
        #expect(map.centralTopic == "Photosynthesis")
        #expect(map.branches.map(\.label) == ["Light-dependent reactions", "Calvin cycle", "Inputs and outputs"])
        #expect(map.branches[1].children[0].children.map(\.label) == ["Rubisco", "Sugar output"])
    }

    @Test func malformedOutputIsNotTruncated() {
        #expect(throws: SchemaError.malformed("unexpected 'H' at line 1, column 1, expected a JSON value")) {
            try decodeResult(for: .headline, modelOutput: "Here is your headline: How Plants Make Food")
        }
    }

    // MARK: Checks on values built in code

    @Test func answerIndexBeyondChoicesIsNamedByTheSemanticCheck() {
        let quiz = Quiz(questions: [
            .init(prompt: "P", choices: ["a", "b", "c", "d"], answerIndex: 5, explanation: "E", quote: "Q"),
            .init(prompt: "Q", choices: ["a", "b"], answerIndex: 1, explanation: "E", quote: "Q"),
            .init(prompt: "R", choices: ["a"], answerIndex: 3, explanation: "E", quote: "Q"),
        ])
        #expect(quiz.semanticIssues().map(\.description) == [
            "questions[0].answerIndex is 5, but there are only 4 choices",
            "questions[2].answerIndex is 3, but there is only 1 choice",
        ])
    }

    @Test func codeBuiltMindMapDeeperThanThreeLevelsFailsValidation() {
        let tooDeep = MindMap.Node(label: "Grandchild", children: [MindMap.Node(label: "Great-grandchild")])
        let map = MindMap(centralTopic: "Topic", branches: [
            MindMap.Node(label: "Prophase", children: [MindMap.Node(label: "Child", children: [tooDeep])]),
            MindMap.Node(label: "Metaphase"),
        ])
        #expect(throws: SchemaError.invalid([ValidationIssue(
            path: "branches[0].children[0].children[0].children", message: "is not an allowed field; remove it")])) {
            try map.validate()
        }
    }

    @Test func feedbackListsEveryIssueForTheReAsk() {
        let error = SchemaError.invalid([
            ValidationIssue(path: "quiz.questions[2].answerIndex", message: "is 5, but there are only 4 choices"),
            ValidationIssue(path: "", message: "is an array, but it must be an object"),
        ])
        #expect(error.feedback == """
            Your previous answer did not meet the requirements:
            - quiz.questions[2].answerIndex is 5, but there are only 4 choices
            - the output is an array, but it must be an object
            Reply again with the corrected JSON object only, keeping everything that was right.
            """)
        #expect(error.message.hasPrefix("the model's output does not match the schema: quiz.questions[2].answerIndex is 5"))
        #expect(error.message.contains("(and 1 more)"))
        #expect(error.exitCode == .dataError)
        #expect(SchemaError.truncated.feedback.contains("cut off"))
    }

    @Test func feedbackWithATokenLimitNamesTheFirstIssuesAndCountsTheRest() {
        let issues = (0..<39).map { ValidationIssue(path: "branches[\($0)].label", message: "must not be empty") }
        let feedback = SchemaError.invalid(issues).feedback(maximumTokens: 158)
        #expect(ValidationIssue.worstCaseTokens(feedback) <= 158)
        let lines = feedback.split(separator: "\n").map(String.init)
        #expect(lines.first == "Your previous answer did not meet the requirements:")
        #expect(lines.last == "Reply again with the corrected JSON object only, keeping everything that was right.")
        let listed = lines.filter { $0.hasPrefix("- branches[") }
        #expect(listed.count >= 3)
        #expect(lines.contains("- and \(39 - listed.count) more problems like these"))
        // One issue is always named, however small the limit; a short list is not cut.
        #expect(SchemaError.invalid(issues).feedback(maximumTokens: 10).contains("- branches[0].label must not be empty"))
        #expect(SchemaError.invalid(Array(issues.prefix(2))).feedback(maximumTokens: 158).contains("- branches[1].label"))
        #expect(!SchemaError.invalid(Array(issues.prefix(2))).feedback(maximumTokens: 158).contains("more problem"))
    }

    /// Issue 14, item 10: feedback that quotes Chinese or emoji (a character of several tokens)
    /// stays within the re-ask's room; counted in characters it took up to seven times as much.
    @Test(arguments: ["光合作用把光能转化为化学能并储存在葡萄糖分子中叶绿体是植物细胞中进行光合作用的场所", "🌱☀️🍬💧🫧🌻🍂👩‍🔬🌱☀️🍬💧🫧🌻🍂👩‍🔬🌱☀️🍬💧🫧🌻🍂👩‍🔬"])
    func feedbackQuotingWideCharactersStaysWithinTheReaskRoom(_ quoted: String) {
        let issues = (0..<12).map {
            ValidationIssue(path: "cards[\($0)].quote", message: "is \"\(quoted)\", which the material does not contain; quote the material")
        }
        for error in [SchemaError.invalid(issues), .invalid(Array(issues.prefix(1))), .malformed("unexpected '\(quoted)\(quoted)'")] {
            let feedback = error.feedback(maximumTokens: reaskFeedbackTokens)
            #expect(ValidationIssue.worstCaseTokens(feedback) <= reaskFeedbackTokens, "\(feedback)")
            #expect(feedback.hasPrefix("Your previous answer"))
        }
    }

    @Test func resultTypesAreCodable() throws {
        let kit = try StudyKitBundle.decode(modelOutput: try SchemaFixtures.validOutput(.studyKit))
        let data = try JSONEncoder().encode(kit)
        #expect(try JSONDecoder().decode(StudyKitBundle.self, from: data) == kit)
    }
}

// MARK: - Editing fixtures by path

private enum PathStep { case key(String), index(Int) }

private func pathSteps(_ path: String) -> [PathStep] {
    var steps: [PathStep] = []
    for part in path.split(separator: ".") {
        let pieces = part.split(separator: "[")
        if let name = pieces.first, !part.hasPrefix("[") { steps.append(.key(String(name))) }
        for piece in pieces.dropFirst() where piece.hasSuffix("]") {
            steps.append(.index(Int(piece.dropLast())!))
        }
    }
    return steps
}

private extension JSONValue {
    /// A copy with the value at `path` replaced, appended (one past the end of an array), or removed (`nil`).
    func editing(_ path: String, to newValue: JSONValue?) -> JSONValue {
        editing(pathSteps(path)[...], to: newValue)
    }

    func editing(_ steps: ArraySlice<PathStep>, to newValue: JSONValue?) -> JSONValue {
        guard let step = steps.first else { return newValue ?? .null }
        let rest = steps.dropFirst()
        switch (self, step) {
        case (.object(var object), .key(let key)):
            object[key] = rest.isEmpty ? newValue : (object[key] ?? .null).editing(rest, to: newValue)
            return .object(object)
        case (.array(var elements), .index(let index)):
            if rest.isEmpty {
                if let newValue {
                    if index == elements.count { elements.append(newValue) } else { elements[index] = newValue }
                } else {
                    elements.remove(at: index)
                }
            } else {
                elements[index] = elements[index].editing(rest, to: newValue)
            }
            return .array(elements)
        default:
            fatalError("path step \(step) does not fit \(self.compactText)")
        }
    }
}
