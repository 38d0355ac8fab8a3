/// Why a result could not be rendered or a kit could not be written.
public enum OutputError: StudyKitError, Equatable {
    /// `format` cannot show a result of `task`; `supported` lists the tasks it can show.
    case formatNotSupported(format: RenderFormat, task: StudyTask, supported: [StudyTask])
    /// `path` exists but is not a directory, so the kit cannot be written into it.
    case notADirectory(path: String)
    /// Writing `path` failed; `reason` is the system's explanation.
    case writeFailed(path: String, reason: String)
    /// The Anki package's collection could not be built (a full or read-only temporary directory).
    case packageFailed(reason: String)
    /// A binary format (`apkg`) was asked for as text, or for a terminal, which would only show garbage.
    case binaryOutput(format: RenderFormat)

    /// One lower-case line for stderr.
    public var message: String {
        switch self {
        case .formatNotSupported(let format, let task, let supported):
            let names = supported.map(\.name)
            let list =
                names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
            return "--format \(format.rawValue) works with \(list), not \(task.name); choose another --format or "
                + "command"
        case .notADirectory(let path):
            return "cannot write the kit into '\(path)': it exists and is not a directory; choose another output "
                + "directory"
        case .writeFailed(let path, let reason):
            return "cannot write '\(path)' (\(reason)); check the directory exists and is writable"
        case .packageFailed(let reason):
            return "cannot build the Anki package (\(reason)); check that the temporary directory (TMPDIR) is writable "
                + "and has room"
        case .binaryOutput(let format):
            return "--format \(format.rawValue) writes a binary file, not text for a terminal; redirect it (> "
                + "deck.\(format.rawValue)) or pipe it"
        }
    }

    /// A format that does not fit the command is a usage error; a failed write is anything else.
    public var exitCode: ExitCode {
        switch self {
        case .formatNotSupported, .binaryOutput: return .usage
        case .notADirectory, .writeFailed, .packageFailed: return .failure
        }
    }
}
