/// Watches a JSON answer while it is decoded and says when the model starts repeating entries
/// it already wrote — the same key point again, the same label for the thirtieth time — so
/// the router can stop the answer there instead of decoding to the response limit.
///
/// Fed growing snapshots (or any prefix-extending text); only the new suffix is scanned.
/// Object keys are ignored; a string *value* repeats when, compared without case, spacing
/// and final punctuation, it appears a third time in the same member (a key point, a card's
/// question, a label written three times: a loop). A value written twice is no loop: the
/// router drops the second one and keeps the rest of the answer (#53: a stronger model that
/// wrote one card twice lost its whole deck). Values are counted per member, so a term that is
/// a card's answer, a quiz choice and a mind-map label is three different things; a `quote`
/// (several cards may rest on one sentence), a quiz's `choices` (a wrong answer may be
/// offered in several questions), a card's `answer` (several cards may ask for one term) and
/// its `hint` never count: a deck that loops writes its question again too. Also:
/// - within one value still being written, a run of 4 words or more is written a third time
///   ("…, 1789: the year of revolutions, 1789: the year of revolutions, 1789: the year of
///   revolutions"), checked as each word ends: a sentence that loops, which no closing quote
///   would end before the response limit; so is a run of 2 or 3 words written three times in a
///   row ("Revision Notes, 1789–1792: Revision Notes, 1789–1792: Revision Notes, 1789–1792:"),
///   which the 4-word rule would let run on for another round or two.
public struct RepetitionGuard: Sendable {
    /// The `finishReason` of an answer stopped for repeating itself.
    public static let finishReason = "repeated"

    private enum Container { case object, array }
    private var scanned = 0
    private var stack: [Container] = []
    private var inString = false
    private var escaped = false
    private var current = ""
    private var stringIsKey = false
    private var lastKey = ""
    private var expectingKey = false
    private var counts: [String: Int] = [:]
    /// The entry that repeated, once one has.
    public private(set) var repeatedEntry: String?
    /// Once an entry has repeated, how many UTF-8 bytes of the answer to keep so that what is
    /// left holds no part of the loop's last value: up to the opening quote of a value that
    /// loops within itself, or through the closing quote of a value written a third time (the
    /// item that holds it is then dropped as unfinished, ``RoutingEngine/finishedItems(of:)``).
    /// The items finished before the loop are judged like those of an answer cut at its limit (#53).
    public private(set) var keptBytes: Int?
    /// The UTF-8 offset of the character being scanned, and of the opening quote of the string being read.
    private var position = 0
    private var stringStart = 0

    /// Members whose values are a fixed list of strings (a card's `kind`, a podcast turn's
    /// `role`): repeating one of those is the schema at work, not a loop.
    private let exempt: Set<String>
    /// Members whose values repeat in a good answer: cards resting on one sentence, a wrong
    /// answer offered in several questions; and a card's optional hint, a clue beside the item
    /// that a model may write once for the whole deck (#53, session 65: Qwen2.5-Coder-1.5B's
    /// binary-search deck was stopped at its third card for its hint, and fell to the builtin
    /// engine). And a card's answer: a note about one thing asks for it from several sides
    /// (#53, session 68: the 1.5B's Black Death deck asked "What was the name of the disease?",
    /// "What was the name of the bacterium that caused the plague?" and "What did the fleas
    /// carry?", all "Yersinia pestis", and was stopped at its third card with two finished,
    /// fewer than half the six asked for; let run, it wrote five cards in 43 s).
    private static let neverCounted: Set<String> = ["quote", "choices", "hint", "answer"]
    /// For each array open on the stack, the member that holds it.
    private var arrayOwners: [String] = []

    /// Creates a guard for one answer; the values of the members named in `exempt` never count.
    public init(exempt: Set<String> = []) {
        self.exempt = exempt
    }

    /// Scans what `snapshot` adds to the text seen so far; `true` once an entry has repeated.
    public mutating func feed(snapshot: String) -> Bool {
        guard repeatedEntry == nil else { return true }
        let utf8 = snapshot.utf8
        guard utf8.count > scanned else { return false }
        let start = utf8.index(utf8.startIndex, offsetBy: scanned)
        scanned = utf8.count
        position = scanned - utf8.distance(from: start, to: utf8.endIndex)
        for character in String(decoding: utf8[start...], as: UTF8.self) {
            let next = position + character.utf8.count
            defer { position = next }
            if scan(character) {
                keptBytes = inString ? stringStart : next
                return true
            }
        }
        return false
    }

    private mutating func scan(_ character: Character) -> Bool {
        if inString {
            if escaped {
                escaped = false
                current.append(character)
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inString = false
                return closeString()
            } else {
                current.append(character)
                if !stringIsKey, character == " " || character == ",", let loop = Self.loopingRun(in: current) {
                    repeatedEntry = loop
                    return true
                }
            }
            return false
        }
        switch character {
        case "{":
            stack.append(.object)
            expectingKey = true
        case "[":
            arrayOwners.append(stack.last == .array ? arrayOwners.last ?? "" : lastKey)
            stack.append(.array)
        case "}", "]":
            if stack.popLast() == .array { _ = arrayOwners.popLast() }
            expectingKey = false
        case ",":
            expectingKey = stack.last == .object
        case ":":
            expectingKey = false
        case "\"":
            inString = true
            stringStart = position
            current = ""
            stringIsKey = stack.last == .object && expectingKey
        default:
            break
        }
        return false
    }

    private mutating func closeString() -> Bool {
        if stringIsKey {
            lastKey = current
            expectingKey = false
            return false
        }
        let value = Self.normalized(current)
        guard value.count >= 2 else { return false }
        // A string in an array belongs to the member that holds the array (`keyPoints`,
        // `choices`); the key read last is that member's until an object opens inside it.
        let inArray = stack.last == .array
        let owner = inArray ? arrayOwners.last ?? "" : lastKey
        if exempt.contains(owner) || Self.neverCounted.contains(owner) { return false }
        let key = owner + "\u{1F}" + value
        let count = (counts[key] ?? 0) + 1
        counts[key] = count
        if count >= 3 {
            repeatedEntry = current
            return true
        }
        return false
    }

    /// The shortest run of 4 to 12 words that ends `text` (its last, unfinished word left out)
    /// and occurs there twice before, without overlapping, compared as ``normalized(_:)``
    /// compares values — or a run of 2 or 3 words that ends it written three times in a row;
    /// `nil` when there is none. Prose says a short phrase three times only with other words
    /// between ("in the light reactions … in the light reactions"), never back to back.
    static func loopingRun(in text: String) -> String? {
        var words = normalized(text.replacingOccurrences(of: ",", with: " ")).split(separator: " ").map(String.init)
        if let last = text.last, last != " ", last != ",", !words.isEmpty { words.removeLast() }
        for length in 2...3 where words.count >= 3 * length {
            let run = words.suffix(length)
            let before = words.dropLast(length)
            if Array(before.suffix(length)) == Array(run), Array(before.dropLast(length).suffix(length)) == Array(run) {
                return run.joined(separator: " ")
            }
        }
        guard words.count >= 12 else { return nil }
        for length in 4...min(12, words.count / 3) {
            let run = Array(words.suffix(length))
            var found = 1
            var end = words.count - length
            while end >= length, found < 3 {
                if Array(words[(end - length)..<end]) == run {
                    found += 1
                    end -= length
                } else {
                    end -= 1
                }
            }
            if found >= 3 { return run.joined(separator: " ") }
        }
        return nil
    }

    private static func normalized(_ text: String) -> String {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = words.last, ".,;:!?".contains(last) { words.removeLast() }
        return words
    }
}
