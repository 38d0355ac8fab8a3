import Foundation
import Testing

@testable import StudyKit

/// Repair, not refusal (#53): a model's whole part judged item by item, repaired where a rule
/// says how, dropped where not, kept when half the asked-for items pass, topped up from the
/// builtin skeleton.
@Suite("A model's part is judged item by item")
struct PartJudgeTests {
    /// A page of lecture notes, written for these tests.
    static let material = """
        DNA Replication
        Lecture notes, week 7

        Overview
        Before a cell divides, it copies its DNA so that each daughter cell receives a full set of genes. Replication is semi-conservative: each new DNA molecule keeps one strand of the parent molecule and gains one newly made strand.

        Unwinding
        Replication starts at sites called origins of replication. The enzyme helicase unwinds the double helix and separates the two strands by breaking the hydrogen bonds between the bases. The point where the helix opens is the replication fork. Single-strand binding proteins keep the separated strands apart.

        Building the new strands
        DNA polymerase cannot start a strand on its own, so the enzyme primase first lays down a short RNA primer. DNA polymerase III then adds nucleotides to the primer, always in the 5' to 3' direction, pairing A with T and G with C. Because the two strands run in opposite directions, they are copied differently. The leading strand is made continuously, towards the fork. The lagging strand is made away from the fork, in short pieces called Okazaki fragments.

        Finishing
        DNA polymerase I removes the RNA primers and fills the gaps with DNA. DNA ligase then joins the fragments into one continuous strand. DNA polymerase also proofreads its work and removes most wrongly paired bases, so replication makes about one error in a billion bases.
        """

    static func document() -> Document {
        Document(text: material, title: nil, kind: .text, origin: "test")
    }

    /// Paragraphs of the tuning half's `en-economics-supply-demand.txt` that Qwen2.5-Coder-1.5B
    /// gave as a card's quote and, whole, as its answer (session 69).
    static let ceiling =
        "A price ceiling is a legal maximum price that sellers may charge. It only matters if it is set below the "
        + "equilibrium price, and then it creates a shortage."
    static let floor =
        "A price floor is a legal minimum price. It only matters if it is set above the equilibrium price, and then "
        + "it creates a surplus. A minimum wage is the best-known example: if it is above the market wage for some "
        + "kinds of work, more people want those jobs than employers wish to fill."
    static let equilibrium =
        "The equilibrium price is the price at which the quantity demanded equals the quantity supplied. The amount "
        + "bought and sold at that price is the equilibrium quantity. Graphically, equilibrium is where the demand "
        + "and supply curves cross."
    static let lawOfSupply =
        "The law of supply states that, other things being equal, as the price of a good rises the quantity "
        + "supplied rises, because higher prices make production more profitable and draw in more producers. A "
        + "supply curve therefore normally slopes upwards from left to right."

    /// A sentence of the tuning half's `en-computing-hash-tables.md` over 20 words.
    static let hashing =
        "The table then maps the hash code to a bucket index, most simply by taking the remainder after dividing by "
        + "the number of buckets."

    /// Eight good cards: question, answer, the sentence that says it.
    static let good: [(String, String, String)] = [
        (
            "What enzyme unwinds the double helix?", "helicase",
            "The enzyme helicase unwinds the double helix and separates the two strands by breaking the hydrogen bonds between the bases."
        ),
        (
            "Where does replication start?", "origins of replication",
            "Replication starts at sites called origins of replication."
        ),
        (
            "Which enzyme lays down a short RNA primer?", "primase",
            "DNA polymerase cannot start a strand on its own, so the enzyme primase first lays down a short RNA primer."
        ),
        (
            "What is the lagging strand made away from?", "the fork",
            "The lagging strand is made away from the fork, in short pieces called Okazaki fragments."
        ),
        (
            "What joins the fragments into one continuous strand?", "DNA ligase",
            "DNA ligase then joins the fragments into one continuous strand."
        ),
        (
            "What removes the RNA primers?", "DNA polymerase I",
            "DNA polymerase I removes the RNA primers and fills the gaps with DNA."
        ),
        (
            "How is the leading strand made?", "continuously",
            "The leading strand is made continuously, towards the fork."
        ),
        (
            "What keeps the separated strands apart?", "Single-strand binding proteins",
            "Single-strand binding proteins keep the separated strands apart."
        ),
    ]

    static let headline =
        #"{"title":"DNA Replication","blurb":"Helicase unwinds the double helix and DNA polymerase builds each new strand."}"#
    static let summary =
        #"{"overview":"Replication copies DNA before a cell divides. Helicase, primase, DNA polymerase and DNA ligase each do one step.","keyPoints":["The leading strand is made continuously, towards the fork.","DNA ligase joins the fragments into one continuous strand.","Single-strand binding proteins keep the separated strands apart."]}"#
    static let quiz = #"""
        {"questions":[
        {"prompt":"Which enzyme unwinds the double helix?","choices":["helicase","primase","DNA ligase","DNA polymerase III"],"answerIndex":0,"explanation":"Helicase unwinds it.","quote":"The enzyme helicase unwinds the double helix and separates the two strands by breaking the hydrogen bonds between the bases."},
        {"prompt":"What joins the fragments into one continuous strand?","choices":["DNA ligase","helicase","primase","single-strand binding proteins"],"answerIndex":0,"explanation":"Ligase joins them.","quote":"DNA ligase then joins the fragments into one continuous strand."},
        {"prompt":"In which direction does DNA polymerase III add nucleotides?","choices":["5' to 3'","towards the helicase","in both directions","from the fork outwards"],"answerIndex":0,"explanation":"Always 5' to 3'.","quote":"DNA polymerase III then adds nucleotides to the primer, always in the 5' to 3' direction, pairing A with T and G with C."}]}
        """#
    static let mindMap =
        #"{"centralTopic":"DNA replication","branches":[{"label":"Unwinding","children":[{"label":"Helicase","children":[]},{"label":"Replication fork","children":[]}]},{"label":"Finishing","children":[{"label":"DNA ligase","children":[]},{"label":"RNA primers","children":[]}]}]}"#

    @Test func theFixturesAreValidAndGrounded() throws {
        for (task, text) in [
            (StudyTask.headline, Self.headline), (.summary, Self.summary), (.flashcards, Self.deck(Self.good)),
            (.quiz, Self.quiz), (.mindmap, Self.mindMap),
        ] {
            let result = try decodeResult(for: task, modelOutput: text)
            #expect(
                Grounding.issues(in: result, source: Self.material).isEmpty,
                "\(task): \(Grounding.issues(in: result, source: Self.material))")
        }
    }

    static func card(_ card: (String, String, String)) -> String {
        JSONValue.object([
            "kind": "question", "question": .string(card.0), "answer": .string(card.1), "quote": .string(card.2),
        ]).compactText
    }

    static func deck(_ cards: [(String, String, String)]) -> String {
        #"{"cards":["# + cards.map(card).joined(separator: ",") + "]}"
    }

    static func judge(_ answer: String, task: StudyTask, counts: ItemCounts = .standard) throws -> PartJudge.Judged {
        let router = RoutingEngine(local: ScriptedModel(.local), remote: ScriptedModel(.remote))
        let judge = PartJudge(
            material: material, counts: counts, model: "test-model",
            skeleton: router.skeleton(task, document: document()))
        return try judge.judge(try JSONValue.parse(answer), task: task)
    }

    // MARK: repairs

    @Test(arguments: [
        ("Okazaki fragments joined together by DNA ligase", "Okazaki fragments"),
        ("The leading strand is made continuously towards the fork", "leading strand"),
        ("Helicase unwinds the double helix at the origin", "Helicase"),
        ("Role of primase in laying down the RNA primers", "Role of primase"),
        ("Proofreading: one error in a billion bases copied", "Proofreading"),
        ("Hydrogen bonds holding the two strands together", "Hydrogen bonds"),
        // A subject pronoun opens a clause of its own.
        ("Lagging strand it grows away from the fork", "Lagging strand"),
    ])
    func aLabelOverItsLimitIsCutToItsHeadPhrase(label: String, head: String) {
        #expect(ItemRepairs.headPhrase(label, maxWords: MindMap.labelWords) == head)
    }

    @Test(arguments: [
        // Fits already: nothing to repair.
        "Okazaki fragments",
        // Nothing but function words before the first break.
        "The of and the is what the material says",
        // A head phrase still over the limit.
        "Mitochondrial DNA polymerase gamma subunit B structure overview",
        // A piece of a sentence that opens on a preposition names no idea.
        "During replication the enzyme helicase unwinds the helix",
        "From the origin it moves along in both directions",
    ])
    func aLabelWithNoHeadPhraseIsNotRepaired(label: String) {
        #expect(ItemRepairs.headPhrase(label, maxWords: MindMap.labelWords) == nil)
    }

    @Test(arguments: [
        // The quote says "DNA ligase", not "the enzyme": the key words are the quote's.
        (
            "It is joined by the enzyme DNA ligase.", "What joins the Okazaki fragments?", good[4].2,
            "DNA ligase" as String?
        ),
        // An answer the quote holds needs no cut.
        ("DNA ligase", "What joins the fragments into one continuous strand?", good[4].2, nil),
        // Nothing of it in the quote: no cut will do, the card is dropped.
        ("Topoisomerase relieves the tension.", "What joins the fragments?", good[4].2, nil),
        // The tuning half's supply and demand, as Qwen2.5-Coder-1.5B answered (session 69): the
        // quote's paragraph, cut to what its first sentence says of the question's subject …
        (ceiling, "What is a price ceiling?", ceiling, "a legal maximum price that sellers may charge"),
        (floor, "What is a price floor?", floor, "a legal minimum price"),
        (
            equilibrium, "What is the equilibrium price?", equilibrium,
            "the price at which the quantity demanded equals the quantity supplied"
        ),
        // … and to its main clause, the reason after ", because" left out.
        (
            lawOfSupply, "What is the law of supply?", lawOfSupply,
            "other things being equal, as the price of a good rises the quantity supplied rises"
        ),
        // A long sentence that opens on anything but the question's subject and a verb that
        // defines it keeps its answer whole: its first 8 words ("The table then maps the hash
        // code") are no answer.
        (hashing, "What does the table do with the hash code?", hashing, nil),
    ])
    func aCardsAnswerIsCutToItsKeyWords(answer: String, question: String, quote: String, cut: String?) {
        #expect(ItemRepairs.keyWords(answer: answer, question: question, quote: quote) == cut)
    }

    // MARK: drops

    /// One bad card after five good ones, and the reason it is dropped for.
    @Test(arguments: [
        (
            // An invented quote, and no sentence of the material says the answer in its place.
            ("What unwinds the helix?", "topoisomerase", "Topoisomerase is an enzyme found in every cell of the body."),
            "is not in the material"
        ),
        (
            (
                "What does DNA ligase do?", "joins Okazaki fragments",
                "Single-strand binding proteins keep the separated strands apart."
            ),
            "does not hold the answer"
        ),
        (
            (
                // No sentence of the material says it, so no sentence can be quoted in its place
                // (with "hydrogen" the material's sentence is: ``RequoteAndChoiceTests``).
                "Which bonds does helicase break between the bases?", "covalent",
                "The point where the helix opens is the replication fork."
            ),
            "does not hold the answer"
        ),
        (
            (
                "How often does primase act in a cell cycle?", "DNA polymerase III",
                "DNA polymerase III then adds nucleotides to the primer, always in the 5' to 3' direction, pairing A with T and G with C."
            ),
            "of the question's words"
        ),
        (("Question 1", "helicase", good[0].2), "placeholder"),
        ((good[0].0, "helicase", good[0].2), "repeats"),
    ])
    func aBadCardIsDroppedAndTheRestKept(bad: (String, String, String), reason: String) throws {
        let judged = try Self.judge(Self.deck(Array(Self.good.prefix(5)) + [bad]), task: .flashcards)
        guard case .flashcards(let deck) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.count == 1, "\(judged.dropped)")
        #expect(judged.dropped.first?.path == "cards[5]")
        #expect(judged.dropped.first?.reason.contains(reason) == true, "\(judged.dropped)")
        // Five of the model's, one from the skeleton to reach the six asked for.
        #expect(deck.cards.count == ItemCounts.standard.cards)
        #expect(judged.items.filter { $0.kind == .written }.count == 5)
        #expect(judged.items.filter { $0.kind == .extracted }.count == 1)
        #expect(judged.items.last?.note?.contains("added from the builtin engine") == true)
    }

    @Test func aCardWhoseAnswerTheQuoteLacksIsRepairedNotDropped() throws {
        let repaired = ("What joins the Okazaki fragments?", "It is joined by the enzyme DNA ligase.", Self.good[4].2)
        let judged = try Self.judge(
            Self.deck(Array(Self.good.prefix(4)) + [repaired] + Array(Self.good.suffix(3))), task: .flashcards)
        guard case .flashcards(let deck) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.isEmpty)
        #expect(deck.cards[4].answer == "DNA ligase")
        #expect(judged.items[4].kind == .repaired)
        #expect(judged.items[4].note?.contains("key words") == true)
    }

    @Test func aPartWithFewerThanHalfItsItemsPassingIsRefused() {
        let stray = "Helicase is an enzyme found in every cell of the body."
        let bad = (0..<6).map { ("What is enzyme number \($0 + 1) of the body?", "helicase", stray) }
        // Two of the six asked for pass: refused.
        #expect(throws: SchemaError.self) {
            try Self.judge(Self.deck(Array(Self.good.prefix(2)) + bad), task: .flashcards)
        }
        // Half of a count of four: kept, and topped up to the three one answer must hold at least.
        let judged = try? Self.judge(
            Self.deck(Array(Self.good.prefix(2)) + bad), task: .flashcards,
            counts: ItemCounts(cards: 4, questions: 5, keyPoints: 5, branches: 4))
        #expect(judged?.items.filter { $0.kind == .written }.count == 2)
        #expect(judged?.toppedUp == 2)
    }

    @Test func aMindMapLabelOverItsLimitIsRepaired() throws {
        let map = #"""
            {"centralTopic":"DNA replication","branches":[
            {"label":"Unwinding","children":[{"label":"Helicase unwinds the double helix at the origin","children":[]},{"label":"Replication fork","children":[]}]},
            {"label":"New strands","children":[{"label":"Leading strand","children":[]},{"label":"Okazaki fragments joined together by DNA ligase","children":[]}]},
            {"label":"Finishing","children":[{"label":"DNA ligase","children":[]},{"label":"Primase","children":[]}]}]}
            """#
        let judged = try Self.judge(map, task: .mindmap)
        guard case .mindMap(let result) = judged.result else { throw BuiltinError.emptyText }
        #expect(result.branches[0].children[0].label == "Helicase")
        #expect(result.branches[1].children[1].label == "Okazaki fragments")
        #expect(judged.repaired == 2)
        #expect(judged.items.first { $0.path == "branches[0]" }?.kind == .repaired)
        #expect(judged.items.first { $0.path == "branches[2]" }?.kind == .written)
    }

    @Test func aMisstatedKeyPointIsDroppedAndTheOthersKept() throws {
        let summary = #"""
            {"overview":"Helicase unwinds the double helix at the origins of replication. DNA polymerase builds the new strands on an RNA primer.",
             "keyPoints":["The leading strand is made continuously, towards the fork.",
                          "DNA ligase joins the fragments into one continuous strand.",
                          "Single-strand binding proteins keep the separated strands apart.",
                          "DNA polymerase I does not remove the RNA primers.",
                          "Primase lays down a short RNA primer before DNA polymerase starts."]}
            """#
        let judged = try Self.judge(summary, task: .summary)
        #expect(judged.dropped.map(\.path) == ["keyPoints[3]"])
        #expect(judged.dropped.first?.reason.contains("opposite") == true, "\(judged.dropped)")
    }

    @Test func anOverviewThatTalksAboutTheDocumentIsReplacedByTheSkeletons() throws {
        let summary = #"""
            {"overview":"In these notes we discuss DNA replication. The lecture explains helicase and primase.",
             "keyPoints":["The leading strand is made continuously, towards the fork.",
                          "DNA ligase joins the fragments into one continuous strand.",
                          "Single-strand binding proteins keep the separated strands apart."]}
            """#
        let judged = try Self.judge(summary, task: .summary)
        guard case .summary(let result) = judged.result else { throw BuiltinError.emptyText }
        #expect(!result.overview.contains("we discuss"))
        #expect(judged.items.first?.path == "overview")
        #expect(judged.items.first?.kind == .extracted)
        // The model's three key points (the material's own words, chosen by it), then two of the skeleton's.
        let points = judged.items.filter { $0.path.hasPrefix("keyPoints") }
        #expect(points.prefix(3).allSatisfy { $0.note?.contains("test-model") == true }, "\(points)")
        #expect(
            points.dropFirst(3).allSatisfy { $0.note?.contains("added from the builtin engine") == true }, "\(points)")
    }

    // MARK: through the router

    @Test func aScriptedDeckWithOneDuplicateCardKeepsTheOtherCards() async throws {
        // The duplicate is written once; the repetition guard lets it through, the judge drops it.
        let deck = Self.deck(Array(Self.good.prefix(4)) + [Self.good[3]] + Array(Self.good.suffix(4)))
        let remote = ScriptedModel(.remote, window: 16_384, steps: [.stream([deck])], streamsCheaply: true)
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote)
        let routed = try await router.run(
            RoutingRequest(task: .flashcards, document: Self.document(), engine: .remote, useCache: false))
        guard case .flashcards(let result) = routed.result else { throw BuiltinError.emptyText }
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 1, "no re-ask")
        #expect(result.cards.map(\.question) == Self.good.map(\.0))
        #expect(routed.dropped.map(\.path) == ["cards[4]"])
        #expect(routed.items.allSatisfy { $0.kind == .written })
        #expect(!routed.reasked)
    }

    @Test func aLoopIsStillStopped() async throws {
        // The same card a third time: a loop, stopped there. Of what it finished, too few cards
        // are left (two, and a duplicate) to keep the part: the builtin engine answers.
        let looping = Self.deck(Array(Self.good.prefix(2)) + [Self.good[1], Self.good[1]] + Array(Self.good.suffix(4)))
        let remote = ScriptedModel(.remote, window: 16_384, steps: [.stream([looping])], streamsCheaply: true)
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote)
        let routed = try await router.run(RoutingRequest(task: .flashcards, document: Self.document(), useCache: false))
        #expect(routed.engine == .builtin)
        #expect(routed.fallbacks.contains { $0.engine == .remote && $0.reason.contains("repeating entries") })
        #expect(routed.attempts.first?.outcome == .repeated)
        var guardian = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers)
        let stopped = guardian.feed(snapshot: looping)
        #expect(stopped)
    }

    @Test func aStreamStoppedAtItsDeadlineKeepsTheCardsItFinished() async throws {
        let full = Self.deck(Self.good)
        // Cut inside the seventh card: six finished, the seventh dropped.
        let cut = String(full[..<full.range(of: "continuously,")!.lowerBound])
        let remote = ScriptedModel(
            .remote, window: 16_384,
            steps: [
                .streamThenFail(
                    [cut],
                    .transport("the remote engine did not answer within 120.0 s; try again, or raise STUDYKIT_DEADLINE")
                )
            ],
            streamsCheaply: true)
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote)
        let routed = try await router.run(
            RoutingRequest(task: .flashcards, document: Self.document(), engine: .remote, useCache: false))
        guard case .flashcards(let result) = routed.result else { throw BuiltinError.emptyText }
        #expect(result.cards.map(\.question) == Self.good.prefix(6).map(\.0))
        #expect(routed.items.filter { $0.kind == .written }.count == 6)
    }

    @Test func aKitWhosePartHasTooFewUsableItemsAsksThatPartAlone() async throws {
        let stray = "Helicase is an enzyme found in every cell of the body."
        let junk = Self.deck((0..<8).map { ("What is enzyme number \($0 + 1) of the body?", "helicase", stray) })
        let kit =
            #"{"headline":\#(Self.headline),"summary":\#(Self.summary),"flashcards":\#(junk),"quiz":\#(Self.quiz),"mindMap":\#(Self.mindMap)}"#
        let remote = ScriptedModel(
            .remote, window: 16_384, steps: [.answer(Self.headline), .answer(kit), .answer(Self.deck(Self.good))])
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote)
        let assembled = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: Self.document(), useCache: false))
        guard case .studyKit(let bundle) = assembled.routed.result else { throw BuiltinError.emptyText }
        #expect(remote.calls.respond == 3)
        #expect(bundle.flashcards.cards.map(\.question) == Self.good.map(\.0))
        #expect(assembled.parts.first { $0.task == .flashcards }?.routed.engine == .remote)
        #expect(!assembled.singleRequest)
    }

    @Test func aKitTheRemoteModelFailsIsAskedPartByPartOnTheSameEngine() async throws {
        // The kit loops; each part is then asked of the remote model on its own.
        let point = #""Helicase unwinds the helix.""#
        let loop =
            #"{"headline":{"title":"DNA","blurb":"Copies."},"summary":{"overview":"A a a","keyPoints":["#
            + [point, point, point].joined(separator: ",") + "]"
        let remote = ScriptedModel(
            .remote, window: 16_384,
            steps: [
                // Then the parts alone, the shortest expected answer first (KitAssembler.remoteOrder).
                .stream([Self.headline]), .stream([loop]), .stream([Self.summary]), .stream([Self.mindMap]),
                .stream([Self.deck(Self.good)]), .stream([Self.quiz]),
            ],
            streamsCheaply: true)
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote)
        let assembled = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: Self.document(), useCache: false))
        #expect(remote.calls.respond == 6)
        #expect(assembled.parts.dropFirst().allSatisfy { $0.routed.engine == .remote })
        #expect(assembled.routed.fallbacks.contains { $0.reason.contains("kit: ") && $0.reason.contains("repeating") })
    }
}
