import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite("RoutingEngine with scripted engines")
struct RoutingEngineTests {
    static let headline = #"{"title":"Cell Division Basics","blurb":"Mitosis splits one cell into two identical cells."}"#
    static let summary = #"""
        {"overview":"Mitosis divides one cell into two. Each daughter cell gets a full copy of the chromosomes.",
         "keyPoints":["Prophase condenses the chromosomes into visible threads.","Metaphase lines the chromosomes up along the spindle.",
                      "Anaphase pulls the sister chromatids apart."]}
        """#
    static let badHeadline = #"{"title":"Cells","blurb":"Cells"}"#

    /// Sentences that each say something different: the builtin engine, the last fallback,
    /// finds no summary in one sentence said over and over (its points would be near-copies).
    static let sentences = [
        "Mitosis is the division of one cell nucleus into two identical nuclei. ",
        "Prophase condenses the chromosomes into visible threads. ",
        "Metaphase lines the chromosomes up along the spindle equator. ",
        "Anaphase pulls sister chromatids toward opposite poles. ",
        "Telophase rebuilds a nuclear envelope around each chromosome set. ",
        "Cytokinesis finally splits the cytoplasm between daughter cells. ",
        "Interphase copies the DNA before any division starts. ",
        "Meiosis instead yields four haploid gametes with shuffled genes. ",
    ]

    static func document(characters: Int = 600) -> Document {
        var text = ""
        var index = 0
        while text.count < characters {
            text += sentences[index % sentences.count]
            index += 1
        }
        return Document(text: String(text.prefix(characters)).trimmingCharacters(in: .whitespaces), title: nil, kind: .text, origin: "test")
    }

    /// A long document with headings, so fitting has sections to cover.
    static func longDocument() -> Document {
        var parts: [String] = []
        // Varied wording, so that no two sentences are near-copies of each other.
        let actors = [
            "ribosomes", "centrioles", "spindle fibres", "chromatids", "enzymes", "membranes", "vesicles", "lysosomes",
            "histones", "kinases", "cyclins", "microtubules",
        ]
        let actions = ["assemble near", "bind to", "move along", "attach to", "surround", "repair"]
        let places = ["the nuclear envelope", "the cell plate", "each centromere", "the metaphase plate", "the cleavage furrow", "the daughter nuclei"]
        for section in 1...6 {
            parts.append("# Section \(section)")
            for sentence in 1...12 {
                parts.append("Fact \(sentence) of section \(section) says that \(actors[sentence - 1]) \(actions[section - 1]) \(places[section - 1]) during stage \(section) of mitosis.")
            }
        }
        return Document(text: parts.joined(separator: "\n\n"), title: "Cells", kind: .markdown, origin: "test")
    }

    // MARK: the plan

    @Test(arguments: [
        (Backend.local, EngineChoice.auto, false, [EngineKind.local, .remote, .builtin]),
        (.remote, .auto, false, [.remote, .local, .builtin]),
        (.local, .auto, true, [.local, .builtin]),
        (.remote, .auto, true, [.local, .builtin]),
        (.remote, .local, false, [.local]),
        (.local, .remote, false, [.remote]),
        (.local, .builtin, false, [.builtin]),
    ])
    func planOrder(decision: Backend, choice: EngineChoice, offline: Bool, expected: [EngineKind]) {
        #expect(RoutingEngine.plan(decision: decision, choice: choice, offline: offline) == expected)
    }

    // MARK: branches

    @Test func localPreferredAndAnswering() async throws {
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let remote = ScriptedModel(.remote)
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .local)
        #expect(routed.decision == .local)
        #expect(routed.fallbacks.isEmpty)
        #expect(routed.fitted.cut == false)
        #expect(local.calls.respond == 1)
        #expect(remote.calls == .init())
        // Counting the budget takes at most two tokenizer calls.
        #expect(local.calls.tokenCount + local.calls.tokenize <= 2)
        #expect(routed.usage?.promptTokens ?? 0 > 0)
    }

    /// A headline or summary text that is the material's own words, word for word, is what the
    /// model chose, not what it wrote: `--json` says `extracted`, by whom; its own words stay
    /// `written`. Cards keep `written` (a whole part's card always quotes its sentence).
    @Test func aPartsTextCopiedFromTheMaterialIsExtractedNotWritten() async throws {
        let copying = #"{"title":"Cell Division Basics","blurb":"Prophase condenses the chromosomes into visible threads."}"#
        let local = ScriptedModel(.local, steps: [.answer(copying)])
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(
            RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .local)
        #expect(routed.items.map(\.path) == ["title", "blurb"])
        #expect(routed.items.map(\.kind) == [.written, .extracted])
        #expect(routed.items[1].note == "the material's own words, chosen by \(routed.model ?? "")")

        let summary = #"{"overview":"Mitosis is the division of one cell nucleus into two identical nuclei. Each daughter cell gets a full copy.","keyPoints":["Prophase condenses the chromosomes into visible threads.","Metaphase aligns the chromosomes on the spindle.","Anaphase pulls sister chromatids toward opposite poles."]}"#
        let kinds = ItemProvenance.written(
            in: .summary(try Summary.decode(modelOutput: summary)), model: "m", material: Self.document().text, cached: true)
        #expect(kinds.map(\.kind) == [.written, .extracted, .written, .extracted])
        // A title of one or two words is always the material's words; it is not called copied.
        let short = ItemProvenance.written(
            in: .headline(Headline(title: "Mitosis", blurb: "Mitosis is the division of one cell nucleus into two identical nuclei.")),
            model: "m", material: Self.document().text, cached: false)
        #expect(short.map(\.kind) == [.written, .extracted])
        #expect(kinds[1].note == "the material's own words, chosen by m, from the cache")
    }

    @Test func localUnavailableGoesToRemote() async throws {
        let log = CallLog()
        let local = ScriptedModel(.local, available: .unavailable(reason: "server down"), log: log)
        let remote = ScriptedModel(.remote, steps: [.answer(Self.headline)], log: log)
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .remote)
        #expect(routed.fallbacks == [FallbackStep(engine: .local, reason: EngineError.unavailable(reason: "server down").message)])
        #expect(log.kinds == [.remote])
    }

    @Test func invalidOutputIsReaskedOnceThenFallsBack() async throws {
        let log = CallLog()
        let local = ScriptedModel(.local, steps: [.answer(Self.badHeadline), .answer(Self.badHeadline)], log: log)
        let remote = ScriptedModel(.remote, steps: [.answer(Self.headline)], log: log)
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .remote)
        #expect(log.kinds == [.local, .local, .remote])
        // The re-ask carries the validation errors as feedback.
        let reask = try #require(local.calls.prompts.last)
        #expect(reask.contains("Your previous answer did not meet the requirements"))
        #expect(reask.contains("blurb"))
        #expect(routed.fallbacks.first?.engine == .local)
    }

    /// #18, #53: an item that fails grounding is dropped at once and the drop is reported; the
    /// rest of the part is kept, and topped up from the builtin engine to the cards asked for.
    @Test func anUngroundedItemIsDroppedAndCounted() async throws {
        let deck = #"""
            {"cards":[
              {"question":"What does prophase do to the chromosomes?","answer":"Condenses them into visible threads","quote":"Prophase condenses the chromosomes into visible threads."},
              {"question":"Where does metaphase line the chromosomes up?","answer":"Along the spindle equator","quote":"Metaphase lines the chromosomes up along the spindle equator."},
              {"question":"What does meiosis make?","answer":"Eight diploid spores","quote":"Meiosis makes eight diploid spores in the roots."},
              {"question":"What does anaphase pull apart?","answer":"Sister chromatids","quote":"Anaphase pulls sister chromatids toward opposite poles."}]}
            """#
        let local = ScriptedModel(.local, steps: [.answer(deck), .answer(deck)])
        let remote = ScriptedModel(.remote, steps: [.answer(deck), .answer(deck)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(
            RoutingRequest(task: .flashcards, document: Self.document(), useCache: false))
        #expect(routed.engine == .remote)
        #expect(!routed.reasked)
        #expect(remote.calls.respond == 1)
        #expect(routed.dropped.map(\.path) == ["cards[2]"])
        #expect(routed.dropped.first?.reason.contains("quote is not in the material") == true)
        guard case .flashcards(let cards) = routed.result else {
            Issue.record("not flashcards")
            return
        }
        #expect(cards.cards.prefix(3).map(\.answer) == ["Condenses them into visible threads", "Along the spindle equator", "Sister chromatids"])
        #expect(cards.cards.count == ItemCounts.standard.cards)
        #expect(routed.items.prefix(3).allSatisfy { $0.kind == .written })
        #expect(routed.items.dropFirst(3).allSatisfy { $0.kind == .extracted })
    }

    @Test func aReaskThatSucceedsIsReported() async throws {
        let local = ScriptedModel(.local, steps: [.answer(Self.badHeadline), .answer(Self.headline)])
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(
            RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .local)
        #expect(routed.reasked)
        #expect(local.calls.respond == 2)
    }

    @Test func anAnswerThatNamesNothingFromTheMaterialIsReaskedWithThatFeedback() async throws {
        let empty = #"{"title":"Study Notes","blurb":"It is what it is, for everyone."}"#
        let local = ScriptedModel(.local, steps: [.answer(empty), .answer(Self.headline)])
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(
            RoutingRequest(task: .headline, document: Self.document(), useCache: false))
        #expect(routed.engine == .local)
        #expect(routed.reasked)
        guard case .headline(let headline) = routed.result else {
            Issue.record("not a headline")
            return
        }
        #expect(headline.blurb == "Mitosis splits one cell into two identical cells.")
        let reask = try #require(local.calls.prompts.last)
        #expect(reask.contains("blurb names nothing from the material"))
    }

    @Test func keyPointsThatCarryNoMeaningAreReaskedNamingEachItem() async throws {
        // The shape SmolLM2 gave in #23: valid JSON, one schema word a point.
        let junk = #"""
            {"overview":"Mitosis divides one cell into two. Each daughter cell gets a full copy of the chromosomes.",
             "keyPoints":["overview","and","keyPoints","is","a","json","object"]}
            """#
        let remote = ScriptedModel(.remote, steps: [.answer(junk), .answer(Self.summary)])
        let routed = try await RoutingEngine(local: ScriptedModel(.local), remote: remote).run(
            RoutingRequest(task: .summary, document: Self.document(), useCache: false))
        #expect(routed.engine == .remote)
        #expect(routed.reasked)
        guard case .summary(let summary) = routed.result else {
            Issue.record("not a summary")
            return
        }
        #expect(!summary.keyPoints.contains("overview"))
        let reask = try #require(remote.calls.prompts.last)
        #expect(reask.contains(#"keyPoints[0] is "overview", a field name of the schema"#))
        #expect(reask.contains(#"keyPoints[1] is "and", only a function word"#))
    }

    @Test func aFittedAnswerIsGroundedInWhatWasSentNotTheWholeDocument() async throws {
        // Only part of the document fits the local window; a quote from a part left out cannot
        // have come from the model's input and is rejected.
        let filler = String(repeating: "Mitosis is the division of one cell nucleus into two identical nuclei. ", count: 300)
        let middle = "Meiosis makes four haploid gametes that differ genetically."
        let document = Document(text: filler + "\n\n" + middle + "\n\n" + filler, title: nil, kind: .text, origin: "test")
        let invented = #"""
            {"cards":[{"question":"What does meiosis make?","answer":"Four haploid gametes.","quote":"Meiosis makes four haploid gametes that differ genetically."},
            {"question":"What does mitosis divide?","answer":"The nucleus.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."},
            {"question":"How many nuclei?","answer":"Two.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."}]}
            """#
        let local = ScriptedModel(.local, window: 3072, steps: [.answer(invented), .answer(invented)])
        var request = RoutingRequest(task: .flashcards, document: document, useCache: false)
        request.engine = .local
        await #expect(throws: RoutingError.self) { _ = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(request) }
        #expect(local.calls.respond == 2)
        #expect(local.calls.prompts.first?.contains(middle) == false, "the fitted prompt left the middle out")
        #expect(local.calls.prompts.last?.contains("cards[0].quote is not in the material") == true)
    }

    @Test func remoteQuotaRefusalFallsBackToLocalAndNeverCallsRemoteAgain() async throws {
        let log = CallLog()
        let remote = ScriptedModel(.remote, steps: [.fail(.quotaExceeded("insufficient_quota"))], log: log)
        let local = ScriptedModel(.local, steps: [.answer(Self.summary)], log: log)
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .summary, document: Self.document()))
        #expect(routed.engine == .local)
        #expect(routed.decision == .remote)
        #expect(log.kinds == [.remote, .local])
        #expect(remote.calls.respond == 1)
    }

    @Test func aSpentDailyQuotaSkipsRemoteWithoutCallingIt() async throws {
        let directory = try temporaryDirectory()
        let ledger = try UsageLedger(environment: ["STUDYKIT_CACHE_DIR": directory.path])
        let remote = ScriptedModel(.remote, steps: [.answer(Self.summary)])
        let local = ScriptedModel(.local, steps: [.answer(Self.summary)])
        let router = RoutingEngine(local: local, remote: remote, ledger: ledger, quota: .requests(0))
        let routed = try await router.run(RoutingRequest(task: .summary, document: Self.document()))
        #expect(routed.engine == .local)
        #expect(remote.calls == .init())
        #expect(routed.fallbacks.first?.engine == .remote)
        #expect(routed.fallbacks.first?.reason.contains("quota") == true)
        // What local spent is in the ledger.
        #expect(try ledger.usage(engine: .local, on: ledger.today).requests == 1)
    }

    @Test func aRemoteAnswerCutAtTheLimitIsCountedThenFallsBack() async throws {
        let directory = try temporaryDirectory()
        let ledger = try UsageLedger(environment: ["STUDYKIT_CACHE_DIR": directory.path])
        let remote = ScriptedModel(.remote, steps: [.cut(#"{"overview":"Photosynthesis"#)])
        let local = ScriptedModel(.local, steps: [.answer(Self.summary)])
        let router = RoutingEngine(local: local, remote: remote, ledger: ledger, quota: .requests(5))
        let routed = try await router.run(RoutingRequest(task: .summary, document: Self.document(), useCache: false))
        #expect(routed.engine == .local)
        #expect(remote.calls.respond == 1)
        let step = try #require(routed.fallbacks.first)
        #expect(step.engine == .remote)
        #expect(step.reason.contains("stopped at its \(StudyTask.summary.responseReserve)-token response limit"))
        // The cut answer cost a request and its whole response reserve: both are in the ledger.
        let spent = try ledger.usage(engine: .remote, on: ledger.today)
        #expect(spent.requests == 1)
        #expect(spent.tokensOut == StudyTask.summary.responseReserve)
        #expect(spent.tokensIn > 0)
    }

    @Test func remoteUnderQuotaIsCalledAndCounted() async throws {
        let directory = try temporaryDirectory()
        let ledger = try UsageLedger(environment: ["STUDYKIT_CACHE_DIR": directory.path])
        let remote = ScriptedModel(.remote, steps: [.answer(Self.summary), .answer(Self.summary)])
        let router = RoutingEngine(local: ScriptedModel(.local), remote: remote, ledger: ledger, quota: .requests(1))
        _ = try await router.run(RoutingRequest(task: .summary, document: Self.document(), useCache: false))
        #expect(remote.calls.respond == 1)
        // The second request finds the quota spent.
        let second = try await router.run(RoutingRequest(task: .summary, document: Self.document(), useCache: false))
        #expect(remote.calls.respond == 1)
        #expect(second.engine != .remote)
    }

    @Test func noModelEngineMeansBuiltin() async throws {
        let local = ScriptedModel(.local, available: .unavailable(reason: "no local"))
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "no remote"))
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .summary, document: Self.longDocument()))
        #expect(routed.engine == .builtin)
        #expect(routed.result.task == .summary)
        #expect(routed.fallbacks.map(\.engine) == [.remote, .local])
        #expect(local.calls.respond == 0 && remote.calls.respond == 0)
    }

    @Test func aForcedEngineNeverFallsBack() async throws {
        let local = ScriptedModel(.local, available: .unavailable(reason: "server down"))
        let remote = ScriptedModel(.remote, steps: [.answer(Self.headline)])
        await #expect(throws: RoutingError.forcedEngineFailed(.local, reason: EngineError.unavailable(reason: "server down").message)) {
            _ = try await RoutingEngine(local: local, remote: remote).run(
                RoutingRequest(task: .headline, document: Self.document(), engine: .local))
        }
        #expect(remote.calls == .init())
        #expect(RoutingError.forcedEngineFailed(.local, reason: "x").exitCode == .unavailable)
    }

    @Test func offlineNeverCallsRemote() async throws {
        let local = ScriptedModel(.local, steps: [.fail(.transport("boom")), .fail(.transport("boom"))])
        let remote = ScriptedModel(.remote, steps: [.answer(Self.headline)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(
            RoutingRequest(task: .headline, document: Self.document(), offline: true))
        #expect(routed.engine == .builtin)
        #expect(remote.calls == .init())
    }

    @Test func aDocumentTooLargeForLocalEscalatesToRemoteWhole() async throws {
        let document = Self.longDocument()
        let local = ScriptedModel(.local, window: 512)
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.headline)])
        // A long headline request goes remote by policy; force the local preference with a short-enough count
        // by routing feynman-free headline through the plan explicitly: the policy says remote above 2,000
        // characters, so use `--engine auto` on a 1,900-character document with a tiny local window instead.
        let short = Document(text: String(document.text.prefix(1_900)), title: nil, kind: .markdown, origin: "test")
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: short))
        #expect(routed.engine == .remote)
        #expect(routed.fitted.cut == false)
        #expect(local.calls.respond == 0)
        #expect(routed.fallbacks.first?.engine == .local)
        #expect(routed.fallbacks.first?.reason.contains("escalated to the remote engine's") == true)
        #expect(remote.calls.prompts.first?.contains(short.text) == true)
    }

    /// Under a time budget a headline is a Post-it job: a document that fits the window whole is
    /// still cut to the headline's share (opening, headings, the best sentences), and `fitted`
    /// says so; without a budget the whole document goes.
    @Test func underATimeBudgetAHeadlineIsSentAPostItOfTheMaterial() async throws {
        let short = Document(text: String(Self.longDocument().text.prefix(1_900)), title: nil, kind: .markdown, origin: "test")
        let whole = ScriptedModel.tokens(short.text)
        try #require(whole > RoutingEngine.headlineWholeTokens, "the test document must exceed what a headline reads whole")

        let local = ScriptedModel(.local, window: 8192, steps: [.answer(Self.headline)])
        var request = RoutingRequest(task: .headline, document: short, useCache: false)
        request.budget = TimeBudget(seconds: 600, start: Date())
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(request)
        #expect(routed.engine == .local)
        #expect(routed.fitted.cut)
        #expect(routed.fitted.totalCharacters == short.characterCount)
        #expect(routed.fitted.keptCharacters < short.characterCount)
        let prompt = try #require(local.calls.prompts.first)
        let frame = StudyTask.headline.prompt(document: "", title: nil, concept: nil, explanation: nil)
        #expect(ScriptedModel.tokens(prompt) - ScriptedModel.tokens(frame) <= RoutingEngine.headlineDocumentTokens + 8)
        #expect(prompt.contains(String(short.text.prefix(80))), "the opening is kept")

        let unhurried = ScriptedModel(.local, window: 8192, steps: [.answer(Self.headline)])
        let plain = try await RoutingEngine(local: unhurried, remote: ScriptedModel(.remote))
            .run(RoutingRequest(task: .headline, document: short, useCache: false))
        #expect(plain.fitted.cut == false)
        #expect(unhurried.calls.prompts.first?.contains(short.text) == true)

        // A pasted page under the budget goes whole too: cutting it would save nothing.
        let page = Document(text: String(short.text.prefix(1_000)), title: nil, kind: .markdown, origin: "test")
        let pageTokens = TokenCount.estimate(for: page.text).count
        try #require(pageTokens > RoutingEngine.headlineDocumentTokens && pageTokens <= RoutingEngine.headlineWholeTokens)
        let pageModel = ScriptedModel(.local, window: 8192, steps: [.answer(Self.headline)])
        var pageRequest = RoutingRequest(task: .headline, document: page, useCache: false)
        pageRequest.budget = TimeBudget(seconds: 600, start: Date())
        let pageRouted = try await RoutingEngine(local: pageModel, remote: ScriptedModel(.remote)).run(pageRequest)
        // (Whether the scripted headline is grounded in the page is beside the point: what was sent is.)
        let pagePrompt = try #require(pageModel.calls.prompts.first)
        #expect(pagePrompt.contains(page.text))
        #expect(!pagePrompt.contains(ContentFitter.marker))
        if pageRouted.engine == .local { #expect(pageRouted.fitted.cut == false) }
    }

    /// Under a time budget a quiz that does not fit the local window whole is not fitted and
    /// asked whole (SmolLM2 spent 21 s of a 30 s budget on one and repeated itself): the builtin
    /// engine extracts it, the model is asked only to rephrase its questions one by one, and the
    /// fallback says why. Without a budget it is fitted as before.
    @Test func underATimeBudgetAWholePartThatDoesNotFitIsTheBuiltinEngines() async throws {
        let document = Self.longDocument()
        let local = ScriptedModel(.local, window: 1024)
        var request = RoutingRequest(task: .quiz, document: document, useCache: false)
        request.budget = TimeBudget(seconds: 600, start: Date())
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "remote down")))
            .run(request)
        #expect(routed.engine == .builtin)
        // No whole quiz was asked for: every request was one question's rephrasing.
        #expect(local.calls.prompts.allSatisfy { $0.hasPrefix("Sentence: ") && $0.contains("Missing words: ") })
        #expect(!local.calls.prompts.contains { $0.contains("<document>") })
        let step = try #require(routed.fallbacks.first { $0.engine == .local })
        #expect(step.reason.contains("more than its 1024-token window; the builtin engine extracts and the model rewrites items"), "\(step.reason)")
    }

    @Test func withoutALargerWindowTheContentIsFittedKeepingCoverage() async throws {
        let document = Self.longDocument()
        let local = ScriptedModel(.local, window: 1024, steps: [.answer(Self.summary)])
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "remote down"))
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .summary, document: document))
        #expect(routed.engine == .local)
        #expect(routed.fitted.cut)
        #expect(routed.fitted.keptCharacters < document.characterCount)
        #expect(routed.fitted.totalCharacters == document.characterCount)
        let prompt = try #require(local.calls.prompts.first)
        // The opening, every heading, and the last section are represented.
        #expect(prompt.contains("# Section 1"))
        #expect(prompt.contains("# Section 6"))
        #expect(prompt.contains("section 6"))
        #expect(prompt.contains(ContentFitter.marker))
        // The prompt sent fits the window with the reserve and allowance held back.
        let sent = ScriptedModel.tokens(StudyTask.summary.instructions + "\n" + prompt)
        #expect(sent + StudyTask.summary.responseReserve <= 1024)
        // The whole prompt, the document, then one count of the fitted prompt: never a re-count loop.
        #expect(local.calls.tokenCount + local.calls.tokenize == 3)
    }

    @Test func aCacheHitMakesNoEngineCallAtAll() async throws {
        let directory = try temporaryDirectory()
        let cache = try ResultCache(environment: ["STUDYKIT_CACHE_DIR": directory.path])
        let document = Self.document()
        let first = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let stored = try await RoutingEngine(local: first, remote: ScriptedModel(.remote), cache: cache).run(
            RoutingRequest(task: .headline, document: document))
        #expect(stored.cached == false)

        let second = ScriptedModel(.local, available: .unavailable(reason: "stopped"))
        let remote = ScriptedModel(.remote)
        let hit = try await RoutingEngine(local: second, remote: remote, cache: cache).run(
            RoutingRequest(task: .headline, document: document))
        #expect(hit.cached)
        #expect(hit.result == stored.result)
        #expect(hit.engine == .local)
        #expect(second.calls == .init())
        #expect(remote.calls == .init())

        // --no-cache asks the engine again.
        let third = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let fresh = try await RoutingEngine(local: third, remote: remote, cache: cache).run(
            RoutingRequest(task: .headline, document: document, useCache: false))
        #expect(fresh.cached == false)
        #expect(third.calls.respond == 1)
    }

    /// A server engine learns its model's name only when contacted; the cache key must not
    /// change with it, or a lookup made before contact never finds what was stored after.
    @Test func theCacheKeyDoesNotDependOnDiscovery() async throws {
        let directory = try temporaryDirectory()
        let cache = try ResultCache(environment: ["STUDYKIT_CACHE_DIR": directory.path])
        let first = ScriptedModel(.local, steps: [.answer(Self.headline)], nameKnownAfterContact: true)
        _ = try await RoutingEngine(local: first, remote: ScriptedModel(.remote), cache: cache).run(
            RoutingRequest(task: .headline, document: Self.document()))
        let second = ScriptedModel(.local, steps: [.answer(Self.headline)], nameKnownAfterContact: true)
        let hit = try await RoutingEngine(local: second, remote: ScriptedModel(.remote), cache: cache).run(
            RoutingRequest(task: .headline, document: Self.document()))
        #expect(hit.cached)
        #expect(hit.model == "scripted-local")
        #expect(second.calls == .init())
    }

    @Test func aLengthStopIsTruncationNotAResult() async throws {
        struct Clipped: Error {}
        let local = ScriptedModel(.local, steps: [.fail(.truncated("limit"))])
        let remote = ScriptedModel(.remote, steps: [.answer(#"{"title":"Cell Divi"#)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: Self.document()))
        #expect(routed.engine == .builtin)
        #expect(routed.fallbacks.count == 2)
        #expect(routed.fallbacks[1].reason.contains("mid-way"))
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-routing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
