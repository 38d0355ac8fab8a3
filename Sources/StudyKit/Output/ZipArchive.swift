import Foundation

/// A zip file, as Anki reads an `.apkg`: each entry deflated (method 8, zlib), or stored
/// (method 0) when deflating does not make it smaller (a two-byte `media` map).
///
/// PKWARE's APPNOTE layout: for each entry a local file header and the bytes, then the central
/// directory (one header per entry, pointing back at its local header), then the end-of-central-
/// directory record. Deflate and CRC-32 come from zlib (``Zlib``). Limits: fewer than 65,535
/// entries and 4 GiB in all (no ZIP64), which an Anki package of study cards never nears.
struct ZipArchive {
    /// One file of the archive.
    struct Entry {
        /// The path inside the archive, ASCII, `/`-separated.
        let name: String
        let bytes: [UInt8]
    }

    private(set) var entries: [Entry] = []
    /// The modification time recorded for every entry.
    let date: Date

    /// An empty archive whose entries carry `date` (MS-DOS time, UTC, two-second steps).
    init(date: Date) { self.date = date }

    /// Adds a file.
    mutating func add(_ name: String, _ bytes: [UInt8]) {
        entries.append(Entry(name: name, bytes: bytes))
    }

    /// The archive's bytes.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        var central: [UInt8] = []
        let (time, day) = Self.dosTimeAndDate(date)
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = Self.crc32(entry.bytes)
            let offset = UInt32(output.count)
            let packed = Self.packed(entry.bytes)
            // Version needed to extract: 2.0 for deflate, 1.0 for stored. Flags bit 1: deflated
            // at the maximum compression (informational).
            let version: UInt16 = packed.method == 8 ? 20 : 10
            let flags: UInt16 = packed.method == 8 ? 0x0002 : 0
            // Local file header.
            output.append(le: UInt32(0x0403_4B50))
            output.append(le: version)
            output.append(le: flags)
            output.append(le: packed.method)
            output.append(le: time)
            output.append(le: day)
            output.append(le: crc)
            output.append(le: UInt32(packed.bytes.count))  // compressed size
            output.append(le: UInt32(entry.bytes.count))  // uncompressed size
            output.append(le: UInt16(name.count))
            output.append(le: UInt16(0))  // extra field length
            output += name
            output += packed.bytes
            // Central directory header.
            central.append(le: UInt32(0x0201_4B50))
            central.append(le: UInt16(0x031E))  // made by: Unix, spec 3.0
            central.append(le: version)
            central.append(le: flags)
            central.append(le: packed.method)
            central.append(le: time)
            central.append(le: day)
            central.append(le: crc)
            central.append(le: UInt32(packed.bytes.count))
            central.append(le: UInt32(entry.bytes.count))
            central.append(le: UInt16(name.count))
            central.append(le: UInt16(0))  // extra
            central.append(le: UInt16(0))  // comment
            central.append(le: UInt16(0))  // disk number
            central.append(le: UInt16(0))  // internal attributes
            central.append(le: UInt32(0o100644) << 16)  // external: a regular file, rw-r--r--
            central.append(le: offset)
            central += name
        }
        let centralOffset = UInt32(output.count)
        output += central
        // End of central directory.
        output.append(le: UInt32(0x0605_4B50))
        output.append(le: UInt16(0))  // this disk
        output.append(le: UInt16(0))  // disk with the central directory
        output.append(le: UInt16(entries.count))
        output.append(le: UInt16(entries.count))
        output.append(le: UInt32(central.count))
        output.append(le: centralOffset)
        output.append(le: UInt16(0))  // comment length
        return output
    }

    // MARK: - Compression, CRC-32 and dates

    /// An entry's bytes as the archive holds them: deflated (method 8) when that is smaller,
    /// else as they are (method 0, stored).
    static func packed(_ bytes: [UInt8]) -> (method: UInt16, bytes: [UInt8]) {
        if let deflated = Zlib.deflate(bytes), deflated.count < bytes.count { return (8, deflated) }
        return (0, bytes)
    }

    /// CRC-32 as zip (and zlib's `crc32`) computes it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 { Zlib.crc32(bytes) }

    /// MS-DOS time and date fields in UTC; dates before 1980 (which DOS cannot hold) become 1980-01-01.
    static func dosTimeAndDate(_ date: Date) -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard let year = parts.year, year >= 1980, year <= 2107 else { return (0, UInt16(1 << 5 | 1)) }
        let time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        let day = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
        return (time, day)
    }
}

private extension Array where Element == UInt8 {
    /// Appends `value` little-endian, as every zip field is.
    mutating func append<Value: FixedWidthInteger>(le value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
