/// What a dry run needs to explain a reader that counts nothing, or counts on the wrong days: counts, key names
/// and the extremes of the times read, never a value of a record. A scan gathers them too (they cost a compare per
/// record) but shows none.
public struct ReadDiagnostics: Sendable {
    /// Lines (or documents, or rows) past the prefilter that matched no record rule and gave no limit reading.
    public var unmatched = 0
    /// Where the first of them is: the source's number in the report, and its line.
    public var firstUnmatched: (source: Int, line: Int)?
    /// By record rule, in the input's order.
    public var rules: [RuleDiagnostics] = []

    public init() {}

    mutating func update(rule index: Int, _ body: (inout RuleDiagnostics) -> Void) {
        if rules.count <= index { rules += Array(repeating: RuleDiagnostics(), count: index + 1 - rules.count) }
        body(&rules[index])
    }

    /// Adds a later source's diagnostics (numbered `source`); the first record of each kind stays the first.
    mutating func add(_ other: ReadDiagnostics, source: Int) {
        if firstUnmatched == nil, let line = other.firstUnmatched?.line { firstUnmatched = (source, line) }
        unmatched += other.unmatched
        for (index, rule) in other.rules.enumerated() { update(rule: index) { $0.add(rule) } }
    }
}

/// One record rule's diagnostics.
public struct RuleDiagnostics: Sendable {
    public var noUsage = 0
    /// The first `no-usage` record's deepest existing level on its first token path, as a path (`""` for the
    /// record itself), and the key names present there.
    public var noUsageLevel: (path: String, keys: [String])?
    /// Records whose time did not parse, and the first such time when it was a number.
    public var badTimes = 0
    public var firstBadTimeNumber: Double?
    /// The earliest and latest times counted, in milliseconds, with the number they were read from (nil for a
    /// time written as text).
    public var earliest: (time: Int64, number: Double?)?
    public var latest: (time: Int64, number: Double?)?
    /// Token paths absent from a source's first counted record beside a key spelled almost like them, each once.
    public var nearMisses: [NearMiss] = []
    /// The source's first counted record has been looked at for them.
    var nearMissesChecked = false

    mutating func add(_ other: RuleDiagnostics) {
        for miss in other.nearMisses where !nearMisses.contains(where: { $0.path == miss.path }) { nearMisses.append(miss) }
        if noUsageLevel == nil { noUsageLevel = other.noUsageLevel }
        noUsage += other.noUsage
        if firstBadTimeNumber == nil { firstBadTimeNumber = other.firstBadTimeNumber }
        badTimes += other.badTimes
        if let time = other.earliest { note(time: time.time, number: time.number) }
        if let time = other.latest { note(time: time.time, number: time.number) }
    }

    mutating func note(time: Int64, number: Double?) {
        if earliest.map({ time < $0.time }) ?? true { earliest = (time, number) }
        if latest.map({ time > $0.time }) ?? true { latest = (time, number) }
    }

    /// The most key names listed, and the longest one shown whole: enough to spot a misspelling.
    static let keyLimit = 24
    static let keyLength = 48
}
