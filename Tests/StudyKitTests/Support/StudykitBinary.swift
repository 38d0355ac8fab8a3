import Foundation

/// Runs the built `studykit` executable as a separate process, the way a user does.
struct StudykitBinary {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        let stdoutData: Data
        /// When the process was seen to exit, on the thread that waited for it: a test timing
        /// the binary measures to this, not to when its own task next got a thread.
        let exited: Date
    }

    /// The debug binary `swift build --build-tests` produces (override with `STUDYKIT_BINARY`).
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["STUDYKIT_BINARY"] { return path }
        return TestPaths.packageRoot.appendingPathComponent(".build/debug/studykit").path
    }

    /// Runs `studykit arguments…` with `stdin` and an environment made of the process's own
    /// (minus any STUDYKIT_ variables, so the developer's configuration never leaks in) plus
    /// `environment`; through `launcher` (a program and its arguments, e.g. `setpriv …`) if given.
    /// With `stdoutFile`, stdout is that file (as `> file` makes it) and the result's stdout is empty.
    ///
    /// The process is waited for on a thread of its own, never on one of Swift Testing's
    /// cooperative threads: a two-core machine has two, and a test blocked on a minute-long
    /// run would hold one of them (and every scripted test queued behind it) for that minute.
    static func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        directory: URL = TestPaths.packageRoot, launcher: [String] = [], stdoutFile: URL? = nil
    ) async throws -> Result {
        let running = try start(
            arguments, stdin: stdin, environment: environment, directory: directory, launcher: launcher, stdoutFile: stdoutFile)
        return await running.finished()
    }

    /// The environment every run gets: the process's own minus any STUDYKIT_ variables and
    /// `OPENAI_API_KEY` (the developer's configuration never leaks in), no config file, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STUDYKIT_") && $0.key != "OPENAI_API_KEY" }
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-e2e-no-config").path
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs `body` on a new thread and resumes with its value, so blocking work (a process, a
    /// pipe read to its end) never holds a cooperative thread.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// A started `studykit` process: signal it with `process.processIdentifier`, then ``wait()``.
    struct Running: @unchecked Sendable {
        let process: Process
        /// Nil when stdout goes to a file.
        let out: Pipe?
        let err: Pipe
        /// The stdout file, closed once the process has exited.
        let outFile: FileHandle?

        /// ``wait()`` on a thread of its own (see ``StudykitBinary/run(_:stdin:environment:directory:launcher:stdoutFile:)``).
        func finished() async -> Result {
            let running = self
            return await StudykitBinary.offThePool { running.wait() }
        }

        /// Reads both pipes to their end and waits for the process.
        func wait() -> Result {
            let (outData, errData) = StudykitBinary.readToEnd(process, out: out, err: err)
            try? outFile?.close()
            return Result(
                status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData, exited: Date())
        }
    }

    /// Starts `studykit arguments…` as ``run(_:stdin:environment:directory:launcher:stdoutFile:)`` does, without waiting.
    static func start(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        directory: URL = TestPaths.packageRoot, launcher: [String] = [], stdoutFile: URL? = nil
    ) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? path)
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [path] + arguments
        process.currentDirectoryURL = directory
        process.environment = Self.environment(environment)
        let err = Pipe(), input = Pipe()
        var out: Pipe?, outFile: FileHandle?
        if let stdoutFile {
            _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
            outFile = try FileHandle(forWritingTo: stdoutFile)
            process.standardOutput = outFile
        } else {
            out = Pipe()
            process.standardOutput = out
        }
        process.standardError = err
        process.standardInput = input
        do { try process.run() } catch { try? outFile?.close(); throw error }
        if let stdin {
            DispatchQueue.global().async {
                try? input.fileHandleForWriting.write(contentsOf: stdin)
                try? input.fileHandleForWriting.close()
            }
        } else {
            try input.fileHandleForWriting.close()
        }
        return Running(process: process, out: out, err: err, outFile: outFile)
    }

    /// Both pipes read to their end (stdout's only when it is a pipe), concurrently so a chatty
    /// process never blocks on a full pipe, then the process waited for.
    static func readToEnd(_ process: Process, out: Pipe?, err: Pipe) -> (out: Data, err: Data) {
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        if let out {
            group.enter()
            DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.wait()
        process.waitUntilExit()
        return (outData, errData)
    }
}
