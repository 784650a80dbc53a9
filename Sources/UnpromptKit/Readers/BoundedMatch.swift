import Foundation

/// A descriptor's regular expression matched with a bound on its work, so a catastrophic pattern (a nested
/// quantifier such as `(\d+)+y` against a long run of digits) costs a bounded time per line instead of seconds.
///
/// `NSRegularExpression` is ICU's engine, on Linux (swift-corelibs-foundation, through CoreFoundation) as on
/// macOS. With `.reportProgress` ICU calls back once per position a search starts from, and once every 10,000
/// backtracking states it saves (`uregex_setMatchCallback`), and the call can stop the match. A search may make
/// one call per UTF-16 unit of the text plus `backtrackTicks`: about 2 million saved states, some milliseconds,
/// beyond what any linear pattern needs, while a catastrophic one needs billions. (ICU's own
/// `uregex_setTimeLimit` is not reachable through Foundation.) The count is of work, not time, so the outcome
/// is the same on every machine.
enum BoundedMatch {
    static let backtrackTicks = 200

    enum Outcome {
        case match(NSTextCheckingResult)
        case none
        /// The pattern used up its work on this text: whether it matches is not known.
        case tooSlow
    }

    static func first(_ regex: NSRegularExpression, in text: String) -> Outcome {
        let range = NSRange(text.startIndex..., in: text)
        let allowance = range.length + 1 + backtrackTicks
        var calls = 0
        var outcome = Outcome.none
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if let result {
                outcome = .match(result)
                stop.pointee = true
                return
            }
            calls += 1
            if calls > allowance {
                outcome = .tooSlow
                stop.pointee = true
            }
        }
        return outcome
    }
}

/// Set when a pattern used up its work (`BoundedMatch`) while a line or record was read: it is then skipped as
/// `pattern-too-slow`, never read as if the pattern had not matched.
final class PatternOverrun {
    /// Used by one reader's thread, and set and read line by line: checked for exclusive access at compile time only.
    @exclusivity(unchecked) var happened = false
}
