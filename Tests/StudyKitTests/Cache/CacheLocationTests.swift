import Foundation
import Testing
@testable import StudyKit

@Suite("Cache location")
struct CacheLocationTests {
    @Test func explicitDirectoryWins() throws {
        let directory = try CacheTestDirectory()
        let explicit = directory.url.appendingPathComponent("explicit/nested").path
        let path = try CacheLocation.databasePath(environment: [
            "STUDYKIT_CACHE_DIR": explicit, "XDG_CACHE_HOME": directory.url.path, "HOME": "/nonexistent",
        ])
        #expect(path == explicit + "/studykit.sqlite3")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: explicit, isDirectory: &isDirectory) && isDirectory.boolValue)
        let mode = try FileManager.default.attributesOfItem(atPath: explicit)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
    }

    @Test func xdgCacheHomeIsUsedNext() throws {
        let directory = try CacheTestDirectory()
        let path = try CacheLocation.databasePath(environment: [
            "STUDYKIT_CACHE_DIR": "", "XDG_CACHE_HOME": directory.url.path, "HOME": "/nonexistent",
        ])
        #expect(path == directory.url.path + "/studykit/studykit.sqlite3")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.url.path + "/studykit")[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
    }

    @Test func homeCacheIsTheFallback() throws {
        let directory = try CacheTestDirectory()
        let environment = ["HOME": directory.url.path, "XDG_CACHE_HOME": "relative/ignored"]
        #expect(CacheLocation.directory(environment: environment).path == directory.url.path + "/.cache/studykit")
        let path = try CacheLocation.databasePath(environment: environment)
        #expect(path == directory.url.path + "/.cache/studykit/studykit.sqlite3")
        // The cache opens there.
        let cache = try ResultCache(environment: environment)
        #expect(cache.path == path)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileInTheWayIsAClearError() throws {
        let directory = try CacheTestDirectory()
        let blocker = directory.url.appendingPathComponent("blocker").path
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        #expect(throws: CacheError.cannotCreateDirectory(path: blocker, reason: "a file with that name is in the way")) {
            _ = try CacheLocation.databasePath(environment: ["STUDYKIT_CACHE_DIR": blocker])
        }
    }
}
