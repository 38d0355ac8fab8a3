import Foundation

// MARK: - Who made each item of a merged part

extension ChunkedRunner {
    /// The provenance of every item of a part merged from chunks: each card, question or key
    /// point keeps what its chunk's answer said of it (written, rewritten, or extracted and why),
    /// at its place in the merged list and prefixed with its chunk; the overview is the overview
    /// request's, else the first chunk's; a mind-map branch is its chunk's branch of the same
    /// label, else the chunk merged under that label. Without this, `--json` of a chunked part
    /// said nothing of its items, builtin ones included.
    static func mergedItems(
        task: StudyTask, result: AnyStudyResult, origins: [ItemOrigin], chunkAnswers: [RoutedResult?],
        overview: RoutedResult?, maps: [(chunk: Int, part: ChunkReduce.MapPart)]
    ) -> [ItemProvenance] {
        /// What chunk `chunk`'s answer says of `path`, or what its engine says of a whole answer.
        func item(_ path: String, chunk: Int) -> ItemProvenance {
            let answer = chunk < chunkAnswers.count ? chunkAnswers[chunk] : nil
            if let found = answer?.items.first(where: { $0.path == path }) {
                return ItemProvenance(path: path, kind: found.kind, note: "chunk \(chunk + 1): " + (found.note ?? ""))
            }
            guard let answer, answer.engine != .builtin else {
                return ItemProvenance(path: path, kind: .extracted, note: "chunk \(chunk + 1): selected by the builtin engine")
            }
            return ItemProvenance(path: path, kind: .written, note: "chunk \(chunk + 1): written by \(answer.model)")
        }
        func moved(_ provenance: ItemProvenance, to path: String) -> ItemProvenance {
            ItemProvenance(path: path, kind: provenance.kind, note: provenance.note)
        }
        func listed(_ list: String) -> [ItemProvenance] {
            origins.enumerated().map { position, origin in
                moved(item("\(list)[\(origin.index)]", chunk: origin.chunk), to: "\(list)[\(position)]")
            }
        }
        switch result {
        case .flashcards: return listed("cards")
        case .quiz: return listed("questions")
        case .summary:
            let made = overview?.items.first { $0.path == "overview" }
                ?? overview.map { ItemProvenance(path: "overview", kind: $0.engine == .builtin ? .extracted : .written, note: "written by \($0.model) from the chunks' key points") }
                ?? item("overview", chunk: 0)
            return [moved(made, to: "overview")] + listed("keyPoints")
        case .mindMap(let map):
            return map.branches.enumerated().map { position, branch in
                let path = "branches[\(position)]"
                for (chunk, part) in maps {
                    if let at = part.map.branches.firstIndex(where: { ChunkReduce.sameLabel($0.label, branch.label) }) {
                        let own = chunkAnswers[chunk]?.items.first { $0.path == "branches[\(at)].label" || $0.path == "branches[\(at)]" }
                        return own.map { ItemProvenance(path: path, kind: $0.kind, note: "chunk \(chunk + 1): " + ($0.note ?? "")) }
                            ?? moved(item("branches[\(at)]", chunk: chunk), to: path)
                    }
                }
                if let (chunk, _) = maps.first(where: { $0.part.section.map { ChunkReduce.sameLabel($0, branch.label) } ?? false }) {
                    return moved(item("branches", chunk: chunk), to: path)
                }
                let builtin = maps.allSatisfy { chunkAnswers[$0.chunk]?.engine ?? .builtin == .builtin }
                return ItemProvenance(
                    path: path, kind: builtin ? .extracted : .written,
                    note: builtin ? "merged from the chunks' mind maps, made by the builtin engine" : "merged from the chunks' mind maps")
            }
        default:
            return []
        }
    }
}
