import Foundation

/// A tool's reader, as declared in `readers/<id>.yaml`: where its files live and how to find usage in them.
///
/// A descriptor is plain data. It is built only by `DescriptorLoader`, which has already checked every key,
/// type, path, glob and pattern, so readers can trust it. One the reader catalog knows to be valid
/// (`ReaderCatalogCache`) decodes its inputs on first use: a scan pays nothing for a tool whose files are not
/// on this machine (`starts`).
public struct Descriptor: Sendable {
    public static let schemaVersion = 1

    public let id: String
    public let name: String
    /// Inputs sharing a space share identities: a record seen in two inputs (or two tools) counts once.
    public let identitySpace: String
    /// The plan-limit window derived from use, if the tool's logs hold no quota percentages.
    public let derivedWindow: DerivedWindow?
    /// The file it was loaded from, for messages.
    public let file: String
    /// Where each of its sources' files can be, known without the rest: a scan that finds none of them there
    /// needs nothing else of the descriptor.
    public let starts: [SourceStart]
    private let body: DescriptorBody

    public var inputs: [Input] { body.decoded.inputs }
    /// Each input's format and sources, in order, known without its rules: what discovery needs.
    public var layout: [InputLayout] { body.layout }
    /// The limit readings the tool hands to a status line command, if it has one.
    public var statusLine: StatusLineRule? { body.decoded.statusLine }

    public init(
        id: String, name: String, identitySpace: String, inputs: [Input], derivedWindow: DerivedWindow?,
        statusLine: StatusLineRule?, file: String
    ) {
        self.init(
            id: id, name: name, identitySpace: identitySpace, derivedWindow: derivedWindow, file: file,
            starts: inputs.flatMap { $0.sources.map(SourceStart.init) },
            body: DescriptorBody(DescriptorBody.Decoded(inputs: inputs, statusLine: statusLine)))
    }

    init(
        id: String, name: String, identitySpace: String, derivedWindow: DerivedWindow?, file: String, starts: [SourceStart],
        body: DescriptorBody
    ) {
        self.id = id
        self.name = name
        self.identitySpace = identitySpace
        self.derivedWindow = derivedWindow
        self.file = file
        self.starts = starts
        self.body = body
    }
}

/// Where one source's walk starts, below one of its roots: the glob's fixed prefix, or the source's list file.
/// Where it is missing, the source finds nothing and has nothing to report (`SourceDiscovery.mayFind`).
public struct SourceStart: Sendable, Equatable {
    /// The root template, as written (`RootTemplate`).
    public let root: String
    /// The path segments below each root.
    public let below: [String]

    public init(root: String, below: [String]) {
        self.root = root
        self.below = below
    }

    init(_ spec: SourceSpec) {
        self.init(root: spec.root, below: spec.list?.file ?? spec.glob.literalPrefix)
    }
}

/// One input's format and where its files are.
public struct InputLayout: Sendable {
    public let format: Format
    public let sources: [SourceSpec]

    init(format: Format, sources: [SourceSpec]) {
        self.format = format
        self.sources = sources
    }

    init(_ input: Input) {
        self.init(format: input.format, sources: input.sources)
    }
}

/// A descriptor's inputs and status line, and its inputs' layout: given, or each made once, on first use, from
/// what was already checked.
final class DescriptorBody: Sendable {
    struct Decoded: Sendable {
        let inputs: [Input]
        let statusLine: StatusLineRule?
    }

    private let value: Locked<Decoded?>
    private let decode: @Sendable () -> Decoded
    private let laidOut = Locked<[InputLayout]?>(nil)
    private let layOut: @Sendable () -> [InputLayout]

    init(_ decoded: Decoded) {
        value = Locked(decoded)
        decode = { decoded }
        layOut = { decoded.inputs.map(InputLayout.init) }
    }

    /// `layOut` makes the layout without decoding the inputs.
    init(layOut: @escaping @Sendable () -> [InputLayout], decode: @escaping @Sendable () -> Decoded) {
        value = Locked(nil)
        self.decode = decode
        self.layOut = layOut
    }

    var decoded: Decoded {
        value.withLock { value in
            if let value { return value }
            let decoded = decode()
            value = decoded
            return decoded
        }
    }

    var layout: [InputLayout] {
        if let known = laidOut.withLock({ $0 }) { return known }
        let layout = layOut()
        laidOut.withLock { $0 = layout }
        return layout
    }
}

/// One kind of file a tool writes, in one format.
public struct Input: Sendable {
    public let sources: [SourceSpec]
    /// Lines containing none of these byte strings are never parsed. Empty: every line is parsed.
    public let prefilter: [[UInt8]]
    public let carry: [CarryRule]
    public let records: [RecordRule]
    public let limits: [LimitRule]
    /// The format, with what only that format has.
    public let formatRules: FormatRules

    public var format: Format { formatRules.format }
}

/// An input's format, with the rules only that format has.
public enum FormatRules: Sendable {
    /// Nil: each line is a record. A journal: the lines rebuild one document, read as a `json` one.
    case jsonl(journal: JournalRules?)
    /// Values read from documents beside the source, for its records as `@name` (none: an empty list).
    case json(siblings: [SiblingRule])
    /// The query, or variants of it for the schemas the tool has had, in order; the first whose `requires`
    /// tables all exist is run.
    case sqlite(queries: [SQLQuery])
    /// Line patterns.
    case text(patterns: [TextPattern])

    public var format: Format {
        switch self {
        case .jsonl: .jsonl
        case .json: .json
        case .sqlite: .sqlite
        case .text: .text
        }
    }
}

public enum Format: String, Sendable, CaseIterable {
    /// Appended lines, one JSON object each.
    case jsonl
    /// One JSON document, rewritten in place.
    case json
    /// A SQLite database, opened read-only.
    case sqlite
    /// Plain lines matched by regular-expression patterns.
    case text

    /// Whether a source may have a `-wal` file beside it whose changes are changes of the source.
    public var hasWriteAheadLog: Bool { self == .sqlite }
}

/// Where to look for a tool's files.
public struct SourceSpec: Sendable {
    /// A directory template: `~`, `${VAR}` and `${VAR:-default}` expand; a comma splits it into several roots.
    public let root: String
    public let glob: Glob
    public let exclude: [Glob]
    /// The deepest directory level below the root that is searched (for roots such as `~` that hold everything).
    public let maxDepth: Int?
    /// When set, the glob is applied below each directory this JSON file names, not below the root.
    public let list: SourceList?
    public let mark: SourceMark
}

/// A JSON file, below a source's root, that names the directories to search (Crush keeps its projects in
/// `projects.json`): the tool's own list, where no glob could find them.
public struct SourceList: Sendable {
    /// The file's path below the root, as segments.
    public let file: [String]
    /// Where the directory names are in it.
    public let paths: ListPath
}

/// A field path in which `[]` stands for every element of an array: `projects[].data_dir` is the
/// `data_dir` of each element of `projects`.
public struct ListPath: Sendable {
    /// The paths between the `[]`s, in order; nil where two `[]` meet or at an end (the value itself).
    public let steps: [FieldPath?]
    public let text: String

    /// Parses `text`; on failure returns the 0-based character offset of the problem and what was expected.
    public static func parse(_ text: String) -> Result<ListPath, FieldPathError> {
        var steps: [FieldPath?] = []
        var offset = 0
        let parts = text.components(separatedBy: "[]")
        for (index, part) in parts.enumerated() {
            defer { offset += part.count + 2 }
            var path = Substring(part)
            if index > 0, !path.isEmpty {
                guard path.hasPrefix(".") else {
                    return .failure(FieldPathError(offset: offset, message: "expected '.' or '[]' after '[]'"))
                }
                path = path.dropFirst()
            }
            if path.isEmpty {
                if index > 0, part == "." { return .failure(FieldPathError(offset: offset, message: "path ends with '.'")) }
                steps.append(nil)
                continue
            }
            switch FieldPath.parse(String(path)) {
            case .success(let parsed):
                if parsed.fromRoot { return .failure(FieldPathError(offset: offset, message: "'^' has no meaning in a list path")) }
                steps.append(parsed)
            case .failure(let problem):
                return .failure(FieldPathError(offset: offset + (part.count - path.count) + problem.offset, message: problem.message))
            }
        }
        if steps.allSatisfy({ $0 == nil }) && parts.count == 1 {
            return .failure(FieldPathError(offset: 0, message: "empty path"))
        }
        return .success(ListPath(steps: steps, text: text))
    }
}

/// A condition on a record: a test of the value at `path`, or of a value carried from an earlier record.
public struct Condition: Sendable {
    /// What a condition tests.
    public enum Subject: Sendable, Equatable {
        case path(FieldPath)
        /// `@name`: a value a carry rule set (carried values are text, so a literal matches its text).
        case variable(String)

        /// As written in the descriptor.
        public var text: String {
            switch self {
            case .path(let path): path.text
            case .variable(let name): "@" + name
            }
        }
    }

    public enum Literal: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case number(Double)
        case bool(Bool)
        case null
    }

    public enum Test: Sendable, Equatable {
        /// The value equals one of these.
        case equals([Literal])
        /// The value is present (not absent, not null), or absent, as given.
        case present(Bool)
        /// The value's text matches the regular expression.
        case matches(Pattern)
        /// The value is a number (or numeric string) smaller than this.
        case lessThan(Double)
    }

    public let subject: Subject
    public let test: Test
}

/// A regular expression from a descriptor, compiled once, by the loader, which has reported any error in it.
/// Two patterns are equal when they are written the same.
public struct Pattern: Sendable, Equatable {
    /// As written in the descriptor.
    public let text: String
    let regex: NSRegularExpression
    /// Where it is written, for warnings (`PatternRisk`).
    public var mark = SourceMark(line: 1, column: 1)

    public static func == (a: Pattern, b: Pattern) -> Bool { a.text == b.text }
}

/// One alternative of a value: a field, a value carried from an earlier record, the key of the entry being
/// expanded by `select`, the index of the element it expands, a constant, or a field of another element found
/// by its fields.
public enum ValueSource: Sendable {
    case path(FieldPath)
    case variable(String)
    case entryKey
    /// `@index`: the element's 0-based position in the array `select: path[]` expands.
    case elementIndex
    case constant(String)
    case lookup(Lookup)
}

/// `path` read in the first element of the array at `array` whose fields equal values read from the record:
/// Amp's ledger events name their message (`toMessageId`), which holds the cache counts.
public struct Lookup: Sendable {
    public let array: FieldPath
    public let match: [(field: FieldPath, value: ValueSpec)]
    public let path: FieldPath
}

/// How to read one value: the first alternative that is present wins, then the first of the patterns that
/// matches keeps its capture group (none given: the value as found; none matching: absent).
public struct ValueSpec: Sendable {
    public let alternatives: [ValueSource]
    public let patterns: [Pattern]
    public let mark: SourceMark
}

public enum TimeFormat: String, Sendable, CaseIterable {
    case iso8601
    case epochSeconds = "epoch_s"
    case epochMilliseconds = "epoch_ms"
    /// `YYYY-MM-DD HH:MM:SS` with no zone, read in the user's time zone.
    case local
}

public struct TimeSpec: Sendable {
    public let value: ValueSpec
    public let format: TimeFormat
}

/// Sets named values from a record for the records that follow in the same source (Codex's model from
/// `turn_context`, Aider's session time from a header).
public struct CarryRule: Sendable {
    public let match: [Condition]
    public let set: [(name: String, value: ValueSpec)]
}

/// One count field: a value, or the sum of several (`{ sum: [input, tool] }`, Gemini's tool-use prompt
/// billed as input). Absent addends count 0; the field is absent when every addend is.
public struct CountSpec: Sendable {
    public let addends: [Addend]
}

/// One item of a sum: a value, or a path through arrays (`rounds[].thinking.tokens`) whose every element adds
/// its value.
public enum Addend: Sendable {
    case value(ValueSpec)
    case each(ListPath)
}

public struct TokenSpec: Sendable {
    /// No field: the record of a tool that logs only a cost.
    static let none = TokenSpec(
        input: nil, output: nil, cacheRead: nil, cacheWrite: nil, cacheWrite5m: nil, cacheWrite1h: nil, cacheWrite12h: nil,
        reasoning: nil, total: nil)

    public let input: CountSpec?
    public let output: CountSpec?
    public let cacheRead: CountSpec?
    /// All cache writes, when the tool does not split them by lifetime.
    public let cacheWrite: CountSpec?
    public let cacheWrite5m: CountSpec?
    public let cacheWrite1h: CountSpec?
    public let cacheWrite12h: CountSpec?
    public let reasoning: CountSpec?
    /// The tool's own total of the other fields, read only to decide `by_total` counting flags.
    public let total: CountSpec?
}

/// A counting rule that may depend on the record: a fixed answer, or `when` a condition holds then one
/// answer else the other.
public enum CountingFlag: Sendable {
    case always(Bool)
    case conditional(when: [Condition], then: CountingAnswer, otherwise: CountingAnswer)
    /// Input includes the cache unless it is smaller than the cache counts (so it cannot).
    case auto
    /// Decided record by record by the logged `tokens.total`: the reading of the counts that adds up to it
    /// wins; `otherwise` when no reading adds up, `withoutTotal` when the record logs no total.
    case byTotal(otherwise: Bool, withoutTotal: Bool)

    var isByTotal: Bool { if case .byTotal = self { true } else { false } }
}

/// One branch of a conditional counting rule. `auto` is for `input_includes_cache` only.
public enum CountingAnswer: Sendable, Equatable {
    case yes
    case no
    case auto
}

public struct CountingRules: Sendable {
    /// Input as logged includes cache reads and cache writes: they are subtracted to get uncached input.
    public let inputIncludesCache: CountingFlag
    /// Output as logged includes reasoning. When false, reasoning is added to output.
    public let outputIncludesReasoning: CountingFlag
}

/// The record's token fields are running totals: each record counts its growth since the previous one
/// with the same key in the same source.
public struct CumulativeSpec: Sendable {
    /// Values that name the running total; empty means one total per source.
    public let key: [ValueSpec]
    /// Where the same token fields hold a per-record delta, used when the totals go backwards or are absent.
    public let fallbackAt: FieldPath?
    /// The record's logged `cost` is a running total too, so each record's cost is its growth.
    public let cost: Bool
}

public enum IdentityScope: String, Sendable, CaseIterable {
    case global
    /// The same key in two files names two records.
    case source
    /// The file's name (not its folders) is part of the key: a copy of the file in another folder (an archive)
    /// holds the same records.
    case fileName = "file_name"
}

public struct IdentitySpec: Sendable {
    /// Every value must be present for the key to apply.
    public let key: [ValueSpec]
    public let fallback: [ValueSpec]
    public let scope: IdentityScope
    public let keep: KeepRule
    public let alias: IdentityAlias?
    public let former: FormerIdentity?
}

/// The key an older version of the descriptor named the record by: a store written then knows the record by its
/// hash (see `TokenEvent.legacyIdentity`), so a changed key does not count a record again.
public struct FormerIdentity: Sendable {
    public let key: [ValueSpec]
    public let scope: IdentityScope
}

/// A second name every record registers, and that some records are checked against: a copy that carries
/// a new key (Claude's sidechain replays keep `message.id` but get a new `requestId`) is still caught.
public struct IdentityAlias: Sendable {
    public let key: [ValueSpec]
    /// Records matching these conditions are duplicates when their alias was registered before (none given:
    /// every record).
    public let checkWhen: [Condition]
    /// Records of one group never catch one another by the alias, only a record of another group (or of no
    /// group) that registered it first: two kinds of record that stand for the same usage (a tool's per-request
    /// rows and its session totals) each count only where the other kind did not come first.
    public let group: String?
}

/// One kind of usage record.
public struct RecordRule: Sendable {
    public let name: String
    public let match: [Condition]
    /// Expands one line or document into many records: `messages[]` (array elements) or `modelMetrics.*`
    /// (object entries, whose key is `@key`).
    public let select: Selection?
    /// String fields that hold JSON text; paths continue inside them.
    public let decode: [FieldPath]
    public let skip: [(reason: String, when: [Condition])]
    public let time: TimeSpec
    public let model: ValueSpec?
    public let tokensAt: FieldPath?
    /// Every field nil for a record that logs only a cost (`isCostOnly`).
    public let tokens: TokenSpec
    public let counting: CountingRules
    public let cumulative: CumulativeSpec?
    public let identity: IdentitySpec?
    public let cost: ValueSpec?
    public let estimated: Bool
    public let dimensions: DimensionSpec
    /// Where the rule is written, for messages that name it (`readers/<id>.yaml:line:col`).
    public let mark: SourceMark
}

public struct Selection: Sendable {
    public enum Kind: Sendable { case arrayElements, objectEntries }
    public let path: FieldPath
    public let kind: Kind
}

/// A plan-limit reading: which records carry it and where each window's numbers are.
public struct LimitRule: Sendable {
    /// Expands the line or document into readings: one per element (a file that lists its samples in an array).
    public let select: Selection?
    public let match: [Condition]
    public let time: TimeSpec?
    public let windows: [LimitWindowSpec]
}

public struct LimitWindowSpec: Sendable {
    public let name: String
    /// The window's name by its length in minutes (`window_minutes`), where the tool puts windows of several
    /// lengths in one slot; `name` when the length is none of these, or not logged.
    public let namesByMinutes: [Int64: String]
    public let usedPercent: ValueSpec?
    public let windowMinutes: ValueSpec?
    /// An absolute reset time.
    public let resetsAt: TimeSpec?
    /// Seconds after the record's own time.
    public let resetsIn: ValueSpec?
}

/// A `sqlite` input's query. Rows above the watermark are read; without one the query is re-read and
/// identities keep it exact. Each row is a record whose fields are its columns. The variants of one input
/// share its source's state (watermark, cumulative baselines), so a tool's schema migration continues the
/// running totals counted under the older schema.
public struct SQLQuery: Sendable {
    public let sql: String
    public let watermark: String?
    /// Tables the query needs: a database without one of them is not read with this variant (and one that
    /// no variant fits has nothing for this input).
    public let requires: [String]
    /// Columns whose BLOB values are compressed text, with how (Zed keeps its threads' JSON as zstd).
    public let decompress: [String: Compression]
    /// Columns whose BLOB values are protobuf messages the descriptor declares (Antigravity's usage metadata).
    public let protobuf: ProtobufColumns?
}

/// How a column's bytes are compressed.
public enum Compression: String, Sendable, CaseIterable {
    case zstd
}

/// A `text` input's line pattern. A line that matches becomes a record whose fields are the pattern's
/// named captures, plus `pattern` set to the pattern's name, so `carry` and `records` rules apply to it
/// as to a JSON line.
public struct TextPattern: Sendable {
    public let name: String
    public let regex: Pattern
    public let mark: SourceMark
}
