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
        // The output holds deflateBound's worst case, so one call finishes the stream.
        let capacity = Int(deflateBound(&stream, uLong(bytes.count)))
        let (status, output) = finish(&stream, bytes, capacity: capacity) { CZlib.deflate(&$0, Z_FINISH) }
        return status == Z_STREAM_END ? output : nil
    }

    /// The bytes of a raw deflate stream that inflates to exactly `size` bytes; `nil` when it
    /// is corrupt or of another length.
    static func inflate(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard studykit_inflate_init_raw(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        let (status, output) = finish(&stream, bytes, capacity: size) { CZlib.inflate(&$0, Z_FINISH) }
        return status == Z_STREAM_END && output.count == size ? output : nil
    }

    /// One `call` over the whole of `input` into a buffer of `capacity` bytes: its status and
    /// the bytes it wrote.
    private static func finish(
        _ stream: inout z_stream, _ input: [UInt8], capacity: Int, _ call: (inout z_stream) -> Int32
    ) -> (status: Int32, output: [UInt8]) {
        var input = input
        var output = [UInt8](repeating: 0, count: capacity)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return call(&stream)
            }
        }
        return (status, Array(output.prefix(Int(stream.total_out))))
    }

    /// CRC-32 (the IEEE polynomial, reflected), as zip records it for each entry.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
