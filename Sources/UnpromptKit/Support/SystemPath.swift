import Foundation

/// File and folder names are bytes, not text: a log may sit in a folder named in Latin-1 (`caf\xE9`) or hold a
/// byte no encoding explains. A path found on disk is kept as a `String` in which each byte that is not part of
/// valid UTF-8 stands as one scalar U+10FF80 + (byte − 0x80), a private-use scalar (PEP 383's "surrogateescape",
/// with private-use scalars, since a Swift string cannot hold a lone surrogate). A real U+10FF80…U+10FFFF in a
/// name is escaped byte by byte the same way, so the mapping is one to one and every path gives back exactly its
/// bytes. Only the system calls below see those bytes; a path that is valid UTF-8 is its own text, as before.
///
/// Paths are never printed, so no escaped scalar reaches a person.
enum SystemPath {
    private static let escapes: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The path a name read from the system spells (a directory entry, `realpath`'s answer).
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = 0
        func escape(_ byte: UInt8) { scalars.append(Unicode.Scalar(escapes.lowerBound + UInt32(byte - 0x80))!) }
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if escapes.contains(scalar.value) {
                    encoded.forEach(escape)
                } else {
                    scalars.append(scalar)
                }
                position += encoded.count
            case .error(let length):
                bytes[position..<(position + length)].forEach(escape)
                position += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The bytes a path stands for.
    static func bytes(_ path: String) -> [UInt8] {
        // An escape scalar is encoded F4 8F BE/BF xx: a path without 0xF4 is its own UTF-8.
        guard mayHoldEscapes(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - escapes.lowerBound) + 0x80)
            } else {
                bytes += String(scalar).utf8
            }
        }
        return bytes
    }

    /// Whether the path holds a byte 0xF4, which every escape scalar's UTF-8 starts with: `memchr` over the string's
    /// storage, since every path a scan finds, stats and hashes is asked this.
    private static func mayHoldEscapes(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, 0xF4, bytes.count) != nil } ?? false
        } ?? path.utf8.contains(0xF4)
    }

    /// Calls `body` with the path's bytes, copied only when it holds escaped ones.
    static func withBytes<T>(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if !mayHoldEscapes(path), let result = try path.utf8.withContiguousStorageIfAvailable({
            try body(UnsafeRawBufferPointer($0))
        }) {
            return result
        }
        return try bytes(path).withUnsafeBytes(body)
    }

    /// Calls `body` with the path as the system spells it, NUL-terminated.
    static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard mayHoldEscapes(path) else { return try path.withCString(body) }
        var terminated = bytes(path)
        terminated.append(0)
        return try terminated.withUnsafeBytes { try body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    /// Opens for reading without ever blocking: a FIFO (or a device) among the logs opens at once, and the
    /// caller, which reads only regular files (`isRegularFile`), refuses it instead of waiting for a writer.
    static func openForReading(_ path: String) -> Int32 {
        withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    }

    static func stat(_ path: String, _ info: inout stat) -> Bool {
        withCString(path) { systemStat($0, &info) } == 0
    }

    static func lstat(_ path: String, _ info: inout stat) -> Bool {
        withCString(path) { systemLstat($0, &info) } == 0
    }

    static func exists(_ path: String) -> Bool {
        var info = Foundation.stat()
        return stat(path, &info)
    }

    static func isRegularFile(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// A stat's modification time, in nanoseconds since 1970.
    static func modifiedNanoseconds(_ info: stat) -> Int64 {
        #if os(macOS)
            nanoseconds(info.st_mtimespec)
        #else
            nanoseconds(info.st_mtim)
        #endif
    }

    /// A stat's status change time, in nanoseconds since 1970.
    static func changedNanoseconds(_ info: stat) -> Int64 {
        #if os(macOS)
            nanoseconds(info.st_ctimespec)
        #else
            nanoseconds(info.st_ctim)
        #endif
    }

    private static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
}

// The system's calls, under names `SystemPath`'s own do not hide.
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { lstat(path, &info) }
