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

    /// Appends `text`.
    func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    var text: String { buffer.withLock { $0 } }
}
