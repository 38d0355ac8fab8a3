import Foundation

/// Runs one studykit command line and returns its exit code. Placeholder until the CLI lands.
public struct Runner: Sendable {
    /// The production runner, wired to the process's streams and environment.
    public static func production() -> Runner { Runner() }

    /// Runs `arguments` (without the executable name).
    public func run(_ arguments: [String]) async -> ExitCode { .ok }
}
