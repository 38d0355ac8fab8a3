import Foundation

/// A quote for a model's card or quiz question that came without one, found in the material
/// (#53, session 67): a server that is given a JSON Schema rather than a grammar may leave a
/// member out, and a quiz question whose right answer is moved
/// (``ItemRepairs/explainedAnswer(_:sentences:)``) needs the sentence that says the new one.
///
/// A quote is the material's sentence that holds an item's answer and what its question asks
/// (``Grounding/supportProblem(question:answer:quote:)``): of those (at most ``maxLength``
/// characters), the one that says the most of the question's content words, the first on a tie.
/// An item no sentence carries keeps no quote, and the schema's check drops it. A
/// quote the model wrote is left for the judge, as before. Asked for no quotes at all,
/// Qwen2.5-Coder-1.5B wrote the same card again until the loop guard stopped it (the Moon and
/// the Black Death, session 67), so the models are still asked for them.
enum QuoteFinder {
    /// The longest sentence a quote may be (the schemas' limit).
    static let maxLength = 500

    /// `json`, a model's answer for `task`, with a quote for each card and quiz question that
    /// has none and that a sentence carries (a whole kit's deck and quiz too); any other answer as it is.
    static func located(_ json: JSONValue, task: StudyTask, material: String) -> JSONValue {
        // The material's sentences, split only when an item needs a quote, and then once.
        let split = ItemRepairs.MaterialSentences(material)
        func sentences() -> [String] { split.all }
        func cards(_ deck: JSONValue) -> JSONValue {
            filled(deck, list: "cards", sentences: sentences) { fields in
                guard let question = fields["question"]?.stringValue, let answer = fields["answer"]?.stringValue
                else { return nil }
                return (question, answer)
            }
        }
        func questions(_ quiz: JSONValue) -> JSONValue {
            filled(quiz, list: "questions", sentences: sentences) { fields in
                guard let prompt = fields["prompt"]?.stringValue, let right = fields["answerIndex"]?.integerValue,
                    let choices = fields["choices"]?.arrayValue, choices.indices.contains(right),
                    let answer = choices[right].stringValue
                else { return nil }
                return (prompt, answer)
            }
        }
        switch task {
        case .flashcards: return cards(json)
        case .quiz: return questions(json)
        case .studyKit:
            guard var kit = json.objectValue else { return json }
            if let deck = kit["flashcards"] { kit["flashcards"] = cards(deck) }
            if let quiz = kit["quiz"] { kit["quiz"] = questions(quiz) }
            return .object(kit)
        default:
            return json
        }
    }

    /// The sentence of `sentences` that quotes `answer` to `question`, or `nil` when none carries it.
    static func quote(question: String, answer: String, sentences: [String]) -> String? {
        var best: (sentence: String, said: Int)?
        for sentence in sentences where sentence.count <= maxLength {
            guard let said = Grounding.askedWordsSaid(question: question, answer: answer, sentence: sentence),
                said > best?.said ?? -1
            else { continue }
            best = (sentence, said)
        }
        return best?.sentence
    }

    /// `part` with a quote for each item of its `list` that has none, its question and answer
    /// read by `asked`; an item `asked` cannot read is left as it is, for the schema to refuse.
    private static func filled(
        _ part: JSONValue, list: String, sentences: () -> [String],
        asked: (JSONObject) -> (question: String, answer: String)?
    ) -> JSONValue {
        guard var object = part.objectValue, let items = object[list]?.arrayValue else { return part }
        object[list] = .array(
            items.map { item in
                guard var fields = item.objectValue, fields["quote"] == nil, let (question, answer) = asked(fields)
                else { return item }
                guard let found = quote(question: question, answer: answer, sentences: sentences()) else { return item }
                fields["quote"] = .string(found)
                return .object(fields)
            })
        return .object(object)
    }
}
