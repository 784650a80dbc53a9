import Foundation
internal import CByteScan

/// Reads an appended file of lines from a byte offset, streaming through one reusable buffer: JSON Lines
/// (each line one JSON object), or text lines turned into records by the input's patterns (`TextPatterns`).
///
/// Contract:
/// - Only complete lines (ending in `\n`) are consumed; `endOffset` is the end of the last one, so a line
///   still being written is read whole by the next scan.
/// - Lines containing none of the prefilter strings are never parsed; the search runs over the whole
///   buffer with a SIMD scan (`Needle`), so such lines cost only the newline count.
/// - Memory is bounded by `maxLineBytes` whatever the input: a longer line is skipped while it streams past,
///   never held whole, and counted (`line-too-long`).
/// - A UTF-8 byte order mark at the start of the file is not part of its first line.
/// - An I/O error throws, and the caller must then keep nothing from this read.
final class LineReader: SourceReader {
    /// The longest line read: far above any usage record (a model's whole answer is well under a megabyte), and
    /// low enough that two workers at once stay within the memory budget (DESIGN.md, "Performance budget").
    public static let maxLineBytes = 8 << 20
    static let initialCapacity = 1 << 18
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private let input: CompiledInput
    private let rootPaths: JSONPathSet
    private let needles: NeedleSet
    private let timeZone: TimeZone
    private let parser = JSONParser()
    /// Model ids read, kept from source to source (`ModelCache`).
    private let models = ModelCache()
    /// For text inputs: the patterns that turn a line into a record.
    private let patterns: TextPatterns?
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int

    /// `patterns`: for a text input, its line patterns; nil for JSON lines.
    init(input: CompiledInput, patterns: [TextPattern]?, timeZone: TimeZone) {
        self.input = input
        rootPaths = JSONPathSet(input.rootPointers)
        needles = NeedleSet(input.prefilter.map(Needle.init))
        self.timeZone = timeZone
        self.patterns = patterns.map(TextPatterns.init)
        capacity = LineReader.initialCapacity
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity + JSONParser.padding, alignment: 64)
    }

    deinit { buffer.deallocate() }

    var resumesAtOffset: Bool { true }

    /// Reads an open file from `offset`, continuing `state`. The caller keeps the descriptor.
    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        if offset > 0, lseek(fd, off_t(offset), SEEK_SET) < 0 {
            throw SourceReadError(errno: errno, operation: "seek")
        }
        var result = SourceReadResult()
        result.state = state
        result.endOffset = offset
        let extractor = RecordExtractor(input: input, timeZone: timeZone, sourceKey: sourceKey, path: path, models: models)
        var filled = 0
        var discarding = false  // inside a line longer than maxLineBytes
        var discarded: Int64 = 0  // its bytes dropped so far; consumed only once its newline is seen
        while true {
            if filled == capacity {
                if capacity < LineReader.maxLineBytes {
                    grow()
                } else {
                    // One line fills the largest buffer: drop what we have and skip to its end.
                    discarded += Int64(filled)
                    filled = 0
                    discarding = true
                }
            }
            let n = Foundation.read(fd, buffer + filled, capacity - filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw SourceReadError(errno: errno, operation: "read")
            }
            if n == 0 { break }
            let searchFrom = filled
            filled += n
            guard let lastNewline = ubs_memrchr(buffer + searchFrom, 0x0A, filled - searchFrom) else { continue }
            let end = UnsafeRawPointer(buffer).distance(to: lastNewline) + 1
            var start = 0
            if result.endOffset == 0, end >= 3, memcmp(buffer, LineReader.byteOrderMark, 3) == 0 { start = 3 }
            if discarding {
                let firstNewline = memchr(buffer, 0x0A, end)!
                start = buffer.distance(to: firstNewline) + 1
                result.lines += 1
                result.skip(SkipReason.lineTooLong, line: result.lines, problem: true)
                result.endOffset += discarded
                discarded = 0
                discarding = false
            }
            processLines(from: start, to: end, fileOffset: result.endOffset, extractor: extractor, into: &result)
            result.endOffset += Int64(end)
            filled -= end
            if filled > 0 { memmove(buffer, buffer + end, filled) }
        }
        return result
    }

    /// The read buffer's size now: at most `maxLineBytes` (and the parser's padding).
    var bufferCapacity: Int { capacity }

    private func grow() {
        let bigger = min(capacity * 2, LineReader.maxLineBytes)
        let next = UnsafeMutableRawPointer.allocate(byteCount: bigger + JSONParser.padding, alignment: 64)
        next.copyMemory(from: buffer, byteCount: capacity)
        buffer.deallocate()
        buffer = next
        capacity = bigger
    }

    /// Processes the complete lines in `buffer[start..<end]` (`end` is just past a newline).
    /// `fileOffset` is the file offset of `buffer[0]`.
    private func processLines(
        from start: Int, to end: Int, fileOffset: Int64, extractor: RecordExtractor, into result: inout SourceReadResult
    ) {
        var counted = start  // newlines before `counted` are already in result.lines
        var state = result.state
        defer { result.state = state }
        forEachCandidateLine(from: start, to: end) { lineStart, lineEnd in
            result.lines += ByteCount.count(0x0A, in: UnsafeRawBufferPointer(start: buffer + counted, count: lineStart - counted))
            counted = lineStart
            let lineNumber = result.lines + 1
            let root: JSONRef
            if let patterns {
                let line = UnsafeRawBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart)
                let record: [UInt8]
                switch patterns.record(for: line, offset: fileOffset + Int64(lineStart)) {
                case .record(let found): record = found
                case .none: return
                case .tooSlow:
                    result.skip(SkipReason.patternTooSlow, line: lineNumber, problem: true)
                    return
                }
                do {
                    root = try record.withUnsafeBytes { bytes throws(JSONParseError) in try parser.parse(copying: bytes) }
                } catch {
                    result.skip(SkipReason.badValue, line: lineNumber, problem: true)
                    return
                }
            } else {
                do {
                    root = try parser.parseLog(buffer + lineStart, count: lineEnd - lineStart)
                } catch {
                    if !isBlank(lineStart, lineEnd) { result.skip(SkipReason.malformedJSON, line: lineNumber, problem: true) }
                    return
                }
            }
            parser.extract(rootPaths, in: root)
            extractor.process(root: root, parser: parser, line: lineNumber, state: &state, into: &result)
        }
        result.lines += ByteCount.count(0x0A, in: UnsafeRawBufferPointer(start: buffer + counted, count: end - counted))
    }

    private func isBlank(_ start: Int, _ end: Int) -> Bool {
        UnsafeRawBufferPointer(start: buffer + start, count: end - start).allSatisfy {
            $0 == 0x20 || $0 == 0x09 || $0 == 0x0D
        }
    }

    /// Calls `body(lineStart, lineEnd)` in order for each line (newline excluded) containing a prefilter
    /// string, or for every line when there is no prefilter.
    private func forEachCandidateLine(from start: Int, to end: Int, _ body: (Int, Int) -> Void) {
        func lineBounds(around position: Int) -> (Int, Int) {
            var lineStart = start
            if position > start, let previous = ubs_memrchr(buffer + start, 0x0A, position - start) {
                lineStart = UnsafeRawPointer(buffer).distance(to: previous) + 1
            }
            let next = memchr(buffer + position, 0x0A, end - position)!
            return (lineStart, buffer.distance(to: next))
        }
        if needles.isEmpty {
            var position = start
            while position < end {
                let (lineStart, lineEnd) = lineBounds(around: position)
                body(lineStart, lineEnd)
                position = lineEnd + 1
            }
            return
        }
        var position = start
        while position < end, let hit = needles.firstOffset(in: buffer + position, count: end - position) {
            let (lineStart, lineEnd) = lineBounds(around: position + hit)
            body(lineStart, lineEnd)
            position = lineEnd + 1
        }
    }
}

/// A source that could not be read; nothing from it may be kept.
public struct SourceReadError: Error, Sendable, CustomStringConvertible {
    /// The system error, for I/O failures; nil for a failure the format reports (a database error).
    public let errno: Int32?
    public let operation: String
    private let detail: String

    public init(errno: Int32, operation: String) {
        self.errno = errno
        self.operation = operation
        detail = String(cString: strerror(errno))
    }

    public init(operation: String, detail: String) {
        errno = nil
        self.operation = operation
        self.detail = detail
    }

    public var description: String { "\(operation) failed: \(detail)" }

    /// A FIFO, socket or device where a log was expected: never read, since reading one could wait for ever.
    public static let notARegularFile = SourceReadError(operation: "open", detail: "not a regular file")
}
