/// Everything that can go wrong in the result cache, the usage ledger and their database.
///
/// SQLite result codes are folded into the few cases a user can act on; the rest keep the
/// code and SQLite's own reason so a bug report still says what happened.
public enum CacheError: StudyKitError, Equatable {
    /// The cache directory could not be created or is not a directory.
    case cannotCreateDirectory(path: String, reason: String)
    /// The database file could not be opened (permissions, missing parent, not a file).
    case cannotOpen(path: String, reason: String)
    /// Another process kept the database locked longer than the busy timeout, every retry.
    case busy(path: String)
    /// The file is not a SQLite database or its pages are damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
    case corrupt(path: String)
    /// The disk or quota is full (SQLITE_FULL).
    case diskFull(path: String)
    /// The database or its directory is read-only (SQLITE_READONLY, SQLITE_PERM).
    case readOnly(path: String)
    /// The database was written by a newer studykit whose schema this build does not know.
    case newerSchema(path: String, version: Int)
    /// Any other SQLite failure, with its primary result code and SQLite's message.
    case sqlite(path: String, code: Int32, reason: String)
    /// A daily quota setting that is neither `N`, `N requests` nor `N tokens`.
    case invalidQuota(String)
    /// A day that is not a `YYYY-MM-DD` calendar date.
    case invalidDay(String)
    /// A payload or fitted-info blob handed to the cache that is not JSON text.
    case invalidPayload(String)
    /// OpenSSL could not compute a SHA-256 digest; the value names the call that failed.
    case digestFailed(String)

    /// One lower-case line naming the offending value and what to do next.
    public var message: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create the cache directory '\(path)': \(reason); set STUDYKIT_CACHE_DIR to a writable "
                + "directory or run with --no-cache"
        case .cannotOpen(let path, let reason):
            return "cannot open the cache database '\(path)': \(reason); check its permissions, set "
                + "STUDYKIT_CACHE_DIR, or run with --no-cache"
        case .busy(let path):
            return "the cache database '\(path)' stayed locked by another studykit process; try again, or run with "
                + "--no-cache"
        case .corrupt(let path):
            return "the cache database '\(path)' is damaged; delete it (it only holds cached results and usage counts) "
                + "or run with --no-cache"
        case .diskFull(let path):
            return "the disk holding the cache database '\(path)' is full; free some space or run 'studykit cache "
                + "clear'"
        case .readOnly(let path):
            return "the cache database '\(path)' is read-only; make it writable, set STUDYKIT_CACHE_DIR, or run with "
                + "--no-cache"
        case .newerSchema(let path, let version):
            return "the cache database '\(path)' has schema version \(version), written by a newer studykit; upgrade "
                + "studykit or set STUDYKIT_CACHE_DIR to another directory"
        case .sqlite(let path, let code, let reason):
            return "the cache database '\(path)' failed with sqlite error \(code) (\(reason.lowercased())); run with "
                + "--no-cache and report this"
        case .invalidQuota(let text):
            return "invalid daily quota '\(text)': write a number of requests such as '200' or '200 requests', or of "
                + "tokens such as '50000 tokens'"
        case .invalidDay(let text):
            return "invalid day '\(text)': write a calendar date as YYYY-MM-DD, for example '2025-03-09'"
        case .invalidPayload(let preview):
            return "refusing to cache a payload that is not json ('\(preview)'); only validated results may be cached"
        case .digestFailed(let call):
            return "openssl could not compute a sha-256 digest (\(call) failed); check the openssl installation, or "
                + "run with --no-cache"
        }
    }

    /// What is wrong with the database, without the advice ``message`` ends with: for a line
    /// whose advice is another (the usage ledger failing under a daily quota).
    public var problem: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): return "cannot create '\(path)': \(reason)"
        case .cannotOpen(let path, let reason): return "'\(path)' cannot be opened: \(reason)"
        case .busy(let path): return "'\(path)' stayed locked by another studykit process"
        case .corrupt(let path): return "'\(path)' is damaged"
        case .diskFull(let path): return "the disk holding '\(path)' is full"
        case .readOnly(let path): return "'\(path)' is read-only"
        case .newerSchema(let path,
            let version): return "'\(path)' has schema version \(version), from a newer studykit"
        case .sqlite(let path, let code,
            let reason): return "'\(path)' failed with sqlite error \(code) (\(reason.lowercased()))"
        case .invalidQuota, .invalidDay, .invalidPayload, .digestFailed: return message
        }
    }

    /// A bad quota or day is a configuration/usage mistake; everything else is a local failure.
    public var exitCode: ExitCode {
        switch self {
        case .invalidQuota, .invalidDay:
            return .usage
        case .cannotCreateDirectory, .cannotOpen, .busy, .corrupt, .diskFull, .readOnly,
            .newerSchema, .sqlite, .invalidPayload, .digestFailed:
            return .failure
        }
    }
}
