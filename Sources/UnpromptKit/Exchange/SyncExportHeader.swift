import Foundation

/// What an export file says of itself before its document (version 2 on): a zstd skippable frame, which every
/// zstd decoder passes over, holding `{"format":"unprompt-sync","version":2,"device":"<id>","sequence":N,
/// "bytes":M}` (M: the length of the document's frame that follows). A sync reads these few bytes of every file
/// and the whole file only when its sequence is newer than the device's import: syncing a folder of unchanged
/// exports reads almost nothing. A file without one (version 1), or whose length is not the header's, is read
/// whole, as before.
struct SyncExportHeader: Equatable {
    let version: Int64
    let device: String
    let sequence: Int64
    /// The length of the document's frame after the header.
    let frameBytes: Int

    /// The first of zstd's skippable frame magic numbers (0x184D2A50 … 0x184D2A5F), little-endian.
    static let magic: [UInt8] = [0x50, 0x2A, 0x4D, 0x18]
    /// A header is never longer (32 hex digits and two numbers).
    static let maxBytes = 256

    /// The header's frame, before a document frame of `frameBytes` bytes.
    func frame() -> [UInt8] {
        var json = JSONBytes(capacity: 160)
        json.raw("{\"format\":")
        json.string(SyncExport.format)
        json.raw(",\"version\":")
        json.integer(version)
        json.raw(",\"device\":")
        json.string(device)
        json.raw(",\"sequence\":")
        json.integer(sequence)
        json.raw(",\"bytes\":")
        json.integer(Int64(frameBytes))
        json.byte("}")
        let size = UInt32(json.bytes.count)
        return Self.magic + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + json.bytes
    }

    /// The header at the start of a file of `fileBytes` bytes, given its first bytes; nil when there is none,
    /// or when the file is not as long as the header says (cut short, or something else).
    static func read(prefix: [UInt8], fileBytes: Int) -> SyncExportHeader? {
        guard prefix.count >= 8, Array(prefix[0..<4]) == magic else { return nil }
        let size = (0..<4).reduce(0) { $0 | Int(prefix[4 + $1]) << (8 * $1) }
        guard size <= maxBytes, prefix.count >= 8 + size else { return nil }
        var bytes = Array(prefix[8..<(8 + size)]) + repeatElement(0, count: JSONParser.padding)
        let parser = JSONParser()
        let header: SyncExportHeader? = bytes.withUnsafeMutableBytes { raw in
            guard let root = try? parser.parse(raw.baseAddress!, count: size), case .object = parser.value(of: root) else { return nil }
            var fields: [String: JSONValue] = [:]
            for (key, value) in parser.entries(of: root) { fields[key] = parser.value(of: value) }
            guard fields.count == 5, case .string(let format)? = fields["format"],
                String(decoding: format, as: UTF8.self) == SyncExport.format, case .int(let version)? = fields["version"],
                case .string(let id)? = fields["device"], case .int(let sequence)? = fields["sequence"],
                case .int(let frameBytes)? = fields["bytes"], frameBytes >= 0, frameBytes <= Int64(Int32.max)
            else { return nil }
            let device = String(decoding: id, as: UTF8.self)
            guard SyncExport.isDeviceID(device) else { return nil }
            return SyncExportHeader(version: version, device: device, sequence: sequence, frameBytes: Int(frameBytes))
        }
        guard let header, 8 + size + header.frameBytes == fileBytes else { return nil }
        return header
    }

    /// The header of the file at `path`, reading only its first bytes; nil when it has none (or cannot be read:
    /// the whole read then says why).
    static func read(path: String) -> SyncExportHeader? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        var prefix = [UInt8](repeating: 0, count: 8 + maxBytes)
        let count = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return read(prefix: Array(prefix[..<count]), fileBytes: Int(status.st_size))
    }
}
