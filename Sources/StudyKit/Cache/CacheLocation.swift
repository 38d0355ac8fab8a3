import Foundation

/// Where the studykit database lives.
///
/// `$STUDYKIT_CACHE_DIR/studykit.sqlite3` when that variable is set, else
/// `$XDG_CACHE_HOME/studykit/studykit.sqlite3`, else `~/.cache/studykit/studykit.sqlite3`.
/// The environment is passed in, never read from the process, so tests and the Runner decide.
public enum CacheLocation {
    /// The database file name inside the cache directory.
    public static let fileName = "studykit.sqlite3"

    /// The cache directory the environment selects, without touching the file system.
    ///
    /// Empty variables count as unset, and a relative `XDG_CACHE_HOME` is ignored, as the XDG
    /// base directory specification asks.
    public static func directory(environment: [String: String]) -> URL {
        if let explicit = nonEmpty(environment["STUDYKIT_CACHE_DIR"]) {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = nonEmpty(environment["XDG_CACHE_HOME"]), xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("studykit", isDirectory: true)
        }
        let home = nonEmpty(environment["HOME"]).map { URL(fileURLWithPath: $0, isDirectory: true) }
            // No HOME at all (a stripped service environment): fall back to the passwd entry.
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("studykit", isDirectory: true)
    }

    /// Where the in-process engine keeps its instructions' keys and values between runs
    /// (``LlamaEngine/Settings/prefixDirectory``): `llama-prefixes` in the cache folder, created
    /// when the first is kept, emptied by `studykit cache clear`.
    public static func prefixDirectory(environment: [String: String]) -> String {
        directory(environment: environment).appendingPathComponent("llama-prefixes", isDirectory: true).path
    }

    /// The database path, creating its directory (mode 0700: cached results may quote private
    /// material) when it does not exist yet.
    /// - Throws: ``CacheError/cannotCreateDirectory(path:reason:)`` when the directory cannot
    ///   be created or a non-directory is in the way.
    public static func databasePath(environment: [String: String]) throws(CacheError) -> String {
        let directory = directory(environment: environment)
        try createDirectory(directory.path)
        return directory.appendingPathComponent(fileName, isDirectory: false).path
    }

    private static func createDirectory(_ path: String) throws(CacheError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw .cannotCreateDirectory(path: path, reason: "a file with that name is in the way")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            // Another process may have created it between the check and the call.
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return
            }
            throw .cannotCreateDirectory(path: path, reason: "permission denied or read-only file system")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
