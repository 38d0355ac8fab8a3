/// A small terminal for tests: it applies what a program writes (text, `\r`, `\n` as the tty
/// turns it into CR LF, `ESC[nA`, `ESC[nB`, `ESC[nF`, `ESC[J` — with tmux's scroll-on-clear
/// when it erases the whole screen from its top-left corner — and `ESC[2K`) to a grid of cells, wraps long lines as
/// xterm and tmux do (a wide character that does not fit moves to the next row; a full row
/// waits for the next character before wrapping), and scrolls rows off the top into a history.
///
/// Its character widths are its own, not the library's: ASCII and Latin take one cell, CJK
/// and emoji (everything from U+1100 on) two, so a test with those characters checks the
/// library's counting against an independent rule.
struct ScreenEmulator {
    private(set) var columns: Int
    private(set) var rows: Int
    private var grid: [[Character]]
    private(set) var history: [String] = []
    private var row = 0
    private var column = 0
    private var pendingWrap = false

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    static func width(_ character: Character) -> Int {
        (character.unicodeScalars.first?.value ?? 0) >= 0x1100 ? 2 : 1
    }

    mutating func write(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r":
                column = 0
                pendingWrap = false
            case "\n":
                column = 0
                pendingWrap = false
                lineFeed()
            case "\u{1B}":
                guard characters.popFirst() == "[" else { continue }
                var parameter = ""
                while let next = characters.first, next.isNumber {
                    parameter.append(next)
                    characters.removeFirst()
                }
                guard let command = characters.popFirst() else { return }
                escape(command, Int(parameter))
            default:
                put(character)
            }
        }
    }

    /// The window changes size without rewrapping (as xterm does): rows keep their cells,
    /// cut at the new width; rows that no longer fit at the bottom are dropped, above the
    /// cursor they go to the history.
    mutating func resize(columns newColumns: Int, rows newRows: Int) {
        grid = grid.map { line in
            Array(line.prefix(newColumns)) + Array(repeating: " ", count: max(0, newColumns - line.count))
        }
        while grid.count > newRows {
            if row >= newRows {
                history.append(Self.text(grid.removeFirst()))
                row -= 1
            } else {
                grid.removeLast()
            }
        }
        while grid.count < newRows { grid.append(Array(repeating: " ", count: newColumns)) }
        columns = newColumns
        rows = newRows
        column = min(column, newColumns - 1)
        pendingWrap = false
    }

    /// The rows on the screen, trailing blanks and blank rows at the end removed.
    var screen: [String] {
        var lines = grid.map(Self.text)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The history and the screen.
    var everything: [String] { history + screen }

    private mutating func put(_ character: Character) {
        let width = Self.width(character)
        if pendingWrap || column + width > columns {
            column = 0
            pendingWrap = false
            lineFeed()
        }
        grid[row][column] = character
        if width == 2, column + 1 < columns { grid[row][column + 1] = "\u{0}" }
        column += width
        if column >= columns {
            column = columns - 1
            pendingWrap = true
        }
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            history.append(Self.text(grid.removeFirst()))
            grid.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func escape(_ command: Character, _ parameter: Int?) {
        switch command {
        case "F":
            row = max(0, row - max(1, parameter ?? 1))
            column = 0
            pendingWrap = false
        case "A":
            row = max(0, row - max(1, parameter ?? 1))
            pendingWrap = false
        case "B":
            row = min(rows - 1, row + max(1, parameter ?? 1))
            pendingWrap = false
        case "J" where row == 0 && column == 0:
            // tmux's scroll-on-clear: erasing the whole screen from its corner first scrolls
            // what is on it into the history.
            history += screen
            grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        case "J":
            for cell in column..<columns { grid[row][cell] = " " }
            for below in (row + 1)..<rows { grid[below] = Array(repeating: " ", count: columns) }
        case "K":
            grid[row] = Array(repeating: " ", count: columns)
        default:
            break
        }
    }

    private static func text(_ cells: [Character]) -> String {
        var text = String(cells.filter { $0 != "\u{0}" })
        while text.last == " " { text.removeLast() }
        return text
    }
}
