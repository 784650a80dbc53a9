import Foundation

/// Reads one source of one input format into events. One reader per worker thread: it keeps buffers and
/// parsers between sources, so it is not shared.
///
/// Contract, for every format:
/// - A read either returns everything it found, with `endOffset` and `state` to resume from, or throws, and
///   the caller then keeps nothing of it (the checkpoint does not move).
/// - Formats that `resumesAtOffset` (appended files) continue from the checkpoint's byte offset and state;
///   a read from offset 0 starts from an empty state. The others (whole documents, databases) read the whole
///   source on every change, continuing `state` (cumulative baselines, a watermark), and identities keep a
///   record read again from counting again.
protocol SourceReader: AnyObject {
    var resumesAtOffset: Bool { get }
    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
}

extension SourceReader {
    /// Opens `path` and reads it from `offset`, continuing `state`.
    func read(path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        let fd = SystemPath.openForReading(path)
        guard fd >= 0 else { throw SourceReadError(errno: errno, operation: "open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SourceReadError(errno: errno, operation: "stat") }
        guard SystemPath.isRegularFile(info) else { throw .notARegularFile }
        return try read(fd: fd, path: path, sourceKey: sourceKey, from: offset, state: state)
    }
}

enum SourceReaders {
    /// The reader for an input's format.
    static func make(_ input: CompiledInput, timeZone: TimeZone) -> any SourceReader {
        switch input.formatRules {
        case .jsonl(nil): LineReader(input: input, patterns: nil, timeZone: timeZone)
        case .jsonl(let journal?): JournalReader(input: input, journal: journal, timeZone: timeZone)
        case .text(let patterns): LineReader(input: input, patterns: patterns, timeZone: timeZone)
        case .json(let siblings): JSONDocumentReader(input: input, siblings: siblings, timeZone: timeZone)
        case .sqlite(let queries): SQLiteSourceReader(input: input, queries: queries, timeZone: timeZone)
        }
    }
}
