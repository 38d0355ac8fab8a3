import Foundation
import Testing
@testable import StudyKit

/// `--stream` on a real terminal: the built binary runs in a tmux pane of 40, 80 and 120
/// columns against our own model server, and the pane (with its history) is captured after the
/// run. No copy of the preview stays on the screen or scrolled above it, and what is left is
/// exactly what a piped run prints (read back from the cache: the same result).
@Suite("Integration: the live preview in tmux", .serialized)
struct LivePreviewTmuxTests {
    @Test func thePreviewRedrawsInPlaceAndLeavesOnlyTheFinalRendering() async throws {
        let server = try await OwnModelServer.start(contextSize: 8192, alias: "smollm2-135m-own")
        var failures: [String] = []
        for columns in [40, 80, 120] {
            do {
                failures += try await Self.check(columns: columns, rows: 30, server: server)
            } catch {
                failures.append("\(columns) columns: \(error)")
            }
        }
        await server.stop()
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Runs `summary samples/paste.txt --stream` in a pane of `columns` × `rows`; returns what is wrong.
    private static func check(columns: Int, rows: Int, server: OwnModelServer) async throws -> [String] {
        let cache = try ScratchDirectory()
        let closed = try LoopbackPorts.closedURL()
        // summary prefers remote: the server is remote, local is down.
        let environment = StudykitBinary.environment([
            "STUDYKIT_REMOTE_URL": server.url, "STUDYKIT_REMOTE_API_KEY": "unused", "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192",
            "STUDYKIT_REMOTE_MODEL": server.alias, "STUDYKIT_LOCAL_URL": closed, "STUDYKIT_CACHE_DIR": cache.url.path,
            "STUDYKIT_DEADLINE": "300",
            // Three runs of the same job: the capability memory would skip the model on the
            // third after two answers that failed the item rules, leaving nothing to preview.
            "STUDYKIT_SKIP_AFTER_FAILURES": "0",
        ])
        // `--budget 900` below: on a loaded machine the time policy would skip the model whose
        // expected duration (measured speeds) no longer fits the default budget, leaving nothing to preview.
        let marker = "__studykit_exit_"
        let script = cache.url.appendingPathComponent("run.sh")
        let exports = environment.filter { $0.key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
            .map { "export \($0.key)=\(shellQuoted($0.value))" }.sorted().joined(separator: "\n")
        try """
            \(exports)
            cd \(shellQuoted(TestPaths.packageRoot.path))
            \(shellQuoted(StudykitBinary.path)) summary samples/paste.txt --stream --budget 900
            echo "\(marker)$?"
            sleep 600
            """.write(to: script, atomically: true, encoding: .utf8)

        // The socket in the scratch directory: nothing is left in tmux's own folder.
        let tmux = Tmux(socket: cache.url.appendingPathComponent("tmux.sock").path)
        do {
            let failures = try await check(columns: columns, rows: rows, in: tmux, script: script, marker: marker, environment: environment)
            await tmux.killServer()
            return failures
        } catch {
            await tmux.killServer()
            throw error
        }
    }

    private static func check(
        columns: Int, rows: Int, in tmux: Tmux, script: URL, marker: String, environment: [String: String]
    ) async throws -> [String] {
        try await tmux.run(["-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "-s", "preview", "bash \(script.path)"])
        // Bounded wait for the run to finish (generation on a busy machine can take a while).
        var screen = ""
        for _ in 0..<1_200 {
            screen = try await tmux.run(["capture-pane", "-p", "-t", "preview"])
            if screen.contains(marker) { break }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        guard screen.contains(marker) else { return ["\(columns) columns: the run did not finish; the pane shows:\n\(screen)"] }
        // The history and the screen, with wrapped rows joined into their lines.
        let captured = try await tmux.run(["capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", "preview"])

        let piped = try await StudykitBinary.run(["summary", "samples/paste.txt", "--budget", "900"], environment: environment)
        var failures: [String] = []
        let lines = captured.split(separator: "\n", omittingEmptySubsequences: false).map { trimmedEnd(String($0)) }
        guard let markerIndex = lines.firstIndex(where: { $0.hasPrefix(marker) }) else { return ["\(columns) columns: no exit marker"] }
        if lines[markerIndex] != marker + "0" { failures.append("\(columns) columns: exit \(lines[markerIndex]); pane:\n\(captured)") }
        let onScreen = Array(lines[..<markerIndex])
        let expected = piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { trimmedEnd(String($0)) }
        if piped.status != 0 { failures.append("\(columns) columns: the piped run failed: \(piped.stderr)") }
        if onScreen != expected {
            failures.append("\(columns) columns: the pane is not the piped output.\n--- pane\n\(onScreen.joined(separator: "\n"))\n--- piped\n\(expected.joined(separator: "\n"))")
        }
        // The preview's outline ("overview: …", "keyPoints:") is not the final rendering's.
        for stale in ["overview:", "keyPoints:", "studykit:"] where onScreen.contains(where: { $0.contains(stale) }) {
            failures.append("\(columns) columns: \"\(stale)\" stayed on the screen:\n\(captured)")
        }
        // There was a preview to draw: the model streamed an answer. Whether the answer passed
        // (then it is cached) or failed the item rules twice (then builtin's summary is the
        // final rendering, and the piped run got there the same way) does not matter here.
        // An answer stopped because it started repeating itself was streamed too.
        let json = try await StudykitBinary.run(["summary", "samples/paste.txt", "--json", "--budget", "900"], environment: environment)
        let envelope = try LiveEnvelope(json)
        let streamed = envelope.engine == "remote"
            || envelope.fallbacks.contains { $0.engine == "remote" && ($0.reason.contains("answer") || $0.reason.contains("repeating")) }
        if !streamed {
            failures.append("\(columns) columns: the model gave no answer to preview: \(envelope.engine ?? "?") \(envelope.fallbacks)")
        }
        return failures
    }

    private static func trimmedEnd(_ text: String) -> String {
        var text = text
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    private static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// tmux on a socket of its own, so no session of the developer's is touched.
struct Tmux {
    /// The path of the server's socket (`tmux -S`).
    let socket: String

    /// Runs `tmux -S socket arguments…` on a thread of its own (as ``StudykitBinary`` runs the
    /// binary): waiting for a process on one of Swift Testing's cooperative threads can hang.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    continuation.resume(returning: try runBlocking(arguments))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    private func runBlocking(_ arguments: [String]) throws -> String {
        let process = Process()
        // The tmux server that `new-session` starts inherits the client's open descriptors,
        // among them the one Foundation watches to learn that the client exited, and the test
        // process's blocked signals, among them SIGTERM, which `kill-server` sends the server.
        // Both are reset first, or waiting for the client lasts as long as the server, and the
        // server (and its pane) outlive the test.
        let reset = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.closerange(3, 65536); "
            + "os.execvp('tmux', ['tmux'] + sys.argv[1:])"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", reset, "-S", socket] + arguments
        // A file, not a pipe: the server would keep a pipe open as long as it runs.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-tmux-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else { throw TmuxError.failed(arguments, text) }
        return text
    }

    func killServer() async { _ = try? await run(["kill-server"]) }
}

enum TmuxError: Error, CustomStringConvertible {
    case failed([String], String)

    var description: String {
        switch self {
        case .failed(let arguments, let output):
            return "tmux \(arguments.joined(separator: " ")) failed: \(output); is tmux installed (scripts/setup installs it)?"
        }
    }
}
