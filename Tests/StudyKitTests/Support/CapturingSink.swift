import Synchronization
@testable import StudyKit

/// A sink that keeps what was written, for tests.
final class CapturingSink: OutputSink {
    private let buffer = Mutex("")
    /// Whether to pretend to be a terminal.
    let isTerminal: Bool

    /// Creates an empty capture.
    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    /// Appends `text`.
    func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    var text: String { buffer.withLock { $0 } }
}
