import Foundation

/// A whole file read into memory, with the padding the JSON parser needs after it.
final class DocumentBytes {
    let base: UnsafeMutableRawPointer
    /// Bytes read: the file's size, or fewer when it shrank while being read.
    let count: Int

    private init(base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { base.deallocate() }

    enum Outcome {
        case read(DocumentBytes)
        /// Larger than the limit: not read.
        case tooLarge(size: Int)
    }

    /// A source read whole: the file open at `fd`, or nil when it is larger than `limit` bytes, which `result`
    /// then holds as one `document-too-large` skip, its end the file's size (read again only once it changes).
    static func read(source fd: Int32, limit: Int, into result: inout SourceReadResult) throws(SourceReadError) -> DocumentBytes? {
        switch try read(fd: fd, limit: limit) {
        case .read(let bytes): return bytes
        case .tooLarge(let size):
            result.lines = 1
            result.endOffset = Int64(size)
            result.skip(SkipReason.documentTooLarge, line: 1, problem: true)
            return nil
        }
    }

    /// Reads the file open at `fd` from its start, unless it is larger than `limit` bytes.
    static func read(fd: Int32, limit: Int) throws(SourceReadError) -> Outcome {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SourceReadError(errno: errno, operation: "stat") }
        guard SystemPath.isRegularFile(info) else { throw .notARegularFile }
        let size = Int(info.st_size)
        if size > limit { return .tooLarge(size: size) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + JSONParser.padding, alignment: 64)
        var filled = 0
        while filled < size {
            let n = pread(fd, buffer + filled, size - filled, off_t(filled))
            if n < 0 {
                if errno == EINTR { continue }
                let error = SourceReadError(errno: errno, operation: "read")
                buffer.deallocate()
                throw error
            }
            if n == 0 { break }  // shrank while read: what is here is the document (or a malformed one)
            filled += n
        }
        return .read(DocumentBytes(base: buffer, count: filled))
    }
}
