import Foundation
import Testing
@testable import StudyKit

@Suite("SHA-256 digest")
struct DigestTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        var input: String
        var digest: String
        var testDescription: String { "\"\(input.prefix(12))\"" }
    }

    static let vectors: [Vector] = {
        let url = Bundle.module.url(forResource: "Fixtures/Cache/sha256-vectors", withExtension: "json")!
        return try! JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }()

    @Test("known vectors, one-shot", arguments: vectors)
    func oneShot(vector: Vector) throws {
        #expect(try SHA256Digest.hex(of: vector.input) == vector.digest)
    }

    @Test("known vectors, incremental context fed byte by byte", arguments: vectors)
    func incremental(vector: Vector) throws {
        let hasher = try SHA256Hasher()
        for byte in Array(vector.input.utf8) {
            try withUnsafeBytes(of: byte) { (bytes) throws(CacheError) in try hasher.update(bytes) }
        }
        #expect(try hasher.finalizeHex() == vector.digest)
    }

    @Test func emptyAndAbcArePinned() throws {
        #expect(try SHA256Digest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try SHA256Digest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
