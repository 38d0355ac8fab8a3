import Foundation
import Testing
@testable import StudyKit

#if canImport(Glibc)
import Glibc
#endif

/// Issue #14, item 3, through the binary: a daily quota with a ledger that cannot be opened
/// fails closed, and says so in one line.
@Suite("Quota end to end (the built binary)")
struct QuotaEndToEndTests {
    /// Root ignores permissions: the binary then runs as `nobody`, for whom 0555 is read-only.
    static var launcher: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    }

    @Test func aReadOnlyCacheDirectoryKeepsRemoteClosedAndSaysSoInOneLine() throws {
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
        let result = try StudykitBinary.run(
            ["headline", input.path, "--json", "--no-cache"], environment: environment, launcher: Self.launcher)
        #expect(result.status == 0, "local and builtin still serve: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(lines.first?.hasPrefix("studykit: the remote engine is treated as over its daily quota (50 requests per day)") == true)
        #expect(lines.first?.contains(readOnly.path) == true, "it names the ledger's place")
        let envelope = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(envelope["engine"] as? String == "builtin")
        let fallbacks = try #require(envelope["fallbacks"] as? [[String: String]])
        #expect(fallbacks.first?["engine"] == "remote")
        #expect(fallbacks.first?["reason"]?.contains("usage ledger cannot be read or written") == true)
        #expect(!manager.fileExists(atPath: readOnly.appendingPathComponent(CacheLocation.fileName).path))
    }
}
