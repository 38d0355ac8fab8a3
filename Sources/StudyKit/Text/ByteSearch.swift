import Foundation

extension String {
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

extension String.UTF8View {
    /// Whether the UTF-8 of `other` occurs in these bytes; `true` when they are not contiguous
    /// (a string bridged from Foundation), which the bytes cannot tell.
    func mayContainBytes(of other: String) -> Bool {
        let needle = Array(other.utf8)
        guard let first = needle.first else { return true }
        let answer = withContiguousStorageIfAvailable { bytes -> Bool in
            guard bytes.count >= needle.count else { return false }
            var start = 0
            while start <= bytes.count - needle.count {
                if bytes[start] == first, (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
                start += 1
            }
            return false
        }
        return answer ?? true
    }
}
