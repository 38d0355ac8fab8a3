import Foundation
import Testing
@testable import StudyKit

#if canImport(Glibc)
import Glibc
#endif

/// Issue #14, items 1, 3 and 4, through the binary against a stand-in for a hosted API
/// (`Fixtures/Server/quota_remote.py`, which counts the chat requests it is sent).
@Suite("Quota end to end (the built binary)")
struct QuotaEndToEndTests {
    /// Root ignores permissions: the binary then runs as `nobody`, for whom 0555 is read-only.
    static var launcher: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    }

    @Test func aReadOnlyCacheDirectoryKeepsRemoteClosedAndSaysSoInOneLine() async throws {
        let root = try CacheTestDirectory()
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.url.path)
        let input = root.url.appendingPathComponent("notes.md")
        try RoutingEngineTests.longDocument().text.write(to: input, atomically: true, encoding: .utf8)
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: input.path)
        let readOnly = root.url.appendingPathComponent("cache")
        try manager.createDirectory(at: readOnly, withIntermediateDirectories: true)
        try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        defer { try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
        // Nothing listens on port 9: a remote that was tried would say "unreachable"; local is
        // down too, so the builtin engine serves, at once.
        let environment = [
            "STUDYKIT_CACHE_DIR": readOnly.path, "STUDYKIT_REMOTE_URL": "http://127.0.0.1:9/v1",
            "STUDYKIT_LOCAL_URL": "http://127.0.0.1:9/v1",
            "STUDYKIT_REMOTE_DAILY_QUOTA": "50 requests",
        ]
        let result = try await StudykitBinary.run(
            ["headline", input.path, "--json", "--no-cache"], environment: environment, launcher: Self.launcher)
        #expect(result.status == 0, "local and builtin still serve: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(lines.first?.hasPrefix("studykit: the remote engine is treated as over its daily quota (50 requests per day)") == true)
        #expect(lines.first?.contains(readOnly.path) == true, "it names the ledger's place")
        // --no-cache was given: the advice is about the ledger's directory, not the cache.
        #expect(lines.first?.hasSuffix("make the cache directory writable, or set STUDYKIT_CACHE_DIR to one that is") == true)
        let envelope = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(envelope["engine"] as? String == "builtin")
        let fallbacks = try #require(envelope["fallbacks"] as? [[String: String]])
        #expect(fallbacks.first?["engine"] == "remote")
        #expect(fallbacks.first?["reason"]?.contains("usage ledger cannot be read or written") == true)
        #expect(!manager.fileExists(atPath: readOnly.appendingPathComponent(CacheLocation.fileName).path))
    }

    /// The environment of a run against `server`, with local down, so that nothing but remote
    /// and the builtin engine can answer.
    static func environment(_ server: FixtureServer, cache: URL, quota: String? = nil) -> [String: String] {
        var environment = [
            "STUDYKIT_CACHE_DIR": cache.path, "STUDYKIT_REMOTE_URL": server.url("/v1").absoluteString,
            "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192", "STUDYKIT_LOCAL_URL": "http://127.0.0.1:9/v1",
        ]
        environment["STUDYKIT_REMOTE_DAILY_QUOTA"] = quota
        return environment
    }

    /// A short document and a valid, grounded summary of it for the stand-in to answer, in a
    /// directory that lives as long as the first value.
    static func summaryFiles() throws -> (CacheTestDirectory, answer: URL, input: URL) {
        let files = try CacheTestDirectory()
        let answer = files.url.appendingPathComponent("summary.json")
        try RoutingEngineTests.summary.write(to: answer, atomically: true, encoding: .utf8)
        let input = files.url.appendingPathComponent("mitosis.txt")
        try RoutingEngineTests.document().text.write(to: input, atomically: true, encoding: .utf8)
        return (files, answer, input)
    }

    /// How many chat requests the stand-in was sent.
    static func chatCalls(_ server: FixtureServer) async throws -> Int {
        let response = try await CurlTransport().stream(HTTPRequest(url: server.url("/count")))
        var data = Data()
        for try await chunk in response.body { data.append(chunk) }
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Int])?["chat"])
    }

    @Test func anImportAgainstAProviderRefusingWithInsufficientQuotaAsksItOnce() async throws {
        let server = try FixtureServer(script: "quota_remote.py", arguments: ["--mode", "quota"])
        let cache = try CacheTestDirectory()
        let long = TestPaths.samples.appendingPathComponent("long.pdf").path
        let result = try await StudykitBinary.run(
            ["import", long, "--with-podcast", "--json", "--no-cache"], environment: Self.environment(server, cache: cache.url))
        #expect(result.status == 0, "\(result.stderr)")
        // The headline, four parts, the podcast and every item rewrite would each ask again.
        #expect(try await Self.chatCalls(server) == 1)
        let envelope = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let parts = try #require(envelope["parts"] as? [[String: Any]])
        #expect(parts.count == 6, "headline, summary, flashcards, quiz, mind map, podcast")
        #expect(parts.allSatisfy { $0["engine"] as? String == "builtin" })
    }

    @Test func fourProcessesAgainstAQuotaOfThreeMakeExactlyThreeRemoteCalls() async throws {
        let (files, answerFile, input) = try Self.summaryFiles()
        defer { withExtendedLifetime(files) {} }
        // Each answer takes three seconds, so the four processes are all in flight at once.
        let server = try FixtureServer(script: "quota_remote.py", arguments: ["--mode", "answer", "--answer", answerFile.path, "--delay", "3"])
        let cache = try CacheTestDirectory()
        let environment = Self.environment(server, cache: cache.url, quota: "3 requests")
        let engines = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let result = try await StudykitBinary.run(["summary", input.path, "--json", "--no-cache"], environment: environment)
                    let envelope = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
                    return envelope?["engine"] as? String
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(try await Self.chatCalls(server) == 3)
        #expect(engines.filter { $0 == "remote" }.count == 3)
        #expect(engines.filter { $0 == "builtin" }.count == 1)
        let ledger = try UsageLedger(path: cache.databasePath)
        #expect(try ledger.usage(engine: .remote).requests == 3)
        #expect(try ledger.heldReservations(engine: .remote) == 0)
        #expect(try ledger.requestRecords(engine: .remote).map(\.outcome) == Array(repeating: .answered, count: 3))
    }

    @Test func anEmptyReplyThenARetryCountsTheFirstRequestAsAnEstimate() async throws {
        let (files, answerFile, input) = try Self.summaryFiles()
        defer { withExtendedLifetime(files) {} }
        let server = try FixtureServer(script: "quota_remote.py", arguments: ["--mode", "drop-first", "--answer", answerFile.path])
        let cache = try CacheTestDirectory()
        let result = try await StudykitBinary.run(
            ["summary", input.path, "--json", "--no-cache"], environment: Self.environment(server, cache: cache.url, quota: "100000 tokens"))
        #expect(result.status == 0, "\(result.stderr)")
        let ledger = try UsageLedger(path: cache.databasePath)
        let records = try ledger.requestRecords(engine: .remote)
        // The dropped request, its retry, and at most the restatement of copied key points (#53),
        // which the stand-in answers with the same summary.
        #expect((2...3).contains(records.count))
        #expect(try await Self.chatCalls(server) == records.count)
        #expect(records.map(\.outcome) == [.connectionLost] + Array(repeating: .answered, count: records.count - 1))
        let dropped = try #require(records.first)
        #expect(dropped.estimated && dropped.tokensOut == StudyTask.summary.responseReserve && dropped.tokensIn > 0)
        // The stand-in reports 120 in and 60 out for every answer.
        let answers = records.count - 1
        let spent = try ledger.usage(engine: .remote)
        #expect(spent.requests == records.count)
        #expect(spent.tokensIn == 120 * answers + dropped.tokensIn && spent.tokensOut == 60 * answers + dropped.tokensOut)
    }
}
