/// Token counts in one normalized shape, whatever the tool's own counting rules.
///
/// The five billable counts are disjoint: `input` is uncached input, cache reads and the two cache-write
/// lifetimes are separate, and `output` includes reasoning. `reasoning` is the part of `output` that was
/// reasoning, kept for display only, so it is never added to a total.
public struct TokenCounts: Sendable, Equatable, Hashable {
    public var input: Int64
    public var cacheRead: Int64
    public var cacheWrite5m: Int64
    public var cacheWrite1h: Int64
    public var output: Int64
    public var reasoning: Int64

    public init(
        input: Int64 = 0, cacheRead: Int64 = 0, cacheWrite5m: Int64 = 0, cacheWrite1h: Int64 = 0,
        output: Int64 = 0, reasoning: Int64 = 0
    ) {
        self.input = input
        self.cacheRead = cacheRead
        self.cacheWrite5m = cacheWrite5m
        self.cacheWrite1h = cacheWrite1h
        self.output = output
        self.reasoning = reasoning
    }

    public static let zero = TokenCounts()

    /// Every billable token once: input, cache reads, cache writes and output (reasoning is inside output).
    public var total: Int64 { input + cacheRead + cacheWrite5m + cacheWrite1h + output }

    public var isZero: Bool { self == .zero }

    public static func + (a: TokenCounts, b: TokenCounts) -> TokenCounts {
        TokenCounts(
            input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead,
            cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m, cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
            output: a.output + b.output, reasoning: a.reasoning + b.reasoning)
    }

    public static func - (a: TokenCounts, b: TokenCounts) -> TokenCounts {
        TokenCounts(
            input: a.input - b.input, cacheRead: a.cacheRead - b.cacheRead,
            cacheWrite5m: a.cacheWrite5m - b.cacheWrite5m, cacheWrite1h: a.cacheWrite1h - b.cacheWrite1h,
            output: a.output - b.output, reasoning: a.reasoning - b.reasoning)
    }

    public static func += (a: inout TokenCounts, b: TokenCounts) { a = a + b }
    public static func -= (a: inout TokenCounts, b: TokenCounts) { a = a - b }
}
