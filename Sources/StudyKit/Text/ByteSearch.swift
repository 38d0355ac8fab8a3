import Foundation

extension StringProtocol {
    /// `contains(phrase)` as Foundation answers it, for an ASCII `phrase`, answered from the
    /// UTF-8 bytes when they do not hold it — most lines of a book, checked for dozens of phrases
    /// each, where Foundation's search bridges the string every time.
    ///
    /// Bytes without the phrase mean no match: Foundation's search matches canonically
    /// equivalent text too, but the only characters equivalent to an ASCII one are the Greek
    /// question mark (`;`), the Greek varia (`` ` ``) and the Kelvin sign (`K`), so a phrase with
    /// one of those is always searched by Foundation.
    func includes(_ phrase: String) -> Bool {
        if phrase.utf8.contains(where: { $0 == 0x3B || $0 == 0x60 || $0 == 0x4B }) { return contains(phrase) }
        guard utf8.mayContainBytes(of: phrase) else { return false }
        return contains(phrase)
    }
}

extension Collection<UInt8> {
    /// Whether the UTF-8 of `other` occurs in these bytes; `true` when they are not contiguous
    /// (a string bridged from Foundation), which the bytes cannot tell.
    func mayContainBytes(of other: String) -> Bool {
        var other = other
        return other.withUTF8 { needle in
            guard let needleStart = needle.baseAddress, !needle.isEmpty else { return true }
            let answer = withContiguousStorageIfAvailable { bytes -> Bool in
                guard let start = bytes.baseAddress, bytes.count >= needle.count else { return false }
                let last = bytes.count - needle.count
                var from = 0
                while from <= last, let found = memchr(start + from, Int32(needle[0]), last - from + 1) {
                    let offset = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(start + offset, needleStart, needle.count) == 0 { return true }
                    from = offset + 1
                }
                return false
            }
            return answer ?? true
        }
    }

    /// Whether `byte` is one of these bytes (`memchr` over contiguous bytes).
    func containsByte(_ byte: UInt8) -> Bool {
        let answer = withContiguousStorageIfAvailable { bytes -> Bool in
            guard let start = bytes.baseAddress else { return false }
            return memchr(start, Int32(byte), bytes.count) != nil
        }
        return answer ?? contains(byte)
    }

    /// Whether every byte is ASCII and none is a carriage return.
    var isPlainASCII: Bool {
        let answer = withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
        return answer ?? allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}

extension String {
    /// `split(separator: "\n", omittingEmptySubsequences:)`, found in the bytes: a line feed is a
    /// character of its own, except after a carriage return, where the two are one character and
    /// no separator — so the pieces are the same, without walking the text character by character.
    func lineSlices(omittingEmptySubsequences omitting: Bool = true) -> [Substring] {
        let feeds = lineFeedOffsets(limit: .max)
        var lines: [Substring] = []
        lines.reserveCapacity(feeds.count + 1)
        var start = 0
        for end in feeds + [utf8.count] {
            if !omitting || start != end { lines.append(self[utf8Index(start)..<utf8Index(end)]) }
            start = end + 1
        }
        return lines
    }

    /// The text up to its first line feed (the whole text when it has none), as `lineSlices`
    /// reads a line.
    var firstLineSlice: Substring {
        guard let offset = lineFeedOffsets(limit: 1).first else { return self[...] }
        return self[..<utf8Index(offset)]
    }

    /// `text.trimmingCharacters(in: .whitespaces)` without Foundation's bridging: the tab and the
    /// space separators (Unicode's Zs), taken off both ends scalar by scalar.
    func trimmingTabsAndSpaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last) else { return self }
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while end > start, isSpace(scalars[scalars.index(before: end)]) { end = scalars.index(before: end) }
        return String(scalars[start..<end])
    }

    private func utf8Index(_ offset: Int) -> Index { utf8.index(utf8.startIndex, offsetBy: offset) }

    /// The byte offsets of the first `limit` line feeds that end a line (`memchr`; one after a
    /// carriage return is part of "\r\n" and ends none).
    private func lineFeedOffsets(limit: Int) -> [Int] {
        let offsets = utf8.withContiguousStorageIfAvailable { bytes -> [Int] in
            var offsets: [Int] = []
            guard let base = bytes.baseAddress else { return offsets }
            var from = 0
            while offsets.count < limit, from < bytes.count, let found = memchr(base + from, 0x0A, bytes.count - from) {
                let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if offset == 0 || bytes[offset - 1] != 0x0D { offsets.append(offset) }
                from = offset + 1
            }
            return offsets
        }
        if let offsets { return offsets }
        var contiguous = self
        contiguous.makeContiguousUTF8()
        return contiguous.lineFeedOffsets(limit: limit)
    }
}

extension StringProtocol {
    /// `count`, read from the bytes when every one is ASCII and none is a carriage return (the
    /// only pair of ASCII characters that makes one character, "\r\n").
    var characterCount: Int { utf8.isPlainASCII ? utf8.count : count }
}
