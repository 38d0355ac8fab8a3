/// The process exit codes studykit documents (BSD sysexits where one fits).
public enum ExitCode: Int32, Sendable, Equatable, CaseIterable {
    /// Success.
    case ok = 0
    /// Anything that is not one of the documented failures.
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The input was read but its data is unusable: empty, corrupt, encrypted, not UTF-8 (EX_DATAERR).
    case dataError = 65
    /// The input is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// No engine could serve the request (EX_UNAVAILABLE).
    case unavailable = 69
    /// Stopped by SIGINT or SIGTERM (128 + SIGINT, what a shell reports for Ctrl-C).
    case interrupted = 130
}

/// An error that the CLI can report as one plain line and a documented exit code.
///
/// Every folder's error enum conforms, so the Runner never needs to know each folder's cases.
public protocol StudyKitError: Error {
    /// One line, lower-case, naming the offending input and what to do next. Never a secret.
    var message: String { get }
    /// The exit code this error maps to.
    var exitCode: ExitCode { get }
}
