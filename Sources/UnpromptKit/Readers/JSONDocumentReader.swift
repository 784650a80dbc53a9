import Foundation

/// Reads a whole JSON document, rewritten in place by its tool (a session file, a task's message list).
///
/// Contract:
/// - The document is read whole on every change and parsed once; record rules `select` its records (for
///   example `messages[]`). Identities keep a record read again from counting again, and cumulative
///   baselines in `state` make a growing total count only its growth.
/// - A document that is not complete JSON (being written, or truncated) is one `malformed-json` skip and
///   gives no events; the next change reads it again.
/// - The input's sibling documents (`SiblingReader`) are read with it, after it parsed; a sibling that cannot
///   be read makes the whole source unreadable.
/// - Memory is bounded by the document (up to `maxDocumentBytes`; a larger one is skipped and counted).
final class JSONDocumentReader: SourceReader {
    static let maxDocumentBytes = 256 << 20

    private let input: CompiledInput
    private let rootPaths: JSONPathSet
    private let timeZone: TimeZone
    private let parser = JSONParser()
    /// Model ids read, kept from source to source (`ModelCache`).
    private let models = ModelCache()
    private let siblings: SiblingReader?

    init(input: CompiledInput, siblings: CompiledSiblings?, timeZone: TimeZone) {
        self.input = input
        rootPaths = JSONPathSet(input.rootPointers)
        self.timeZone = timeZone
        self.siblings = siblings.map { SiblingReader(rules: $0, timeZone: timeZone) }
    }

    var resumesAtOffset: Bool { false }

    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        var result = SourceReadResult()
        result.state = state
        guard let document = try DocumentBytes.read(source: fd, limit: JSONDocumentReader.maxDocumentBytes, into: &result) else { return result }
        result.endOffset = Int64(document.count)
        // An empty file holds no document yet: nothing to read, nothing to skip.
        if document.count == 0 { return result }
        let root: JSONRef
        do {
            root = try parser.parseLog(document.base, count: document.count)
        } catch {
            result.lines = 1
            result.skip(SkipReason.malformedJSON, line: 1, problem: true)
            return result
        }
        result.lines = 1
        let values = try siblings?.values(besides: path, into: &result)
        parser.extract(rootPaths, in: root)
        let extractor = RecordExtractor(input: input, timeZone: timeZone, sourceKey: sourceKey, path: path, models: models)
        var documentState = result.state
        extractor.process(root: root, parser: parser, line: 1, state: &documentState, into: &result, siblings: values)
        result.state = documentState
        return result
    }
}
