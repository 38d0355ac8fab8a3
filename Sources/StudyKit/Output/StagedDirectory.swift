import Foundation

/// `--out DIR` written all at once: the kit's files go into a hidden sibling directory
/// (`.DIR.studykit-<uuid>`, on the same file system) and are moved into place only when all of
/// them are there, so an interrupted or failed run leaves `DIR` untouched and a finished one leaves
/// it complete, never a mix of an old kit's files and a new one's.
///
/// A `DIR` that does not exist yet is the staging directory renamed (one `rename(2)`). An existing
/// one may hold the student's own files, so it is not replaced: each new file is renamed over its
/// name, and the files an earlier kit wrote that this one has not (`cloze.tsv`, `podcast.md`,
/// `podcast.wav`) are removed. These renames are made with no cancellation point between them.
struct StagedDirectory {
    /// Where the kit ends up.
    let target: URL
    /// Where it is written first.
    let staging: URL

    /// The names a kit may own in its directory: a file of these that the new kit lacks is stale.
    static let kitOwnedNames = Set(KitWriter.fileNames + [AnkiRenderer.clozeFile, "podcast.md", "podcast.wav",
        "podcast.ogg"])

    /// Creates the staging directory beside `target` (and `target`'s parents).
    /// - Throws: ``OutputError/notADirectory(path:)`` when `target` (or a parent) is a file;
    ///   ``OutputError/writeFailed(path:reason:)`` when the staging directory cannot be made.
    init(target: URL) throws(OutputError) {
        let target = target.standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .notADirectory(path: target.path)
        }
        let parent = target.deletingLastPathComponent()
        try KitWriter().makeDirectory(parent)
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).studykit-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw .writeFailed(path: staging.path, reason: KitWriter.reason(error))
        }
        self.target = target
        self.staging = staging
    }

    /// The staged path of a file `name` (what it will be called once committed: ``final(_:)``).
    func staged(_ name: String) -> URL { staging.appendingPathComponent(name) }

    /// The final path of a staged file.
    func final(_ staged: URL) -> URL { target.appendingPathComponent(staged.lastPathComponent) }

    /// Moves every staged file into `target`; returns their final paths in `order`.
    func commit(order staged: [URL]) throws(OutputError) -> [URL] {
        let names = Set(staged.map(\.lastPathComponent))
        if !FileManager.default.fileExists(atPath: target.path) {
            guard rename(staging.path, target.path) == 0 else {
                throw .writeFailed(path: target.path, reason: String(cString: strerror(errno)).lowercased())
            }
        } else {
            for file in staged {
                guard rename(file.path, final(file).path) == 0 else {
                    throw .writeFailed(path: final(file).path, reason: String(cString: strerror(errno)).lowercased())
                }
            }
            let present = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
            for name in present where Self.kitOwnedNames.contains(name) && !names.contains(name) {
                try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
            }
            discard()
        }
        return staged.map(final)
    }

    /// Removes the staging directory and whatever is in it (after a commit, nothing is left).
    func discard() {
        try? FileManager.default.removeItem(at: staging)
    }
}
