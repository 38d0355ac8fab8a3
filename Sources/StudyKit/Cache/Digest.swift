internal import CCrypto
import Foundation

// The only file that imports libcrypto: SHA-256 comes from OpenSSL's EVP interface, never
// from a hand-written implementation.

/// SHA-256 digests as lower-case hexadecimal text, computed by OpenSSL.
public enum SHA256Digest {
    /// The number of bytes in a SHA-256 digest.
    public static let byteCount = 32

    /// The hex digest of `bytes`, computed in one call to `EVP_Digest`.
    public static func hex(of bytes: Data) -> String {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP only fails when OpenSSL cannot allocate or load its default provider: the
        // process is broken beyond anything a caller could recover from.
        precondition(status == 1 && length == byteCount, "OpenSSL could not compute SHA-256")
        return hexText(digest)
    }

    /// The hex digest of the UTF-8 bytes of `text`.
    public static func hex(of text: String) -> String {
        hex(of: Data(text.utf8))
    }

    /// The hex digest of raw bytes.
    public static func hex(of bytes: [UInt8]) -> String {
        hex(of: Data(bytes))
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

    init() {
        guard let context = EVP_MD_CTX_new() else {
            preconditionFailure("OpenSSL could not allocate a digest context")
        }
        self.context = context
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "OpenSSL could not start SHA-256")
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Feeds raw bytes.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "OpenSSL could not hash")
    }

    /// Feeds the bytes of `data`.
    func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest; the hasher must not be used afterwards.
    func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: SHA256Digest.byteCount)
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { out in
            EVP_DigestFinal_ex(context, out.baseAddress, &length)
        }
        precondition(status == 1 && length == SHA256Digest.byteCount, "OpenSSL could not finish SHA-256")
        return SHA256Digest.hexText(digest)
    }
}
