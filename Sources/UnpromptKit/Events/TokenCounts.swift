/// Token counts in one normalized shape, whatever the tool's own counting rules.
///
/// The six billable counts are disjoint: `input` is uncached input, cache reads and the three cache-write
/// classes are separate, and `output` includes reasoning. The classes are named by the price rows they take:
/// `cacheWrite5m` is a provider's default (shortest) write, at `cache_creation_input_token_cost`: Anthropic's
/// 5-minute write and OpenAI's 30-minute one; `cacheWrite1h` Anthropic's 1-hour write (`…_above_1hr`);
/// `cacheWrite12h` OpenAI's 12-hour write (`…_above_12hr`, GPT-5.6 and later). `reasoning` is the part of `output` that was
/// reasoning, kept for display only, so it is never added to a total.
///
/// Sums saturate (`Int64.saturatingAdd`): a sum never traps, whatever a log or an older store holds.
public struct TokenCounts: Sendable, Equatable, Hashable {
    public var input: Int64
    public var cacheRead: Int64
    public var cacheWrite5m: Int64
    public var cacheWrite1h: Int64
    public var cacheWrite12h: Int64
    public var output: Int64
    public var reasoning: Int64

    public init(
        input: Int64 = 0, cacheRead: Int64 = 0, cacheWrite5m: Int64 = 0, cacheWrite1h: Int64 = 0,
        cacheWrite12h: Int64 = 0, output: Int64 = 0, reasoning: Int64 = 0
    ) {
        self.input = input
        self.cacheRead = cacheRead
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.cacheWrite12h = cacheWrite12h
        self.output = output
        self.reasoning = reasoning
    }

    public static let zero = TokenCounts()

    /// The most tokens one record may count in one field: a larger count is not a count but a damaged or
    /// hostile value (`bad-value`). The largest context windows hold about 10^7 tokens, and a running total
    /// (Codex's per session) stays far below 10^12; at this ceiling some 9 million records fit in one sum
    /// before it saturates.
    public static let recordCeiling: Int64 = 1_000_000_000_000

    /// Every billable token once: input, cache reads, cache writes and output (reasoning is inside output).
    public var total: Int64 {
        input.saturatingAdd(cacheRead).saturatingAdd(cacheWrite).saturatingAdd(output)
    }

    /// Every cache write, of any class.
    public var cacheWrite: Int64 {
        cacheWrite5m.saturatingAdd(cacheWrite1h).saturatingAdd(cacheWrite12h)
    }

    public var isZero: Bool { self == .zero }

    public static func + (a: TokenCounts, b: TokenCounts) -> TokenCounts {
        TokenCounts(
            input: a.input.saturatingAdd(b.input), cacheRead: a.cacheRead.saturatingAdd(b.cacheRead),
            cacheWrite5m: a.cacheWrite5m.saturatingAdd(b.cacheWrite5m),
            cacheWrite1h: a.cacheWrite1h.saturatingAdd(b.cacheWrite1h),
            cacheWrite12h: a.cacheWrite12h.saturatingAdd(b.cacheWrite12h), output: a.output.saturatingAdd(b.output),
            reasoning: a.reasoning.saturatingAdd(b.reasoning))
    }

    public static func - (a: TokenCounts, b: TokenCounts) -> TokenCounts {
        TokenCounts(
            input: a.input.saturatingSubtract(b.input), cacheRead: a.cacheRead.saturatingSubtract(b.cacheRead),
            cacheWrite5m: a.cacheWrite5m.saturatingSubtract(b.cacheWrite5m),
            cacheWrite1h: a.cacheWrite1h.saturatingSubtract(b.cacheWrite1h),
            cacheWrite12h: a.cacheWrite12h.saturatingSubtract(b.cacheWrite12h),
            output: a.output.saturatingSubtract(b.output), reasoning: a.reasoning.saturatingSubtract(b.reasoning))
    }

    public static func += (a: inout TokenCounts, b: TokenCounts) { a = a + b }
    public static func -= (a: inout TokenCounts, b: TokenCounts) { a = a - b }
}

/// Sums of counts that never trap. A sum that would pass `Int64.max` stays there, and so does one that reached
/// it: it means "at least this many", since what it held is no longer known exactly, so taking a record away
/// leaves it there too. Views show it as it is, and the store reports a row holding it (`StoreProblem`).
extension Int64 {
    public func saturatingAdd(_ other: Int64) -> Int64 {
        if self == .max || other == .max { return .max }
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    public func saturatingSubtract(_ other: Int64) -> Int64 {
        if self == .max { return .max }
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// A Double's whole part, held within Int64 (0 for NaN): an estimate from a saturated sum cannot trap.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}
