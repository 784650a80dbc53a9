import Foundation

/// Hashes of a file's byte ranges, read with `pread` from an open descriptor so they describe exactly
/// the file that was read, even if its path now names another one.
enum SourceFingerprint {
    /// Bytes hashed at the start of a file: enough to tell two files apart, short enough to read on
    /// every scan that finds the file changed.
    static let headLength: Int64 = 1024
    /// Bytes hashed just before the checkpoint offset: they must still be there for a resume to be safe.
    static let tailLength: Int64 = 256

    /// The hash of `[offset, offset + length)`, or nil when those bytes are no longer all there.
    static func hash(fd: Int32, offset: Int64, length: Int64) -> String? {
        guard length > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        var hasher = IdentityHasher()
        bytes.withUnsafeBytes { hasher.combine($0) }
        return hasher.finalize().description
    }

    /// The checkpoint recorded after reading up to `end`, with the stat taken before the read (so a file
    /// that grew during the read is seen as changed next time). It fails when the bytes just read are no
    /// longer all there, or when the reader's state cannot be saved.
    static func checkpoint(
        fd: Int32, before: CheckpointStamp, end: Int64, state: SourceState
    ) throws(SourceReadError) -> Checkpoint {
        let headLength = min(headLength, end)
        let tailLength = min(tailLength, end)
        guard let head = hash(fd: fd, offset: 0, length: headLength),
            let tail = hash(fd: fd, offset: end - tailLength, length: tailLength)
        else { throw SourceReadError(errno: EIO, operation: "recording the checkpoint (re-reading the bytes just read)") }
        return try Checkpoint(
            device: before.device, inode: before.inode, size: before.size, modifiedNanoseconds: before.modifiedNanoseconds,
            offset: end, headLength: headLength, headHash: head, tailHash: tail, state: state)
    }

    /// Where a read of this file may start: the checkpoint's offset when the file is the one it
    /// describes and still holds the bytes read before; else 0 (truncated, replaced or rewritten: read
    /// again, and identities keep every record counted once).
    static func resumeOffset(fd: Int32, current: CheckpointStamp, checkpoint: Checkpoint?) -> Int64 {
        guard let checkpoint, current.device == checkpoint.device, current.inode == checkpoint.inode,
            current.size >= checkpoint.offset,
            hash(fd: fd, offset: 0, length: checkpoint.headLength) == checkpoint.headHash,
            hash(
                fd: fd, offset: checkpoint.offset - min(tailLength, checkpoint.offset),
                length: min(tailLength, checkpoint.offset)) == checkpoint.tailHash
        else { return 0 }
        return checkpoint.offset
    }

    /// What a checkpoint keeps of a stat, and a rescan compares: a source with the same stamp has nothing new
    /// (same file, same size, same modification time).
    static func stamp(_ info: stat) -> CheckpointStamp {
        CheckpointStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedNanoseconds: SystemPath.modifiedNanoseconds(info))
    }

    /// The stamp that says whether a source changed: for a format with a write-ahead log, the database's with its
    /// `-wal` file folded in (sizes added, the later modification time), so a write that so far reached only the
    /// WAL is seen as a change.
    static func changeStamp(_ stamp: CheckpointStamp, of path: String, format: Format) -> CheckpointStamp {
        guard format.hasWriteAheadLog else { return stamp }
        var wal = stat()
        guard SystemPath.stat(path + "-wal", &wal) else { return stamp }
        var combined = stamp
        combined.size += Int64(wal.st_size)
        combined.modifiedNanoseconds = max(stamp.modifiedNanoseconds, SystemPath.modifiedNanoseconds(wal))
        return combined
    }
}
