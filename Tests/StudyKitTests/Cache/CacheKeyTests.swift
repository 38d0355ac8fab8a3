import Foundation
import Testing
@testable import StudyKit

@Suite("Cache key")
struct CacheKeyTests {
    @Test func fieldBoundariesCannotCollide() throws {
        #expect(try CacheKey.digest(of: ["ab", "c"]) != CacheKey.digest(of: ["a", "bc"]))
        #expect(try CacheKey.digest(of: ["abc"]) != CacheKey.digest(of: ["abc", ""]))
        #expect(try CacheKey.digest(of: ["", "x"]) != CacheKey.digest(of: ["x", ""]))

        // Content and generation options are hashed next to each other: move the boundary.
        var left = CacheKeyFields()
        left.content = "ab"
        left.generationOptions = "c"
        var right = CacheKeyFields()
        right.content = "a"
        right.generationOptions = "bc"
        #expect(left.key.digest != right.key.digest)

        // So are the schema fingerprint and the prompt template version.
        var leftSchema = CacheKeyFields()
        leftSchema.schemaFingerprint = "s"
        leftSchema.promptTemplateVersion = "v1"
        var rightSchema = CacheKeyFields()
        rightSchema.schemaFingerprint = "sv"
        rightSchema.promptTemplateVersion = "1"
        #expect(leftSchema.key.digest != rightSchema.key.digest)
    }

    @Test func digestIsStableHexAndDeterministic() {
        let first = CacheKeyFields().key
        let second = CacheKeyFields().key
        #expect(first.digest == second.digest)
        #expect(first == second)
        #expect(first.digest.count == 64)
        #expect(first.digest.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func fittedAndWholeContentGiveDifferentKeys() {
        var whole = CacheKeyFields()
        whole.content = "First section. Second section. Third section."
        var fitted = whole
        fitted.content = "First section. […] Third section."
        fitted.contentIsFitted = true
        #expect(whole.key.digest != fitted.key.digest)
        // Even when fitting happened to keep every character, the flag alone separates them.
        var fittedButEqual = whole
        fittedButEqual.contentIsFitted = true
        #expect(whole.key.digest != fittedButEqual.key.digest)
    }

    struct FieldChange: Sendable, CustomTestStringConvertible {
        var field: String
        var change: @Sendable (inout CacheKeyFields) -> Void
        var testDescription: String { field }
    }

    static let fieldChanges: [FieldChange] = [
        FieldChange(field: "formatVersion") { $0.formatVersion += 1 },
        FieldChange(field: "task") { $0.task = .quiz },
        FieldChange(field: "schemaFingerprint") { $0.schemaFingerprint += "!" },
        FieldChange(field: "promptTemplateVersion") { $0.promptTemplateVersion = "summary-v2" },
        FieldChange(field: "engine") { $0.engine = .local },
        FieldChange(field: "model") { $0.model = "gpt-test-2" },
        FieldChange(field: "content") { $0.content += " " },
        FieldChange(field: "contentIsFitted") { $0.contentIsFitted.toggle() },
        FieldChange(field: "generationOptions") { $0.generationOptions = "temperature=0.7;maxTokens=512" },
    ]

    @Test("every field changes the key", arguments: fieldChanges)
    func everyFieldChangesTheKey(change: FieldChange) {
        let base = CacheKeyFields()
        var changed = base
        change.change(&changed)
        #expect(base.key.digest != changed.key.digest)
    }

    @Test func formatVersionBumpServesNoStaleEntries() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        var fields = CacheKeyFields()
        let contents = (0..<20).map { "document number \($0)" }
        for content in contents {
            fields.content = content
            try cache.put(CacheEntry(payload: cacheTestPayload(content), engine: .remote, model: "m"), for: fields.key)
        }
        fields.formatVersion = CacheKey.currentFormatVersion + 1
        var staleHits = 0
        for content in contents {
            fields.content = content
            if try cache.get(fields.key) != nil { staleHits += 1 }
        }
        #expect(staleHits == 0)
        #expect(try cache.stats().misses == contents.count)
    }
}
