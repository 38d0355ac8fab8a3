import StudyKit
import Synchronization

/// Forwards to a real engine, counting the tokenizer calls made through it, and stops a job
/// at the moment it would generate, keeping the request that would have been sent.
///
/// Stopping there lets the benchmark run the router's own budget check and fitting (which
/// are not public on their own) against a real tokenizer without paying for a generation.
final class CountingEngine: LanguageModel {
    /// Tokenizer traffic seen so far.
    struct Counts: Sendable {
        var tokenCount = 0
        var tokenize = 0
        var detokenize = 0
        /// Characters sent to the tokenizer, all calls together.
        var characters = 0

        var calls: Int { tokenCount + tokenize + detokenize }
    }

    /// Thrown by `respond` so the router stops before any generation.
    struct Stopped: Error {}

    private let base: any LanguageModel
    private let state = Mutex<(counts: Counts, request: GenerationRequest?)>((Counts(), nil))

    init(_ base: any LanguageModel) { self.base = base }

    /// Counts so far, and the request the router would have sent, if it got that far.
    var snapshot: (counts: Counts, request: GenerationRequest?) { state.withLock { $0 } }

    var kind: EngineKind { base.kind }
    var modelName: String { base.modelName }
    func availability() async -> Availability { await base.availability() }
    func contextSize() async throws -> ContextWindow { try await base.contextSize() }

    func tokenCount(for text: String) async throws -> TokenCount {
        state.withLock { $0.counts.tokenCount += 1; $0.counts.characters += text.count }
        return try await base.tokenCount(for: text)
    }

    func tokenize(_ text: String) async throws -> [Int]? {
        state.withLock { $0.counts.tokenize += 1; $0.counts.characters += text.count }
        return try await base.tokenize(text)
    }

    func detokenize(_ tokens: [Int]) async throws -> String? {
        state.withLock { $0.counts.detokenize += 1 }
        return try await base.detokenize(tokens)
    }

    func templateTokens() async throws -> Int? { try await base.templateTokens() }

    func respond(to request: GenerationRequest) async throws -> RawResponse {
        state.withLock { $0.request = request }
        throw Stopped()
    }
}
