import Foundation
import Testing
@testable import StudyKit

/// Issue 14, item 12: secrets end to end. The built binary runs every command, with `--verbose`
/// and `--json` where the command has them, with a canary API key in `STUDYKIT_REMOTE_API_KEY`
/// and on the failure paths: remote down, 401 and 429 from a hostile API that echoes the
/// credentials it was sent (header and URL) in its error messages, a bad URL, and keys inside
/// the URL (`https://user:key@host`, `?api_key=`, `?key=`). Nothing the process prints (stdout,
/// stderr) and no file it leaves in its cache directory (the SQLite cache, ledger and discovery
/// records, their journals) may contain a canary.
@Suite("End to end: no secret leaves the process")
struct SecretsEndToEndTests {
    static let keyCanary = "sk-canary-K3Y-9f7d2c41"
    static let urlCanary = "url-canary-P4SS-5b8e1a"
    static let paste = "samples/paste.txt"

    /// Every command, as a student would run it, most with `--json` and `--verbose`.
    static let commands: [[String]] = [
        ["cache", "clear"],
        ["text", paste, "--verbose"],
        ["headline", paste, "--json", "--verbose"],
        ["headline", paste, "--verbose"],
        ["feynman", paste, "--concept", "photosynthesis", "--explanation", "Plants make sugar from light.", "--json", "--verbose"],
        ["summary", paste, "--json", "--verbose"],
        ["flashcards", paste, "--json", "--verbose"],
        ["quiz", paste, "--json", "--verbose"],
        ["mindmap", paste, "--json", "--verbose"],
        ["podcast", paste, "--json", "--verbose"],
        ["import", paste, "--json", "--verbose"],
        ["summary", paste, "--engine", "remote", "--json", "--verbose"],
        ["route", "summary", "--chars", "5000", "--verbose"],
        ["route", "summary", paste, "--explain", "--json", "--verbose"],
        ["route", "summary", paste, "--explain", "--verbose"],
        ["engines", "--json", "--verbose"],
        ["engines", "--refresh", "--verbose"],
        ["schema", "quiz", "--verbose"],
        ["eval", paste, "--tasks", "headline", "--engines", "builtin,remote", "--json", "--verbose"],
        ["cache", "stats", "--verbose"],
    ]

    struct Scenario: Sendable {
        var name: String
        var remoteURL: String
        /// Whether configuration itself is refused (exit 64 for commands that read it).
        var badConfiguration = false
    }

    static func scenarios(api: FixtureServer) throws -> [Scenario] {
        let closed = try LoopbackPorts.closedURL()
        let port = api.port
        return [
            Scenario(name: "remote down", remoteURL: closed + "/v1"),
            Scenario(name: "401", remoteURL: "http://127.0.0.1:\(port)/api/401/v1"),
            Scenario(name: "429 insufficient_quota", remoteURL: "http://127.0.0.1:\(port)/api/429/v1"),
            Scenario(name: "user:key@ in the URL, down", remoteURL: closed.replacingOccurrences(of: "//", with: "//student:\(urlCanary)@") + "/v1"),
            Scenario(name: "user:key@ in the URL, 401", remoteURL: "http://student:\(urlCanary)@127.0.0.1:\(port)/api/401/v1"),
            Scenario(name: "?api_key= in the URL, 401", remoteURL: "http://127.0.0.1:\(port)/api/401/v1?api_key=\(urlCanary)"),
            Scenario(name: "?key= in the URL, 429", remoteURL: "http://127.0.0.1:\(port)/api/429/v1?key=\(urlCanary)"),
            Scenario(name: "bad URL with a key in it", remoteURL: "htp://student:\(urlCanary)@exa mple.com/v1?api_key=\(urlCanary)", badConfiguration: true),
        ]
    }

    struct Finding: CustomStringConvertible {
        var scenario: String
        var command: String
        var place: String
        var description: String { "\(scenario): studykit \(command): canary in \(place)" }
    }

    @Test func noCanaryKeyInOutputOrCacheFilesOnAnyCommandOrFailurePath() async throws {
        let api = try FixtureServer()
        var findings: [Finding] = []
        var runs = 0
        var echoedAndMasked = 0
        for scenario in try Self.scenarios(api: api) {
            let cache = try ScratchDirectory("secrets")
            let environment = [
                "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048",
                "STUDYKIT_REMOTE_URL": scenario.remoteURL, "STUDYKIT_REMOTE_API_KEY": Self.keyCanary,
                "STUDYKIT_REMOTE_MODEL": "canary-model", "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192",
                "STUDYKIT_CACHE_DIR": cache.url.path, "STUDYKIT_DEADLINE": "20",
            ]
            for command in Self.commands {
                let run = try await StudykitBinary.run(command, environment: environment)
                runs += 1
                let shown = command.joined(separator: " ")
                #expect(run.status != 64 || scenario.badConfiguration, "\(scenario.name): studykit \(shown) was refused as usage: \(run.stderr)")
                for canary in [Self.keyCanary, Self.urlCanary] {
                    if run.stdout.contains(canary) { findings.append(Finding(scenario: scenario.name, command: shown, place: "stdout")) }
                    if run.stderr.contains(canary) { findings.append(Finding(scenario: scenario.name, command: shown, place: "stderr")) }
                }
                if run.stderr.contains("<redacted>") || run.stdout.contains("<redacted>") { echoedAndMasked += 1 }
            }
            for file in Self.files(under: cache.url) {
                let bytes = try Data(contentsOf: file)
                for canary in [Self.keyCanary, Self.urlCanary] where bytes.range(of: Data(canary.utf8)) != nil {
                    findings.append(Finding(scenario: scenario.name, command: "(all)", place: file.lastPathComponent))
                }
            }
            #expect(!Self.files(under: cache.url).isEmpty || scenario.badConfiguration, "\(scenario.name): no cache files were written to scan")
        }
        #expect(findings.isEmpty, "\(findings.count) leaks: \(findings.map(\.description).joined(separator: "; "))")
        // The hostile API echoed the credentials, so masking was really exercised.
        #expect(echoedAndMasked > 0, "no run showed a masked secret: the hostile API's echo never reached the output")
        print("secrets: \(runs) runs over \(Self.commands.count) commands and \(try Self.scenarios(api: api).count) scenarios; \(findings.count) leaks; \(echoedAndMasked) runs showed <redacted>")
    }

    /// The path that works: a real server (llama-cpp-python) that requires the canary key. The
    /// key is sent and accepted; it is still nowhere in what the process prints or stores.
    @Test func noCanaryKeyWhenTheRemoteServerAcceptsIt() async throws {
        let server = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-secrets", apiKey: Self.keyCanary)
        let cache = try ScratchDirectory("secrets-ok")
        var environment = try server.studykitEnvironment(local: false, remote: true, cache: cache.url)
        environment["STUDYKIT_REMOTE_URL"] = server.url.replacingOccurrences(of: "//", with: "//student:\(Self.urlCanary)@") + "/v1"
        var leaks: [String] = []
        var headlineStatus: Int32 = -1
        for command in [
            ["headline", Self.paste, "--engine", "remote", "--json", "--verbose"], ["engines", "--json", "--verbose"],
            ["route", "headline", Self.paste, "--explain", "--json", "--verbose"], ["cache", "stats", "--verbose"],
        ] {
            let run = try await StudykitBinary.run(command, environment: environment)
            if command[0] == "headline" { headlineStatus = run.status }
            for canary in [Self.keyCanary, Self.urlCanary] where run.stdout.contains(canary) || run.stderr.contains(canary) {
                leaks.append(command.joined(separator: " "))
            }
        }
        // The server answered a generation, so it accepted the key (it refuses others with 401).
        let generations = server.requests(matching: "\"POST /v1/chat/completions")
        await server.stop()
        for file in Self.files(under: cache.url) {
            let bytes = try Data(contentsOf: file)
            for canary in [Self.keyCanary, Self.urlCanary] where bytes.range(of: Data(canary.utf8)) != nil { leaks.append(file.lastPathComponent) }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        #expect(generations > 0, "the remote server generated nothing with the canary key: the success path was not exercised")
        #expect(headlineStatus == 0 || headlineStatus == 69, "headline ended with \(headlineStatus)")
    }

    /// Every regular file under `directory`, recursively.
    static func files(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
    }
}
