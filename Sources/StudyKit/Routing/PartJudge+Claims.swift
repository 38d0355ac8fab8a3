// MARK: - An overview's false sentence left out

extension PartJudge {
    /// A summary's overview loses the sentences that misstate the material (``ClaimCheck``: the
    /// opposite of its source, or a subject swapped for another, as the 1.5B's "Phases are caused
    /// by the Moon's gravity …" where tides are), when at least two sentences stay; shown as
    /// repaired, the model's overview with those sentences left out. Else it is judged as before:
    /// the claim check refuses it and the skeleton's overview is shown, with the reason.
    static func mendMisstatedOverview(_ value: inout JSONValue, material: String, repairs: inout [String: String]) {
        guard var object = value.objectValue, let overview = object["overview"]?.stringValue else { return }
        let sentences = SentenceSplitter().split(overview).map(\.text)
        let check = ClaimCheck(material: material)
        let reasons = sentences.map { check.misstatement($0) }
        let removed = reasons.indices.filter { reasons[$0] != nil }
        guard !removed.isEmpty, sentences.count - removed.count >= 2, let first = removed.first,
            let reason = reasons[first]?.replacingOccurrences(of: "; state what it says", with: "")
        else { return }
        object["overview"] = .string(sentences.indices.filter { reasons[$0] == nil }.map { sentences[$0] }
            .joined(separator: " "))
        let which = (removed.count == 1 ? "sentence " : "sentences ")
            + removed.map { String($0 + 1) }.joined(separator: ", ")
        let earlier = repairs["overview"].map { $0 + "; " } ?? ""
        repairs["overview"] = earlier + "its \(which), which \(reason), left out"
        value = .object(object)
    }
}
