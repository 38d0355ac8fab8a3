internal import CCrypto
import Foundation

// The only file that imports libcrypto: SHA-256 comes from OpenSSL's EVP interface, never
// from a hand-written implementation.

/// SHA-256 digests as lower-case hexadecimal text, computed by OpenSSL.
public enum SHA256Digest {
    /// The number of bytes in a SHA-256 digest.
    public static let byteCount = 32

    /// The hex digest of `bytes`, computed in one call to `EVP_Digest`.
    /// - Throws: ``CacheError/digestFailed(_:)`` when OpenSSL cannot hash (it could not allocate
    ///   or load its default provider).
    public static func hex(of bytes: Data) throws(CacheError) -> String {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        guard status == 1, length == byteCount else { throw .digestFailed("EVP_Digest") }
        return hexText(digest)
    }

    /// The hex digest of the UTF-8 bytes of `text`.
    public static func hex(of text: String) throws(CacheError) -> String {
        try hex(of: Data(text.utf8))
    }

    /// The hex digest of raw bytes.
    public static func hex(of bytes: [UInt8]) throws(CacheError) -> String {
        try hex(of: Data(bytes))
    }

    fileprivate static func hexText(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// An incremental SHA-256 over an `EVP_MD_CTX`, so a cache key can hash large content field by
/// field without first concatenating everything into one buffer.
///
/// Not `Sendable`: one hasher belongs to one computation. The context is freed in `deinit`.
final class SHA256Hasher {
    private let context: OpaquePointer

    /// Starts a digest. Throws ``CacheError/digestFailed(_:)`` when OpenSSL cannot.
    init() throws(CacheError) {
        guard let context = EVP_MD_CTX_new() else { throw .digestFailed("EVP_MD_CTX_new") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw .digestFailed("EVP_DigestInit_ex")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Feeds raw bytes.
    func update(_ bytes: UnsafeRawBufferPointer) throws(CacheError) {
        guard bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, bytes.baseAddress,
            bytes.count) == 1 else { throw .digestFailed("EVP_DigestUpdate") }
    }

    /// Feeds the bytes of `data`.
    func update(_ data: Data) throws(CacheError) {
        var failure: CacheError?
        data.withUnsafeBytes { buffer in
            do throws(CacheError) { try update(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Finishes the digest; the hasher must not be used afterwards.
    func finalizeHex() throws(CacheError) -> String {
        var digest = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { out in
            EVP_DigestFinal_ex(context, out.baseAddress, &length)
        }
        guard status == 1, length == SHA256Digest.byteCount else { throw .digestFailed("EVP_DigestFinal_ex") }
        return SHA256Digest.hexText(digest)
    }
}
