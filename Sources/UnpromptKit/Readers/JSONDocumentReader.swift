import Foundation

/// Reads a whole JSON document, rewritten in place by its tool (a session file, a task's message list).
///
/// Contract:
/// - The document is read whole on every change and parsed once; record rules `select` its records (for
///   example `messages[]`). Identities keep a record read again from counting again, and cumulative
///   baselines in `state` make a growing total count only its growth.
/// - A document that is not complete JSON (being written, or truncated) is one `malformed-json` skip and
///   gives no events; the next change reads it again.
/// - Memory is bounded by the document (up to `maxDocumentBytes`; a larger one is skipped and counted).
final class JSONDocumentReader: SourceReader {
    static let maxDocumentBytes = 256 << 20

    private let input: CompiledInput
    private let timeZone: TimeZone
    private let parser = JSONParser()

    init(input: CompiledInput, timeZone: TimeZone) {
        self.input = input
        self.timeZone = timeZone
    }

    var resumesAtOffset: Bool { false }

    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        var result = SourceReadResult()
        result.state = state
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SourceReadError(errno: errno, operation: "stat") }
        let size = Int(info.st_size)
        if size > JSONDocumentReader.maxDocumentBytes {
            result.lines = 1
            result.endOffset = Int64(size)
            result.skip(SkipReason.documentTooLarge, line: 1, problem: true)
            return result
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + JSONParser.padding, alignment: 64)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < size {
            let n = pread(fd, buffer + filled, size - filled, off_t(filled))
            if n < 0 {
                if errno == EINTR { continue }
                throw SourceReadError(errno: errno, operation: "read")
            }
            if n == 0 { break }  // shrank while read: what is here is the document (or a malformed one)
            filled += n
        }
        result.endOffset = Int64(filled)
        // An empty file holds no document yet: nothing to read, nothing to skip.
        if filled == 0 { return result }
        let root: JSONRef
        do {
            root = try parser.parse(buffer, count: filled)
        } catch {
            result.lines = 1
            result.skip(SkipReason.malformedJSON, line: 1, problem: true)
            return result
        }
        result.lines = 1
        parser.extract(input.rootPaths, in: root)
        let extractor = RecordExtractor(input: input, timeZone: timeZone, sourceKey: sourceKey)
        var documentState = result.state
        extractor.process(root: root, parser: parser, line: 1, state: &documentState, into: &result)
        result.state = documentState
        return result
    }
}
