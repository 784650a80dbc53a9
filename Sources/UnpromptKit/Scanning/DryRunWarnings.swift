import Foundation

/// A mistake a dry run can see in a descriptor, named by the rule that produced it (`readers/ID.yaml:line:col`).
/// It never holds a value of a record or a path on the disk: counts, key names, the descriptor's own text.
public struct DryRunWarning: Sendable, Equatable {
    /// `unmatched`, `no-usage`, `near-miss`, `no-sources`, `implausible-time`.
    public let code: String
    public let message: String
}

/// Turns what a dry run read (`ReadDiagnostics`, per input) into warnings.
struct DryRunWarnings {
    let descriptor: Descriptor
    /// Milliseconds since 1970: times more than a day after it are implausible.
    let now: Int64

    /// 2020-01-01T00:00:00Z: no tool this meter reads logged usage before it.
    static let earliestPlausible: Int64 = 1_577_836_800_000
    static let dayMilliseconds: Int64 = 86_400_000

    private func place(_ mark: SourceMark) -> String {
        let file = (mark.file ?? descriptor.file).split(separator: "/").last.map(String.init) ?? descriptor.file
        return "readers/\(file):\(mark)"
    }

    func warnings(_ input: Input, _ diagnostics: ReadDiagnostics) -> [DryRunWarning] {
        var warnings: [DryRunWarning] = []
        if diagnostics.unmatched > 0, let first = input.records.first, let at = diagnostics.firstUnmatched {
            let noun = switch input.formatRules {
            case .jsonl(journal: nil), .text: "line"
            case .jsonl, .json: "document"  // a journal's records are read from the one document it rebuilds
            case .sqlite: "row"
            }
            warnings.append(
                DryRunWarning(
                    code: "unmatched",
                    message:
                        "\(place(first.mark)): \(Self.count(diagnostics.unmatched, noun)) matched no record rule (the first: source \(at.source), line \(at.line))"
                ))
        }
        for (rule, found) in zip(input.records, diagnostics.rules) {
            warnings += noUsage(rule, found) + nearMisses(rule, found) + times(rule, found)
        }
        return warnings
    }

    private func noUsage(_ rule: RecordRule, _ found: RuleDiagnostics) -> [DryRunWarning] {
        guard found.noUsage > 0 else { return [] }
        let paths = CompiledRecord.tokenPaths(of: rule).map(\.text)
        var message =
            "\(place(rule.mark)): record rule '\(rule.name)': \(Self.count(found.noUsage, "record")) skipped as no-usage; token paths tried: "
            + (paths.isEmpty ? "none" : paths.joined(separator: ", "))
        if let level = found.noUsageLevel {
            let at = level.path.isEmpty ? "the record's top level" : level.path
            message += "; keys at \(at) in the first: " + (level.keys.isEmpty ? "none" : level.keys.joined(separator: ", "))
        }
        return [DryRunWarning(code: "no-usage", message: message)]
    }

    private func nearMisses(_ rule: RecordRule, _ found: RuleDiagnostics) -> [DryRunWarning] {
        found.nearMisses.map { miss in
            DryRunWarning(
                code: "near-miss",
                message: "\(place(rule.mark)): record rule '\(rule.name)': token path '\(miss.path)' is absent from the first "
                    + "record counted, whose object holds '\(miss.present)' (counted as 0; a misspelling?)")
        }
    }

    private func times(_ rule: RecordRule, _ found: RuleDiagnostics) -> [DryRunWarning] {
        let used = rule.time.format
        let head = "\(place(rule.time.value.mark)): record rule '\(rule.name)': "
        var warnings: [DryRunWarning] = []
        if found.badTimes > 0, let number = found.firstBadTimeNumber, let fit = fittingUnit(number, besides: used) {
            warnings.append(
                DryRunWarning(
                    code: "implausible-time",
                    message:
                        head + "\(Self.count(found.badTimes, "record")) skipped as bad-time: their time is a number that is no time as \(used.rawValue); as \(fit.rawValue) it fits"
                ))
        }
        var implausible: [(String, Double?)] = []
        if let earliest = found.earliest, earliest.time < Self.earliestPlausible {
            implausible.append(("before 2020 (the earliest: \(CivilDate.dateString(ofDay: earliest.time.floorDiv(Self.dayMilliseconds))))", earliest.number))
        }
        if let latest = found.latest, latest.time > now + Self.dayMilliseconds {
            implausible.append(("more than a day ahead of the clock (the latest: \(CivilDate.dateString(ofDay: latest.time.floorDiv(Self.dayMilliseconds))))", latest.number))
        }
        for (what, number) in implausible {
            let fit = number.flatMap { fittingUnit($0, besides: used) }
            warnings.append(
                DryRunWarning(
                    code: "implausible-time",
                    message: head + "times read as \(used.rawValue) fall \(what)" + (fit.map { "; as \($0.rawValue) they fit" } ?? "")))
        }
        return warnings
    }

    /// The epoch unit other than `used` in which `number` is a plausible time, if one is.
    private func fittingUnit(_ number: Double, besides used: TimeFormat) -> TimeFormat? {
        let candidates: [(TimeFormat, Double)] = [(.epochSeconds, number * 1000), (.epochMilliseconds, number)]
        return candidates.first { unit, milliseconds in
            unit != used && milliseconds >= Double(Self.earliestPlausible) && milliseconds <= Double(now + Self.dayMilliseconds)
        }?.0
    }

    /// A reader that found no source: each root as written, whether it exists, and the glob below it.
    func noSources(_ discovery: SourceDiscovery) -> [DryRunWarning] {
        descriptor.inputs.flatMap(\.sources).map { spec in
            let roots = discovery.rootOverride.map { [$0] } ?? RootTemplate.expand(spec.root, environment: discovery.environment, home: discovery.home)
            let existing = roots.filter { Self.isDirectory($0) }
            var state = discovery.rootOverride == nil ? "" : "replaced by --root, "
            if roots.isEmpty {
                state += "names an unset variable"
            } else if existing.isEmpty {
                state += "does not exist"
            } else {
                state += "exists"
                let prefix = spec.glob.literalPrefix
                if !prefix.isEmpty, !existing.contains(where: { Self.isDirectory(([$0] + prefix).joined(separator: "/")) }) {
                    state += ", but the glob's fixed part '\(prefix.joined(separator: "/"))' does not exist below it"
                }
            }
            return DryRunWarning(
                code: "no-sources",
                message: "\(place(spec.mark)): no sources: root '\(spec.root)' (\(state)), glob '\(spec.glob.text)'")
        }
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return SystemPath.stat(path, &info) && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

extension Int64 {
    fileprivate func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : (self - d + 1) / d }
}
