import Synchronization

/// Passes the streamed text of a chunked run's requests on in document order, whatever order
/// they run in (`--stream` with `--jobs` above 1): the text of request *k* goes out as it grows
/// once every earlier request has finished; until then only its latest snapshot is kept, and
/// shown when its turn comes. So the preview never interleaves two chunks' answers.
final class OrderedPartials: Sendable {
    private struct State {
        /// The request whose text goes out as it grows.
        var current = 0
        /// The latest snapshot of each later request, held until its turn.
        var held: [Int: String] = [:]
        var finished: Set<Int> = []
    }

    private let show: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// Passes text on to `show`, one request at a time, in index order.
    init(show: @escaping @Sendable (String) -> Void) {
        self.show = show
    }

    /// A snapshot of request `index`'s text so far.
    func partial(_ index: Int, _ text: String) {
        state.withLock { state in
            // Shown under the lock, so a snapshot can never overtake the one before it.
            if index == state.current {
                show(text)
            } else if index > state.current {
                state.held[index] = text
            }
        }
    }

    /// Request `index` has ended (answered or not): the next ones in order get their turn, each
    /// shown as far as it has come.
    func finish(_ index: Int) {
        state.withLock { state in
            state.finished.insert(index)
            while state.finished.contains(state.current) {
                state.current += 1
                if let text = state.held.removeValue(forKey: state.current) { show(text) }
            }
        }
    }
}
