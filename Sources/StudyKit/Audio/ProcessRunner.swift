import Foundation

/// What an external program did.
struct ProcessOutcome: Sendable, Equatable {
    /// The exit status.
    var status: Int32
    /// Its standard output, as text.
    var output: String
    /// Its standard error, as text (for messages).
    var errorText: String
}

/// The one seam through which studykit runs external programs (`espeak-ng`, `sox`, `soxi`), so
/// tests can check the argument lists without making any sound.
protocol ProcessRunning: Sendable {
    /// The full path of `program` on the `PATH`, or `nil` when it is not installed.
    func locate(_ program: String) -> String?
    /// Runs `executable` (a full path) with `arguments` and waits for it.
    func run(_ executable: String, _ arguments: [String]) async throws(AudioError) -> ProcessOutcome
}

/// Runs programs with Foundation's `Process`, searching `PATH`.
struct SystemProcessRunner: ProcessRunning {
    /// The search path (`PATH` of the environment studykit was started in).
    let searchPath: String

    init(environment: [String: String]) {
        searchPath = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    }

    func locate(_ program: String) -> String? {
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let path = directory + "/" + program
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func run(_ executable: String, _ arguments: [String]) async throws(AudioError) -> ProcessOutcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let name = URL(fileURLWithPath: executable).lastPathComponent
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                process.terminationHandler = { _ in continuation.resume() }
                do { try process.run() } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: error)
                }
            }
        } catch {
            throw .failed(program: name, reason: String(describing: error))
        }
        // The programs here write little to their pipes (a duration, a warning), so reading after exit cannot block.
        let outText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return ProcessOutcome(status: process.terminationStatus, output: outText, errorText: errText)
    }
}
