/// Multiple-choice questions on the material (`studykit quiz`).
///
/// Bounds: 3–10 questions with distinct prompts (case- and whitespace-insensitive); each has
/// exactly 4 distinct `choices` (each at most 200 characters; a number or a single term will
/// do, a placeholder or schema word will not: ``ItemMeaning/choice``), an `answerIndex` from 0
/// to 3, a `prompt` of at most 400 characters (``ItemMeaning/question``) and an `explanation`
/// of at most 600, and a `quote`: the sentence of the material that supports the right answer,
/// at most 500 characters. ``Grounding`` checks that the quote is in the material, that the right
/// choice's content words are in the quote, and that no wrong choice copies the quote.
public struct Quiz: Generable, Codable, Equatable, Hashable {
    /// One multiple-choice question.
    public struct Question: Sendable, Codable, Equatable, Hashable {
        /// The question.
        public var prompt: String
        /// Exactly four distinct answers, one of them right.
        public var choices: [String]
        /// The position of the right answer in `choices` (0–3).
        public var answerIndex: Int
        /// Why that answer is right, from the material.
        public var explanation: String
        /// The sentence of the material that supports the right answer, quoted word for word.
        public var quote: String

        /// Creates a question.
        public init(prompt: String, choices: [String], answerIndex: Int, explanation: String, quote: String) {
            self.prompt = prompt
            self.choices = choices
            self.answerIndex = answerIndex
            self.explanation = explanation
            self.quote = quote
        }

        /// The right choice, or `nil` when `answerIndex` points at none.
        public var answer: String? { choices.indices.contains(answerIndex) ? choices[answerIndex] : nil }

        var jsonValue: JSONValue {
            [
                "prompt": .string(prompt), "choices": .array(choices.map(JSONValue.string)),
                "answerIndex": .integer(answerIndex), "explanation": .string(explanation), "quote": .string(quote),
            ]
        }
    }

    /// The number of choices every question has.
    public static let choiceCount = 4
    /// The most characters a choice may have.
    static let choiceLength = 200

    /// The questions.
    public var questions: [Question]

    /// Creates a quiz.
    public init(questions: [Question]) { self.questions = questions }

    /// The schema: `questions`, each `prompt`, `choices`, `answerIndex`, `explanation`, `quote`
    /// (``QuoteFinder`` finds one left out). Asked without quotes, Qwen2.5-Coder-1.5B wrote
    /// choices as long as the quotes it saved, and looped on two of four quizzes (#53, session 67).
    public static let generationSchema: GenerationSchema = .object([
        .init("questions", description: "3 to 10 multiple-choice questions, each asking something different.",
              .array(
                items: .object([
                    .init("prompt", description: "The question.", .string(maxLength: 400, meaning: .question)),
                    .init("choices", description: "Exactly 4 different answers; exactly one is right.",
                          .array(
                            items: .string(maxLength: choiceLength, meaning: .choice), minItems: choiceCount,
                            maxItems: choiceCount, distinct: .items)),
                    .init("answerIndex", description: "The position of the right answer in choices, from 0 to 3.",
                          .integer(minimum: 0, maximum: choiceCount - 1)),
                    .init("explanation", description: "Why that answer is right, from the material.",
                          .string(maxLength: 600)),
                    .init("quote",
                          description: "The sentence of the material that supports the right answer, "
                            + "copied word for word.",
                          .string(maxLength: 500)),
                ]),
                minItems: 3, maxItems: 10, distinct: .field("prompt"))),
    ])

    /// Reads a quiz; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        questions = try GenerableFields(json).objects("questions") { question throws(SchemaError) in
            Question(
                prompt: try question.string("prompt"), choices: try question.strings("choices"),
                answerIndex: try question.integer("answerIndex"), explanation: try question.string("explanation"),
                quote: try question.string("quote"))
        }
    }

    /// The quiz as JSON.
    public var jsonValue: JSONValue { ["questions": .array(questions.map(\.jsonValue))] }

    /// The answer index must point at one of the question's own choices.
    ///
    /// The schema already bounds it to 0–3; this also holds for quizzes built in code.
    public func semanticIssues() -> [ValidationIssue] {
        questions.enumerated().compactMap { index, question in
            guard !question.choices.indices.contains(question.answerIndex) else { return nil }
            let count = question.choices.count
            return ValidationIssue(
                path: "questions[\(index)].answerIndex",
                message: "is \(question.answerIndex), but there "
                    + (count == 1 ? "is only 1 choice" : "are only \(count) choices"))
        }
    }
}

// MARK: - Prompt

extension Quiz {
    /// Version 2: every question carries the quote that supports its answer, checked by ``Grounding``.
    /// Version 3: questions ask what the material teaches, not about the document (#53, session
    /// 61: Qwen2.5-Coder-1.5B opened both recorded quizzes on the Moon handout with "What is the
    /// name of the handout?" and "What is the name of the session?", four near-identical choices each).
    /// Version 4: each choice a term, a number or a short phrase, not a sentence (#53, session 62:
    /// Qwen2.5-Coder-1.5B wrote sentence-long choices that ran over 200 characters, copied the quote,
    /// or added words to the right answer, and lost every question of its acids-bases and
    /// binary-search quizzes to those three rules).
    static let promptTemplateVersion = "quiz/4"
    static let responseReserve = 1_200
    /// A quiz merged from a long document's chunks holds at most 5 questions per chunk (an
    /// average chunk is asked for 4), and never fewer than the 10 one answer may hold.
    static let mergedItemsPerChunk = ["questions": 5]
    static let instructions = TaskPrompt.instructions(
        role: "You write a multiple-choice quiz on a student's study material.",
        fields: """
            - "questions": 3 to 10 questions, each asking something different, each an object with
              "prompt", "choices" (exactly 4 different answers, one right, each a term, a number
              or a short phrase of a few words, not a sentence), "answerIndex" (the
              position of the right answer, 0 to 3), "explanation" (why it is right) and "quote"
              (the sentence of the document that supports the right answer, copied word for word;
              the right answer's words must be in it). Ask what the material teaches; never ask
              about the document itself (its title, its name, its course, week or session).
            """)
    static let request = "Write a quiz on the document above as a JSON object with \"questions\"."
}
