import Foundation
import UnpromptKit

/// The one way token counts are written, in text and JSON alike.
enum CountsFormat {
    static func json(_ counts: TokenCounts) -> JSON {
        .object([
            ("input", .integer(counts.input)), ("output", .integer(counts.output)),
            ("cacheRead", .integer(counts.cacheRead)), ("cacheWrite5m", .integer(counts.cacheWrite5m)),
            ("cacheWrite1h", .integer(counts.cacheWrite1h)), ("cacheWrite12h", .integer(counts.cacheWrite12h)),
            ("reasoning", .integer(counts.reasoning)),
        ])
    }

    static func columns(_ counts: TokenCounts) -> [String] {
        fields(counts).map { grouped(Int($0)) }
    }

    /// The seven counts in the order every table and CSV shows them.
    static func fields(_ counts: TokenCounts) -> [Int64] {
        [counts.input, counts.output, counts.cacheRead, counts.cacheWrite5m, counts.cacheWrite1h, counts.cacheWrite12h, counts.reasoning]
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var output = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { output += "," }
            output.append(digit)
        }
        return (value < 0 ? "-" : "") + output
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` of milliseconds since 1970.
    static func instant(_ milliseconds: Int64) -> String { CivilDate.instantString(milliseconds: milliseconds) }
}

/// Costs the tools logged, in USD: summed as binary floating point, so shown to the nano-dollar.
enum CostFormat {
    static func text(_ usd: Double) -> String {
        var text = String(format: "%.9f", ReadingsFormat.rounded(usd))
        while text.hasSuffix("0"), !text.hasSuffix(".00") { text.removeLast() }
        return text
    }
}

enum LimitFormat {
    static func json(_ sample: LimitSample) -> JSON {
        .object([
            ("window", .string(sample.window)),
            ("time", .string(CountsFormat.instant(sample.time))),
            ("usedPercent", sample.usedPercent.map { .number($0) } ?? .null),
            ("windowMinutes", sample.windowMinutes.map { .integer($0) } ?? .null),
            ("resetsAt", sample.resetsAt.map { .string(CountsFormat.instant($0)) } ?? .null),
        ])
    }

    static func text(_ sample: LimitSample) -> String {
        var parts = ["\(sample.window):"]
        if let used = sample.usedPercent { parts.append(String(format: "%.1f%% used", used)) }
        if let minutes = sample.windowMinutes { parts.append("of a \(minutes)-minute window") }
        if let reset = sample.resetsAt { parts.append("· resets \(CountsFormat.instant(reset))") }
        parts.append("· read at \(CountsFormat.instant(sample.time))")
        return parts.joined(separator: " ")
    }
}
