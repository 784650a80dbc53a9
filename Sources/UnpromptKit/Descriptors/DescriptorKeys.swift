/// Every key of the descriptor language, one table per kind of mapping: the only place a key is declared.
/// The loader reads each mapping through its table, CONTRIBUTING.md's reference tables are generated from them
/// (`UNPROMPT_UPDATE_DOCS=1 swift test --filter DescriptorReferenceTests`), and errors quote a key's help.
public enum DescriptorKeys: Sendable {
    public static let descriptor = KeySection(
        id: "descriptor", title: "the descriptor",
        keys: [
            DescriptorKey("schema", "integer", .required, "must be `1`"),
            DescriptorKey(
                "id", "identifier", .required,
                "lowercase ASCII letters, digits and `-`, starting with a letter, at most 64 characters; the file name without `.yaml`; stored as the tool id"),
            DescriptorKey("name", "string", .required, "the display name"),
            DescriptorKey(
                "identity_space", "identifier", .optional, default: "the `id`",
                "the namespace identities are hashed in: descriptors naming the same space count a record copied between their files once (in the store; a dry run dedups within one descriptor)"),
            DescriptorKey("inputs", "list of inputs, at least 1", .required, "one entry per kind of file the tool writes"),
            DescriptorKey(
                "derived_window", "mapping", .optional, default: "none",
                "a plan-limit window derived from when the tool was used, for a tool whose logs hold no quota percentages (see [Limits](#limits))"),
            DescriptorKey(
                "status_line", "mapping", .optional, default: "none",
                "the plan-limit readings the tool hands to a status line command on standard input: see [Limits](#limits)"),
            DescriptorKey(
                "messages", "mapping message name → mapping field name → field", .optional, default: "none",
                "protobuf messages by field number, for `sqlite` columns that hold protobuf bytes (see [protobuf columns](#protobuf-columns))"),
            DescriptorKey(
                "blocks", "mapping name → mapping", .optional, default: "none",
                "named parts of mappings, used elsewhere with `use: NAME` (or `use: OTHER-ID.NAME` from another descriptor; see [blocks](#blocks-use))"),
        ])

    public static let input = KeySection(
        id: "input", title: "an input",
        keys: [
            DescriptorKey("format", "`jsonl` \\| `json` \\| `sqlite` \\| `text`", .required, "the files' shape (see below)"),
            DescriptorKey("sources", "list of sources, at least 1", .required, "where to look for the files"),
            DescriptorKey(
                "prefilter", "string, or list of 1 to 8 non-empty strings", .when("`jsonl` and `text` only"),
                default: "every line is parsed", "a line that contains none of these byte strings is never parsed"),
            DescriptorKey("carry", "list of carry rules", .optional, default: "none", "values remembered for the later records of the same file"),
            DescriptorKey(
                "records", "list of records", .when("yes, unless the input has `limits`"),
                "the kinds of usage record, with unique `name`s; a file of limit readings only gives `limits` and no `records`"),
            DescriptorKey("limits", "list of limit rules", .optional, default: "none", "plan-limit readings"),
            DescriptorKey(
                "query", "a query, or a list of query variants", .when("`sqlite` only, required there"),
                "the SQL that turns the database into records (see [json, sqlite and text](#json-sqlite-and-text-inputs))"),
            DescriptorKey(
                "patterns", "mapping name → regex", .when("`text` only, required there"),
                "the line patterns that turn lines into records (see [json, sqlite and text](#json-sqlite-and-text-inputs))"),
            DescriptorKey(
                "siblings", "list of sibling rules", .when("`json` only"), default: "none",
                "values read from other documents beside the source (see [sibling documents](#sibling-documents-siblings))"),
            DescriptorKey(
                "journal", "mapping (below)", .when("`jsonl` only"), default: "each line is a record",
                "the lines are patches that rebuild one document, whose records are read as from a `json` document (see [patch journals](#patch-journals-journal))"),
        ])

    public static let journal = KeySection(
        id: "journal", title: "journal",
        keys: [
            DescriptorKey("op", "field path", .required, "the field of each line that holds its operation code"),
            DescriptorKey(
                "path", "field path", .required,
                "the field that holds where the line applies: a JSON array of object keys (strings) and array indices (whole numbers)"),
            DescriptorKey("value", "field path", .required, "the field that holds the line's value"),
            DescriptorKey(
                "index", "field path", .optional, default: "none",
                "the field that holds an append's cut index: the array is cut to that length before the value's elements are added"),
            DescriptorKey("ops", "mapping (below)", .required, "which code means which operation"),
            DescriptorKey(
                "keep_removed", "bool", .optional, default: "`false`",
                "elements that an append's cut index removes from an array a record rule selects are still read, once, as they were when cut (every record rule must `select: path[]`)"),
        ])

    public static let journalOps = KeySection(
        id: "journal-ops", title: "ops",
        keys: [
            DescriptorKey("snapshot", "number or string", .required, "the value is the whole document"),
            DescriptorKey("set", "number or string", .optional, default: "none", "the value is put at the path"),
            DescriptorKey(
                "append", "number or string", .optional, default: "none",
                "the value's elements are added to the array at the path (an absent array starts empty)"),
            DescriptorKey("delete", "number or string", .optional, default: "none", "the key at the path is removed"),
        ])

    public static let source = KeySection(
        id: "source", title: "a source",
        keys: [
            DescriptorKey(
                "root", "root template", .required,
                "the directory to search; `--root DIR` replaces it (and the glob still applies below DIR)"),
            DescriptorKey("glob", "glob", .required, "a file pattern relative to the root"),
            DescriptorKey(
                "exclude", "glob or list of globs", .optional, default: "none",
                "relative paths matching any of these are left out; a directory that matches is not entered"),
            DescriptorKey(
                "max_depth", "integer 1 to 64", .optional, default: "unlimited",
                "directories more than this many levels below the root are not entered"),
            DescriptorKey(
                "list", "`{file, paths}`", .optional, default: "none",
                "search the directories a JSON file below the root names, not the root (see [source lists](#source-lists))"),
        ])

    public static let sourceList = KeySection(
        id: "list", title: "list",
        keys: [
            DescriptorKey("file", "path below the root", .required, "the list file: no `/` at the start, no empty, `.` or `..` segments"),
            DescriptorKey("paths", "field path with `[]`", .required, "where the directory names are in it: `projects[].data_dir`"),
        ])

    public static let query = KeySection(
        id: "query", title: "query",
        keys: [
            DescriptorKey(
                "sql", "string", .required,
                "the query; it must start with `SELECT` or `WITH`; each row is a record whose fields are its columns"),
            DescriptorKey(
                "watermark", "column name", .optional, default: "none: every row on every change",
                "a column of the query; `:watermark` in the query is bound to the highest value of it read before"),
            DescriptorKey(
                "requires", "table name or list of them", .optional, default: "none",
                "tables the query needs (`table.column`: that column of the table too): a database without one of them is not read with this query"),
            DescriptorKey(
                "decompress", "mapping column → `zstd`", .optional, default: "none",
                "columns whose BLOBs are compressed text (see [compressed columns](#compressed-columns))"),
            DescriptorKey(
                "protobuf", "mapping column → message name", .optional, default: "none",
                "columns whose BLOBs are protobuf messages declared in `messages`, decoded to JSON fields (see [protobuf columns](#protobuf-columns))"),
        ])

    public static let protobufField = KeySection(
        id: "protobuf-field", title: "a message field",
        keys: [
            DescriptorKey("field", "whole number, 1 to 536,870,911", .required, "the field's number on the wire"),
            DescriptorKey(
                "type", "a scalar type, `string`, `timestamp` or a declared message", .required,
                "how the bytes read: `uint64`, `int64`, `uint32`, `int32`, `bool`, `enum`, `sint32`, `sint64`, `fixed64`, `sfixed64`, `double`, `fixed32`, `sfixed32`, `float`; `timestamp` becomes epoch milliseconds"),
            DescriptorKey("repeated", "bool", .optional, default: "`false`", "every occurrence, as a JSON array in wire order"),
        ])

    public static let carry = KeySection(
        id: "carry", title: "a carry rule",
        keys: [
            DescriptorKey("match", "conditions", .optional, default: "every parsed line", "which lines set values"),
            DescriptorKey(
                "set", "mapping name → value", .required,
                "the values to remember; names are lowercase ASCII letters, digits and `_`, starting with a letter"),
        ])

    public static let sibling = KeySection(
        id: "sibling", title: "a sibling rule",
        keys: [
            DescriptorKey("file", "file name", .required, "a file in the source's own directory (no `/`)"),
            DescriptorKey(
                "select", "`path[]`, `path.*`, `[]` or `*`", .optional, default: "the document itself",
                "the elements (or entries) that set values, in document order"),
            DescriptorKey("match", "conditions", .optional, default: "every element", "the elements that set values"),
            DescriptorKey("since", "time", .optional, default: "none", "the element's time: its values then hold from that time on"),
            DescriptorKey("set", "mapping name → value", .required, "values for the records, which read them as `\"@name\"`"),
        ])

    public static let record = KeySection(
        id: "record", title: "a record",
        keys: [
            DescriptorKey("name", "identifier", .required, "unique within the input; used in messages only"),
            DescriptorKey("match", "conditions", .optional, default: "always", "which lines (or elements) are this record"),
            DescriptorKey(
                "select", "`path[]` or `path.*`", .optional, default: "the line itself",
                "expand the line into the elements of an array (`messages[]`, whose position is `\"@index\"`) or the entries of an object (`modelMetrics.*`, whose key is `\"@key\"`); `[]` or `*` alone expands the root"),
            DescriptorKey(
                "decode", "path or list of paths", .optional, default: "none",
                "string fields that hold JSON text; a path that goes on past such a field reads inside it"),
            DescriptorKey(
                "skip", "mapping reason → conditions", .optional, default: "none",
                "the first reason whose conditions hold skips the record, counted under that reason (lowercase letters, digits and `-`; not a built-in reason)"),
            DescriptorKey("time", "time", .required, "when the usage happened"),
            DescriptorKey("model", "value", .optional, default: "`unknown`", "the model id"),
            DescriptorKey(
                "tokens_at", "field path", .optional, default: "none",
                "a base path put before every token field path (not before `^`, `@name` or `const` values)"),
            DescriptorKey(
                "tokens", "mapping (below)", .when("yes, with at least 1 field, unless the record gives only a `cost`"),
                "the count fields"),
            DescriptorKey("counting", "mapping (below)", .required, "the tool's counting rules"),
            DescriptorKey("cumulative", "mapping (below)", .optional, default: "counts are per record", "the counts are running totals"),
            DescriptorKey("identity", "mapping (below)", .optional, default: "named by content", "how copies of one record are recognized"),
            DescriptorKey("cost", "value", .optional, default: "none", "a cost in USD logged by the tool"),
            DescriptorKey(
                "estimated", "bool", .optional, default: "`false`", "the counts are the tool's own estimate rather than the provider's"),
            DescriptorKey(
                "dimensions", "mapping (below)", .optional, default: "none stated: priced as standard, and said to be assumed",
                "what the record states of how its request was served and billed beside its tokens (see [price dimensions](#price-dimensions-dimensions))"),
        ])

    public static let tokens = KeySection(
        id: "tokens", title: "tokens",
        keys: [
            DescriptorKey("input", "count", .optional, "input as the tool logs it"),
            DescriptorKey("output", "count", .optional, "output as logged"),
            DescriptorKey("cache_read", "count", .optional, "cache reads"),
            DescriptorKey(
                "cache_write", "count", .optional, "all cache writes, when the tool does not split them by lifetime (the flat field)"),
            DescriptorKey("cache_write_5m", "count", .optional, "5-minute cache writes"),
            DescriptorKey("cache_write_1h", "count", .optional, "1-hour cache writes"),
            DescriptorKey("cache_write_12h", "count", .optional, "12-hour cache writes (OpenAI's extended writes, priced apart)"),
            DescriptorKey("reasoning", "count", .optional, "reasoning tokens"),
            DescriptorKey(
                "total", "count", .optional,
                "the tool's own total of the fields above; never counted, it only decides `by_total` flags"),
        ])

    public static let dimensions = KeySection(
        id: "dimensions", title: "dimensions",
        keys: [
            DescriptorKey("speed", "mapped value", .optional, default: "not stated", "the speed the request was served at: `standard` or `fast`"),
            DescriptorKey(
                "service_tier", "mapped value", .optional, default: "not stated",
                "the processing tier: `standard`, `priority`, `flex` or `batch`"),
            DescriptorKey("region", "mapped value", .optional, default: "not stated", "where it was processed: `global` or `us` (US-only inference)"),
            DescriptorKey(
                "web_search_requests", "count", .optional, default: "0",
                "server-side web searches, billed per request; read per record, so never in a `cumulative` record"),
            DescriptorKey("web_fetch_requests", "count", .optional, default: "0", "server-side web fetches, likewise"),
        ])

    public static let mappedValue = KeySection(
        id: "mapped-value", title: "a mapped value",
        keys: [
            DescriptorKey("value", "value", .required, "where the record states it; `@name` reads a carried value"),
            DescriptorKey(
                "map", "mapping the tool's string → a case", .optional, default: "the string is the case's name",
                "the tool's own strings; one that is neither mapped nor a case's name states nothing"),
        ])

    public static let sum = KeySection(
        id: "sum", title: "a count",
        keys: [
            DescriptorKey(
                "sum", "list of values or paths through arrays", .required,
                "the count is the sum of these (a path with `[]` adds every element's value); absent items count 0, and the count is absent only when every item is"),
        ])

    public static let counting = KeySection(
        id: "counting", title: "counting",
        keys: [
            DescriptorKey(
                "input_includes_cache", "`true`, `false`, `auto`, `{ when, then, else }` or `{ by_total }`", .required,
                "logged input includes cache reads and writes, so they are subtracted; `auto`: when input is at least the cache"),
            DescriptorKey(
                "output_includes_reasoning", "`true`, `false`, `{ when, then, else }` or `{ by_total }`", .required,
                "logged output includes reasoning; when false, reasoning is added to output"),
        ])

    public static let conditionalFlag = KeySection(
        id: "conditional-flag", title: "a conditional counting rule",
        keys: [
            DescriptorKey("when", "conditions", .required, "when these hold, the flag is `then`, else `else`"),
            DescriptorKey("then", "`true`, `false` (or `auto` for `input_includes_cache`)", .required, "the flag when the conditions hold"),
            DescriptorKey("else", "`true`, `false` (or `auto` for `input_includes_cache`)", .required, "the flag otherwise"),
        ])

    public static let byTotal = KeySection(
        id: "by-total", title: "a by_total counting rule",
        keys: [
            DescriptorKey(
                "by_total", "bool", .required,
                "decide the flag record by record from `tokens.total`; this value when no reading of the counts adds up to it"),
            DescriptorKey(
                "without_total", "bool", .optional, default: "the `by_total` value",
                "the flag for a record that logs no total"),
        ])

    public static let cumulative = KeySection(
        id: "cumulative", title: "cumulative",
        keys: [
            DescriptorKey(
                "key", "value, or list of values (all are used)", .optional, default: "one running total per file",
                "names the running total, for example a session id inside the file"),
            DescriptorKey("fallback_at", "field path", .optional, default: "none", "where the same token fields hold a per-record delta"),
            DescriptorKey(
                "cost", "bool", .optional, default: "`false`",
                "the record's `cost` is a running total too (see [cost-only records](#cost-only-records-and-running-costs))"),
        ])

    public static let identity = KeySection(
        id: "identity", title: "identity",
        keys: [
            DescriptorKey(
                "key", "value, or list of values (all are used)", .required,
                "the values that name one record; every value must be present"),
            DescriptorKey("fallback", "value, or list of values", .optional, default: "none", "used when `key` is incomplete"),
            DescriptorKey(
                "scope", "`global` \\| `source` \\| `file_name`", .optional, default: "`global`",
                "`source` adds a hash of the file's path, so the same key in two files counts twice; `file_name` adds only the file's name, so a copy in another folder (an archive) holds the same records"),
            DescriptorKey("keep", "`first` \\| `last` \\| `largest`", .required, "which copy counts"),
            DescriptorKey("alias", "mapping (below)", .optional, default: "none", "a second name the records register or are checked against"),
            DescriptorKey(
                "former", "mapping (below)", .optional, default: "none",
                "the key an older version of this descriptor named the records by, so a store written then does not count them again"),
        ])

    public static let alias = KeySection(
        id: "alias", title: "identity.alias",
        keys: [
            DescriptorKey("key", "value, or list of values (all are used)", .required, "the alias"),
            DescriptorKey(
                "check_when", "conditions", .optional, default: "every record",
                "a record for which these hold is a `duplicate` when a record of another identity registered its alias first"),
            DescriptorKey(
                "group", "name", .optional, default: "none",
                "records of one group never catch one another by the alias, only a record of another group (or of none) that registered it first"),
        ])

    public static let formerIdentity = KeySection(
        id: "former", title: "identity.former",
        keys: [
            DescriptorKey("key", "value, or list of values (all are used)", .required, "the former key"),
            DescriptorKey("scope", "`global` \\| `source` \\| `file_name`", .optional, default: "`global`", "the former key's scope"),
        ])

    public static let limit = KeySection(
        id: "limit", title: "a limit rule",
        keys: [
            DescriptorKey(
                "select", "`path[]`, `path.*`, `[]` or `*`", .optional, default: "the line or document itself",
                "expands the line or document into readings, one per element (a file that lists its samples in an array)"),
            DescriptorKey("match", "conditions", .optional, default: "every parsed line", "lines that carry limit readings"),
            DescriptorKey(
                "time", "time", .required,
                "when the reading was taken; absent or unparsable: no samples, counted as `bad-limit-time` when a window had a reading"),
            DescriptorKey("windows", "list of windows, at least 1", .required, "the windows the line reports"),
        ])

    public static let statusLine = KeySection(
        id: "status_line", title: "status_line",
        keys: [
            DescriptorKey(
                "windows", "list of windows, at least 1", .required,
                "where the document holds each window's used share, length and reset"),
        ])

    public static let window = KeySection(
        id: "window", title: "a window",
        keys: [
            DescriptorKey(
                "name", "lowercase letters, digits, `_`, starting with a letter", .required, "the window's name, e.g. `primary`, `five_hour`"),
            DescriptorKey(
                "names_by_minutes", "mapping minutes → window name", .optional, default: "none",
                "names the window by its `window_minutes` where the tool puts windows of several lengths in one slot; `name` for any other length"),
            DescriptorKey(
                "used_percent", "value (a number)", .required,
                "the percent used; a window is read only when it is present and numeric"),
            DescriptorKey("window_minutes", "value (a count)", .optional, default: "none", "the window's length"),
            DescriptorKey("resets_at", "time", .optional, default: "none", "an absolute reset time"),
            DescriptorKey(
                "resets_in", "value (seconds)", .optional, default: "none",
                "seconds after the line's own `time`; used when `resets_at` is absent or does not parse"),
        ])

    public static let derivedWindow = KeySection(
        id: "derived-window", title: "derived_window",
        keys: [
            DescriptorKey("minutes", "whole number, 1 to 44,640", .required, "the window's length"),
            DescriptorKey(
                "ended_by", "a window `name` of this descriptor's `limits`", .optional, default: "none",
                "a sample of this window (a limit-reached record) ends the window it was logged in at its `resets_at`"),
        ])

    /// The keys of a value written as a mapping (`{ path, pattern }`).
    static let valueKeys = [
        DescriptorKey("path", "field path, or list of alternatives", .optional, "the field (the first alternative present wins)"),
        DescriptorKey("const", "string", .optional, "a constant instead of a field; not with `path`"),
        DescriptorKey(
            "pattern", "regex with exactly 1 capture group, or a list of them", .optional, default: "none",
            "applied to the text found, in order: the first that matches gives its capture as the value; none matching makes it absent"),
        DescriptorKey("in", "field path", .optional, "a lookup: the array whose element is found by `where`"),
        DescriptorKey("where", "mapping element field → value", .when("with `in`"), "the fields of the element and the values they must equal"),
    ]

    public static let value = KeySection(id: "value", title: "a value", keys: valueKeys)

    public static let time = KeySection(
        id: "time", title: "a time",
        keys: valueKeys + [
            DescriptorKey(
                "as", "`iso8601` \\| `epoch_s` \\| `epoch_ms` \\| `local`", .optional, default: "`iso8601`", "how the value is read")
        ])

    public static let condition = KeySection(
        id: "condition", title: "a condition",
        keys: [
            DescriptorKey("present", "bool", .optional, "the field is present and not `null` (`true`), or absent or `null` (`false`)"),
            DescriptorKey("matches", "regex", .optional, "the field's text contains a match"),
            DescriptorKey("less_than", "number", .optional, "the field is a number, or a string of one, smaller than this"),
        ])

    /// Every section, in the order the reference lists them.
    public static let all: [KeySection] = [
        descriptor, input, journal, journalOps, source, sourceList, query, protobufField, carry, sibling, record, tokens,
        dimensions, mappedValue, sum, counting, conditionalFlag,
        byTotal, cumulative, identity, alias, formerIdentity, limit, statusLine, window, derivedWindow, value, time, condition,
    ]
}
