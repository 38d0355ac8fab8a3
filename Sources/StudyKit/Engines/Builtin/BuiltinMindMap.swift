// MARK: - Mind map

extension BuiltinEngine {
    private static let labelWords = MindMap.labelWords
    private static let labelLength = 80
    private static let branchLimit = 8
    private static let childLimit = 6
    private static let termChildren = 5
    private static let grandchildLimit = 4

    /// The document title in the centre; branches from the headings when there are at least two
    /// (besides a title heading), else from clusters of key terms; padded from central
    /// sentences when the text has too few terms.
    func mindMap(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> MindMap {
        var centre = documentTitle(analysis)
        // A title such as "Summary" or "Quiz" is a field name to the validator: name the topic instead.
        if ItemRules.problem(centre, .label) != nil {
            centre = [composedTitle(analysis), "Study Notes"].compactMap { $0 }.first { ItemRules.problem($0, .label) == nil } ?? "Study Notes"
        }
        let centreStems = Self.stems(of: centre)
        var branches = headingBranches(analysis, centre: centre, centreStems: centreStems)
        if branches.count < 2 { branches = clusterBranches(analysis, centre: centre, centreStems: centreStems) }
        branches = Self.meaningful(branches, under: centre)
        for entry in analysis.ranked where branches.count < 2 {
            let label = BuiltinProse.shortened(entry.sentence.text, maxWords: Self.labelWords, maxLength: Self.labelLength)
            guard !label.isEmpty else { continue }
            branches = Self.meaningful(branches + [MindMap.Node(label: label)], under: centre)
        }
        guard branches.count >= 2 else { throw .tooShort(task: .mindmap, usableSentences: analysis.usableSentenceCount) }
        return MindMap(centralTopic: centre, branches: branches)
    }

    // MARK: From headings

    /// One branch per heading of the shallowest level (a lone top heading that opens the
    /// document is the title, not a branch). Deeper headings become the branch's children with
    /// their key terms below them; a branch without sub-headings gets its section's key terms.
    private func headingBranches(_ analysis: BuiltinAnalysis, centre: String, centreStems: Set<String>) -> [MindMap.Node] {
        var sections = analysis.outline.sections.filter { $0.heading != nil }
        if let first = sections.first, analysis.units.first?.isHeading == true,
            first.headingSentence?.index == analysis.units.first?.index,
            !sections.dropFirst().contains(where: { $0.level <= first.level })
        {
            sections.removeFirst()
        }
        sections.removeAll { ResultProse.sameText($0.heading ?? "", centre) }
        // A document whose chapters are numbered in order ("1. Introduction", "2 ASN.1 structure
        // handling", …) has them as its branches: any other line taken for a heading is inside a
        // chapter (a subsection, a table cell such as "Size", a listed constant such as
        // "BZ_OUTBUFF_FULL", a numbered question) and nothing before the first chapter is a branch.
        let chapters = Self.chapterSections(sections)
        var chapterSet: Set<Int>? = nil
        if chapters.count >= 3, let first = chapters.first {
            sections = Array(sections[first...])
            chapterSet = Set(chapters.map { $0 - first })
        }
        guard sections.count >= 2, let branchLevel = sections.map(\.level).min() else { return [] }

        // Group each branch-level section (each chapter) with the deeper sections that follow it.
        var groups: [(head: Section, subsections: [Section])] = []
        for (index, section) in sections.enumerated() {
            let startsBranch = chapterSet.map { $0.contains(index) } ?? (section.level <= branchLevel)
            if startsBranch || groups.isEmpty {
                groups.append((section, []))
            } else {
                groups[groups.count - 1].subsections.append(section)
            }
        }
        // Too many branches: keep those with the most to say, in document order.
        if groups.count > Self.branchLimit {
            let weight = groups.map { group in
                ([group.head] + group.subsections).reduce(0) { total, section in
                    total + section.sentences.reduce(0) { $0 + BuiltinProse.wordCount($1.text) }
                }
            }
            let kept = Set(
                groups.indices.sorted { a, b in
                    weight[a] != weight[b] ? weight[a] > weight[b] : a < b
                }.prefix(Self.branchLimit))
            groups = groups.indices.filter(kept.contains).map { groups[$0] }
        }

        // Numbers go from every label or from none, so the map reads the same throughout.
        let unnumbers = groups.flatMap { [$0.head] + $0.subsections }.allSatisfy { Self.unnumberedLabel($0.heading ?? "") != nil }
        let headingLabel = { (heading: String) in unnumbers ? Self.unnumberedLabel(heading) ?? Self.label(heading) : Self.label(heading) }
        var branches: [MindMap.Node] = []
        var branchKeys = Set<String>()
        for group in groups {
            // A heading with nothing under it ("Biology 101, Unit 4" below the title) is a
            // subtitle or a running line, not a branch of the subject.
            guard !group.head.sentences.isEmpty || !group.subsections.isEmpty else { continue }
            let label = headingLabel(group.head.heading ?? "")
            guard !label.isEmpty, branchKeys.insert(BuiltinProse.duplicateKey(label)).inserted else { continue }
            var children: [MindMap.Node] = []
            var childKeys = Set<String>()
            for sub in group.subsections where children.count < Self.childLimit {
                let subLabel = headingLabel(sub.heading ?? "")
                // A heading that is front matter ("1.1 Version" of a specification) is no child.
                guard !subLabel.isEmpty, !FrontMatter.isFrontMatter(subLabel), childKeys.insert(BuiltinProse.duplicateKey(subLabel)).inserted else { continue }
                let terms = sectionTerms([sub], in: analysis, avoiding: Self.stems(of: subLabel).union(centreStems), limit: Self.grandchildLimit)
                children.append(MindMap.Node(label: subLabel, children: terms.map { MindMap.Node(label: $0) }))
            }
            if children.isEmpty {
                let avoid = Self.stems(of: label).union(centreStems)
                children = sectionTerms([group.head], in: analysis, avoiding: avoid, limit: Self.termChildren).map { MindMap.Node(label: $0) }
            }
            branches.append(MindMap.Node(label: label, children: children))
        }
        return branches
    }

    /// The top key terms of some sections as labels: no pure numbers, none whose words all
    /// appear in `avoiding` (the branch's own label, the centre), none inside another.
    private func sectionTerms(_ sections: [Section], in analysis: BuiltinAnalysis, avoiding: Set<String>, limit: Int) -> [String] {
        let units = sections.flatMap { section in (section.headingSentence.map { [$0] } ?? []) + section.sentences }
        let local = KeyphraseExtractor(weighsGeneralEnglish: analysis.isEnglish)
            .keyphrases(in: units, limit: 20, fieldNames: analysis.fieldNames)
        // A term said once in a section and nowhere a key term of the document is usually a
        // stray word ("Increasing"); recurring and document-wide terms come first.
        let global = Set(analysis.keyphrases.map(\.key))
        let strong = local.filter { $0.occurrences >= 2 || global.contains($0.key) }
        let picked = Self.pickTerms(strong, avoiding: avoiding, limit: limit)
        guard picked.count < 2 else { return picked }
        return Self.pickTerms(strong + local.filter { !strong.contains($0) }, avoiding: avoiding, limit: limit)
    }

    private static func pickTerms(_ candidates: [Keyphrase], avoiding: Set<String>, limit: Int) -> [String] {
        var picked: [String] = []
        var pickedStems: [[String]] = []
        var keys = Set<String>()
        for phrase in candidates where picked.count < limit {
            let stems = phrase.key.split(separator: " ").map(String.init)
            guard phrase.text.contains(where: \.isLetter), !Set(stems).isSubset(of: avoiding),
                !pickedStems.contains(where: { nested($0, stems) })
            else { continue }
            let label = label(phrase.text)
            guard !label.isEmpty, keys.insert(BuiltinProse.duplicateKey(label)).inserted else { continue }
            picked.append(label)
            pickedStems.append(stems)
        }
        return picked
    }

    // MARK: From key-term clusters

    /// Up to six seed terms that share no word with each other or the centre, each gathering
    /// the other terms it shares a word with or is mentioned with in the same sentences.
    private func clusterBranches(_ analysis: BuiltinAnalysis, centre: String, centreStems: Set<String>) -> [MindMap.Node] {
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
            guard !label.isEmpty, keys.insert(BuiltinProse.duplicateKey(label)).inserted else { continue }
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
        for (index, term) in terms.enumerated() where !seeds.contains(index) {
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
            if let best { children[best.seed].append(index) }
        }
        return seeds.enumerated().map { s, seedIndex in
            MindMap.Node(label: terms[seedIndex].label, children: children[s].map { MindMap.Node(label: terms[$0].label) })
        }
    }

    // MARK: Helpers

    /// `nodes` without the labels the validator rejects (``ItemMeaning/label``), nor those that
    /// repeat their parent or an earlier sibling, as near-copies or exactly; children likewise.
    static func meaningful(_ nodes: [MindMap.Node], under parent: String) -> [MindMap.Node] {
        var kept: [MindMap.Node] = []
        var keys = Set<String>()
        var stems: [Set<String>] = []
        for node in nodes {
            let own = ItemRules.overlapKeys(node.label)
            guard ItemRules.problem(node.label, .label) == nil, !ItemRules.nearCopy(node.label, parent),
                !stems.contains(where: { ItemRules.nearCopy(own, $0) }),
                keys.insert(BuiltinProse.duplicateKey(node.label)).inserted
            else { continue }
            kept.append(MindMap.Node(label: node.label, children: meaningful(node.children, under: node.label)))
            stems.append(own)
        }
        return kept
    }

    /// A node label: one line, at most eight words and 80 characters.
    private static func label(_ text: String) -> String {
        BuiltinProse.shortened(BuiltinProse.termText(text), maxWords: labelWords, maxLength: labelLength, ending: "")
    }

    /// A heading as a node label, without its section number: "2. Where it happens" and
    /// "3.1 Photosystems" become "Where it happens" and "Photosystems" (the map's branches are
    /// in document order already; the numbers only crowd the labels). A number that is the
    /// whole heading, or is not followed by a dot, a parenthesis or a sub-number, stays.
    /// `nil` when the words alone are not a label the item rules accept ("1. Overview":
    /// "Overview" is a field name); the caller then keeps every number of the map.
    static func unnumberedLabel(_ heading: String) -> String? {
        let text = heading.trimmingCharacters(in: .whitespaces)
        let unnumbered = label(text.replacing(/^\d{1,3}(?:\.\d{1,3})*[.)]\s+|^\d{1,3}(?:\.\d{1,3})+\s+/, with: ""))
        guard unnumbered.contains(where: \.isLetter), ItemRules.problem(unnumbered, .label) == nil else { return nil }
        return unnumbered
    }

    /// The positions of the chapter headings among `sections`: `1. Introduction`, `4 Function
    /// reference` (one number, then words), numbered in order from 0 or 1 (a later run that starts
    /// again, such as numbered questions, is not chapters).
    static func chapterSections(_ sections: [Section]) -> [Int] {
        var positions: [Int] = []
        var last: Int?
        for (index, section) in sections.enumerated() {
            guard let heading = section.heading, let match = heading.firstMatch(of: /^(\d{1,3})\.?\s+\S/), let number = Int(match.1) else { continue }
            if last.map({ number == $0 + 1 }) ?? (number <= 1) {
                positions.append(index)
                last = number
            }
        }
        return positions
    }

    /// The content stems of a text (all its stems when it has only function words).
    static func stems(of text: String) -> Set<String> {
        let words = BuiltinTerms.words(in: text)
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
