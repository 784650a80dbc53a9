import Foundation

/// What a tool hands to its status line command on standard input (`StatusLineRule`): one JSON document, of
/// which only the rule's windows are read, as plan-limit samples taken at the moment it arrived. The document
/// holds paths, a session id and a model name; none of it is kept, and nothing of it but the numbers the
/// windows name leaves this function.
public enum StatusLinePayload: Sendable {
    /// A payload is a few kilobytes; anything past this is not read.
    public static let maxBytes = 1 << 20

    /// The readings `document` holds for `reader`'s status line, taken at `now` (milliseconds since 1970).
    /// A window whose used share is missing, not a number, negative or not finite gives no reading. Throws when
    /// the document is not JSON.
    public static func readings(_ document: [UInt8], of reader: StatusLineReader, now: Int64) throws(StatusLinePayloadError)
        -> [LimitSample]
    {
        guard document.count <= maxBytes else {
            throw StatusLinePayloadError(message: "standard input holds more than \(maxBytes) bytes: not a status line payload")
        }
        let input = CompiledInput(
            Input(sources: [], prefilter: [], carry: [], records: [], limits: [reader.rule.limitRule], formatRules: .json(siblings: [])),
            descriptor: Descriptor(
                id: reader.tool, name: reader.tool, identitySpace: reader.tool, inputs: [], derivedWindow: nil,
                statusLine: reader.rule, file: reader.file))
        let parser = JSONParser()
        let root: JSONRef
        switch document.withUnsafeBytes({ bytes in Result { () throws(JSONParseError) in try parser.parse(copying: bytes) } }) {
        case .success(let parsed): root = parsed
        case .failure(let error): throw StatusLinePayloadError(message: "standard input is not JSON (\(error.message))")
        }
        parser.extract(JSONPathSet(input.rootPointers), in: root)
        var result = SourceReadResult()
        var state = SourceState()
        RecordExtractor(input: input, timeZone: TimeZone(identifier: "UTC")!, sourceKey: "", path: "", readAt: now)
            .process(root: root, parser: parser, line: 1, state: &state, into: &result)
        return result.limits.filter { sample in sample.usedPercent.map { $0.isFinite && $0 >= 0 } ?? false }
    }
}

extension StatusLinePayload {
    private static let key = NeedleSet([Needle(Array("status_line".utf8))])

    /// The status lines the descriptors in `directories` declare: only the files whose text holds `status_line`
    /// are decoded, and of those only that section (`DescriptorLoader.statusLine`).
    public static func readers(in directories: [String]) -> (found: [StatusLineReader], errors: [DescriptorError]) {
        var found: [StatusLineReader] = []
        var errors: [DescriptorError] = []
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                errors.append(DescriptorError(file: directory, mark: SourceMark(line: 1, column: 1), message: "cannot list the readers directory"))
                continue
            }
            for name in names.sorted() where name.hasSuffix(".yaml") {
                let path = directory + "/" + name
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    errors.append(DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: "cannot read the file"))
                    continue
                }
                let mentioned = bytes.withUnsafeBytes { text in
                    text.baseAddress.map { key.firstOffset(in: $0, count: text.count) != nil } ?? false
                }
                guard mentioned else { continue }
                do {
                    let reader = try DescriptorLoader.statusLine(
                        text: String(decoding: bytes, as: UTF8.self), file: path, expectedID: String(name.dropLast(".yaml".count)))
                    if let reader { found.append(reader) }
                } catch {
                    errors.append(error)
                }
            }
        }
        return (found, errors)
    }
}

/// A status line payload that cannot be read: said without quoting it.
public struct StatusLinePayloadError: Error, Sendable {
    public let message: String
}
