/// What a reader remembers about one source between records, and between scans: values carried from
/// earlier records and the last running totals of cumulative records. It is saved with the checkpoint, so a
/// resumed read continues exactly where a full read would be.
public struct SourceState: Sendable, Equatable, Codable {
    public var variables: [String: String] = [:]
    /// Last running totals, by cumulative key.
    public var baselines: [String: RawTokens] = [:]
    /// For `sqlite` inputs with a watermark: the highest watermark value read.
    public var watermark: Watermark?
    /// Set by the scanner for one read, never saved: the source was counted before, but its saved state was
    /// damaged, so the running totals it had reached are not known. A cumulative record then only sets its
    /// running total (`SkipReason.lostRunningTotal`): what it grew by since the last good read is not counted,
    /// rather than counted twice.
    var runningTotalsLost = false

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case variables, baselines, watermark
    }
}

/// Token fields as the tool logged them, before its counting rules are applied. Absent fields are nil.
public struct RawTokens: Sendable, Equatable, Codable {
    public var input: Int64?
    public var output: Int64?
    public var cacheRead: Int64?
    public var cacheWrite: Int64?
    public var cacheWrite5m: Int64?
    public var cacheWrite1h: Int64?
    public var cacheWrite12h: Int64?
    public var reasoning: Int64?
    /// A logged cost in USD, when it is a running total beside the counts (`cumulative.cost`).
    public var cost: Double?

    public init() {}

    /// Whether `test` holds for every token field: record by record, where an array of the fields would be allocated.
    private func allFields(_ test: (Int64?) -> Bool) -> Bool {
        test(input) && test(output) && test(cacheRead) && test(cacheWrite) && test(cacheWrite5m) && test(cacheWrite1h)
            && test(cacheWrite12h) && test(reasoning)
    }

    var isAbsent: Bool { allFields { $0 == nil } && cost == nil }
    var isZero: Bool { allFields { ($0 ?? 0) == 0 } && (cost ?? 0) == 0 }

    /// True when any field is smaller than in `previous`: the counter was reset.
    func wentBackwards(from previous: RawTokens) -> Bool {
        func smaller(_ a: Int64?, _ b: Int64?) -> Bool { (a ?? 0) < (b ?? 0) }
        return smaller(input, previous.input) || smaller(output, previous.output) || smaller(cacheRead, previous.cacheRead)
            || smaller(cacheWrite, previous.cacheWrite) || smaller(cacheWrite5m, previous.cacheWrite5m)
            || smaller(cacheWrite1h, previous.cacheWrite1h) || smaller(cacheWrite12h, previous.cacheWrite12h)
            || smaller(reasoning, previous.reasoning) || (cost ?? 0) < (previous.cost ?? 0)
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
        delta.cacheWrite12h = d(cacheWrite12h, previous.cacheWrite12h)
        delta.reasoning = d(reasoning, previous.reasoning)
        delta.cost = cost.map { $0 - (previous.cost ?? 0) }
        return delta
    }
}

/// A watermark column's value, compared as SQLite compares values of these types.
public enum Watermark: Sendable, Equatable, Codable, Comparable {
    case integer(Int64)
    case real(Double)
    case text(String)

    public static func < (a: Watermark, b: Watermark) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): x < y
        case (.integer(let x), .real(let y)): Double(x) < y
        case (.real(let x), .integer(let y)): x < Double(y)
        case (.real(let x), .real(let y)): x < y
        case (.text(let x), .text(let y)): x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.text, _): false  // numbers sort before text
        case (_, .text): true
        }
    }
}
