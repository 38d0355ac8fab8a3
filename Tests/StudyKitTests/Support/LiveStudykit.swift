import Foundation
import Synchronization

/// Runs the built `studykit` binary like ``StudykitBinary`` does, but asynchronously: the
/// waiting happens on threads of its own, so many runs can be in flight at once without
/// pinning Swift Testing's cooperative threads (two on a two-core machine), and a test can run
/// several processes truly at the same time.
enum LiveStudykit {
    /// Runs `studykit arguments…` with `stdin` and a clean environment (none of the developer's
    /// STUDYKIT_ variables, no config file) plus exactly `environment`; with `stdoutFile`, its
    /// stdout is that file (as `> file` makes it), and the result's stdout is empty.
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        directory: URL = TestPaths.packageRoot, stdoutFile: URL? = nil
    ) async throws -> StudykitBinary.Result {
        try await StudykitBinary.offThePool {
            try runBlocking(arguments, stdin: stdin, environment: environment, directory: directory, stdoutFile: stdoutFile)
        }
    }

    /// The same clean environment ``StudykitBinary`` builds, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STUDYKIT_") && $0.key != "OPENAI_API_KEY" }
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-e2e-no-config").path
        for (key, value) in extra { env[key] = value }
        return env
    }

    private static func runBlocking(
        _ arguments: [String], stdin: Data?, environment: [String: String], directory: URL, stdoutFile: URL?
    ) throws -> StudykitBinary.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: StudykitBinary.path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = Self.environment(environment)
        let out = Pipe(), err = Pipe(), input = Pipe()
        var file: FileHandle?
        if let stdoutFile {
            _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
            file = try FileHandle(forWritingTo: stdoutFile)
        }
        defer { try? file?.close() }
        process.standardOutput = file ?? out
        process.standardError = err
        process.standardInput = input
        try process.run()

        // Each pipe gets its own thread, so a chatty process never blocks on a full pipe.
        let collected = Mutex<(out: Data, err: Data, done: Int)>((Data(), Data(), 0))
        let finished = DispatchSemaphore(value: 0)
        if file == nil {
            Thread {
                let data = out.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { $0.out = data }
                finished.signal()
            }.start()
        } else {
            finished.signal()
        }
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            collected.withLock { $0.err = data }
            finished.signal()
        }.start()
        if let stdin {
            Thread {
                try? input.fileHandleForWriting.write(contentsOf: stdin)
                try? input.fileHandleForWriting.close()
            }.start()
        } else {
            try input.fileHandleForWriting.close()
        }
        finished.wait()
        finished.wait()
        process.waitUntilExit()
        let (outData, errData) = collected.withLock { ($0.out, $0.err) }
        return StudykitBinary.Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData, exited: Date())
    }
}

/// The `--json` envelope of a run, parsed, with the few accessors the integration tests need.
struct LiveEnvelope {
    let object: [String: Any]

    /// Parses stdout of a `--json` run; fails the test with the run's stderr when it is not JSON.
    init(_ run: StudykitBinary.Result) throws {
        guard let object = try? JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any] else {
            throw LiveEnvelopeError.notJSON(status: run.status, stdout: run.stdout, stderr: run.stderr)
        }
        self.object = object
    }

    var engine: String? { object["engine"] as? String }
    var cached: Bool? { object["cached"] as? Bool }
    var decision: String? { object["decision"] as? String }
    var fitted: [String: Any] { object["fitted"] as? [String: Any] ?? [:] }
    var fittedCut: Bool? { fitted["cut"] as? Bool }
    var keptCharacters: Int? { fitted["keptCharacters"] as? Int }
    var totalCharacters: Int? { fitted["totalCharacters"] as? Int }
    /// `(engine, reason)` of each fallback step, in order.
    var fallbacks: [(engine: String, reason: String)] {
        (object["fallbacks"] as? [[String: Any]] ?? []).map { ($0["engine"] as? String ?? "?", $0["reason"] as? String ?? "") }
    }
    /// Whether `expected` answered, or was asked and gave an answer that validation rejected
    /// (not valid JSON, off the schema, cut at the response limit, items or prose the rules
    /// refuse), so the builtin engine answered instead. Which engine is asked is the router's contract; what a small model
    /// then says differs between CPU builds, thread counts and prompt-cache states, and is not.
    func answered(by expected: String) -> Bool {
        if engine == expected { return true }
        guard engine == "builtin", let step = fallbacks.last(where: { $0.engine == expected }) else { return false }
        return step.reason.hasPrefix("the model's output") || step.reason.hasPrefix("the model's answer")
            || step.reason.contains("response limit")
    }

    /// The result re-serialized with sorted keys, so two results compare as text.
    var resultText: String? {
        guard let result = object["result"],
            let data = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

enum LiveEnvelopeError: Error, CustomStringConvertible {
    case notJSON(status: Int32, stdout: String, stderr: String)

    var description: String {
        switch self {
        case .notJSON(let status, let stdout, let stderr):
            return "studykit --json printed no JSON object (exit \(status)); stdout: \(stdout.prefix(400)); stderr: \(stderr.prefix(600))"
        }
    }
}
