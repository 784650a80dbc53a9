import Foundation

/// A `jsonl` input's journal, compiled once: where each line holds its operation, path, value and cut index.
final class CompiledJournal: Sendable {
    let operation: JSONPointer
    let path: JSONPointer
    let value: JSONPointer
    let index: JSONPointer?
    let operations: [JournalRules.Code: JournalRules.Operation]
    let keepRemoved: Bool

    init(_ rules: JournalRules) {
        keepRemoved = rules.keepRemoved
        operation = RuleCompiler.pointer(rules.operation)
        path = RuleCompiler.pointer(rules.path)
        value = RuleCompiler.pointer(rules.value)
        index = rules.index.map(RuleCompiler.pointer)
        operations = rules.operations
    }
}

/// Reads a patch journal: a file of JSON lines that rebuild one document (`JournalDocument`), whose records are
/// then read as from a `json` document.
///
/// Contract:
/// - The whole file is replayed from its first line on every change, as a document is read whole: a journal
///   the tool compacts is rewritten as one snapshot, shorter than before, so no byte offset or state could be
///   continued. Identities keep a record read again, in the same or in a compacted file, from counting again.
/// - Only complete lines (ending in `\n`) are applied; the tool ends every line so, and an unterminated last
///   line is a write in progress that the next change reads whole.
/// - A line that is not JSON, a patch that cannot be applied and an unknown operation are each skipped and
///   counted under their reason, with their line, and the read goes on; the records that depend on what they
///   would have changed are refused (`journal-damaged`), and the others are read. (The tool's own reader gives
///   up on the whole file instead; counting the rest keeps one bad line from hiding a session's usage.)
/// - With `keep_removed`, the elements an append's cut removed from the arrays the record rules select are read
///   too, after the document, as they were when cut: the tool drops a replaced or deleted request from its
///   document, but its call was made.
/// - Memory is bounded: a file or a rebuilt document larger than `maxDocumentBytes` is one
///   `document-too-large` skip.
final class JournalReader: SourceReader {
    static let maxDocumentBytes = JSONDocumentReader.maxDocumentBytes

    private let input: CompiledInput
    private let journal: CompiledJournal
    private let rootPaths: JSONPathSet
    private let timeZone: TimeZone
    private let parser = JSONParser()
    /// Model ids read, kept from source to source (`ModelCache`).
    private let models = ModelCache()
    /// The largest file, and the largest rebuilt document, read.
    private let limit: Int

    /// With `keep_removed`: the arrays the record rules select.
    private let watched: Set<[JSONPointer.Component]>

    init(input: CompiledInput, journal: CompiledJournal, timeZone: TimeZone, limit: Int = JournalReader.maxDocumentBytes) {
        self.input = input
        watched = journal.keepRemoved ? Set(input.records.compactMap { $0.selectPointer?.components }) : []
        self.limit = limit
        self.journal = journal
        rootPaths = JSONPathSet(input.rootPointers)
        self.timeZone = timeZone
    }

    var resumesAtOffset: Bool { false }

    func read(fd: Int32, path: String, sourceKey: String, from offset: Int64, state: SourceState) throws(SourceReadError)
        -> SourceReadResult
    {
        var result = SourceReadResult()
        result.state = state
        guard let file = try DocumentBytes.read(source: fd, limit: limit, into: &result) else { return result }
        let document = JournalDocument(keepingRemovedFrom: watched)
        var start = 0
        if file.count >= 3, memcmp(file.base, LineReader.byteOrderMark, 3) == 0 { start = 3 }
        while start < file.count, let newline = memchr(file.base + start, 0x0A, file.count - start) {
            let end = file.base.distance(to: newline)
            result.lines += 1
            apply(line: start..<end, of: file, number: result.lines, to: document, into: &result)
            start = end + 1
            result.endOffset = Int64(start)
        }
        guard document.root != nil else { return result }
        guard let text = document.text(limit: limit) else {
            result.skip(SkipReason.documentTooLarge, line: result.lines, problem: true)
            return result
        }
        let root: JSONRef
        do {
            root = try text.withUnsafeBytes { (bytes) throws(JSONParseError) in try parser.parse(copying: bytes) }
        } catch {
            // Every value in it was parsed before; a failure here would be a bug, never a reason to guess.
            result.skip(SkipReason.malformedJSON, line: result.lines, problem: true)
            return result
        }
        let extractor = RecordExtractor(input: input, timeZone: timeZone, sourceKey: sourceKey, path: path, models: models)
        var documentState = result.state
        let damage = document.damage
        parser.extract(rootPaths, in: root)
        extractor.process(
            root: root, parser: parser, line: result.lines, state: &documentState, into: &result,
            damage: damage.isEmpty ? nil : damage)
        // Elements cut from the selected arrays: read after the document, so a copy still in it counts first.
        for _ in 0..<document.removedDamaged {
            result.records += 1
            result.skip(SkipReason.journalDamaged, line: result.lines)
        }
        if document.hasRemoved {
            if let removed = document.removedText(limit: limit) {
                do {
                    let removedRoot = try removed.withUnsafeBytes { (bytes) throws(JSONParseError) in try parser.parse(copying: bytes) }
                    parser.extract(rootPaths, in: removedRoot)
                    extractor.process(root: removedRoot, parser: parser, line: result.lines, state: &documentState, into: &result)
                } catch {
                    result.skip(SkipReason.malformedJSON, line: result.lines, problem: true)
                }
            } else {
                result.skip(SkipReason.documentTooLarge, line: result.lines, problem: true)
            }
        }
        result.state = documentState
        return result
    }

    /// Applies one line; a line that cannot be applied is skipped and counted (see the contract).
    private func apply(
        line range: Range<Int>, of file: DocumentBytes, number: Int, to document: JournalDocument,
        into result: inout SourceReadResult
    ) {
        let bytes = UnsafeRawBufferPointer(start: file.base + range.lowerBound, count: range.count)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let line: JSONRef
        do {
            line = try parser.parseLog(bytes.baseAddress!, count: bytes.count)
        } catch {
            // What it would have changed is not known: nothing read from the document before the next snapshot
            // can be trusted.
            result.skip(SkipReason.malformedJSON, line: number, problem: true)
            document.damageAll()
            return
        }
        do {
            try patch(line, document)
        } catch {
            result.skip(error.reason, line: number, problem: true)
        }
    }

    private enum PatchError: Error {
        case failure(JournalDocument.Failure)
        case unknownOperation

        var reason: String {
            switch self {
            case .failure(let failure): failure.reason
            case .unknownOperation: SkipReason.journalUnknownOperation
            }
        }
    }

    private func patch(_ line: JSONRef, _ document: JournalDocument) throws(PatchError) {
        let code: JournalRules.Code? =
            switch parser.value(at: journal.operation, in: line) {
            case .int(let value)?: .integer(value)
            case .string(let bytes)?: .text(String(decoding: bytes, as: UTF8.self))
            default: nil
            }
        guard let code, let operation = journal.operations[code] else {
            if document.root == nil { throw .failure(.noSnapshot) }
            document.damageAll()
            throw .unknownOperation
        }
        if operation == .snapshot {
            guard let value = json(at: journal.value, in: line) else {
                // The document was to be replaced by what is not there: nothing of the old one holds.
                document.damageAll()
                throw .failure(.badValue)
            }
            document.snapshot(value)
            return
        }
        guard document.root != nil else { throw .failure(.noSnapshot) }
        guard let path = steps(in: line) else {
            document.damageAll()
            throw .failure(.badValue)
        }
        do throws(JournalDocument.Failure) {
            switch operation {
            case .snapshot: break
            case .set:
                guard let value = json(at: journal.value, in: line) else { throw JournalDocument.Failure.badValue }
                try document.set(path, to: value)
            case .append:
                guard let elements = elements(at: journal.value, in: line), case .success(let cut) = cutIndex(in: line) else {
                    throw JournalDocument.Failure.badValue
                }
                try document.append(path, elements: elements, cut: cut)
            case .delete:
                try document.delete(path)
            }
        } catch {
            if error == .badValue { document.damage(at: path) }
            throw .failure(error)
        }
    }

    /// An append's elements: its value's, when it is an array; none when it is absent or null; nil otherwise.
    private func elements(at pointer: JSONPointer, in line: JSONRef) -> [[UInt8]]? {
        switch parser.value(at: pointer, in: line) {
        case nil, .null?: []
        case .array(let array)?: parser.elements(of: array).map { ref in parser.withMinifiedJSON(of: ref) { Array($0) } }
        default: nil
        }
    }

    /// An append's cut index: nil when it has none; a failure when it is not a whole number from 0.
    private func cutIndex(in line: JSONRef) -> Result<Int?, JournalDocument.Failure> {
        guard let pointer = journal.index else { return .success(nil) }
        switch parser.value(at: pointer, in: line) {
        case nil, .null?: return .success(nil)
        case .int(let value)? where value >= 0 && value <= Int64(Int32.max): return .success(Int(value))
        default: return .failure(.badValue)
        }
    }

    /// The line's path as steps: a JSON array of strings (keys) and whole numbers (indices); nil otherwise.
    private func steps(in line: JSONRef) -> [JSONPointer.Component]? {
        guard case .array(let array)? = parser.value(at: journal.path, in: line) else { return nil }
        var steps: [JSONPointer.Component] = []
        for element in parser.elements(of: array) {
            switch parser.value(of: element) {
            case .string(let bytes): steps.append(.key(String(decoding: bytes, as: UTF8.self)))
            case .int(let index) where index >= 0 && index <= Int64(Int32.max): steps.append(.index(Int(index)))
            default: return nil
            }
        }
        return steps
    }

    /// The JSON text of the value at `pointer` in the line, or nil when it is absent.
    private func json(at pointer: JSONPointer, in line: JSONRef) -> [UInt8]? {
        var ref = line
        for component in pointer.components {
            switch (parser.value(of: ref), component) {
            case (.object(let object), .key(let key)):
                guard let entry = parser.entries(of: object).first(where: { $0.key == key }) else { return nil }
                ref = entry.value
            case (.array(let array), .index(let index)):
                let elements = parser.elements(of: array)
                guard index < elements.count else { return nil }
                ref = elements[index]
            default: return nil
            }
        }
        return parser.withMinifiedJSON(of: ref) { Array($0) }
    }
}
