import Foundation

// The builtin mind map from key-term clusters (when headings do not make one), and the helpers
// both ways share: labels, branch limits, term grouping.

extension BuiltinEngine {
    // MARK: From key-term clusters

    /// Up to six seed terms that share no word with each other or the centre, each gathering
    /// the other terms it shares a word with or is mentioned with in the same sentences.
    func clusterBranches(_ analysis: BuiltinAnalysis, centre: String, centreStems: Set<String>) -> [MindMap.Node] {
        struct Term {
            let label: String
            let stems: [String]
            let sentences: Set<Int>
        }
        var terms: [Term] = []
        var keys = Set<String>()
        for phrase in analysis.keyphrases {
            let stems = phrase.key.split(separator: " ").map(String.init)
            // A phrase said once is mostly a chance run of words ("sun warms"); single words and
            // recurring phrases name topics.
            guard phrase.text.contains(where: \.isLetter), !Set(stems).isSubset(of: centreStems),
                phrase.occurrences >= 2 || stems.count == 1
            else { continue }
            let label = Self.label(phrase.text)
            // A verb ("removes") or a piece of a clause ("shadow falls") names no theme (English).
            if analysis.usesEnglishWords,
                Self.endsOnAVerb(label, in: analysis)
                || Self.isPlainlyNoTerm(label, inflectedAsAVerb: analysis.inflectsAsAVerb)
            {
                continue
            }
            guard !label.isEmpty, keys.insert(ProseText.duplicateKey(label)).inserted else { continue }
            let sentences = Set(analysis.prose.indices.filter { analysis.mentions(phrase.key, inProse: $0) })
            terms.append(Term(label: label, stems: stems, sentences: sentences))
        }
        // Seeds are recurring terms when there are enough of them: a word said once is rarely a theme.
        var seeds: [Int] = []
        var seedStems = centreStems
        let recurring = terms.indices.filter { terms[$0].sentences.count >= 2 }
        let seedPool = recurring.count >= 2 ? recurring : Array(terms.indices)
        for index in seedPool where seeds.count < 6 {
            let term = terms[index]
            guard seedStems.isDisjoint(with: term.stems) else { continue }
            seeds.append(index)
            seedStems.formUnion(term.stems)
        }
        var children = Array(repeating: [Int](), count: seeds.count)
        var placed: [[String]] = []
        for (index, term) in terms.enumerated() where !seeds.contains(index) {
            // A term inside a theme or inside a term already on the map ("helix" beside "double
            // helix", "fork" beside "replication fork") says it again; one that holds a theme
            // ("lagging strand" of "strand") names something narrower.
            if (seeds.map { terms[$0].stems } + placed).contains(where: { $0.count > term.stems.count
                && Self.nested($0, term.stems) }) {
                continue
            }
            var best: (seed: Int, affinity: Int)?
            for (s, seedIndex) in seeds.enumerated() where children[s].count < Self.termChildren {
                let seed = terms[seedIndex]
                // A term inside its seed ("light" under "light reactions") adds nothing.
                if Self.nested(seed.stems, term.stems) { continue }
                if children[s].contains(where: { Self.nested(terms[$0].stems, term.stems) }) { continue }
                let shared = Set(seed.stems).intersection(term.stems).count
                let affinity = 10 * shared + seed.sentences.intersection(term.sentences).count
                if affinity > 0, affinity > (best?.affinity ?? 0) { best = (s, affinity) }
            }
            if let best {
                children[best.seed].append(index)
                placed.append(term.stems)
            }
        }
        return seeds.enumerated().map { s, seedIndex in
            MindMap.Node(label: terms[seedIndex].label,
                children: children[s].map { MindMap.Node(label: terms[$0].label) })
        }
    }

    // MARK: Helpers

    /// Whether a label's last word is one the text uses only as a verb (``BuiltinAnalysis/verbs``):
    /// "removes", "shadow falls".
    static func endsOnAVerb(_ label: String, in analysis: BuiltinAnalysis) -> Bool {
        guard let last = label.split(separator: " ").last, last == last.lowercased() else { return false }
        return analysis.verbs.contains(String(last))
    }

    /// `nodes` without the labels the validator rejects (``ItemMeaning/label``), nor those that
    /// repeat their parent or an earlier sibling, as near-copies or exactly; children likewise.
    static func meaningful(_ nodes: [MindMap.Node], under parent: String) -> [MindMap.Node] {
        var admitted = MeaningfulLabels(under: parent)
        return nodes.compactMap { node in
            admitted.admit(node.label) ? MindMap.Node(label: node.label,
                children: meaningful(node.children, under: node.label)) : nil
        }
    }

    /// The labels ``meaningful(_:under:)`` has kept under one parent so far.
    struct MeaningfulLabels {
        private let parentKeys: Set<String>
        private var keys = Set<String>()
        private var stems: [Set<String>] = []

        init(under parent: String) { parentKeys = ItemRules.overlapKeys(parent) }

        /// Whether `label` may follow the labels kept so far: a label the validator accepts, no
        /// near-copy of the parent or of a kept label, no duplicate. If so, it is kept.
        mutating func admit(_ label: String) -> Bool {
            let own = ItemRules.overlapKeys(label)
            guard ItemRules.problem(label, .label) == nil, !ItemRules.nearCopy(own, parentKeys),
                !stems.contains(where: { ItemRules.nearCopy(own, $0) }),
                keys.insert(ProseText.duplicateKey(label)).inserted
            else { return false }
            stems.append(own)
            return true
        }
    }

    /// A node label: one line, at most six words and 80 characters; a longer one cut to its head
    /// phrase where it has one ("The Legislative Assembly and the road to war" → "Legislative
    /// Assembly and the road"; ``ItemRepairs/headPhrase(_:maxWords:)``, the cut a model's label
    /// gets too), else to its first words.
    static func label(_ text: String) -> String {
        let line = ProseText.termText(text)
        if let head = ItemRepairs.headPhrase(ProseText.oneLine(line), maxWords: labelWords),
            ProseText.length(head) <= labelLength {
            return head
        }
        return ProseText.shortened(line, maxWords: labelWords, maxLength: labelLength, ending: "")
    }

    /// A heading as a node label, without its section number: "2. Where it happens" and
    /// "3.1 Photosystems" become "Where it happens" and "Photosystems" (the map's branches are
    /// in document order already; the numbers only crowd the labels). A number that is the
    /// whole heading, or is not followed by a dot, a parenthesis or a sub-number, stays — unless
    /// `chapters` says the document numbers its chapters so ("1 Introduction").
    /// `nil` when the words alone are not a label the item rules accept ("1. Overview":
    /// "Overview" is a field name); the caller then keeps every number of the map.
    static func unnumberedLabel(_ heading: String, chapters: Bool = false) -> String? {
        let text = heading.trimmingCharacters(in: .whitespaces)
        let number = headingNumber(chapters: chapters)
        let unnumbered = label(text.replacing(number, with: ""))
        guard unnumbered.contains(where: \.isLetter), ItemRules.problem(unnumbered, .label) == nil else { return nil }
        return unnumbered
    }

    /// A title without its chapter or section number ("4. More Control Flow Tools" → "More
    /// Control Flow Tools", "Chapter 6. Maintenance…" → "Maintenance…"), as the map's labels are;
    /// the title itself when its words alone are no label or it has no such number ("1984").
    static func unnumberedTitle(_ title: String) -> String {
        let text = ProseText.oneLine(title)
        let words = text.replacing(MindMapPatterns.titleNumber, with: "")
        guard words != text, words.contains(where: \.isLetter),
            ItemRules.problem(words, .label) == nil else { return text }
        return words
    }

    /// A heading's section number as labels drop it: "2." or "3.1" (a lone number without a dot,
    /// "1984", stays), and any leading number when `chapters` says the document numbers its
    /// chapters so ("1 Introduction").
    static func headingNumber(chapters: Bool) -> Regex<Substring> {
        chapters ? MindMapPatterns.chapterHeadingNumber : MindMapPatterns.sectionHeadingNumber
    }

    /// A heading line without the section number a label could have dropped from it, in either
    /// reading of ``headingNumber(chapters:)`` ("2. Where it happens", "3.1 Photosystems" and a
    /// chapter's "1 Introduction" give their words).
    static func withoutHeadingNumber(_ heading: String) -> String {
        let sectioned = heading.replacing(headingNumber(chapters: false), with: "")
        return sectioned != heading ? sectioned : heading.replacing(headingNumber(chapters: true), with: "")
    }

    /// A heading whose words alone are no label ("1 Overview", "3.2 Fields": a field name of the
    /// schema) named with its parent, as a student would say it: "Overview of BibTeXing",
    /// "Fields of the Entries". `nil` when that is no label either or runs past a label's words,
    /// and for a recap ("Summary"), which is no topic of its own.
    static func qualifiedLabel(_ heading: String, chapters: Bool = false, under parent: String) -> String? {
        let number = headingNumber(chapters: chapters)
        let words = label(heading.trimmingCharacters(in: .whitespaces).replacing(number, with: ""))
        // A recap ("Summary", "Key points") repeats the map's topics: it names none of its own.
        guard !["summary", "key points", "keypoints", "recap"].contains(words.lowercased()) else { return nil }
        // The parent's topic, without its subtitle: "Photosynthesis: Study Notes" → "Photosynthesis".
        let topic = parent.split(separator: ":", maxSplits: 1).first.map(String.init) ?? parent
        let owner = label(topic.replacing(number, with: "")).replacing(MindMapPatterns.leadingThe, with: "the ")
        guard words.contains(where: \.isLetter), owner.contains(where: \.isLetter) else { return nil }
        let qualified = "\(words) of \(owner)"
        guard ProseText.wordCount(qualified) <= labelWords, ProseText.length(qualified) <= labelLength,
            ItemRules.problem(qualified, .label) == nil
        else { return nil }
        return qualified
    }

    /// Whether a heading line is no topic of the document: an example value set on its own line
    /// (a quoted string, "\"Brinch Hansen, Per\""), an aside in parentheses ("(Describing version
    /// 8.31b from 2010/09/13)"), an example's output ("⇒ (Jones et al., 1990)"), or a sentence of a comment or of
    /// text, lower-case and ending in a full stop ("exc must be exception instance or None.").
    static func readsAsNoTopic(_ heading: String) -> Bool {
        let text = heading.trimmingCharacters(in: .whitespaces)
        guard let first = text.first, let last = text.last, text.count > 1 else { return false }
        if "\"“'‘".contains(first), "\"”'’".contains(last) { return true }
        if first == "(", last == ")" { return true }
        // The output of an example: "⇒ (Jones et al., 1990)".
        if "⇒→".contains(first) { return true }
        if first.isLowercase, last == ".", !text.hasSuffix("..."), text.contains(" ") { return true }
        return false
    }

    /// Whether a heading names a document's back matter ("References", "Bibliography", "Index"):
    /// after numbered chapters, it is a branch of its own, not a part of the last chapter.
    static func isBackMatter(_ heading: String) -> Bool {
        let text = heading.trimmingCharacters(in: .whitespaces).lowercased()
        return ["references", "bibliography", "index", "glossary", "acknowledgements", "acknowledgments",
            "further reading",
                "notes", "sources"].contains(text) || text.hasPrefix("appendix")
    }

    /// The positions of the chapter headings among `sections`: `1. Introduction`, `4 Function
    /// reference` (one number, then words), numbered in order from 0, 1 or 2 (a first chapter that
    /// is front matter, "1. Copyright", is no section of the text; a later run that starts again,
    /// such as numbered questions or an appendix's "1. Build Dependencies", is not chapters). One number may be missing
    /// (a chapter whose title is no heading line, "5 tlmgr: Managing your installation", starting lower-case).
    static func chapterSections(_ sections: [Section]) -> [Int] {
        var positions: [Int] = []
        var last: Int?
        for (index, section) in sections.enumerated() {
            guard let heading = section.heading, let match = heading.firstMatch(of: MindMapPatterns.chapterNumber),
                let number = Int(match.1) else { continue }
            if last.map({ number == $0 + 1 || number == $0 + 2 }) ?? (number <= 2) {
                positions.append(index)
                last = number
            }
        }
        // A numbered run inside a section ("1. HY", "2. HY LINES" under "### Typographic
        // refinements", with "## Type modifications" after it) is a list of that section, not the
        // document's chapters.
        if let first = positions.first,
            sections[first...].contains(where: { $0.level > 0 && $0.level < sections[first].level }) {
            return []
        }
        return positions
    }

    /// `sections` with the chapters the splitter took for text: where the numbered chapters skip
    /// one ("2. The Old Regime …", then "4. The constitutional monarchy …"), a short line of text
    /// between them that carries the missing number ("3. 1789: the year of revolutions", which
    /// starts lower-case after its number and so is no heading line) becomes that chapter's
    /// section, and the sections after it are its own, not the chapter's before. A numbered
    /// line that ends as a sentence or a clause ("4. Of course you can still … format:") is a list
    /// item, not a chapter.
    static func withLostChapters(_ sections: [Section], outline: DocumentOutline) -> [Section] {
        let chapters = chapterSections(sections)
        var result = sections
        for (before, after) in zip(chapters, chapters.dropFirst()).reversed() {
            guard let first =
                sections[before].heading.flatMap({ $0.firstMatch(of: MindMapPatterns.leadingNumber) })
                    .flatMap({ Int($0.1) }),
                let start = sections[before].headingSentence?.index, let end = sections[after].headingSentence?.index
            else { continue }
            let pattern = try? Regex("^\(first + 1)\\.?\\s+\\S")
            guard let pattern, let line = outline.units[(start + 1)..<end].first(where: { unit in
                !unit.isHeading && !unit.isCode && unit.text.contains(pattern)
                    && ProseText.wordCount(unit.text) <= 12
                    && !(unit.text.last.map { ".:;,".contains($0) } ?? true)
                    && unit.paragraph != outline.units[unit.index - 1].paragraph
                    && (unit.index + 1 == outline.units.count
                    || unit.paragraph != outline.units[unit.index + 1].paragraph)
            }) else { continue }
            // The section the line sits in ends before it.
            let at = (before..<after).last { (sections[$0].headingSentence?.index ?? 0) < line.index } ?? before
            let containing = sections[at]
            let body = containing.sentences.filter { $0.index > line.index }
            let kept = containing.sentences.filter { $0.index < line.index }
            result[at] = Section(
                index: containing.index, heading: containing.heading, headingSentence: containing.headingSentence,
                level: containing.level,
                range: containing.range.lowerBound..<(kept.last?.range.upperBound ?? containing.range.lowerBound),
                offsets: containing.offsets.lowerBound..<(kept.last?.offsets.upperBound
                    ?? containing.offsets.lowerBound), sentences: kept)
            let lost = Section(
                index: containing.index, heading: line.text, headingSentence: line, level: sections[before].level,
                range: line.range.lowerBound..<(body.last?.range.upperBound ?? line.range.upperBound),
                offsets: line.offsets.lowerBound..<(body.last?.offsets.upperBound ?? line.offsets.upperBound),
                sentences: body)
            let position = (before..<after).first { (sections[$0].headingSentence?.index ?? 0) > line.index } ?? after
            result.insert(lost, at: position)
        }
        return result
    }

    /// The content stems of a text (all its stems when it has only function words).
    static func stems(of text: String) -> Set<String> {
        let words = TermNormalizer.words(in: text)
        let content = words.filter { !$0.isStopword }
        return Set((content.isEmpty ? words : content).map(\.stem))
    }

    /// Whether one stem sequence occurs inside the other.
    static func nested(_ a: [String], _ b: [String]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard !short.isEmpty else { return false }
        for start in 0...(long.count - short.count) where Array(long[start..<(start + short.count)]) == short {
            return true
        }
        return false
    }
}
