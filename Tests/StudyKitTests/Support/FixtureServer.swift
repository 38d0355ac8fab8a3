import Foundation

/// Paths inside the test sources, found from this file so they work from any working directory.
enum TestPaths {
    /// `Tests/StudyKitTests`.
    static let testsRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/StudyKitTests/Fixtures`.
    static let fixtures = testsRoot.appendingPathComponent("Fixtures")
    /// The package root.
    static let packageRoot = testsRoot.deletingLastPathComponent().deletingLastPathComponent()
    /// `samples/`.
    static let samples = packageRoot.appendingPathComponent("samples")
}

/// A real HTTP server on loopback (Python's http.server with scripted routes), started per test.
///
/// Routes: files under `root`; `/api/N/…` (an OpenAI-style API failing with status N and echoing the credentials it was sent); `/redirect/N?to=/path`; `/loop`; `/status/N`; `/type/<mime>`;
/// `/plain`; `/big?bytes=N[&length=no]`; `/slow?seconds=S`; `/echo` (request as JSON).
final class FixtureServer: Sendable {
    let port: Int
    private let process: Process
    private let stdin: Pipe

    /// Starts the server serving `root` and waits until it listens.
    convenience init(root: URL = TestPaths.fixtures) throws {
        try self.init(script: "fixture_server.py", arguments: ["--root", root.path])
    }

    /// Starts another server script of `Fixtures/Server` (one that prints `PORT <n>` first and
    /// stops when its stdin closes) and waits until it listens.
    init(script name: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = TestPaths.fixtures.appendingPathComponent("Server/\(name)").path
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("PORT "),
            let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw FixtureServerError.didNotStart(String(decoding: line, as: UTF8.self))
        }
        self.port = port
        self.process = process
        self.stdin = input
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    deinit {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}

enum FixtureServerError: Error {
    case didNotStart(String)
}
