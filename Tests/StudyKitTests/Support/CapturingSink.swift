import Synchronization
@testable import StudyKit

/// A sink that keeps what was written, for tests; a terminal of a given size when one is given.
final class CapturingSink: OutputSink {
    private let buffer = Mutex("")
    /// Whether to pretend to be a terminal.
    let isTerminal: Bool

    private let size: Mutex<TerminalSize?>

    /// Creates an empty capture; a terminal of `terminalSize` when one is given.
    init(isTerminal: Bool = false, terminalSize: TerminalSize? = nil) {
        self.isTerminal = isTerminal || terminalSize != nil
        self.size = Mutex(terminalSize)
    }

    /// The pretended window; ``resize(to:)`` changes it.
    var terminalSize: TerminalSize? { size.withLock { $0 } }

    /// Pretends the window was resized.
    func resize(to newSize: TerminalSize?) { size.withLock { $0 = newSize } }

    private let raw = Mutex<[UInt8]>([])

    /// Appends `text`.
    func write(_ text: String) {
        buffer.withLock { $0 += text }
        raw.withLock { $0 += Array(text.utf8) }
    }

    /// Appends `bytes` (as text too, decoded leniently).
    func write(bytes: [UInt8]) {
        buffer.withLock { $0 += String(decoding: bytes, as: UTF8.self) }
        raw.withLock { $0 += bytes }
    }

    /// Every byte written so far, text and binary.
    var bytes: [UInt8] { raw.withLock { $0 } }

    /// Everything written so far.
    var text: String { buffer.withLock { $0 } }
}
