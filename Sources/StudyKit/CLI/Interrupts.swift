import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM while a command runs.
///
/// The first signal cancels the command's task: the generation stops (curl's progress callback,
/// llama.cpp between tokens), what the server already billed is recorded, temporary files are
/// removed by their owners and nothing is written to `--out` or stdout after it; the runner then
/// exits 130. A second signal is for a command stuck where cancellation is not seen (inside
/// poppler, say): it removes this process's temporary files and ends the process the way the
/// signal would have.
final class InterruptWatch: Sendable {
    private let sources: Mutex<[any DispatchSourceSignal]>
    private let received = Received()

    /// The signals received so far, shared with the handlers.
    private final class Received: Sendable {
        let numbers = Mutex<[Int32]>([])
    }

    /// Watches `signals` (none: a watch that never fires, for in-process runs) and calls
    /// `interrupt` on the first one.
    init(signals: [Int32], interrupt: @escaping @Sendable () -> Void) {
        var made: [any DispatchSourceSignal] = []
        let received = self.received
        for number in signals {
            // The default action would end the process at once, with no chance to clean up.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Self.fired(number, received: received, interrupt: interrupt) }
            source.resume()
            made.append(source)
        }
        sources = Mutex(made)
    }

    /// The first signal received, or `nil`.
    var firstSignal: Int32? { received.numbers.withLock { $0.first } }

    /// Stops watching and gives the signals their default action back.
    func stop() {
        let stopped = sources.withLock { sources -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        for source in stopped {
            source.cancel()
            signal(Int32(source.handle), SIG_DFL)
        }
    }

    private static func fired(_ number: Int32, received: Received, interrupt: @Sendable () -> Void) {
        let count = received.numbers.withLock { numbers -> Int in
            numbers.append(number)
            return numbers.count
        }
        if count == 1 {
            interrupt()
            return
        }
        TemporaryFiles.removeAll()
        signal(number, SIG_DFL)
        raise(number)
    }

    /// `SIGINT` or `SIGTERM`, as people know it.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(number)"
        }
    }
}
