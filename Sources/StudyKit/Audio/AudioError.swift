/// Why the podcast's audio could not be made.
public enum AudioError: StudyKitError, Equatable {
    /// A program the audio needs is not installed.
    case missingProgram(String, package: String)
    /// A program ran and failed.
    case failed(program: String, reason: String)
    /// The file name asks for a format studykit does not write.
    case unsupportedFormat(String)

    /// One lower-case line for stderr.
    public var message: String {
        switch self {
        case .missingProgram(let program, let package):
            return "\(program) is not installed, and the podcast's audio needs it; install the Debian package "
                + "\(package) (apt-get install \(package))"
        case .failed(let program, let reason):
            let firstLine = reason.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").first
            return "\(program) failed: \(firstLine.map(String.init) ?? "no message")"
        case .unsupportedFormat(let name):
            return "cannot write audio to \(name); name the file .wav or .ogg"
        }
    }

    /// A missing program is an unavailable service (69); a bad file name a usage error (64).
    public var exitCode: ExitCode {
        switch self {
        case .missingProgram: return .unavailable
        case .failed: return .failure
        case .unsupportedFormat: return .usage
        }
    }
}
