import Foundation
import Synchronization

/// How fast a server read prompts and wrote answers in this process, measured on its streamed
/// answers (#53): the seconds until the first token came are the prompt's (the connection
/// included), the seconds after it the answer's, at one token per content event (how llama.cpp's
/// servers stream). A part's time is then estimated from the server's own two speeds, where a rate
/// lumped over a short headline counts its prompt and latency against each of its few tokens
/// (Qwen2.5-Coder-1.5B on 2 threads: a kit expected to take 292 s from its headline's rate).
///
/// The slowest of each is kept: a prompt whose start the server had cached (a re-ask, an item
/// job's instructions) reads fast, and must not make a whole part's prompt look fast.
final class ServerSpeedMeter: Sendable {
    /// An answer measures the prompt only from this many prompt tokens: a shorter one is mostly latency.
    static let minimumPromptTokens = 64
    /// An answer measures the writing only from this many tokens.
    static let minimumAnswerTokens = 16

    private let slowest = Mutex<GenerationSpeed?>(nil)

    /// Records one streamed answer: `promptTokens` read in the `untilFirstToken` seconds before
    /// its first token, then `answerTokens` written in the `writing` seconds after it.
    func record(promptTokens: Int, untilFirstToken: Double, answerTokens: Int, writing: Double) {
        guard promptTokens >= Self.minimumPromptTokens, answerTokens >= Self.minimumAnswerTokens,
            untilFirstToken > 0, writing > 0
        else { return }
        let measured = GenerationSpeed(
            promptTokensPerSecond: Double(promptTokens) / untilFirstToken,
            decodeTokensPerSecond: Double(answerTokens - 1) / writing)
        slowest.withLock { speed in
            guard let known = speed else {
                speed = measured
                return
            }
            speed = GenerationSpeed(
                promptTokensPerSecond: min(known.promptTokensPerSecond, measured.promptTokensPerSecond),
                decodeTokensPerSecond: min(known.decodeTokensPerSecond, measured.decodeTokensPerSecond))
        }
    }

    /// The slowest speeds measured so far; `nil` before an answer long enough to tell.
    var speed: GenerationSpeed? { slowest.withLock { $0 } }
}
