// MARK: - Which items the small model is asked first, and how many (#53, #54)

/// A part's in-process rewrites cost a second or so each, and most of the default setup's time
/// (issue #53: 17 attempts on samples/notes.pdf, 9 refused). So the items are asked in the order
/// that pays most, and a part stops asking once its own answers say the rest would be refused:
/// - spread over the body sections, one per section in turn (#54: a textbook's rewrites all
///   came from its first chapters before the budget ran out), the better items of a turn first;
/// - before all, an item whose sentence also stands in another part (a card whose sentence is a
///   quiz question: one answer rewrites both, the second from this run's answers);
/// - then an item whose blank opens its sentence ("_____: the enzyme that fixes …", "[RuBisCO]
///   fixes …"): the 0.5B asks for a sentence's subject, which is then the blank's own words;
/// - then by the builtin ranker's order of importance (the rank of the card's sentence).
struct RewriteOrder {
    /// What is known of one item.
    struct Item: Equatable {
        /// The body section the item's quote lies in (its outline index), if known.
        var section: Int?
        /// The rank of its sentence among the document's (0 = most central), if known.
        var rank: Int?
        /// Whether another part asks the same item, so one answer rewrites two.
        var shared = false
        /// Whether its blank opens its sentence.
        var opensItsSentence = false
    }

    /// The items' indices in the order they are asked.
    static func order(_ items: [Item]) -> [Int] {
        // Each section's items, best first; an item without a section is a section of its own.
        func better(_ left: Int, _ right: Int) -> Bool {
            let a = items[left], b = items[right]
            if a.shared != b.shared { return a.shared }
            if a.opensItsSentence != b.opensItsSentence { return a.opensItsSentence }
            let rankA = a.rank ?? Int.max, rankB = b.rank ?? Int.max
            return rankA != rankB ? rankA < rankB : left < right
        }
        var bySection: [Int: [Int]] = [:]
        var sectionOrder: [Int] = []
        for index in items.indices {
            // Sections without a number (no quote found) get keys below every outline index.
            let key = items[index].section ?? -1 - index
            if bySection[key] == nil { sectionOrder.append(key) }
            bySection[key, default: []].append(index)
        }
        // The shared items first, spread over their sections, then the rest, spread likewise:
        // on a page of notes the quiz asks the deck's first cards, whatever their sections.
        func spread(_ chosen: (Int) -> Bool) -> [Int] {
            let queues = sectionOrder.map { bySection[$0, default: []].filter(chosen).sorted(by: better) }
            var ordered: [Int] = []
            var turn = 0
            while let longest = queues.map(\.count).max(), turn < longest {
                // Turn by turn: each section's next best item, the better items of the turn first.
                ordered += queues.compactMap { $0.count > turn ? $0[turn] : nil }.sorted(by: better)
                turn += 1
            }
            return ordered
        }
        return spread { items[$0].shared } + spread { !items[$0].shared }
    }

    /// Whether a cloze's blank is one member of a list ("… light intensity, _____ concentration
    /// and temperature", "the pigments, the _____ and the enzyme ATP synthase"): it follows a
    /// comma (after an article at most), and "and" or "or" closes the list within two words of it
    /// ("In 1789, _____ stormed the Bastille and …" opens a sentence, not a list).
    /// The 0.5B's questions for such blanks asked for the list's head or another member (#53:
    /// "What depends on light intensity?" — carbon dioxide; "What holds the enzymes of the Calvin
    /// cycle?" — electron transport chain, both refused on samples/notes.pdf).
    static func blankInAList(_ cloze: String) -> Bool {
        guard let blank = cloze.range(of: "_____") else { return false }
        var before = String(cloze[..<blank.lowerBound]).trimmingCharacters(in: .whitespaces)
        for article in ["the", "a", "an"] where before.lowercased().hasSuffix(" " + article) {
            before = String(before.dropLast(article.count)).trimmingCharacters(in: .whitespaces)
        }
        guard before.hasSuffix(",") else { return false }
        // The list goes on after the blank: no comma or clause end before its "and" or "or".
        let after = cloze[blank.upperBound...].prefix { !",;:.?!".contains($0) }
        let words = GroundingWords.normalizedWords(String(after)).prefix(3)
        return words.contains("and") || words.contains("or")
    }

    /// Whether a cloze's blank opens its sentence: nothing before it but an article.
    static func opensItsSentence(_ cloze: String) -> Bool {
        guard let blank = cloze.range(of: "_____") else { return false }
        let before = GroundingWords.normalizedWords(String(cloze[..<blank.lowerBound]))
        return before.isEmpty || (before.count == 1 && ["the", "a", "an"].contains(before[0]))
    }
}

/// How many answers a part's rewrites may cost in this run, and when its own answers stop it.
struct ItemAllowance: Sendable, Equatable {
    /// The most model answers the part may ask for (answers from the cache are free); `nil`: no limit.
    var attempts: Int?
    /// Whether the part stops once its own answers are mostly refused (``refusalEvidence``).
    var stopsOnRefusals = true
    /// Whether an item whose shape gets the small model's rewrites refused (``ItemJob/passedOver``)
    /// is asked all the same: not under a deck's or a quiz's allowance on the local model.
    var asksEveryShape = true

    /// No limit, no refusal rule: every item is asked while the budget and the record allow.
    static let open = ItemAllowance(attempts: nil, stopsOnRefusals: false)

    /// Answers this run may ask before the refusal rule judges the rest: the first 3 all refused,
    /// or, from 10 on, fewer than one in 6 accepted. A model that gets none of a document's first
    /// three branch names right (the textbook's mind map: 4 refused, 13 s) gets the fourth wrong
    /// too; one that gets 2 of a textbook's first 9 cards right still gets a fifth of the rest.
    static let refusalEvidence = 3
    /// Answers after which a rate under one in 6 stops the part.
    static let lateEvidence = 10

    /// Why the next item is not asked after `asked` answers of which `accepted` were, and
    /// `passedOver` items not asked for their shape (each keeps its place in ``attempts``), or `nil`.
    func stop(asked: Int, accepted: Int, passedOver: Int = 0) -> String? {
        if let attempts, asked + passedOver >= attempts {
            return "not rewritten: the part's \(attempts) rewrites for this document were spent on items more likely "
                + "to be accepted; the rest keep their extracted form"
        }
        let mostlyRefused = accepted == 0 || (asked >= Self.lateEvidence && accepted * 6 < asked)
        if stopsOnRefusals, asked >= Self.refusalEvidence, mostlyRefused {
            return "not rewritten: \(accepted) of this document's first \(asked) rewrites of this kind were accepted; "
                + "the rest keep their extracted form"
        }
        return nil
    }

    /// A deck's or a quiz's allowance: one answer per body section, at least the 8 a page of notes
    /// is quizzed on (a quiz's questions are the deck's first cards, so those answers serve both).
    /// A long document is bounded by the time budget instead, in the order above.
    static func clozes(bodySections: Int) -> ItemAllowance {
        ItemAllowance(attempts: max(KitSize.minimumQuestions, bodySections), asksEveryShape: false)
    }

    /// The allowance of a part rewritten on an engine of `kind`: the in-process or loopback model
    /// (`local`) stops on its refusals; a remote model is asked every item.
    static func forEngine(_ kind: EngineKind) -> ItemAllowance {
        kind == .local ? ItemAllowance(attempts: nil) : .open
    }

    /// The summary overview's allowance on an engine of `kind`: the local model passes it over
    /// (``ItemRewriter/overviewPassedOver``), so a page's kit does not pay for a copy it will
    /// refuse; a remote model is asked it, under its record (``CapabilityPolicy``'s first success).
    static func overview(_ kind: EngineKind) -> ItemAllowance {
        kind == .local ? ItemAllowance(attempts: nil, stopsOnRefusals: false, asksEveryShape: false) : .open
    }
}

extension ItemRewriter {
    /// The order `cards` (a deck's, or a quiz's prompts as cards) are asked in
    /// (``RewriteOrder``); `shared` holds the prompts another part asks too.
    func rewriteOrder(_ cards: [Flashcards.Card], shared: Set<String> = []) -> [Int] {
        let sections = SectionItems(document: request.document)
        let material = builtin.material(of: request.document)
        let analysis = builtin.analysis(of: material.text, title: material.title)
        var ranks: [String: Int] = [:]
        for entry in analysis.ranked {
            let shown = ProseText.withoutListMarker(ProseText.oneLine(entry.sentence.text))
            let key = ProseText.duplicateKey(shown)
            if ranks[key] == nil { ranks[key] = entry.rank }
        }
        let items = cards.map { card in
            RewriteOrder.Item(
                section: sections.sectionsHolding(card.quote).min(),
                rank: ranks[ProseText.duplicateKey(card.quote)],
                shared: shared.contains(card.question),
                opensItsSentence: RewriteOrder.opensItsSentence(card.question))
        }
        return RewriteOrder.order(items)
    }

    /// The prompts of the quiz the builtin engine makes beside `deck`, when the deck is a page's
    /// (its quiz asks the deck's first cards, so one answer rewrites a card and a question); none
    /// for a longer document, whose quiz is spread as its deck is.
    func quizPrompts(_ deck: Flashcards) -> Set<String> {
        guard deck.cards.count <= KitSize.minimumCards else { return [] }
        let material = builtin.material(of: request.document)
        guard case .quiz(let quiz)? = try? builtin.generate(
            .quiz, text: material.text, title: material.title, size: request.size)
        else { return [] }
        return Set(quiz.questions.map(\.prompt))
    }

    /// A deck's or a quiz's allowance on `engine` for `request`'s document, and whether its
    /// items are asked in ``RewriteOrder``'s order: on the local model, when the document has two
    /// body sections or more to spread over, or more items than the allowance (otherwise every
    /// item is asked anyway, in the deck's order).
    func clozeAllowance() -> ClozeAllowance {
        guard engine.kind == .local, capability.boundsItemRewrites else {
            return ClozeAllowance(items: .open, bodySections: 0)
        }
        let sections = BodySections(outline: DocumentOutline(text: request.document.text)).all.filter(\.isBody).count
        return ClozeAllowance(items: .clozes(bodySections: sections), bodySections: sections)
    }
}

/// A cloze part's allowance and what decides its order (``ItemRewriter/clozeAllowance()``).
struct ClozeAllowance {
    let items: ItemAllowance
    let bodySections: Int

    /// Whether `count` items are asked in ``RewriteOrder``'s order.
    func reorders(_ count: Int) -> Bool {
        guard let attempts = items.attempts else { return false }
        return bodySections >= 2 || count > attempts
    }
}
