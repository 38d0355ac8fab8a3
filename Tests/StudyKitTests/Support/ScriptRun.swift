import Foundation

/// Runs a project script (or any executable) to its end and keeps what a test reads of it: the
/// exit status and stderr. stdout is discarded. `environment` changes the test's own environment:
/// a value sets a variable, `nil` removes it.
enum ScriptRun {
    struct Outcome { var status: Int32; var stderr: String }

    static func run(_ executable: String, _ arguments: [String], environment changes: [String: String?] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }
}
