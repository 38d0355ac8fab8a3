import Foundation

// MARK: - The part line of a chunk's prompt

/// Which chunk of a longer document a request carries, and how many items it should give.
public struct DocumentPart: Sendable, Equatable {
    /// The chunk's position (0-based).
    public var index: Int
    /// How many chunks the document has.
    public var total: Int
    /// Flashcards and quiz: the chunk's share of the items; `nil` for other tasks.
    public var items: Int?
    /// The headings of the chunk's sections.
    public var headings: [String]

    /// Creates a part.
    public init(index: Int, total: Int, items: Int? = nil, headings: [String] = []) {
        self.index = index
        self.total = total
        self.items = items
        self.headings = headings
    }

    /// The line the prompt gets before its request: which part this is, and what to write on it.
    func promptLine(for task: StudyTask) -> String {
        var line = "The document above is part \(index + 1) of \(total) of a longer document"
        let shown = headings.prefix(4).map {
            TaskPrompt.neutralised($0).split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        if !shown.isEmpty {
            line += " (sections: " + shown.joined(separator: "; ") + (headings.count > 4 ? "; …" : "") + ")"
        }
        line += "."
        switch task {
        case .flashcards: line += " Write \(items ?? 5) flashcards on this part only."
        case .quiz: line += " Write \(items ?? 3) questions on this part only."
        case .summary: line += " Summarise this part only."
        case .mindmap: line += " Map this part only; its central topic is this part's subject."
        default: break
        }
        return line
    }
}
