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

    /// A fresh directory `studykit-<label>-<uuid>` under the temporary directory; the caller removes it.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
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
        let script = TestPaths.fixtures.appendingPathComponent("Server/\(name)").path
        (process, stdin, _, port) = try LoopbackScript.start(["python3", script] + arguments)
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    deinit {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}

/// A loopback server script that prints "PORT <n>" on its first line once it listens and ends
/// when its stdin closes.
enum LoopbackScript {
    /// Starts `arguments` (through `/usr/bin/env`) and waits for its port.
    static func start(_ arguments: [String]) throws -> (process: Process, stdin: Pipe, stdout: Pipe, port: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
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
            let port = Int(text.dropFirst(5).prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces))
        else {
            process.terminate()
            throw FixtureServerError.didNotStart(String(decoding: line, as: UTF8.self))
        }
        return (process, input, output, port)
    }
}

enum FixtureServerError: Error {
    case didNotStart(String)
}
