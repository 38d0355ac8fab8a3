import Foundation

/// What a run drew its items from, body section by body section, and for a chunked run what a
/// model read of the document, chunk by chunk and section by section: `coverage` in `--json`
/// and the footer of the Markdown.
///
/// Every run that makes cards, questions or key points reports its body sections (#54,
/// ``BodySections``): a body section is covered when at least one item's quote lies in it
/// (``bodySections``, ``SectionItems``). A run that was not chunked has no chunks.
///
/// A chunk counts as read only when a model's answer for it was accepted (from the server or
/// from the cache) and the chunk was sent whole; a section counts as covered only when every
/// chunk holding part of it was read. A chunk the builtin engine answered (every model failed,
/// the quota ran out, `--max-chunks` was reached) has items, but was not read by a model.
public struct ChunkCoverage: Sendable, Equatable {
    /// One chunk's story.
    public struct ChunkRun: Sendable, Equatable {
        /// The part of `import` it belongs to (`flashcards`, …); `nil` for a single task.
        public var part: String?
        /// Its position in the plan (0-based).
        public var index: Int
        /// The characters of the document it stands for.
        public var offsets: Range<Int>
        /// The headings of the sections it holds.
        public var headings: [String]
        /// The sections it holds (outline indices), and those it holds whole.
        public var sections: [Int]
        /// The engine that answered; `nil` when nothing could.
        public var engine: EngineKind?
        /// Its model.
        public var model: String
        /// Whether the answer came from the cache.
        public var cached: Bool
        /// Whether the chunk was cut to fit the engine that answered.
        public var fitted: Bool
        /// Characters of the document a model read in this chunk (0 when builtin answered).
        public var read: Int
        /// What was tried before, and why it did not answer.
        public var fallbacks: [FallbackStep]
        /// Items it contributed before deduplication.
        public var items: Int

        /// Whether a model's answer was accepted for the whole chunk.
        public var readWhole: Bool { engine.map { $0 != .builtin } == true && !fitted }
    }

    /// One section of the document's outline, as a chunked run read it.
    public struct SectionRow: Sendable, Equatable {
        /// Its heading; `nil` for text before the first heading.
        public var heading: String?
        /// Whether a model read all of it.
        public var read: Bool
        /// Items (cards, questions, key points, mind-map branches) that came from its chunks.
        public var items: Int
    }

    /// One body section (``BodySections``) and the items whose quotes lie in it.
    public struct BodySectionRow: Sendable, Equatable {
        /// Its heading; `nil` for the opening text.
        public var heading: String?
        /// Characters of its own text.
        public var characters: Int
        /// Cards, questions and key points whose quote (or, for a key point, text) lies in it.
        public var items: Int
        /// Whether an item's quote lies in it.
        public var covered: Bool { items > 0 }
    }

    /// The outline's sections as a chunked run read them, in document order; empty for a run
    /// that was not chunked.
    public var sections: [SectionRow]
    /// The body sections and the items from each, in document order (#54).
    public var bodySections: [BodySectionRow] = []
    /// The chunks, in document order (for `import`, part by part).
    public var chunks: [ChunkRun]
    /// The document's `characterCount`.
    public var characterCount: Int
    /// Characters of the document a model read (for `import`, the least any part read).
    public var charactersRead: Int
    /// Items left out as duplicates of an earlier chunk's.
    public var duplicatesDropped: Int = 0
    /// Set when the chunks are groups of sections of a document that fits the window
    /// (``ChunkPlan/groupedItems``): the cards or questions asked for in all.
    public var groupedItems: Int?
    /// Chunk requests that were in flight at once, and why that many; `nil` when not known.
    public var jobs: JobsChoice?
    /// The whole job's budget: the explicit `--budget`, or the default a remote engine's chunked
    /// run is given (``ChunkedRunner/sizedBudget(_:tasks:floor:)``); `nil` without either.
    public var budget: BudgetUse?

    /// The budget of a chunked run (`--budget`, or the remote's sized default): the time the whole
    /// job may take, shared by every chunk (and a summary's overview), not a budget per chunk. Once
    /// it is spent no model is asked again and the builtin engine answers the chunks left.
    public struct BudgetUse: Sendable, Equatable {
        /// The budget in seconds.
        public var seconds: Double
        /// Chunks that started once it was spent: the builtin engine's, no model was asked.
        public var chunksAfter: Int
    }

    /// Sections a model read all of.
    public var sectionsRead: Int { sections.filter(\.read).count }
    /// Body sections an item's quote lies in.
    public var bodySectionsCovered: Int { bodySections.filter(\.covered).count }

    /// The coverage of a run that was not chunked: its body sections only.
    public init(bodySections: [BodySectionRow], characterCount: Int) {
        self.init(sections: [], chunks: [], characterCount: characterCount, charactersRead: 0)
        self.bodySections = bodySections
    }

    /// A chunked run's coverage.
    init(sections: [SectionRow], chunks: [ChunkRun], characterCount: Int, charactersRead: Int) {
        self.sections = sections
        self.chunks = chunks
        self.characterCount = characterCount
        self.charactersRead = charactersRead
    }
    /// Chunks whose answer came from the cache.
    public var chunksFromCache: Int { chunks.filter(\.cached).count }

    /// The coverage of one task's chunks. Pure.
    static func of(plan: ChunkPlan, runs: [ChunkRun], itemsPerSection: [Int]) -> ChunkCoverage {
        var covered = Array(repeating: true, count: plan.sectionHeadings.count)
        for run in runs where !run.readWhole {
            for section in run.sections { covered[section] = false }
        }
        let sections = plan.sectionHeadings.indices.map {
            SectionRow(heading: plan.sectionHeadings[$0], read: covered[$0], items: itemsPerSection[$0])
        }
        var coverage = ChunkCoverage(
            sections: sections, chunks: runs, characterCount: plan.characterCount,
            charactersRead: runs.reduce(0) { $0 + $1.read })
        coverage.groupedItems = plan.groupedItems
        return coverage
    }

    /// The coverage of a kit's chunked parts: a section is covered when every part covered it,
    /// the characters read are the least any part read, items add up.
    static func combined(_ parts: [ChunkCoverage]) -> ChunkCoverage? {
        guard var combined = parts.first else { return nil }
        for part in parts.dropFirst() where part.sections.count == combined.sections.count {
            for index in combined.sections.indices {
                combined.sections[index].read = combined.sections[index].read && part.sections[index].read
                combined.sections[index].items += part.sections[index].items
            }
            combined.chunks += part.chunks
            combined.charactersRead = min(combined.charactersRead, part.charactersRead)
            combined.duplicatesDropped += part.duplicatesDropped
            if let budget = part.budget {
                combined.budget = BudgetUse(
                    seconds: budget.seconds, chunksAfter: (combined.budget?.chunksAfter ?? 0) + budget.chunksAfter)
            }
        }
        return combined
    }

    // MARK: reports

    /// `coverage` in `--json`: `sections` counts the body sections an item's quote lies in;
    /// `read` what a model read of a chunked run's outline (`null` when not chunked).
    public var jsonValue: JSONValue {
        [
            "sections": ["covered": .integer(bodySectionsCovered), "total": .integer(bodySections.count)],
            "perSection": .array(bodySections.map { row in
                [
                    "heading": row.heading.map { .string(TerminalSafety.clean($0)) } ?? .null,
                    "characters": .integer(row.characters), "items": .integer(row.items), "covered": .bool(row.covered),
                ]
            }),
            "notCovered": .array(bodySections.filter { !$0.covered }.map {
                .string(TerminalSafety.clean($0.heading ?? Self.preamble))
            }),
            "read": chunks.isEmpty ? .null : [
                "sections": ["read": .integer(sectionsRead), "total": .integer(sections.count)],
                "perSection": .array(sections.map { row in
                    [
                        "heading": row.heading.map { .string(TerminalSafety.clean($0)) } ?? .null,
                        "read": .bool(row.read), "items": .integer(row.items),
                    ]
                }),
                "notRead": .array(sections.filter { !$0.read }.map {
                    .string(TerminalSafety.clean($0.heading ?? Self.preamble))
                }),
            ],
            "characters": ["read": .integer(charactersRead), "total": .integer(characterCount)],
            "chunks": .integer(chunks.count),
            "chunksAre": chunks.isEmpty
                ? .null : .string(groupedItems == nil ? "cut to fit the window" : "groups of sections"),
            "itemsAsked": groupedItems.map { .integer($0) } ?? .null,
            "chunksFromCache": .integer(chunksFromCache),
            "duplicatesDropped": .integer(duplicatesDropped),
            "jobs": jobs.map { .integer($0.jobs) } ?? .null,
            "jobsFrom": jobs.map { .string($0.source.rawValue) } ?? .null,
            "budget": budget.map { budget in
                [
                    "seconds": .number(budget.seconds), "for": "the whole job",
                    "chunksAfterBudget": .integer(budget.chunksAfter),
                ]
            } ?? .null,
            "perChunk": .array(chunks.map { run in
                var object: JSONObject = [:]
                if let part = run.part { object["part"] = .string(part) }
                object["index"] = .integer(run.index)
                object["characters"] = [
                    "start": .integer(run.offsets.lowerBound), "end": .integer(run.offsets.upperBound),
                ]
                object["headings"] = .array(run.headings.map { .string(TerminalSafety.clean($0)) })
                object["engine"] = run.engine.map { .string($0.rawValue) } ?? .null
                object["model"] = .string(run.model)
                object["cached"] = .bool(run.cached)
                object["fitted"] = .bool(run.fitted)
                object["read"] = .integer(run.read)
                object["items"] = .integer(run.items)
                object["fallbacks"] = .array(run.fallbacks.map {
                    ["engine": .string($0.engine.rawValue), "reason": .string($0.reason)]
                })
                return .object(object)
            }),
        ]
    }

    /// The name of the text before the first heading.
    static let preamble = "(opening text)"

    /// Body sections the footer names when no item comes from them, at most.
    static let namedSections = 20

    /// The Markdown footer: the body sections the items come from and those they do not; for a
    /// chunked run, what was read, what was not and why, chunk by chunk.
    public var markdownFooter: String {
        func percent(_ part: Int, _ whole: Int) -> String {
            "\(whole == 0 ? 100 : Int((Double(part) * 100 / Double(whole)).rounded(.down)))%"
        }
        var lines = ["---", "", "## Coverage", ""]
        let total = bodySections.count
        lines.append(
            total == 0
                ? "The document has no body section (a heading with 500 characters of its own text)."
                : "Items come from \(bodySectionsCovered) of \(total) body section\(total == 1 ? "" : "s") "
                    + "(\(percent(bodySectionsCovered, total))): "
                    + "sections with 500 characters or more of their own text.")
        let empty = bodySections.filter { !$0.covered }
        if !empty.isEmpty {
            lines += ["", "**No item from** (\(empty.count) section\(empty.count == 1 ? "" : "s")):", ""]
            lines += empty.prefix(Self.namedSections).map { "- " + ($0.heading ?? Self.preamble) }
            if empty.count > Self.namedSections { lines.append("- … and \(empty.count - Self.namedSections) more") }
        }
        guard !chunks.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        let asked = groupedItems.map {
            "It asked for \($0) items, more than one answer writes well: "
                + "it was read in \(chunks.count) groups of sections"
        }
        lines += [
            "",
            (asked ?? "This document was too long for one request: it was read in \(chunks.count) chunks")
                + (chunksFromCache > 0 ? " (\(chunksFromCache) from the cache)" : "") + ". "
                + "A model read \(sectionsRead) of \(sections.count) sections "
                + "(\(percent(sectionsRead, sections.count))) and "
                + "\(charactersRead) of \(characterCount) characters (\(percent(charactersRead, characterCount))).",
        ]
        if let budget, budget.chunksAfter > 0 {
            lines += [
                "",
                "The \(CapabilityPolicy.seconds(budget.seconds)) budget for the whole job ran out: "
                    + "the builtin engine answered the last \(budget.chunksAfter) "
                    + "chunk\(budget.chunksAfter == 1 ? "" : "s") without asking a model.",
            ]
        }
        let missing = sections.filter { !$0.read }
        if missing.isEmpty {
            lines += ["", "Every section was read by a model."]
        } else {
            lines += [
                "",
                "**Not covered by a model** (\(missing.count) section\(missing.count == 1 ? "" : "s"); "
                    + "any items from them were extracted by the builtin engine):",
                "",
            ]
            lines += missing.map { "- " + ($0.heading ?? Self.preamble) }
        }
        // Consecutive chunks that were not read for the same reason share one line.
        var groups: [(first: ChunkRun, last: ChunkRun, why: String)] = []
        for run in chunks where !run.readWhole {
            let why = (run.engine?.rawValue ?? "no engine") + " — " + (run.fallbacks.isEmpty
                ? (run.fitted ? "cut to fit the window" : "no model answered")
                : run.fallbacks.map { "\($0.engine.rawValue): \($0.reason)" }.joined(separator: "; "))
            if let last = groups.last, last.why == why, last.last.part == run.part, last.last.index + 1 == run.index {
                groups[groups.count - 1].last = run
            } else {
                groups.append((run, run, why))
            }
        }
        if !groups.isEmpty {
            lines += ["", "Chunks not read whole by a model:", ""]
            lines += groups.map { group in
                let part = group.first.part.map { "\($0) " } ?? ""
                let first = group.first.headings.first ?? Self.preamble
                if group.first.index == group.last.index {
                    return "- \(part)chunk \(group.first.index + 1) (\(first)): \(group.why)"
                }
                let last = group.last.headings.last ?? Self.preamble
                let span = "\(group.first.index + 1)–\(group.last.index + 1)"
                return "- \(part)chunks \(span) (\(first) … \(last)): \(group.why)"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
