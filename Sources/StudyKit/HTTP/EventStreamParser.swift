import Foundation

// MARK: - Server-sent events

/// Splits an event stream into event payloads (the joined `data:` lines of each event), across
/// chunk boundaries; comments (`: ping`) and other fields are skipped.
struct EventStreamParser {
    private var buffer = Data()
    private var dataLines: [String] = []

    mutating func feed(_ chunk: Data) -> [String] {
        buffer.append(chunk)
        var events: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = buffer[buffer.startIndex..<newline]
            buffer.removeSubrange(buffer.startIndex...newline)
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let event = take(String(decoding: line, as: UTF8.self)) { events.append(event) }
        }
        return events
    }

    /// The last event when the stream ends without a blank line after it.
    mutating func finish() -> [String] {
        var events: [String] = []
        if !buffer.isEmpty, let event = take(String(decoding: buffer, as: UTF8.self)) { events.append(event) }
        buffer.removeAll()
        if !dataLines.isEmpty { events.append(dataLines.joined(separator: "\n")) }
        dataLines.removeAll()
        return events
    }

    private mutating func take(_ line: String) -> String? {
        if line.isEmpty {
            defer { dataLines.removeAll() }
            return dataLines.isEmpty ? nil : dataLines.joined(separator: "\n")
        }
        if line.hasPrefix("data:") {
            var value = line.dropFirst(5)
            if value.first == " " { value = value.dropFirst() }
            dataLines.append(String(value))
        }
        return nil
    }
}
