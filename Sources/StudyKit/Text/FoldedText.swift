/// A text folded for matching quotes in it, as ``QuoteLocator`` and ``SectionItems`` match them
/// (case and white space do not count).
enum FoldedText {
    /// `text` lower-cased, each run of whitespace one space (none at the start), and for each
    /// folded character the `Character` offset in `text` it came from; `capacity` is the number
    /// of characters expected (the text's count, which a document keeps).
    static func folded(_ text: String, capacity: Int) -> (folded: [Character], offsets: [Int]) {
        var folded: [Character] = []
        var offsets: [Int] = []
        folded.reserveCapacity(capacity)
        offsets.reserveCapacity(capacity)
        for (offset, character) in text.enumerated() {
            if character.isWhitespace {
                if folded.last != " " && !folded.isEmpty {
                    folded.append(" ")
                    offsets.append(offset)
                }
                continue
            }
            for lowered in character.lowercased() {
                folded.append(lowered)
                offsets.append(offset)
            }
        }
        return (folded, offsets)
    }
}
