import Dispatch
import Foundation
import Synchronization

/// Shows a result while it is generated (`--stream`).
///
/// On a terminal big enough (``TerminalSize/allowsRedraw``) the partial value is redrawn in
/// place. What is erased before each redraw is counted in screen rows, not logical lines: a
/// line longer than the window wraps, and CJK characters and emoji take two cells
/// (``TerminalLayout``). The frame keeps to the window's height less one row, showing the tail
/// of the preview when it is taller, so nothing ever scrolls off the top where it could no
/// longer be erased (a stale copy). On a window resize (`SIGWINCH`) the frame is erased and
/// redrawn at the new size. ``finish()`` erases the frame, so the final rendering replaces the
/// preview exactly where it began.
///
/// Piped, or on a terminal that is too small or reports no size, each line is written once,
/// when it is complete, with no control sequences; a blank line ends the preview.
final class StreamPreview: Sendable {
    private struct State {
        /// The lines of the latest partial value.
        var lines: [String] = []
        /// The lines on the screen now, and the width they were drawn at.
        var drawn: [String] = []
        var drawnColumns = 0
        /// Rows the frame on the screen takes (cursor-up distance to its first row).
        var drawnRows = 0
        /// Lines already appended (the fallback).
        var printedLines = 0
        /// The text the lines were parsed from: a snapshot that does not extend it starts a new
        /// answer (the next chunk of a chunked run, or a re-ask).
        var text = ""
    }

    private let sink: any OutputSink
    private let state = Mutex(State())
    private let resizeSource = Mutex<ResizeSignal?>(nil)

    /// Creates a preview on `sink`; with `watchResize`, a `SIGWINCH` redraws it at the new size.
    init(sink: any OutputSink, watchResize: Bool = false) {
        self.sink = sink
        if watchResize, sink.isTerminal {
            resizeSource.withLock { $0 = ResizeSignal { [weak self] in self?.resized() } }
        }
    }

    /// Draws the partial value parsed from `text`, the model's output so far.
    func show(_ text: String) {
        guard let value = JSONValue.partial(text) else { return }
        let lines = StreamOutline.outline(TerminalSafety.clean(value))
        guard !lines.isEmpty else { return }
        state.withLock { state in
            // A new answer: appended, the last answer's lines are all complete now; its last line
            // goes out and the new answer's lines are counted from its first.
            if !text.hasPrefix(state.text), state.printedLines > 0 || !state.lines.isEmpty, state.drawnRows == 0 {
                if state.printedLines < state.lines.count {
                    sink.write(state.lines[state.printedLines...].joined(separator: "\n") + "\n")
                }
                state.printedLines = 0
            }
            state.text = text
            state.lines = lines
            draw(&state)
        }
    }

    /// The window changed size: erase what was drawn at the old size, and draw again.
    func resized() {
        state.withLock { state in
            guard !state.lines.isEmpty else { return }
            draw(&state)
        }
    }

    /// Removes the preview on a terminal (the final rendering replaces it); appended, ends it
    /// with a blank line.
    func finish() {
        resizeSource.withLock { $0 = nil }
        state.withLock { state in
            if state.drawnRows > 0 {
                sink.write(Self.erase(&state, size: sink.terminalSize))
            } else if state.printedLines > 0 {
                sink.write("\n")
            }
            state.printedLines = 0
            state.lines = []
            state.text = ""
        }
    }

    // MARK: Drawing

    private func draw(_ state: inout State) {
        let size = sink.isTerminal ? sink.terminalSize : nil
        guard let size, size.allowsRedraw else {
            // Too small (or no terminal): take any frame away, then append completed lines.
            if state.drawnRows > 0 { sink.write(Self.erase(&state, size: size)) }
            sink.write(Self.appended(&state))
            return
        }
        sink.write(Self.frame(&state, size: size))
    }

    /// The text that replaces the frame on the screen with `state.lines` at `size`.
    private static func frame(_ state: inout State, size: TerminalSize) -> String {
        var text = erase(&state, size: size)
        let shown = TerminalLayout.tail(state.lines, rows: size.rows - 1, columns: size.columns)
        guard !shown.isEmpty else { return text }
        text += shown.joined(separator: "\n") + "\n"
        state.drawn = shown
        state.drawnColumns = size.columns
        state.drawnRows = TerminalLayout.rows(of: shown, columns: size.columns)
        return text
    }

    /// The text that erases the frame on the screen and leaves the cursor where it began.
    ///
    /// After a resize the terminal may have rewrapped the frame at the new width (tmux does)
    /// or kept its rows (xterm does): the cursor goes up by the larger count, never past the
    /// top of the window, so no row of the old frame is left behind.
    private static func erase(_ state: inout State, size: TerminalSize?) -> String {
        defer {
            state.drawn = []
            state.drawnRows = 0
        }
        guard state.drawnRows > 0 else { return "" }
        var up = state.drawnRows
        if let size, size.columns != state.drawnColumns {
            up = max(up, TerminalLayout.rows(of: state.drawn, columns: size.columns))
            up = min(up, max(1, size.rows - 1))
        }
        // Not `ESC[J` from the frame's first cell: at the window's top-left corner tmux takes
        // that for "clear the screen" and scrolls the screen into its history first
        // (scroll-on-clear), so every frame would pile up there. The first row is erased on its
        // own, then the rest from the row below (which exists: the cursor sits below the frame).
        return "\r\u{1B}[\(up)A\u{1B}[2K\u{1B}[1B\u{1B}[J\u{1B}[1A"
    }

    /// The lines of `state.lines` completed since the last call: the last line may still grow.
    private static func appended(_ state: inout State) -> String {
        let complete = max(0, state.lines.count - 1)
        guard complete > state.printedLines else { return "" }
        defer { state.printedLines = complete }
        return state.lines[state.printedLines..<complete].joined(separator: "\n") + "\n"
    }
}

// MARK: - SIGWINCH

/// Calls `handler` on each `SIGWINCH` while it lives.
private final class ResizeSignal: Sendable {
    private let source: Mutex<any DispatchSourceSignal>

    init(handler: @escaping @Sendable () -> Void) {
        // The signal is ignored by default; a dispatch source sees it all the same.
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        self.source = Mutex(source)
    }

    deinit { source.withLock { $0.cancel() } }
}
