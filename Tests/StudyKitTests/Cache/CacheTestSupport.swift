import Foundation
import Synchronization
@testable import StudyKit

/// A fresh directory for one test's database, removed when the value goes away.
final class CacheTestDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("studykit-cache-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The database path inside the directory.
    var databasePath: String { url.appendingPathComponent(CacheLocation.fileName).path }
}

/// A clock the test moves by hand, in a fixed time zone.
final class CacheTestClock: DayClock {
    private let instant: Mutex<Date>
    let timeZone: TimeZone

    /// Starts at `text` (ISO 8601 with offset) in `zone`.
    init(_ text: String, zone: String = "Europe/Berlin") {
        instant = Mutex(ISO8601DateFormatter().date(from: text)!)
        timeZone = TimeZone(identifier: zone)!
    }

    func now() -> Date { instant.withLock { $0 } }

    func advance(hours: Double) {
        instant.withLock { $0 = $0.addingTimeInterval(hours * 3600) }
    }
}

/// The fields of a cache key, mutable so a test can change exactly one.
struct CacheKeyFields: Sendable {
    var formatVersion = CacheKey.currentFormatVersion
    var task = StudyTask.summary
    var schemaFingerprint = "object{overview:string,keyPoints:array}"
    var promptTemplateVersion = "summary-v1"
    var engine = EngineKind.remote
    var model = "gpt-test-1"
    var content = "Photosynthesis turns light into chemical energy."
    var contentIsFitted = false
    var generationOptions = "temperature=0;maxTokens=512"

    /// The key; hashing cannot fail in a working OpenSSL, so a failure stops the test run.
    var key: CacheKey {
        try! CacheKey(
            formatVersion: formatVersion, task: task, schemaFingerprint: schemaFingerprint,
            promptTemplateVersion: promptTemplateVersion, engine: engine, model: model, content: content,
            contentIsFitted: contentIsFitted, generationOptions: generationOptions)
    }
}

/// A valid JSON payload of roughly `padding` extra bytes, tagged so rows can be told apart.
func cacheTestPayload(_ tag: String, padding: Int = 0) -> String {
    #"{"overview":"\#(tag)","keyPoints":["\#(String(repeating: "x", count: padding))"]}"#
}
