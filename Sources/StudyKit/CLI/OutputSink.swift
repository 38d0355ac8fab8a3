import Foundation
import Synchronization

/// Where the CLI writes text. The library never calls `print`; it writes to a sink, so tests capture it.
public protocol OutputSink: Sendable {
    /// Writes `text` as is (no newline added).
    func write(_ text: String)
    /// Writes raw bytes (a binary format such as an Anki package) as they are.
    func write(bytes: [UInt8])
    /// Whether the sink is an interactive terminal (progress and redraws only go to terminals).
    var isTerminal: Bool { get }
    /// The terminal's window, read afresh on each call (it changes when the window is resized);
    /// `nil` when the sink is no terminal or the terminal reports no size.
    var terminalSize: TerminalSize? { get }
    /// The regular file the sink writes into, when it is one and its path can be known (stdout
    /// redirected with `> page.html`), so a page can link what lies beside it by a relative path;
    /// `nil` for a terminal, a pipe, or a sink in memory.
    var filePath: String? { get }
}

extension OutputSink {
    /// No size: a sink that is no terminal.
    public var terminalSize: TerminalSize? { nil }

    /// No file: a terminal, a pipe, or a sink in memory.
    public var filePath: String? { nil }

    /// Writes `text` followed by a newline.
    public func line(_ text: String) { write(text + "\n") }
}

/// A sink on a file descriptor of the process (stdout or stderr).
struct FileDescriptorSink: OutputSink {
    private let descriptor: Int32

    /// The process's standard output.
    public static let standardOutput = FileDescriptorSink(descriptor: STDOUT_FILENO)
    /// The process's standard error.
    public static let standardError = FileDescriptorSink(descriptor: STDERR_FILENO)

    /// Creates a sink on `descriptor`.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes all bytes, retrying short writes; a closed pipe ends the output quietly.
    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Writes all bytes, retrying short writes; a closed pipe ends the output quietly.
    public func write(bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }

    /// Whether the descriptor is a TTY.
    public var isTerminal: Bool { isatty(descriptor) == 1 }

    /// The window of the terminal on the descriptor (`TIOCGWINSZ`).
    public var terminalSize: TerminalSize? { TerminalSize.of(descriptor: descriptor) }

    /// The descriptor's file when it is a regular file: on Linux the `/proc/self/fd` link, on
    /// macOS `F_GETPATH`.
    public var filePath: String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        #if os(Linux)
        let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        #else
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        let path = fcntl(descriptor, F_GETPATH, &buffer) == 0 ? String(cString: buffer) : nil
        #endif
        // A file deleted since it was opened has no path to link from.
        guard let path, path.hasPrefix("/"), FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }
}
