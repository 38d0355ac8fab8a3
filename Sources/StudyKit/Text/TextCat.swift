import CTextCat
import Foundation
import Synchronization

/// libexttextcat (the only file that imports `CTextCat`): Debian's N-gram language guesser,
/// with the fingerprints of libexttextcat-data.
///
/// The classifier is loaded once per process, on first use (about 70 ms: 160 fingerprints), and
/// used under a lock: its result buffer belongs to the handle. When the fingerprints cannot be
/// found or loaded, ``classify(_:)`` returns `nil` and the caller treats the language as
/// undetermined rather than failing the import.
enum TextCat {
    /// Where the fingerprints and `fpdb.conf` live: Debian's directory first, then Homebrew's.
    static let fingerprintDirectories = [
        "/usr/share/libexttextcat/", "/usr/local/share/libexttextcat/", "/opt/homebrew/share/libexttextcat/",
    ]

    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer?
    }

    private static let handle = Mutex<Handle?>(nil)

    /// The candidates libexttextcat names for `text`, best first, as its ids (`fr--utf8`,
    /// `zh-CN-utf8`); empty when it says the text is too short or unknown; `nil` when the
    /// classifier could not be loaded.
    static func classify(_ text: String) -> [String]? {
        handle.withLock { handle -> [String]? in
            if handle == nil { handle = Handle(pointer: load()) }
            guard let pointer = handle?.pointer else { return nil }
            let answer: String? = text.withCString { bytes in
                guard let result = textcat_Classify(pointer, bytes, strlen(bytes)) else { return nil }
                return String(cString: result)
            }
            guard let answer, answer.hasPrefix("[") else { return [] }
            return answer.dropFirst().dropLast().components(separatedBy: "][").filter { !$0.isEmpty }
        }
    }

    private static func load() -> UnsafeMutableRawPointer? {
        for directory in fingerprintDirectories where FileManager.default.fileExists(atPath: directory + "fpdb.conf") {
            guard let pointer = special_textcat_Init(directory + "fpdb.conf", directory) else { continue }
            _ = textcat_SetProperty(pointer, TCPROP_UTF8AWARE, sint4(TC_TRUE.rawValue))
            return pointer
        }
        return nil
    }
}
