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
        result: AnyStudyResult, origins: [ItemOrigin], chunkAnswers: [RoutedResult?], overview: RoutedResult?,
        maps: [(chunk: Int, part: ChunkReduce.MapPart)]
    ) -> [ItemProvenance] {
        /// The item at `target` of the merged part: what chunk `chunk`'s answer says of the first
        /// of `paths` it records, else what its engine says of a whole answer.
        func item(_ paths: [String], chunk: Int, at target: String) -> ItemProvenance {
            let answer = chunk < chunkAnswers.count ? chunkAnswers[chunk] : nil
            if let found = answer?.items.first(where: { paths.contains($0.path) }) {
                return ItemProvenance(path: target, kind: found.kind, note: "chunk \(chunk + 1): " + (found.note ?? ""))
            }
            guard let answer, answer.engine != .builtin else {
                return ItemProvenance(
                    path: target, kind: .extracted, note: "chunk \(chunk + 1): selected by the builtin engine")
            }
            return ItemProvenance(path: target, kind: .written, note: "chunk \(chunk + 1): written by \(answer.model)")
        }
        func listed(_ list: String) -> [ItemProvenance] {
            origins.enumerated().map { position, origin in
                item(["\(list)[\(origin.index)]"], chunk: origin.chunk, at: "\(list)[\(position)]")
            }
        }
        switch result {
        case .flashcards: return listed("cards")
        case .quiz: return listed("questions")
        case .summary:
            let made = overview?.items.first { $0.path == "overview" }
                ?? overview.map {
                    ItemProvenance(
                        path: "overview", kind: $0.engine == .builtin ? .extracted : .written,
                        note: "written by \($0.model) from the chunks' key points")
                }
                ?? item(["overview"], chunk: 0, at: "overview")
            return [made] + listed("keyPoints")
        case .mindMap(let map):
            return map.branches.enumerated().map { position, branch in
                let path = "branches[\(position)]"
                for (chunk, part) in maps {
                    if let at = part.map.branches.firstIndex(where: { ChunkReduce.sameLabel($0.label, branch.label) }) {
                        return item(["branches[\(at)].label", "branches[\(at)]"], chunk: chunk, at: path)
                    }
                }
                // A section's heading the chunks were merged under: what made that chunk's map.
                if let (chunk, _) = maps.first(where: {
                    $0.part.section.map { ChunkReduce.sameLabel($0, branch.label) } ?? false
                }) {
                    return item([], chunk: chunk, at: path)
                }
                let builtin = maps.allSatisfy { chunkAnswers[$0.chunk]?.engine ?? .builtin == .builtin }
                return ItemProvenance(
                    path: path, kind: builtin ? .extracted : .written,
                    note: builtin
                        ? "merged from the chunks' mind maps, made by the builtin engine"
                        : "merged from the chunks' mind maps")
            }
        default:
            return []
        }
    }
}
