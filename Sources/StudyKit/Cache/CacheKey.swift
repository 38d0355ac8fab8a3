import Foundation

/// The identity of one generation request: two requests share a cached result only when every
/// field that can change the model's answer is equal.
///
/// The ``digest`` is SHA-256 over the fields, each prefixed with its byte length, so that no
/// two different field combinations can produce the same byte stream (`("ab", "c")` and
/// `("a", "bc")` hash differently).
public struct CacheKey: Sendable, Hashable {
    /// The current cache format. Bumping it changes every key, so no entry written by an older
    /// format can ever be served again.
    public static let currentFormatVersion = 1

    /// The cache format this key was computed for; ``currentFormatVersion`` in production.
    public let formatVersion: Int
    /// The job whose result is cached; also stored in the row so `cache clear --task` works.
    public let task: StudyTask
    /// A canonical serialization of the generation schema; a tightened constraint is a new key.
    public let schemaFingerprint: String
    /// The version of the task's instructions and prompt template.
    public let promptTemplateVersion: String
    /// The kind of engine asked.
    public let engine: EngineKind
    /// The model identity (name, and revision or file hash where known).
    public let model: String
    /// The content actually sent to the model: the fitted text when it was cut, else the whole.
    public let content: String
    /// Whether ``content`` was fitted (cut) to a window. Hashed as well as the text, so a
    /// result computed from fitted content never answers a request that sends the whole.
    public let contentIsFitted: Bool
    /// A canonical text of the generation options (temperature, max tokens, seed …).
    public let generationOptions: String
    /// SHA-256 of the length-prefixed fields, as lower-case hex: the row's primary key.
    public let digest: String

    /// Computes the key for one request.
    /// - Throws: ``CacheError/digestFailed(_:)`` when OpenSSL cannot hash.
    public init(
        formatVersion: Int = CacheKey.currentFormatVersion,
        task: StudyTask,
        schemaFingerprint: String,
        promptTemplateVersion: String,
        engine: EngineKind,
        model: String,
        content: String,
        contentIsFitted: Bool,
        generationOptions: String
    ) throws(CacheError) {
        self.formatVersion = formatVersion
        self.task = task
        self.schemaFingerprint = schemaFingerprint
        self.promptTemplateVersion = promptTemplateVersion
        self.engine = engine
        self.model = model
        self.content = content
        self.contentIsFitted = contentIsFitted
        self.generationOptions = generationOptions
        self.digest = try Self.digest(of: [
            "studykit-cache-key",
            String(formatVersion),
            task.rawValue,
            schemaFingerprint,
            promptTemplateVersion,
            engine.rawValue,
            model,
            contentIsFitted ? "fitted" : "whole",
            content,
            generationOptions,
        ])
    }

    /// SHA-256 over `fields`, each as an 8-byte big-endian byte count followed by its UTF-8
    /// bytes, after the field count itself. A prefix code: the stream decodes to one field list.
    static func digest(of fields: [String]) throws(CacheError) -> String {
        let hasher = try SHA256Hasher()
        func feedLength(_ count: Int) throws(CacheError) {
            try withUnsafeBytes(of: UInt64(count).bigEndian) { (bytes) throws(CacheError) in try hasher.update(bytes) }
        }
        try feedLength(fields.count)
        for field in fields {
            var field = field
            var failure: CacheError?
            field.withUTF8 { bytes in
                do throws(CacheError) {
                    try feedLength(bytes.count)
                    try hasher.update(UnsafeRawBufferPointer(bytes))
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return try hasher.finalizeHex()
    }
}
