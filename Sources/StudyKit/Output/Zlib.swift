internal import CZlib

/// zlib (Debian's `zlib1g`), the only file importing `CZlib`: raw deflate for the `.apkg`'s zip
/// entries, its inverse (which the tests read packages back with), and CRC-32.
enum Zlib {
    /// `bytes` compressed as a raw deflate stream (zip's method 8: no zlib header or trailer)
    /// at the best compression; `nil` when zlib fails (out of memory), and the caller keeps
    /// the bytes stored.
    static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard studykit_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                // The output holds deflateBound's worst case, so one call finishes the stream.
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// The bytes of a raw deflate stream that inflates to exactly `size` bytes; `nil` when it
    /// is corrupt or of another length.
    static func inflate(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard studykit_inflate_init_raw(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: size)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
        return output
    }

    /// CRC-32 (the IEEE polynomial, reflected), as zip records it for each entry.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
