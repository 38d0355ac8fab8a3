import Foundation

// MARK: - A chunk and a plan

/// One piece of a document too long for the serving engine's window: whole sections when they
/// fit, else whole paragraphs, else whole sentences. Never a part of a sentence.
public struct DocumentChunk: Sendable, Equatable {
    /// Position in the plan (0-based, document order).
    public var index: Int
    /// The characters of the document this chunk stands for. The chunks of a plan tile the
    /// document: the first starts at 0, each starts where the one before ends, the last ends at
    /// the document's `characterCount`, so the characters of the chunks a model read add up to
    /// what it read of the document.
    public var offsets: Range<Int>
    /// The outline sections (``DocumentOutline/sections`` indices) this chunk holds part or all of.
    public var sections: [Int]
    /// The sections this chunk holds whole (heading and every sentence).
    public var wholeSections: [Int]
    /// The headings of ``sections``, for the prompt, `route --explain` and the coverage report.
    public var headings: [String]
    /// What the model is sent: the document's text of these units, preceded by the heading of a
    /// section begun in the chunk before ("Heading (continued)").
    public var text: String
    /// The planner's token estimate of ``text``.
    public var estimatedTokens: Int
}

/// How a document is cut for a task and an engine's window.
public struct ChunkPlan: Sendable, Equatable {
    /// The chunks, in document order.
    public var chunks: [DocumentChunk]
    /// The document's sections (``DocumentOutline/sections``).
    public var sectionHeadings: [String?]
    /// The document's `characterCount`.
    public var characterCount: Int
    /// The most tokens of document a chunk may hold.
    public var budgetTokens: Int
    /// Set when the chunks are groups of sections of a document that fits the window
    /// (``SectionGroupPlanner``): the cards or questions asked for in all; `nil` for chunks cut
    /// to fit the window.
    public var groupedItems: Int? = nil
}

// MARK: - Planner

/// Cuts a document on its outline so that each chunk fits a token budget. Pure.
///
/// Sections are packed whole, in order, as many as fit; a section larger than the budget is cut
/// between paragraphs, and a paragraph larger than the budget between sentences (the splitter
/// bounds a sentence at 600 characters, far below any window). A sentence is never cut: one
/// that would not fit even alone is a chunk of its own, which the router then fits.
enum ChunkPlanner {
    /// Plans `text` for chunks of at most `budget` tokens as `tokens` counts them.
    static func plan(text: String, outline: DocumentOutline, budget: Int, tokens: (String) -> Int) -> ChunkPlan {
        let headings = outline.sections.map { $0.heading }
        let characterCount = text.count
        let blocks = Self.blocks(text: text, outline: outline, budget: budget, tokens: tokens)
        let sectionUnits = Self.unitRanges(outline)
        // Each chunk's blocks, and whether it opens with the heading of a section it continues.
        var groups: [(blocks: [Block], carriesHeading: Bool)] = []
        var current: [Block] = []
        var carries = false
        var used = 0
        for block in blocks {
            let cost = block.tokens + 1
            if !current.isEmpty, used + cost > budget {
                groups.append((current, carries))
                current = []
            }
            if current.isEmpty {
                // A chunk that starts inside a section carries that section's heading, when both fit.
                let heading = block.startsSection ? nil : block.continuedHeading.map { tokens($0) + 1 }
                carries = heading.map { $0 + cost <= budget } ?? false
                used = carries ? heading ?? 0 : 0
            }
            current.append(block)
            used += cost
        }
        if !current.isEmpty { groups.append((current, carries)) }

        var chunks: [DocumentChunk] = []
        for (index, (group, carriesHeading)) in groups.enumerated() {
            let first = group[0], last = group[group.count - 1]
            let start = index == 0 ? 0 : outline.units[first.units.lowerBound].offsets.lowerBound
            let body = String(
                text[
                    outline.units[first.units.lowerBound].range
                        .lowerBound..<outline.units[last.units.upperBound - 1].range.upperBound])
            let heading = carriesHeading ? first.continuedHeading : nil
            let chunkText = heading.map { $0 + "\n\n" + body } ?? body
            let unitRange = first.units.lowerBound..<last.units.upperBound
            var sections: [Int] = []
            for unit in unitRange where sections.last != outline.sectionOfUnit[unit] {
                sections.append(outline.sectionOfUnit[unit])
            }
            let whole = sections.filter {
                unitRange.contains(sectionUnits[$0].lowerBound) && sectionUnits[$0].upperBound <= unitRange.upperBound
            }
            chunks.append(DocumentChunk(
                index: index, offsets: start..<start, sections: sections, wholeSections: whole,
                headings: sections.compactMap { headings[$0] }, text: chunkText,
                estimatedTokens: group.reduce(heading.map { tokens($0) + 1 } ?? 0) { $0 + $1.tokens + 1 }))
        }
        // The chunks tile the document: each ends where the next begins.
        for index in chunks.indices {
            let end = index + 1 < chunks.count ? chunks[index + 1].offsets.lowerBound : characterCount
            chunks[index].offsets = chunks[index].offsets.lowerBound..<end
        }
        return ChunkPlan(
            chunks: chunks, sectionHeadings: headings, characterCount: characterCount, budgetTokens: budget)
    }

    /// A run of units that goes into one chunk whole: a section, a paragraph or a sentence.
    private struct Block {
        var units: Range<Int>
        var tokens: Int
        var startsSection: Bool
        /// The heading to repeat when a chunk starts with this block inside its section.
        var continuedHeading: String?
    }

    /// Each section's units: its heading and its sentences, contiguous in ``DocumentOutline/units``.
    private static func unitRanges(_ outline: DocumentOutline) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var unit = 0
        for section in outline.sections {
            let count = (section.headingSentence == nil ? 0 : 1) + section.sentences.count
            ranges.append(unit..<(unit + count))
            unit += count
        }
        return ranges
    }

    /// Whole sections that fit, else their paragraphs, else their sentences.
    private static func blocks(text: String, outline: DocumentOutline, budget: Int, tokens: (String) -> Int) -> [Block]
    {
        func slice(_ units: Range<Int>) -> String {
            String(
                text[
                    outline.units[units.lowerBound].range
                        .lowerBound..<outline.units[units.upperBound - 1].range.upperBound])
        }
        var blocks: [Block] = []
        for (section, units) in zip(outline.sections, unitRanges(outline)) {
            guard !units.isEmpty else { continue }
            let continued = section.heading.map { $0 + " (continued)" }
            let whole = tokens(slice(units))
            if whole <= budget {
                blocks.append(Block(units: units, tokens: whole, startsSection: true, continuedHeading: continued))
                continue
            }
            // Paragraphs; the heading goes with the first one.
            var paragraphs: [Range<Int>] = []
            var start = units.lowerBound
            for index in units.dropFirst() where !outline.units[index - 1].isHeading
                && outline.units[index].paragraph != outline.units[index - 1].paragraph
            {
                paragraphs.append(start..<index)
                start = index
            }
            paragraphs.append(start..<units.upperBound)
            for paragraph in paragraphs {
                let size = tokens(slice(paragraph))
                let opens = paragraph.lowerBound == units.lowerBound
                if size <= budget {
                    blocks.append(
                        Block(units: paragraph, tokens: size, startsSection: opens, continuedHeading: continued))
                    continue
                }
                for sentence in paragraph {
                    blocks.append(Block(
                        units: sentence..<(sentence + 1), tokens: tokens(outline.units[sentence].text),
                        startsSection: opens && sentence == paragraph.lowerBound, continuedHeading: continued))
                }
            }
        }
        return blocks
    }
}
