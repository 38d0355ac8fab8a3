import Foundation
import Synchronization

/// A model server that misbehaves on purpose (`Fixtures/Server/fault_model_server.py`): one
/// that accepts connections and never answers (`.blackhole`), or one that answers discovery and
/// holds every generation open (`.slow`), saying when a generation has begun; or a llama-server
/// that reports two parallel slots and generates nothing (`.slots`); or a plain OpenAI server
/// whose `GET /openapi.json` is 5 MB without a `Content-Length` (`.bigspec`).
final class FaultModelServer: Sendable {
    enum Mode: String { case blackhole, slow, slots, bigspec }

    let port: Int
    private let process: Process
    private let stdin: Pipe
    private let output: Pipe
    private let generating = Flag()

    private final class Flag: Sendable {
        let raised = Mutex(false)
    }

    init(_ mode: Mode) throws {
        let script = TestPaths.fixtures.appendingPathComponent("Server/fault_model_server.py").path
        (process, stdin, output, port) = try LoopbackScript.start(["python3", script, "--mode", mode.rawValue])
        let output = self.output
        let generating = self.generating
        DispatchQueue.global().async {
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                if String(decoding: chunk, as: UTF8.self).contains("GENERATING") { generating.raised.withLock { $0 = true } }
            }
        }
    }

    /// The server's base URL.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Waits until a generation request has arrived (`.slow`), at most `seconds`.
    func waitForGeneration(seconds: Double) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if generating.raised.withLock({ $0 }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// ``waitForGeneration(seconds:)`` without holding a thread of the cooperative pool. A
    /// starved pool may wake it late: it looks once more before it says no.
    func generationStarted(within seconds: Double) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if generating.raised.withLock({ $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return generating.raised.withLock { $0 }
    }

    deinit {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}
