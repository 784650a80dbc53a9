/// What a reader remembers about one source between records, and between scans: values carried from
/// earlier records and the last running totals of cumulative records. It is saved with the checkpoint, so a
/// resumed read continues exactly where a full read would be.
public struct SourceState: Sendable, Equatable, Codable {
    public var variables: [String: String] = [:]
    /// Last running totals, by cumulative key.
    public var baselines: [String: RawTokens] = [:]

    public init() {}
}

/// Token fields as the tool logged them, before its counting rules are applied. Absent fields are nil.
public struct RawTokens: Sendable, Equatable, Codable {
    public var input: Int64?
    public var output: Int64?
    public var cacheRead: Int64?
    public var cacheWrite: Int64?
    public var cacheWrite5m: Int64?
    public var cacheWrite1h: Int64?
    public var reasoning: Int64?

    public init() {}

    var fields: [Int64?] { [input, output, cacheRead, cacheWrite, cacheWrite5m, cacheWrite1h, reasoning] }

    var isAbsent: Bool { fields.allSatisfy { $0 == nil } }
    var isZero: Bool { fields.allSatisfy { ($0 ?? 0) == 0 } }

    /// True when any field is smaller than in `previous`: the counter was reset.
    func wentBackwards(from previous: RawTokens) -> Bool {
        zip(fields, previous.fields).contains { ($0 ?? 0) < ($1 ?? 0) }
    }

    func minus(_ previous: RawTokens) -> RawTokens {
        func d(_ a: Int64?, _ b: Int64?) -> Int64? { a.map { $0 - (b ?? 0) } }
        var delta = RawTokens()
        delta.input = d(input, previous.input)
        delta.output = d(output, previous.output)
        delta.cacheRead = d(cacheRead, previous.cacheRead)
        delta.cacheWrite = d(cacheWrite, previous.cacheWrite)
        delta.cacheWrite5m = d(cacheWrite5m, previous.cacheWrite5m)
        delta.cacheWrite1h = d(cacheWrite1h, previous.cacheWrite1h)
        delta.reasoning = d(reasoning, previous.reasoning)
        return delta
    }
}
