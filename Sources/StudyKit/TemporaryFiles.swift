import Foundation

/// Names of this process's temporary files (`studykit-<pid>-…` in the temporary directory), so a
/// forced exit can remove what a cancelled owner had no chance to.
enum TemporaryFiles {
    /// A new temporary path ending in `suffix` (`.pdf`, `.wav`).
    static func path(suffix: String) -> URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(prefix)\(UUID().uuidString)\(suffix)")
    }

    /// Removes every temporary file of this process.
    static func removeAll() {
        let directory = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    private static var prefix: String { "studykit-\(getpid())-" }
}
