import Foundation
import Testing
@testable import StudyKit

/// Issue 14, item 10: the context window at its edge, with the real tokenizer and chat template of
/// a llama-cpp-python server (SmolLM2-135M, `n_ctx` 2,048).
///
/// The content budget is measured here independently of the router: the window, less the
/// response reserve and the re-ask's room (``reaskAllowance``), less the tokens of the request
/// without its document as the server really templates it (ChatML, counted by the server's
/// tokenizer with special tokens parsed). Documents are cut to 0.99×, 1.01×, 2× and 5× that budget
/// in four scripts where characters and tokens diverge (English, Chinese, English with emoji, and
/// sections of all three). Below the budget the document must be sent whole; above it, fitted,
/// and the request the server counted (its own `usage.prompt_tokens`) plus the reserve must fit
/// the window — and fill it: the fitted document takes at least 97 % of the content budget the
/// router works to (the same less the prompt frame as counted untemplated and the
/// ``templateAllowance`` a server's template is given, computed here from those parts), with at
/// most three tokenizer calls for the whole request (the prompt, the document, the fitted prompt). The server is asked for one answer token only (``RecordingTransport``'s rewrite):
/// it reads and counts the whole prompt, and refuses one over its window, without minutes of
/// writing.
@Suite("Integration: the context window at its edge", .serialized)
struct ContextEdgeIntegrationTests {
    static let window = 2048
    static let alias = "smollm2-135m-edge"

    enum Script: String, CaseIterable {
        case latin, cjk, emoji, mixed

        var language: String { self == .cjk ? "zh" : "en" }

        /// Text far longer than twice the budget, in paragraphs and headed parts, each sentence distinct.
        func text(sentences: Int = 400) -> String {
            var paragraphs: [String] = []
            var current: [String] = []
            for index in 0..<sentences {
                if index % 30 == 0 {
                    if !current.isEmpty { paragraphs.append(current.joined(separator: " ")); current = [] }
                    paragraphs.append(heading(index / 30 + 1))
                }
                current.append(sentence(index))
                if current.count == 5 { paragraphs.append(current.joined(separator: self == .cjk ? "" : " ")); current = [] }
            }
            if !current.isEmpty { paragraphs.append(current.joined(separator: " ")) }
            return paragraphs.joined(separator: "\n\n")
        }

        private func heading(_ part: Int) -> String {
            switch self {
            case .cjk: return "第\(part)部分 光合作用"
            case .emoji: return "Part \(part) 🌿 Photosynthesis"
            case .latin, .mixed: return "Part \(part) Photosynthesis"
            }
        }

        private func sentence(_ index: Int) -> String {
            let organs = ["leaf", "root", "stem", "flower", "seed", "bud", "bark"]
            let organ = organs[index % organs.count]
            switch self {
            case .latin:
                return "Cell \(index) in the \(organ) turns light into chemical energy and stores it as sugar number \(index * 7 % 97)."
            case .cjk:
                let organsZH = ["叶", "根", "茎", "花", "种子", "芽", "树皮"]
                return "第\(index)个细胞在\(organsZH[index % organsZH.count])中把光能转化为化学能，并以第\(index * 7 % 97)号糖的形式储存。"
            case .emoji:
                let icons = ["🌱", "☀️", "🍬", "💧", "🫧", "🌻", "🍂", "👩‍🔬"]
                return "Cell \(index) \(icons[index % icons.count]) in the \(organ) turns light \(icons[(index + 3) % icons.count]) into sugar \(index * 7 % 97) \(icons[(index + 5) % icons.count])."
            case .mixed:
                return [Script.latin, .cjk, .emoji][index / 30 % 3].sentence(index)
            }
        }
    }

    struct Measured {
        var script: Script
        var fraction: Double
        var documentTokens: Int
        var budget: Int
        var sentWhole: Bool
        var promptTokens: Int?
        var limit: Int
        /// The templated request without its document, as the server counts it.
        var frameTokens: Int
        /// Tokenizer requests the router made for this document, before it sent the chat.
        var tokenizerCalls: Int
        /// The budget the router fits to: the window less reserve, re-ask room, the untemplated
        /// frame and the template allowance.
        var contentBudget: Int

        /// The share of the content budget the sent document takes, by the server's own count.
        var fill: Double? { promptTokens.map { Double($0 - frameTokens) / Double(contentBudget) } }
        /// The same share of the independently measured budget (the server's real template).
        var fillOfBudget: Double? { promptTokens.map { Double($0 - frameTokens) / Double(budget) } }
    }

    @Test func documentsAtTheEdgeAreSentWholeBelowTheBudgetAndFittedUnderTheWindowAbove() async throws {
        let server = try await OwnModelServer.start(contextSize: Self.window, alias: Self.alias)
        var measured: [Measured] = []
        do {
            measured = try await Self.measure(server: server)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        for row in measured {
            let label = "\(row.script.rawValue) at \(row.fraction)× (\(row.documentTokens) of \(row.budget) tokens)"
            if row.fraction < 1 {
                #expect(row.sentWhole, "under the budget, yet cut: \(label)")
            } else {
                #expect(!row.sentWhole, "over the budget, yet sent whole: \(label)")
            }
            let prompt = try #require(row.promptTokens, "the server counted no prompt for \(label)")
            #expect(prompt <= row.limit, "\(prompt) prompt tokens leave less than the reserve in the window: \(label)")
            let fill = try #require(row.fill)
            #expect(row.tokenizerCalls <= 3, "\(row.tokenizerCalls) tokenizer calls: \(label)")
            if !row.sentWhole {
                #expect(fill >= 0.97, "the fitted document fills \(fill) of its budget: \(label)")
            }
            print(
                "context-edge: \(label): sent \(row.sentWhole ? "whole" : "fitted"), server counted \(prompt) prompt tokens, limit \(row.limit), "
                    + "fill \((fill * 1000).rounded() / 10) % of \(row.contentBudget) (\(((row.fillOfBudget ?? 0) * 1000).rounded() / 10) % of \(row.budget)), "
                    + "\(row.tokenizerCalls) tokenizer calls")
        }
        let fills = measured.filter { !$0.sentWhole }.compactMap(\.fill).sorted()
        #expect(fills.count == Script.allCases.count * 3)
        if !fills.isEmpty {
            print("context-edge: fitted fill, median \(fills[fills.count / 2]), lowest \(fills[0]), highest \(fills[fills.count - 1])")
        }
        #expect(measured.count == Script.allCases.count * 4)
    }

    /// Runs every script at every fraction through the router and reads what the server counted.
    static func measure(server: OwnModelServer) async throws -> [Measured] {
        let recorder = RecordingTransport(rewrite: RecordingTransport.cappingResponseTokens(at: 1))
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: server.url)!, model: alias, contextSize: window, contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE",
            languages: .any)
        let engine = OpenAICompatibleEngine(kind: .local, endpoint: endpoint, deadline: 600, transport: recorder)
        let router = RoutingEngine(local: engine, remote: UnconfiguredEngine(kind: .remote, reason: "not in this test"))
        let task = StudyTask.headline
        let reserve = task.responseReserve + reaskAllowance
        func count(_ text: String) async throws -> Int {
            let counted = try await engine.tokenCount(for: text)
            try #require(counted.method == .exact, "the server's tokenizer was not used")
            return counted.count
        }
        // ChatML, as llama-cpp-python renders SmolLM2's template (checked below against the server's own count).
        func templated(system: String, user: String) -> String {
            "<|im_start|>system\n\(system)<|im_end|>\n<|im_start|>user\n\(user)<|im_end|>\n<|im_start|>assistant\n"
        }

        var rows: [Measured] = []
        var maximumReask = 0
        defer { print("context-edge: the largest re-ask with its reserve took \(maximumReask) of \(window) tokens") }
        for script in Script.allCases {
            let frame = templated(
                system: task.instructions,
                user: task.prompt(document: "", title: nil, concept: nil, explanation: nil, language: script.language))
            let frameTokens = try await count(frame)
            let budget = window - reserve - frameTokens
            let untemplated = try await count(
                task.instructions + "\n" + task.prompt(document: "", title: nil, concept: nil, explanation: nil, language: script.language))
            let contentBudget = window - reserve - untemplated - templateAllowance
            let long = script.text(sentences: 1_400)
            for fraction in [0.99, 1.01, 2.0, 5.0] {
                let target = Int((Double(budget) * fraction).rounded(.down))
                let text = try await prefix(of: long, tokens: target, count: count)
                let documentTokens = try await count(text)
                let document = Document(text: text, title: nil, kind: .text, origin: "edge", language: script.language)
                recorder.reset()
                _ = try? await router.run(RoutingRequest(task: task, document: document, engine: .local, useCache: false))
                let chat = try #require(recorder.chats.first, "\(script) at \(fraction)×: no chat request was sent")
                let user = chat.messages.first { $0.role == "user" }?.content ?? ""
                let promptTokens = chat.responseJSON?["usage"]?["prompt_tokens"]?.integerValue
                // The independent measure is the server's: its template is ChatML.
                if let promptTokens, let system = chat.messages.first(where: { $0.role == "system" })?.content {
                    let recount = try await count(templated(system: system, user: user))
                    #expect(abs(recount - promptTokens) <= 1, "ChatML recount \(recount) vs the server's \(promptTokens)")
                }
                // A re-ask appends feedback; quoting this script's own text at its worst, the
                // re-asked prompt must still leave the response reserve free.
                if let system = chat.messages.first(where: { $0.role == "system" })?.content {
                    let quoted = String(text.prefix(60))
                    let issues = (0..<12).map { _ in ValidationIssue(path: "title", message: "is \"\(quoted)\", which is not a title of the material") }
                    let reasked = user + "\n\n" + SchemaError.invalid(issues).feedback(maximumTokens: reaskFeedbackTokens)
                    let reaskTokens = try await count(templated(system: system, user: reasked))
                    #expect(reaskTokens + task.responseReserve <= window, "\(script) at \(fraction)×: the re-ask needs \(reaskTokens) + \(task.responseReserve)")
                    maximumReask = max(maximumReask, reaskTokens + task.responseReserve)
                }
                rows.append(Measured(
                    script: script, fraction: fraction, documentTokens: documentTokens, budget: budget,
                    sentWhole: user.contains(TaskPrompt.neutralised(text)), promptTokens: promptTokens, limit: window - reserve,
                    frameTokens: frameTokens,
                    tokenizerCalls: recorder.exchanges.prefix { !$0.isChat }.filter { $0.request.url.path.contains("/tokenize") }.count,
                    contentBudget: contentBudget))
            }
        }
        return rows
    }

    /// The longest prefix of `text` (whole characters) whose token count is at most `tokens`.
    static func prefix(of text: String, tokens: Int, count: (String) async throws -> Int) async throws -> String {
        let characters = Array(text)
        var low = 0, high = characters.count
        while low < high {
            let middle = (low + high + 1) / 2
            if try await count(String(characters[..<middle])) <= tokens { low = middle } else { high = middle - 1 }
        }
        return String(characters[..<low]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
