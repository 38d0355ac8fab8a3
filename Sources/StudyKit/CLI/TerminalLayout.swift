import Foundation

// MARK: - Terminal size

/// The size of a terminal window in character cells, as `TIOCGWINSZ` reports it.
public struct TerminalSize: Sendable, Hashable {
    /// Cells per row.
    public var columns: Int
    /// Rows on the screen.
    public var rows: Int

    /// Creates a size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The smallest window a preview is redrawn in; below it the preview appends lines instead.
    public static let smallestForRedraw = TerminalSize(columns: 20, rows: 4)

    /// Whether a preview can be redrawn in place in a window of this size.
    public var allowsRedraw: Bool { columns >= Self.smallestForRedraw.columns && rows >= Self.smallestForRedraw.rows }

    /// The window of the terminal on `descriptor`, or `nil` when it is no terminal or reports no size.
    static func of(descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}

// MARK: - Cells and rows

/// How text lands on a terminal: how many cells a character takes (East Asian width: CJK and
/// emoji take two, combining marks none) and how many rows a line takes once it wraps.
enum TerminalLayout {
    /// The cells `character` takes: 0, 1 or 2.
    static func cells(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if isZeroWidth(first) { return 0 }
        if isWide(first) { return 2 }
        // A text-style symbol made an emoji by U+FE0F ("❤️"), a flag, a keycap: two cells.
        if scalars.count > 1, first.properties.isEmoji,
            scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 }) {
            return 2
        }
        return 1
    }

    /// The cells `text` takes on one row, if it did not wrap.
    static func cells(of text: String) -> Int { text.reduce(0) { $0 + cells($1) } }

    /// The start of `text` that fits in `cells` cells, ending in `…` when it was cut.
    static func prefix(_ text: String, cells limit: Int) -> String {
        guard cells(of: text) > limit else { return text }
        var kept = ""
        var used = 1  // the ellipsis
        for character in text {
            let width = cells(character)
            if used + width > limit { break }
            kept.append(character)
            used += width
        }
        return kept + "…"
    }

    /// The rows `line` takes on a terminal `columns` wide, wrapping as terminals do: a wide
    /// character that does not fit in the last cell of a row moves whole to the next; a line
    /// that exactly fills its last row takes no extra row (the cursor waits in the last cell).
    static func rows(of line: String, columns: Int) -> Int {
        guard columns > 0 else { return 1 }
        var rows = 1
        var column = 0
        for character in line {
            let width = cells(character)
            guard width > 0 else { continue }
            if column + width > columns {
                rows += 1
                column = 0
            }
            column += width
        }
        return rows
    }

    /// The rows `lines` take, each ended by a newline.
    static func rows(of lines: [String], columns: Int) -> Int {
        lines.reduce(0) { $0 + rows(of: $1, columns: columns) }
    }

    /// The last of `lines` that fit in `rows` rows of a terminal `columns` wide. When even the
    /// last line is taller, its tail is kept after a leading `…`, so the newest text stays in view.
    static func tail(_ lines: [String], rows available: Int, columns: Int) -> [String] {
        guard available > 0 else { return [] }
        var kept: [String] = []
        var used = 0
        for line in lines.reversed() {
            let height = rows(of: line, columns: columns)
            if used + height > available {
                if kept.isEmpty { kept.append(clipped(line, rows: available, columns: columns)) }
                break
            }
            kept.append(line)
            used += height
        }
        return kept.reversed()
    }

    /// The end of `line`, after a `…`, short enough to take at most `rows` rows.
    private static func clipped(_ line: String, rows available: Int, columns: Int) -> String {
        var characters: [Character] = []
        var total = 1  // the ellipsis
        for character in line.reversed() {
            let width = cells(character)
            // Wide characters can waste the last cell of a row: leave one cell per row spare.
            if total + width > available * columns - (available - 1) { break }
            characters.append(character)
            total += width
        }
        return "…" + String(characters.reversed())
    }

    // MARK: East Asian width

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: break
        }
        return (0xFE00...0xFE0F).contains(scalar.value) || scalar.value == 0x200B
    }

    /// Wide or fullwidth in East Asian Width, or an emoji shown as a picture by default.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if scalar.properties.isEmojiPresentation { return true }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) }
    }
}
