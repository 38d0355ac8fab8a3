import Foundation

/// The quotes of a model's cards and quiz questions, found in the material by studykit rather
/// than copied out by the model (#53, session 67).
///
/// A quote is the material's sentence that holds an item's answer and what its question asks
/// (``Grounding/supportProblem(question:answer:quote:)``). Models were asked to copy it word for
/// word, and it was half of what they wrote: Qwen2.5-Coder-1.5B spent about 50 of a card's 100
/// tokens on it, at 14 tokens a second on two cores, and its quotes often named another
/// sentence, so the judge replaced them with the one that carries the answer anyway. The
/// schemas no longer ask for it (``GenerationSchema/Property/isAsked``); each item a model
/// writes gets, before it is validated, the sentence of the material (at most
/// ``maxLength`` characters) that says the most of its question's content words among those
/// that carry its answer, the first of them on a tie. An item no sentence carries keeps an
/// empty quote, and ``Grounding`` drops it as it dropped a quote the material does not hold.
/// A quote the model wrote all the same is left for the judge, as before.
enum QuoteFinder {
    /// The longest sentence a quote may be (the schemas' limit).
    static let maxLength = 500

    /// `json`, a model's answer for `task`, with a quote for each card and quiz question that
    /// has none (a whole kit's deck and quiz too); any other answer as it is.
    static func located(_ json: JSONValue, task: StudyTask, material: String) -> JSONValue {
        // The material's sentences, split only when an item needs a quote, and then once.
        var split: [String]?
        func sentences() -> [String] {
            if let split { return split }
            let found = ItemRepairs.sentences(ofMaterial: material)
            split = found
            return found
        }
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
                fields["quote"] = .string(quote(question: question, answer: answer, sentences: sentences()) ?? "")
                return .object(fields)
            })
        return .object(object)
    }
}
