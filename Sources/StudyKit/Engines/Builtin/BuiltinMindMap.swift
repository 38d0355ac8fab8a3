// MARK: - Mind map

extension BuiltinEngine {
    static let labelWords = MindMap.labelWords
    static let labelLength = 80
    static let branchLimit = 8
    static let childLimit = 6
    static let termChildren = 5
    static let grandchildLimit = 4
    static let centreWords = 8

    /// The document title in the centre; branches from the headings when there are at least two
    /// (besides a title heading), else from clusters of key terms; padded from central
    /// sentences when the text has too few terms.
    func mindMap(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> MindMap {
        let centre = mapCentre(analysis)
        let centreStems = Self.stems(of: centre)
        var branches = headingBranches(analysis, centre: centre, centreStems: centreStems)
        if branches.count < 2 { branches = clusterBranches(analysis, centre: centre, centreStems: centreStems) }
        branches = Self.meaningful(branches, under: centre)
        for entry in analysis.ranked where branches.count < 2 {
            let label = ProseText.shortened(entry.sentence.text, maxWords: Self.labelWords,
                maxLength: Self.labelLength)
            guard !label.isEmpty else { continue }
            branches = Self.meaningful(branches + [MindMap.Node(label: label)], under: centre)
        }
        guard branches.count >= 2 else { throw .tooShort(task: .mindmap,
            usableSentences: analysis.usableSentenceCount) }
        return MindMap(centralTopic: centre, branches: branches)
    }

    /// The map's central topic: the document's title, else its opening chapter's, without a
    /// chapter number; "Study Notes" when neither is a label.
    func mapCentre(_ analysis: BuiltinAnalysis) -> String {
        var centre = documentTitle(analysis)
        // A title such as "Summary" or "Quiz" is a field name to the validator: name the topic instead.
        if ItemRules.problem(centre, .label) != nil {
            centre = [composedTitle(analysis),
                "Study Notes"].compactMap { $0 }.first { ItemRules.problem($0, .label) == nil } ?? "Study Notes"
        }
        if let chapter = chapterTitle(analysis, besides: centre) { centre = chapter }
        return Self.unnumberedTitle(centre)
    }

    /// The chapter's title when the document opens with it but the headline's title is
    /// something else (a chapter title longer than a headline's six words, "Chapter 6.
    /// Maintenance and Updates: The APT Tools", gave way to key terms such as "Packages and
    /// Debian"): the opening heading without its chapter number, when it fits the centre's eight
    /// words. `nil` when the centre already is the source's title or its opening heading.
    func chapterTitle(_ analysis: BuiltinAnalysis, besides centre: String) -> String? {
        guard let opening = analysis.units.first, opening.isHeading, !ResultProse.sameText(opening.text, centre),
            !ResultProse.sameText(analysis.givenTitle.map(ProseText.oneLine) ?? "", centre)
        else { return nil }
        let title = ProseText.oneLine(opening.text)
            .replacing(MindMapPatterns.chapterLabel, with: "")
        guard ProseText.wordCount(title) <= Self.centreWords, ProseText.length(title) <= Self.labelLength,
            ItemRules.problem(title, .label) == nil
        else { return nil }
        return title
    }

    // MARK: From headings

    /// A section with the sections under it, as the map draws them: branch → child → grandchild.
    struct SectionTree {
        let section: Section
        var subsections: [SectionTree]
        /// Words of the section's own text and of every section under it: how much it has to say.
        let weight: Int
    }

    /// One branch per heading of the shallowest level (a lone top heading that opens the
    /// document is the title, not a branch; a lone section under it that holds the whole page —
    /// "6.1 Filling in the sources.list File" of a chapter's page — gives way to its subsections).
    /// Deeper headings become the branch's children, and theirs its grandchildren, so the map
    /// keeps the document's nesting ("4.8.3.1" under "4.8.3", not beside it); a node without
    /// sub-headings gets its section's key terms. Headings that read as code are no nodes.
    /// Past a level's limit, the nodes are the first section and those with the most words, in
    /// document order (`chosen`): the map always starts where the document does.
    func headingBranches(_ analysis: BuiltinAnalysis, centre: String, centreStems: Set<String>) -> [MindMap.Node] {
        guard let outline = Self.outlineTrees(analysis, centre: centre) else { return [] }
        let trees = outline.trees
        let headingLabel = { (heading: String, parent: String) in Self.headingLabel(heading,
            chapters: outline.chaptered, under: parent) }
        typealias Item = (label: String, tree: SectionTree)
        // A heading with nothing under it ("Biology 101, Unit 4" below the title) is a subtitle or
        // a running line, not a node of the subject; a heading that is front matter ("1.1
        // Version" of a specification) neither; nor one whose label the map's rules would drop
        // (`meaningful`: a near-copy of its parent or of a sibling), so the limits are spent on
        // the nodes that stay.
        func labelled(_ trees: [SectionTree], under parent: String) -> [Item] {
            let named = trees.compactMap { tree -> Item? in
                guard !tree.section.sentences.isEmpty || !tree.subsections.isEmpty else { return nil }
                let label = headingLabel(tree.section.heading ?? "", parent)
                guard !label.isEmpty, !FrontMatter.isFrontMatter(label) else { return nil }
                return (label, tree)
            }
            // Without its number, a label can read as a copy of a sibling's ("4.2. for Statements"
            // beside "4.1. if Statements": "for" and "if" are no content words): that one keeps its number.
            // (`meaningful` over the kept labels and one more keeps them all exactly when it admits
            // the one more: each label is weighed once against those kept, not the list again.)
            var kept: [Item] = []
            var admitted = MeaningfulLabels(under: parent)
            for item in named {
                for label in [item.label, Self.label(item.tree.section.heading ?? "")] where admitted.admit(label) {
                    kept.append((label, item.tree))
                    break
                }
            }
            return kept
        }
        func terms(_ sections: [Section], label: String, limit: Int) -> [MindMap.Node] {
            // A glossary's or a "Key people" section's own names say what it holds.
            let names = Self.definitionNames(sections, in: analysis, limit: limit)
            if !names.isEmpty { return names }
            return sectionTerms(sections, in: analysis, avoiding: Self.stems(of: label).union(centreStems),
                limit: limit)
                .map { MindMap.Node(label: $0) }
        }
        /// The level's nodes: every section when they fit, else consecutive small sections grouped
        /// (`grouped`): the group's first section is the node, and the sections after it fold into
        /// it, as children after its own subsections, so no section is left off the map and the
        /// map still reads in the document's order.
        func level(_ items: [Item], limit: Int, members: Int, member: (Item) -> MindMap.Node,
            node: (Item) -> MindMap.Node) -> [MindMap.Node] {
            Self.grouped(items, weight: \.tree.weight, limit: limit, members: members,
                hasSubsections: { !$0.tree.subsections.isEmpty }).map { group in
                guard group.count > 1 else { return node(group[0]) }
                let folded = group.dropFirst().map(member)
                let own = Self.chosen(labelled(group[0].tree.subsections, under: group[0].label), weight: \.tree.weight,
                                      limit: members - folded.count)
                // A definition list with sections folded after it keeps its names before them.
                let names = own.isEmpty ? Self.definitionNames([group[0].tree.section], in: analysis,
                    limit: members - folded.count) : []
                return MindMap.Node(label: group[0].label, children: (names.isEmpty ? own.map(member) : names) + folded)
            }
        }
        func grandchildren(_ item: Item) -> [MindMap.Node] {
            let below = Self.chosen(labelled(item.tree.subsections, under: item.label), weight: \.tree.weight,
                limit: Self.grandchildLimit)
            return below.isEmpty ? terms(Self.flattened(item.tree), label: item.label,
                limit: Self.grandchildLimit) : below.map { MindMap.Node(label: $0.label) }
        }
        let child = { (item: Item) in MindMap.Node(label: item.label, children: grandchildren(item)) }
        return level(labelled(trees, under: centre), limit: Self.branchLimit, members: Self.childLimit,
            member: child) { branch in
            var children = level(labelled(branch.tree.subsections, under: branch.label), limit: Self.childLimit,
                                 members: Self.grandchildLimit, member: { MindMap.Node(label: $0.label) }, node: child)
            if children.isEmpty { children = terms(Self.flattened(branch.tree), label: branch.label,
                limit: Self.termChildren) }
            return MindMap.Node(label: branch.label, children: children)
        }
    }

    /// The document's outline as the map draws it (#54): its top-level sections as trees, the
    /// title heading, code and sections that name no topic left out, numbered chapters as the
    /// top level; `chaptered` says whether the chapters are numbered. `nil` when fewer than two
    /// sections are left. The summary's key points by section follow the same trees.
    static func outlineTrees(_ analysis: BuiltinAnalysis, centre: String) -> (trees: [SectionTree], chaptered: Bool)? {
        var sections = analysis.outline.sections.filter { $0.heading != nil }
        sections.removeAll { section in
            let heading = section.heading ?? ""
            return section.headingSentence?.index != analysis.units.first?.index
                && ResultProse.sameText(unnumberedTitle(heading), centre)
                || readsAsCode(heading) || readsAsNoTopic(heading)
        }
        if let first = sections.first, analysis.units.first?.isHeading == true,
            first.headingSentence?.index == analysis.units.first?.index,
            !sections.dropFirst().contains(where: { $0.level <= first.level })
            || ResultProse.sameText(unnumberedTitle(first.heading ?? ""), centre)
        {
            sections.removeFirst()
        }
        // A document whose chapters are numbered in order ("1. Introduction", "2 ASN.1 structure
        // handling", …) has them as its branches: any other line taken for a heading is inside a
        // chapter (a subsection, a table cell such as "Size", a listed constant such as
        // "BZ_OUTBUFF_FULL", a numbered question) and nothing before the first chapter is a branch.
        sections = withLostChapters(sections, outline: analysis.outline)
        let chapters = chapterSections(sections)
        var chapterSet: Set<Int>? = nil
        if chapters.count >= 3, let first = chapters.first {
            sections = Array(sections[first...])
            let last = chapters[chapters.count - 1] - first
            // Back matter after the last chapter ("References") is a branch, not the chapter's;
            // so is each chapter of an appendix that numbers its own from 1 again.
            let backMatter = sections.indices.filter { $0 > last && isBackMatter(sections[$0].heading ?? "") }
            var appendix = chapterSections(Array(sections[(last + 1)...])).map { $0 + last + 1 }
            if appendix.count < 2 { appendix = [] }
            chapterSet = Set(chapters.map { $0 - first } + backMatter + appendix)
        } else {
            // A page that is one section of a chapter: the section's subsections are the branches.
            while let top = sections.first?.level, sections.count >= 3,
                !sections.dropFirst().contains(where: { $0.level <= top })
            {
                sections.removeFirst()
            }
        }
        guard sections.count >= 2 else { return nil }
        return (sectionTrees(sections, startsBranch: chapterSet.map { set in { set.contains($0) } }), chapterSet != nil)
    }

    /// A heading as a node label under `parent` (``unnumberedLabel(_:chapters:)``, else
    /// ``qualifiedLabel(_:chapters:under:)``, else the heading cut to a label).
    static func headingLabel(_ heading: String, chapters: Bool, under parent: String) -> String {
        unnumberedLabel(heading, chapters: chapters) ?? qualifiedLabel(heading, chapters: chapters, under: parent)
            ?? label(heading)
    }

    /// The names of the definition-list entries (``DefinitionEntry``) in `sections`, in order, as
    /// labels: the people of "Key people", the terms of a glossary. None unless there are two:
    /// one name says less of a section than its terms.
    static func definitionNames(_ sections: [Section], in analysis: BuiltinAnalysis, limit: Int) -> [MindMap.Node] {
        let inside = Set(sections.flatMap { $0.sentences.map(\.index) })
        var seen = Set<String>()
        let names = analysis.definitions.filter { inside.contains($0.label.index) }
            .map { label($0.term) }
            .filter { !$0.isEmpty && seen.insert(ProseText.duplicateKey($0)).inserted }
            .prefix(max(0, limit)).map { MindMap.Node(label: $0) }
        return names.count >= 2 ? names : []
    }

    /// At most `limit` groups of consecutive `items`, each of at most `members`: every item alone
    /// when they fit, else the two neighbouring groups lightest together are joined, again and
    /// again (so the small sections are grouped and the full ones stay nodes of their own); a
    /// section with subsections is folded into the one before it only as a last resort (it
    /// would lose a level). Past `limit × members` items, the first and the heaviest are kept
    /// (`chosen`) before grouping.
    static func grouped<Item>(_ items: [Item], weight: (Item) -> Int, limit: Int, members: Int,
                              hasSubsections: (Item) -> Bool = { _ in false }) -> [[Item]] {
        guard items.count > limit, limit > 0 else { return items.map { [$0] } }
        let pool = chosen(items, weight: weight, limit: limit * max(members, 1))
        var groups = pool.map { [$0] }
        var weights = pool.map(weight)
        let total = weights.reduce(0, +)
        func cost(_ join: Int) -> Int {
            weights[join] + weights[join + 1] + (groups[join + 1].contains(where: hasSubsections) ? total : 0)
        }
        while groups.count > limit {
            let pairs = groups.indices.dropLast().filter { groups[$0].count + groups[$0 + 1].count <= members }
            guard let join = pairs.min(by: { cost($0) < cost($1) }) else { break }
            groups[join] += groups.remove(at: join + 1)
            weights[join] += weights.remove(at: join + 1)
        }
        guard groups.count > limit else { return groups }
        return chosen(Array(zip(groups, weights)), weight: \.1, limit: limit).map(\.0)
    }

    /// `sections` as trees: a section at the shallowest level (or one `startsBranch` names, for
    /// numbered chapters) starts a tree, the deeper sections after it are nested under it by
    /// their levels. Under a numbered heading that has numbered subsections ("2 ASN.1 structure
    /// handling" over "2.1 ASN.1 syntax"), an unnumbered line taken for a heading ("BEGIN",
    /// "InstanceName") is a line of its text, not a subsection, and a section numbered for
    /// another chapter ("5.1" after "4", when "5 tlmgr: …" was no heading line) is left out
    /// rather than put at the wrong place.
    static func sectionTrees(_ sections: [Section], startsBranch: ((Int) -> Bool)? = nil) -> [SectionTree] {
        guard let top = sections.map(\.level).min() else { return [] }
        var groups: [(head: Section, subsections: [Section])] = []
        for (index, section) in sections.enumerated() {
            if startsBranch?(index) ?? (section.level <= top) || groups.isEmpty {
                groups.append((section, []))
            } else {
                groups[groups.count - 1].subsections.append(section)
            }
        }
        return groups.map { head, subsections in
            var nested = subsections
            if let number = sectionNumber(head.heading ?? "") {
                // "2.1" under "2"; "5.1" is no subsection of "4" (its chapter's heading was lost).
                let numbered = subsections.filter { section in
                    sectionNumber(section.heading ?? "").map { $0.count > number.count && $0.starts(with: number) }
                        ?? false
                }
                if !numbered.isEmpty
                    || subsections.contains(where: { sectionNumber($0.heading ?? "") != nil }) { nested = numbered }
            }
            let weight = ([head] + subsections).reduce(0) { total, section in
                total + section.sentences.reduce(0) { $0 + ProseText.wordCount($1.text) }
            }
            return SectionTree(section: head, subsections: sectionTrees(nested), weight: weight)
        }
    }

    /// A tree's sections in document order: the section, then everything under it.
    static func flattened(_ tree: SectionTree) -> [Section] {
        [tree.section] + tree.subsections.flatMap(flattened)
    }

    /// At most `limit` of `items`, in their order: all of them when they fit, else the first (the
    /// document's opening, which a student reads first) and the heaviest of the rest (ties: the
    /// earlier).
    static func chosen<Item>(_ items: [Item], weight: (Item) -> Int, limit: Int) -> [Item] {
        guard items.count > limit, limit > 0 else { return items }
        let rest = items.indices.dropFirst().sorted { a, b in
            weight(items[a]) != weight(items[b]) ? weight(items[a]) > weight(items[b]) : a < b
        }
        let kept = Set([0] + rest.prefix(limit - 1))
        return items.indices.filter(kept.contains).map { items[$0] }
    }

    /// The numbers of a heading's section number ("2.1 ASN.1 syntax" → [2, 1], "4. Overview" →
    /// [4]); `nil` when it has none.
    static func sectionNumber(_ heading: String) -> [Int]? {
        guard let match = heading.firstMatch(of: MindMapPatterns.sectionNumber) else { return nil }
        return match.1.split(separator: ".").compactMap { Int($0) }
    }

    /// Whether a heading is a line of code or syntax a PDF set on its own line ("DEFINITIONS
    /// <EXPLICIT or IMPLICIT> TAGS ::=", "LEN = strlen(VALUE)+1", "\Urlslashmuskip=2mu",
    /// "Usage: asn1Parser [OPTION] FILE", "-- INCORRECT"): an assignment or definition, a TeX
    /// control sequence, braces or a semicolon, a comment mark or a usage line. An API name
    /// ("emitter.emit(eventName[, ...args])") is a topic of its reference and stays a heading.
    static func readsAsCode(_ heading: String) -> Bool {
        let text = heading.trimmingCharacters(in: .whitespaces)
        if text.contains("::=") || text.contains(where: { "{};".contains($0) }) { return true }
        if text.contains(MindMapPatterns.assignment), !text.contains("==") { return true }
        if text.contains(MindMapPatterns.codeOpening) { return true }
        return false
    }

    /// The top key terms of some sections as labels: no pure numbers, none whose words all
    /// appear in `avoiding` (the branch's own label, the centre), none inside another.
    func sectionTerms(_ sections: [Section], in analysis: BuiltinAnalysis, avoiding: Set<String>,
        limit: Int) -> [String] {
        let units = sections.flatMap { section in (section.headingSentence.map { [$0] } ?? []) + section.sentences }
        // Each unit's words once, for the terms and the modifiers below (code has none to give).
        let unitWords = units.map { $0.isCode ? [] : TermNormalizer.words(in: $0.text) }
        let local = KeyphraseExtractor(weighsGeneralEnglish: analysis.isEnglish)
            .keyphrases(in: units, words: unitWords, limit: 20, fieldNames: analysis.fieldNames)
        // A term said once in a section and nowhere a key term of the document is usually a
        // stray word ("Increasing"); recurring and document-wide terms come first.
        let global = Set(analysis.keyphrases.map(\.key))
        let strong = local.filter { $0.occurrences >= 2 || global.contains($0.key) }
        // A piece of a clause ("absorbs light", "buyers want") is no term of the section: it
        // waits, as it does among a quiz's options, and is taken only when fewer than two terms
        // are left (English, whose word classes say so).
        // Nor is a lone word the section only ever writes before another ("royal" of "royal
        // family" and "royal veto", "constitutional" of "constitutional monarchy"): there it
        // qualifies a term and names nothing of its own.
        let modifiers = analysis.usesEnglishWords ? Self.onlyModifiers(in: unitWords) : []
        let pieces: ((String) -> Bool)? = analysis.usesEnglishWords
            ? { modifiers.contains($0) || Self.endsOnAVerb($0, in: analysis)
            || Self.isPlainlyNoTerm($0, inflectedAsAVerb: analysis.inflectsAsAVerb) } : nil
        let picked = Self.pickTerms(strong, avoiding: avoiding, limit: limit, clausePiece: pieces)
        guard picked.count < 2 else { return picked }
        let all = strong + local.filter { !strong.contains($0) }
        let terms = Self.pickTerms(all, avoiding: avoiding, limit: limit, clausePiece: pieces)
        return terms.count < 2 ? Self.pickTerms(all, avoiding: avoiding, limit: limit, clausePiece: nil) : terms
    }

    /// The lower-case words with an adjective's ending (``modifierEndings``) that `unitWords`
    /// (each unit's words) write only right before another content word, with nothing but a
    /// space between (never at a clause's end, before a function word or alone). A plural before
    /// a content word is a subject before its verb ("riots broke out"), so none is counted.
    static func onlyModifiers(in unitWords: [[NormalizedWord]]) -> Set<String> {
        var before = Set<String>()
        var elsewhere = Set<String>()
        for words in unitWords {
            for (index, word) in words.enumerated()
            where !word.isStopword && word.surface == word.lowercased
                && modifierEndings.contains(where: word.surface.hasSuffix) {
                let next = index + 1 < words.count ? words[index + 1] : nil
                if let next, !next.followsBreak, !next.isStopword, !next.isNumber {
                    before.insert(word.lowercased)
                } else {
                    elsewhere.insert(word.lowercased)
                }
            }
        }
        return before.subtracting(elsewhere)
    }

    /// Endings of words that qualify a noun: "royal", "constitutional", "oceanic",
    /// "revolutionary", "royalist", "typographic".
    static let modifierEndings = ["al", "ic", "ary", "ist", "ive", "ous", "ful", "less", "ian", "ern"]

    /// Up to `limit` labels of `candidates`, in order: none that only repeats `avoiding` or a
    /// term already picked, and none that `clausePiece` says is a piece of a clause
    /// (``BuiltinEngine/isPlainlyNoTerm(_:inflectedAsAVerb:)``).
    static func pickTerms(_ candidates: [Keyphrase], avoiding: Set<String>, limit: Int,
        clausePiece: ((String) -> Bool)?) -> [String] {
        var picked: [String] = []
        var pickedStems: [[String]] = []
        var keys = Set<String>()
        for phrase in candidates where picked.count < limit {
            let stems = phrase.key.split(separator: " ").map(String.init)
            // A section number adds nothing to a label's words ("2.2 Naming" under "Naming").
            let words = stems.filter { $0.contains(where: \.isLetter) }
            guard phrase.text.contains(where: \.isLetter), !Set(words).isSubset(of: avoiding),
                !pickedStems.contains(where: { nested($0, stems) })
            else { continue }
            let label = label(phrase.text)
            guard !label.isEmpty, clausePiece?(label) != true,
                keys.insert(ProseText.duplicateKey(label)).inserted
            else { continue }
            picked.append(label)
            pickedStems.append(stems)
        }
        return picked
    }

}
