import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite("Podcast script: schema, rules and grounding")
struct PodcastScriptTests {
    static let material = """
        Mitosis - quick notes
        Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells. \
        Before mitosis, in interphase, the cell grows and copies its DNA, so each chromosome becomes two sister \
        chromatids joined at the centromere. Anaphase: the sister chromatids are pulled apart to opposite poles of the cell. \
        Telophase: a nuclear envelope forms around each set of chromosomes. Cytokinesis then splits the cytoplasm in two.
        """

    static let hosts = [PodcastScript.Host(name: "Maya", role: .curious), PodcastScript.Host(name: "Theo", role: .explainer)]

    /// A grounded script of 8 turns: four questions, four quoted answers.
    static func script(quotes: [String]? = nil, opening: String = "Today we talk about mitosis, how a cell divides. What is it?") -> PodcastScript {
        let answers = quotes ?? [
            "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.",
            "Before mitosis, in interphase, the cell grows and copies its DNA",
            "Anaphase: the sister chromatids are pulled apart to opposite poles of the cell.",
            "Telophase: a nuclear envelope forms around each set of chromosomes.",
        ]
        let questions = [opening, "What happens before it starts?", "And in anaphase?", "How does it end?"]
        var turns: [PodcastScript.Turn] = []
        for (question, quote) in zip(questions, answers) {
            turns.append(.init(speaker: "Maya", line: question))
            turns.append(.init(speaker: "Theo", line: "Put simply: " + quote, quote: quote))
        }
        return PodcastScript(
            title: "Mitosis in Four Steps", hosts: hosts, turns: turns,
            recap: [
                "Mitosis divides one cell into two identical daughter cells.",
                "In interphase the cell copies its DNA into sister chromatids.",
                "In anaphase the sister chromatids move to opposite poles.",
            ])
    }

    @Test func aGroundedScriptValidatesAndIsGrounded() throws {
        let script = Self.script()
        #expect(script.validationIssues().isEmpty)
        #expect(Grounding.issues(in: .podcast(script), source: Self.material).isEmpty)
        #expect(try decodeResult(for: .podcast, json: script.jsonValue) == .podcast(script))
    }

    @Test func turnCountLineLengthAndJunkLinesAreRejected() {
        var short = Self.script()
        short.turns.removeLast()
        #expect(short.validationIssues().map(\.path).contains("turns"))

        var long = Self.script()
        long.turns[2].line = Array(repeating: "word", count: 46).joined(separator: " ") + "?"
        #expect(long.validationIssues().map(\.description).contains { $0.hasPrefix("turns[2].line has 46 words") })

        var junk = Self.script()
        junk.turns[4].line = "and the"
        #expect(junk.validationIssues().map(\.path).contains("turns[4].line"))
    }

    @Test func hostsSpeakersAndQuotesFollowTheRoles() {
        var sameRole = Self.script()
        sameRole.hosts[1].role = .curious
        #expect(sameRole.validationIssues().map(\.path).contains("hosts[1].role"))

        var stranger = Self.script()
        stranger.turns[2].speaker = "Zoe"
        #expect(stranger.validationIssues().map(\.description).contains(
            "turns[2].speaker is not one of the hosts; use the name of a host: Maya or Theo"))

        var unquoted = Self.script()
        unquoted.turns[1].quote = ""
        #expect(unquoted.validationIssues().map(\.path) == ["turns[1].quote"])

        var quotingQuestion = Self.script()
        quotingQuestion.turns[0].quote = "Mitosis is how one eukaryotic cell divides."
        #expect(quotingQuestion.validationIssues().map(\.path) == ["turns[0].quote"])
    }

    @Test func theRecapIsExactlyThreePointsSpokenLastByTheExplainer() {
        var two = Self.script()
        two.recap.removeLast()
        #expect(two.validationIssues().map(\.path).contains("recap"))
        let spoken = Self.script().spokenTurns
        #expect(spoken.count == 9)
        #expect(spoken.last?.speaker == "Theo")
        #expect(spoken.last?.line.hasPrefix("To recap, three points. First: Mitosis divides") == true)
    }

    @Test func anInventedQuoteIsAnIssueAndItsTurnIsDroppedAfterTheReAsk() throws {
        var quotes = Self.script().turns.filter { $0.speaker == "Theo" }.map(\.quote)
        quotes[2] = "Anaphase is when the cell photosynthesises rapidly."
        let script = Self.script(quotes: quotes)
        #expect(Grounding.issues(in: .podcast(script), source: Self.material).map(\.path) == ["turns[5].quote"])

        // Dropping the answer and its question leaves 6: too few, so the part falls back.
        #expect(Grounding.dropUngrounded(.podcast(script), source: Self.material) == nil)

        var longer = script
        longer.turns += [.init(speaker: "Maya", line: "What happens after telophase?"),
                         .init(speaker: "Theo", line: "Cytokinesis splits the cytoplasm.", quote: "Cytokinesis then splits the cytoplasm in two.")]
        let (pruned, dropped) = try #require(Grounding.dropUngrounded(.podcast(longer), source: Self.material))
        guard case .podcast(let kept) = pruned else { Issue.record("not a podcast"); return }
        #expect(kept.turns.count == 8)
        #expect(!kept.turns.contains { $0.quote.contains("photosynthesises") || $0.line == "And in anaphase?" })
        #expect(dropped.map(\.path) == ["turns[4]", "turns[5]"])
        #expect(dropped.first?.reason == "asks the question whose answer was dropped")
        // Questions and answers still alternate.
        for (a, b) in zip(kept.turns, kept.turns.dropFirst()) { #expect(a.speaker != b.speaker) }
    }

    @Test func anOpeningThatNamesNothingIsAnIssueNoDropCanFix() {
        var script = Self.script(opening: "Hello and welcome to the show, everybody!")
        script.turns[1].line = "Here we go, then."
        #expect(Grounding.issues(in: .podcast(script), source: Self.material).map(\.path) == ["turns[0].line"])
        #expect(Grounding.dropUngrounded(.podcast(script), source: Self.material) == nil)
    }

    @Test func evalAuditsEachExplainerTurnAndRecapPoint() {
        var quotes = Self.script().turns.filter { $0.speaker == "Theo" }.map(\.quote)
        quotes[0] = "Mitosis is a kind of photosynthesis in fungi."
        let audited = Grounding.audit(.podcast(Self.script(quotes: quotes)), source: Self.material)
        #expect(audited.map(\.path) == ["turns[1]", "turns[3]", "turns[5]", "turns[7]", "recap[0]", "recap[1]", "recap[2]"])
        #expect(audited.map(\.grounded) == [false, true, true, true, true, true, true])
    }

    @Test func srtCuesParseAndTheirTimesNeverGoBack() throws {
        let context = RenderContext(sourceIdentity: "x", digest: { $0 })
        let text = SRTRenderer.render(Self.script(), context: context)
        let cues = text.components(separatedBy: "\n\n").map { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(cues.count == 9)
        var last = -1.0
        for (index, cue) in cues.enumerated() {
            #expect(cue[0] == Substring(String(index + 1)))
            let parts = cue[1].components(separatedBy: " --> ")
            let start = try #require(Self.seconds(parts[0])), end = try #require(Self.seconds(parts[1]))
            #expect(start >= last && end > start)
            last = end
            #expect(cue[2].hasPrefix(index % 2 == 0 && index < 8 ? "Maya: " : "Theo: "))
        }
        var timed = context
        timed.podcastTimes = (0..<9).map { (Double($0) * 2, Double($0) * 2 + 1.5) }
        #expect(SRTRenderer.render(Self.script(), context: timed).contains("9\n00:00:16,000 --> 00:00:17,500\nTheo: To recap"))
    }

    /// `HH:MM:SS,mmm` in seconds, `nil` when malformed.
    static func seconds(_ stamp: String) -> Double? {
        let pieces = stamp.split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Int($0) }
        guard pieces.count == 4, stamp.count == 12 else { return nil }
        return Double(pieces[0] * 3600 + pieces[1] * 60 + pieces[2]) + Double(pieces[3]) / 1000
    }
}

@Suite("Builtin podcast")
struct BuiltinPodcastTests {
    static func script(_ text: String, title: String? = nil) throws -> PodcastScript {
        guard case .podcast(let script) = try BuiltinEngine().generate(.podcast, text: text, title: title) else {
            throw BuiltinError.emptyText
        }
        return script
    }

    static func samples() throws -> [(String, String)] {
        let eval = TestPaths.packageRoot.appendingPathComponent("samples/eval")
        let names = try FileManager.default.contentsOfDirectory(atPath: eval.path).filter { $0.hasPrefix("en-") && !$0.hasSuffix(".html") }.sorted()
        return try [("photosynthesis", try BuiltinFixtures.photosynthesis())]
            + names.map { ($0, try String(contentsOf: eval.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func theShowHasItsShapeOnEverySample() throws {
        for (name, text) in try Self.samples() {
            let script = try Self.script(text)
            #expect(script.validationIssues().isEmpty, "\(name)")
            #expect(script.hosts.map(\.role) == [.curious, .explainer], "\(name)")
            #expect(PodcastScript.turnRange.contains(script.turns.count), "\(name): \(script.turns.count) turns")
            // Maya greets and asks what it is about; Theo answers; she asks for the recap last.
            #expect(script.turns[0].speaker == "Maya" && script.turns[0].line.hasPrefix("Welcome"), "\(name)")
            #expect(script.turns[1].speaker == "Theo", "\(name)")
            #expect(script.turns.last?.line.contains("three points") == true, "\(name)")
            #expect(script.recap.count == 3, "\(name)")
            // Questions and answers alternate: no host speaks twice in a row.
            for (a, b) in zip(script.turns, script.turns.dropFirst()) { #expect(a.speaker != b.speaker, "\(name)") }
            // Grounded by construction: every quote is in the material, and the line reads it out.
            #expect(Grounding.issues(in: .podcast(script), source: text).isEmpty, "\(name)")
            for turn in script.turns where turn.speaker == "Theo" {
                #expect(Grounding.alreadyQuotes(turn.line, turn.quote), "\(name): \(turn.line)")
            }
            #expect(!script.turns.contains { $0.line.contains("**") }, "\(name)")
        }
    }

    @Test func sectionsAreAskedAboutByHeadingWithoutTheirNumbers() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let questions = try Self.script(text).turns.filter { $0.speaker == "Maya" }.map(\.line)
        #expect(questions.contains { $0.contains("Calvin") })
        #expect(!questions.contains { $0.range(of: #"\b\d+\. [A-Z]"#, options: .regularExpression) != nil })
        #expect(BuiltinEngine.withoutNumbering("3.2 The Calvin cycle") == "The Calvin cycle")
        #expect(BuiltinEngine.withoutNumbering("1989 and after") == "1989 and after")
        #expect(BuiltinEngine.spokenHeading("The Terror") == "the Terror")
    }

    @Test func textWithoutHeadingsIsAskedAboutByKeyTerm() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("samples/eval/en-economics-supply-demand.txt")
        let script = try Self.script(try String(contentsOf: url, encoding: .utf8))
        let questions = script.turns.filter { $0.speaker == "Maya" }.map(\.line)
        #expect(questions.contains { $0.contains("demand curve") })
    }

    @Test func evalMeasuresThePodcastOnlyWhenAsked() async throws {
        guard case .eval(let defaults) = try parseCommand(["eval", "samples"]),
            case .eval(let asked) = try parseCommand(["eval", "samples", "--tasks", "podcast"])
        else { Issue.record("not eval"); return }
        #expect(!defaults.tasks.contains(.podcast))
        #expect(asked.tasks == [.podcast])

        let url = TestPaths.packageRoot.appendingPathComponent("samples/eval/en-biology-immune.md")
        let document = Document(text: try String(contentsOf: url, encoding: .utf8), title: nil, kind: .text, origin: "immune")
        let meter = EvalMeter(ledger: nil)
        let router = RoutingEngine(local: ScriptedModel(.local), remote: ScriptedModel(.remote), ledger: meter)
        let plan = EvalPlan(documents: [("immune", document)], tasks: [.podcast], engines: [.builtin], repeats: 1)
        let run = try #require(await Evaluator(router: router, meter: meter).run(plan).first)
        #expect(run.outcome == .firstTry, "\(run.failure ?? "")")
        #expect(run.items >= 7 && run.groundedItems == run.items)
        #expect(run.coveredSections >= 4)
    }

    /// A run-on paragraph (no sentence end for 60 words, as zlib's "def(). ret will be used …"
    /// reads) is cut into pieces for ranking; Theo never speaks a piece or a line that stops on
    /// "… after the end of".
    @Test func theoSpeaksWholeSentencesOnly() throws {
        let runOn = "Here are the local variables for def(). ret will be used for return codes. flush keeps track of the current flushing state for deflate(), which is either no flushing, or flush to completion after the end of the input file is reached, and have is the amount of data returned from deflate() while the strm structure is used to pass information to and from the routines and to maintain the deflate() state for every call."
        let text = """
            The deflate() function compresses data in chunks. Each chunk of input is handed to deflate() with a flush value. The input file is read one chunk at a time until its end.

            \(runOn)

            The inflate() function decompresses what deflate() produced. It reads the compressed stream and writes the original data. A data error is returned when the stream is incomplete.

            Compression levels trade speed for size. A higher level gives smaller output but takes longer. The default level is a good compromise for most data.
            """
        let analysis = BuiltinAnalysis(text: text, title: nil)
        let pieces = analysis.prose.filter { BuiltinEngine.isPieceOfLongerSentence($0, in: analysis) }.map { ProseText.oneLine($0.text) }
        #expect(!pieces.isEmpty, "the run-on paragraph is cut into pieces")
        let script = try Self.script(text)
        for turn in script.turns where turn.speaker == "Theo" {
            #expect(!pieces.contains(turn.quote), "\(turn.line)")
            #expect(!ProseText.isUnfinished(turn.quote), "\(turn.line)")
        }
    }

    @Test func tooLittleTextIsTooShort() {
        #expect(throws: BuiltinError.self) { try Self.script("Cells divide. They grow.") }
    }
}
