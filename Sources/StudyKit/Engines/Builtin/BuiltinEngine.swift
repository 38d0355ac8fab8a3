import Synchronization

// MARK: - Engine

/// The extractive engine: builds every study-kit result from the material's own sentences and
/// terms, with no model.
///
/// It is the router's last resort, so it is deterministic, needs nothing but the text, answers
/// in milliseconds and is always available. It obeys the same schemas and semantic checks as
/// the models: every value it returns has passed `validate()`. When the text is too thin for a
/// task's minimum (a quiz needs three questions), it pads from other sentences and key terms,
/// and only when that is not enough throws ``BuiltinError/tooShort(task:usableSentences:)``.
///
/// Everything is computed from the text given: headlines prefer the source's title, summaries
/// quote the most central sentences (TextRank), flashcards and quizzes blank key terms out of
/// key sentences (cloze), mind maps follow the headings or cluster the keyphrases, and Feynman
/// feedback measures how many of the material's key terms an explanation covers.
public struct BuiltinEngine: Sendable {
    /// Bump when any output changes for the same input, so cached results are not reused.
    static let algorithmVersion = 21

    /// The cards of a page of notes, the document's best: a deck sized for more spreads the rest
    /// over the sections (#54, ``KitSize``).
    static let flashcardLimit = KitSize.minimumCards
    /// The questions of a page of notes' quiz.
    static let quizLimit = KitSize.minimumQuestions

    /// The last document analysed: `import` asks for the headline and four parts of one
    /// document in turn, and splitting, ranking and extracting a book five times over cost
    /// more than every part together.
    private let memo = AnalysisMemo()

    /// Creates the engine; it has no configuration, and no state beyond its last analysis.
    public init() {}

    /// `material` without the sentences that speak to a model (``InjectedInstructions``), kept
    /// for the last material given: each part of a kit asks again, and finding them scans a
    /// book with regular expressions.
    func withoutInstructions(_ material: String) -> String {
        memo.stripped(material)
    }

    /// The analysis of `text` (as ``generate(_:text:title:concept:explanation:size:)`` was given
    /// it): the one the last part computed, so the item rewriter reads the ranker's order for free.
    func analysis(of text: String, title: String?) -> BuiltinAnalysis {
        memo.analysis(of: text, title: title)
    }

    /// The name reported as the model in results and in cache keys; versioned so that a change
    /// of algorithm changes the key.
    public var modelName: String { "builtin-extractive/\(Self.algorithmVersion)" }

    /// Builds the result of `task` from `text`.
    ///
    /// - Parameters:
    ///   - task: what to build; `.studyKit` builds every part but Feynman feedback.
    ///   - text: the normalized (possibly fitted) document text.
    ///   - title: the source's title, preferred as headline and mind-map centre when it is short.
    ///   - concept: Feynman only: the concept the student explains; the document's main topic when `nil`.
    ///   - explanation: Feynman only: the student's explanation; a missing one is reported in the feedback.
    ///   - size: how many cards and questions (``KitSize``): by default they follow the text's length and sections.
    /// - Returns: a result that has passed validation, its lists within what `size` allows.
    /// - Throws: ``BuiltinError/emptyText`` for text without words,
    ///   ``BuiltinError/tooShort(task:usableSentences:)`` when the text cannot meet the task's
    ///   minimum, ``BuiltinError/invalidResult(task:issues:)`` if a result failed validation
    ///   (a defect; the value is never returned).
    public func generate(
        _ task: StudyTask, text: String, title: String?, concept: String? = nil, explanation: String? = nil,
        size: KitSize = .followsMaterial
    ) throws(BuiltinError) -> AnyStudyResult {
        // A text has a word exactly when it has a letter or a digit: no need to tokenize a book to know.
        guard text.contains(where: TermNormalizer.isLetterOrNumber) else { throw .emptyText }
        let analysis = memo.analysis(of: text, title: title)
        guard !analysis.prose.isEmpty else { throw .tooShort(task: task, usableSentences: 0) }
        let result: AnyStudyResult
        switch task {
        case .headline: result = .headline(try headline(analysis))
        case .feynman: result = .feynman(feynmanFeedback(analysis, concept: concept, explanation: explanation))
        case .summary: result = .summary(try summary(analysis))
        case .flashcards: result = .flashcards(try flashcards(analysis, size: size))
        case .quiz: result = .quiz(try quiz(analysis, size: size))
        case .mindmap: result = .mindMap(try mindMap(analysis))
        case .podcast: result = .podcast(try podcast(analysis))
        case .studyKit:
            do throws(BuiltinError) {
                result = .studyKit(
                    StudyKitBundle(
                        headline: try headline(analysis), summary: try summary(analysis),
                        flashcards: try flashcards(analysis, size: size), quiz: try quiz(analysis, size: size),
                        mindMap: try mindMap(analysis)))
            } catch .tooShort(_, let count) {
                // The kit needs every part; name the kit, which is what was asked for.
                throw .tooShort(task: .studyKit, usableSentences: count)
            } catch {
                throw error
            }
        }
        let issues = result.validationIssues(size: size)
        guard issues.isEmpty else { throw .invalidResult(task: task, issues: issues) }
        return result
    }
}

// MARK: - Memo

/// What the engine computed for the last document, shared by the copies of one engine. One
/// entry each only: the parts of a kit come one after another for the same document, and a
/// long-running caller must not keep every document it ever saw.
private final class AnalysisMemo: Sendable {
    private struct Key: Equatable, Sendable {
        let text: String
        let title: String?
    }

    private let analyses = LastValue<Key, BuiltinAnalysis>()
    private let strippings = LastValue<String, String>()

    func analysis(of text: String, title: String?) -> BuiltinAnalysis {
        analyses.value(for: Key(text: text, title: title)) { BuiltinAnalysis(text: $0.text, title: $0.title) }
    }

    func stripped(_ material: String) -> String {
        strippings.value(for: material) { InjectedInstructions($0).stripped }
    }
}

/// The value computed for the last key asked, recomputed for any other key.
final class LastValue<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let last = Mutex<(key: Key, value: Value)?>(nil)

    func value(for key: Key, _ compute: (Key) -> Value) -> Value {
        if let hit = last.withLock({ entry in entry.flatMap { $0.key == key ? $0.value : nil } }) { return hit }
        // Computed outside the lock: two parts running at once each compute rather than wait.
        let value = compute(key)
        last.withLock { $0 = (key, value) }
        return value
    }
}

// MARK: - Errors

/// Why the builtin engine could not build a result.
public enum BuiltinError: StudyKitError, Equatable {
    /// The text has no words at all.
    case emptyText
    /// The text has too few usable sentences (prose of at least three words) for the task,
    /// even after padding from other sentences and key terms.
    case tooShort(task: StudyTask, usableSentences: Int)
    /// A result failed its own validation. A defect of the engine; the value is never returned.
    case invalidResult(task: StudyTask, issues: [ValidationIssue])

    /// One lower-case line for stderr.
    public var message: String {
        switch self {
        case .emptyText:
            return "the text has no words to study; give material with some text in it"
        case .tooShort(let task, let count):
            let sentences = count == 1 ? "1 usable sentence" : "\(count) usable sentences"
            return "the text is too short for \(Self.noun(task)): it has \(sentences); add more material"
        case .invalidResult(let task, let issues):
            let first = issues.first.map { ": \($0.description)" } ?? ""
            return "the builtin engine built an invalid \(task.name) result\(first); "
                + "please report this, and try --engine local or --engine remote"
        }
    }

    /// Too little text is bad input data (65); an invalid result of our own is a defect (1).
    public var exitCode: ExitCode {
        switch self {
        case .emptyText, .tooShort: return .dataError
        case .invalidResult: return .failure
        }
    }

    private static func noun(_ task: StudyTask) -> String {
        switch task {
        case .headline: return "a headline"
        case .feynman: return "feynman feedback"
        case .summary: return "a summary"
        case .flashcards: return "flashcards"
        case .quiz: return "a quiz"
        case .mindmap: return "a mind map"
        case .podcast: return "a podcast"
        case .studyKit: return "a study kit"
        }
    }
}
