import Foundation
import Testing
@testable import StudyKit

/// Issue 14, item 12: a key inside a URL is masked in every error and fallback reason.
@Suite("URL credentials are never shown")
struct URLCredentialsTests {
    @Test(arguments: [
        ("https://student:s3cret-key@api.example.com/v1", "https://student:<redacted>@api.example.com/v1"),
        ("https://sk-s3cret-key@api.example.com/v1", "https://<redacted>@api.example.com/v1"),
        ("https://s3cret-key0123456789@api.example.com/v1", "https://<redacted>@api.example.com/v1"),
        ("https://api.example.com/v1?api_key=s3cret-key", "https://api.example.com/v1?api_key=<redacted>"),
        ("https://api.example.com/v1?key=s3cret-key&model=m", "https://api.example.com/v1?key=<redacted>&model=m"),
        ("https://api.example.com/v1?model=m&API-KEY=s3cret-key", "https://api.example.com/v1?model=m&API-KEY=<redacted>"),
        ("https://api.example.com/v1?access_token=s3cret-key#top", "https://api.example.com/v1?access_token=<redacted>#top"),
        ("the remote engine at http://u:s3cret-key@127.0.0.1:9/v1 is unreachable (refused)", "the remote engine at http://u:<redacted>@127.0.0.1:9/v1 is unreachable (refused)"),
        ("'htp://u:s3cret-key@exa mple.com/?key=s3cret-key' is not valid", "'htp://u:<redacted>@exa mple.com/?key=<redacted>' is not valid"),
    ])
    func credentialsAreMasked(text: String, expected: String) {
        #expect(URLCredentials.redacted(in: text) == expected)
        #expect(!URLCredentials.redacted(in: text).contains("s3cret-key"))
    }

    @Test(arguments: [
        "http://127.0.0.1:8391/v1", "https://example.com/page?id=7&lang=en", "write to ada@example.com", "x = 3 and y = 4",
        "http://127.0.0.1@evil.com:8080",
    ])
    func textWithoutCredentialsIsUnchanged(text: String) {
        #expect(URLCredentials.redacted(in: text) == text)
    }

    @Test func aBadURLSettingIsQuotedWithoutItsKey() {
        let error = EngineError.invalidConfiguration(
            key: "STUDYKIT_REMOTE_URL", value: "htp://u:s3cret-key@host/v1?api_key=s3cret-key", reason: "give an http(s) URL")
        #expect(!error.message.contains("s3cret-key"))
        #expect(error.message.contains("STUDYKIT_REMOTE_URL"))
    }

    /// A real connection refused on a URL carrying a key: the unavailable reason (which becomes a
    /// fallback step and the `engines` line) names the server without the key.
    @Test func anUnreachableServerIsNamedWithoutTheKeyInItsURL() async throws {
        let closed = try LoopbackPorts.closedURL()
        for url in [closed.replacingOccurrences(of: "//", with: "//student:s3cret-key@") + "/v1", closed + "/v1?api_key=s3cret-key"] {
            let endpoint = EngineConfiguration.Endpoint(
                url: URL(string: url)!, model: "m", contextSize: 8192, contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE",
                apiKey: APIKey("another-key"), apiKeySetting: "STUDYKIT_REMOTE_API_KEY")
            let engine = OpenAICompatibleEngine(kind: .remote, endpoint: endpoint, deadline: 5)
            guard case .unavailable(let reason) = await engine.availability() else {
                Issue.record("a closed port answered")
                continue
            }
            #expect(!reason.contains("s3cret-key"), "\(reason)")
            #expect(reason.contains("<redacted>"), "\(reason)")
            #expect(!engine.identity.contains("s3cret-key"))
            #expect(!OpenAICompatibleEngine.discoveryKey(for: endpoint).contains("s3cret-key"))
        }
    }
}
