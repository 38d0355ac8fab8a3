import Foundation
import Synchronization

/// Where the CLI writes text. The library never calls `print`; it writes to a sink, so tests capture it.
public protocol OutputSink: Sendable {
    /// Writes `text` as is (no newline added).
    func write(_ text: String)
    /// Whether the sink is an interactive terminal (progress and redraws only go to terminals).
    var isTerminal: Bool { get }
}

extension OutputSink {
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
        var bytes = Array(text.utf8)
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
}
