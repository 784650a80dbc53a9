import UnpromptKit

/// What `readers new ID --format F` writes: a descriptor that loads as written, with comments saying what to
/// edit, and one fixture case whose sample input it reads as one event, with that event's figures in
/// `expected.json`, so the dry run and `readers test` pass before the first edit. Every template reads the
/// same sample record (the figures below, worked out by hand), shaped for its format.
struct ReaderTemplate {
    let format: Format
    let id: String

    /// The sample's one record: gpt-5 on 2026-01-15 at 10:00 UTC, 1,200 input tokens (the cache not
    /// included), 300 output and 800 read from the cache.
    static let day = "2026-01-15"

    /// The case's files, by path below the case folder.
    var caseFiles: [(path: String, text: String)] {
        [(sample.path, sample.text), ("expected.json", expected), ("README.md", readme)]
    }

    /// The descriptor, `ID.yaml`.
    var descriptor: String {
        """
        # \(id): a starting descriptor, written by `unprompt-scan readers new \(id) --format \(format.rawValue)`.
        # Edit every line marked EDIT until it describes the tool's real files (each key is explained in
        # CONTRIBUTING.md, "Descriptor reference"), and the sample case beside this file with it,
        # Fixtures/\(id)/basic/: its \(sample.path) and its expected.json. As written, the sample is one event.
        # From this file's folder (add --readers-dir . when it is not your readers folder):
        #   unprompt-scan readers validate \(id).yaml
        #   unprompt-scan --dry-run --tool \(id) --root Fixtures/\(id)/basic
        #   unprompt-scan readers test \(id)
        schema: 1
        id: \(id)
        name: \(id)   # EDIT: the tool's name, as the views show it
        inputs:
        \(input)

        """
    }

    /// The input: its format, sources and records.
    private var input: String {
        switch format {
        case .jsonl:
            """
              - format: jsonl   # one JSON object per line, appended
                sources:
                  # EDIT: the folder the tool writes in, and a glob below it. --root DIR replaces the root, and the
                  # glob still applies below DIR: the sample case holds \(sample.path).
                  - { root: "~/.\(id)", glob: "sessions/*.jsonl" }
                # A line holding none of these byte strings is never parsed. EDIT: text every usage line holds.
                prefilter: '"usage"'
                records:
                  - name: response
                    match: { type: response }   # EDIT: what marks a line that holds usage
            \(recordBody(time: "timestamp", tokensAt: "usage", identity: "{ key: [id], keep: first }", identityNote: "first: a later copy is a duplicate"))
            """
        case .json:
            """
              - format: json   # one JSON document per file, rewritten in place
                sources:
                  # EDIT: the folder the tool writes in, and a glob below it. --root DIR replaces the root, and the
                  # glob still applies below DIR: the sample case holds \(sample.path).
                  - { root: "~/.\(id)", glob: "sessions/*.json" }
                records:
                  - name: message
                    select: "messages[]"        # EDIT: the array whose elements are the records
                    match: { role: assistant }  # EDIT: which elements hold usage (paths inside the element)
            \(recordBody(time: "time", tokensAt: "usage", identity: "{ key: [^id, id], keep: last }", identityNote: "the document's id (^: from its root) and the message's; last: a rewritten message counts as last read"))
            """
        case .sqlite:
            """
              - format: sqlite   # a database, opened read-only
                sources:
                  # EDIT: the folder the tool writes in, and a glob below it. --root DIR replaces the root, and the
                  # glob still applies below DIR: the sample case's \(sample.path) is built into the database usage.db.
                  - { root: "~/.\(id)", glob: "*.db" }
                query:
                  # EDIT: the SQL that gives one row per usage record; each column is a field of the record.
                  sql: >-
                    SELECT id, created_at, model, input_tokens, output_tokens, cache_read_tokens
                    FROM messages WHERE created_at >= :watermark ORDER BY created_at
                  watermark: created_at   # rows at or above the highest value read before are read again
                  requires: messages      # a database without this table has nothing for this reader
                records:
                  - name: message
            \(recordBody(time: "{ path: created_at, as: epoch_ms }", tokensAt: nil, identity: "{ key: [id], keep: last }", identityNote: "the row's id; last: a row updated in place counts as it was last read"))
            """
        case .text:
            """
              - format: text   # plain lines, appended, turned into records by named captures
                sources:
                  # EDIT: the folder the tool writes in, and a glob below it. --root DIR replaces the root, and the
                  # glob still applies below DIR: the sample case holds \(sample.path).
                  - { root: "~/.\(id)", glob: "logs/*.log" }
                # A line holding none of these byte strings is never parsed. EDIT: text every usage line holds.
                prefilter: " tokens: "
                patterns:
                  # EDIT: an ICU regex per kind of line; each (?<name>…) capture becomes a field (digits a number).
                  usage: '^(?<time>\\S+) (?<model>\\S+) tokens: (?<input>\\d+) in, (?<output>\\d+) out, (?<cached>\\d+) cached$'
                records:
                  - name: reply
                    match: { pattern: usage }
            \(recordBody(time: "time", tokensAt: nil, identity: "{ key: [offset], scope: source, keep: first }", identityNote: "the line's byte offset in its file (scope: source): two equal lines stay two records"))
            """
        }
    }

    /// The keys every template's record has, at the record's indentation.
    private func recordBody(time: String, tokensAt: String?, identity: String, identityNote: String) -> String {
        let fields = format == .text ? ("input", "output", "cached") : ("input_tokens", "output_tokens", "cache_read_tokens")
        var lines = [
            "        # EDIT: when the usage happened: ISO-8601 with a zone; else { path: P, as: epoch_ms } (or epoch_s, local)",
            "        time: \(time)",
            "        model: model   # EDIT: the model id's field",
        ]
        if let tokensAt { lines.append("        tokens_at: \(tokensAt)   # EDIT: where the counts are; each token path is read below it") }
        lines += [
            "        tokens:   # EDIT: the count fields (also cache_write, cache_write_5m, cache_write_1h, reasoning, total)",
            "          input: \(fields.0)",
            "          output: \(fields.1)",
            "          cache_read: \(fields.2)",
            "        # EDIT: the tool's counting rules (CONTRIBUTING.md, \"Counting rules\"): does its input include the cache",
            "        # it read, does its output include reasoning?",
            "        counting: { input_includes_cache: false, output_includes_reasoning: true }",
            "        # EDIT: the values that name one record, so that a copy counts once, and which copy counts:",
            "        # \(identityNote).",
            "        identity: \(identity)",
        ]
        return lines.joined(separator: "\n")
    }

    /// The sample input, shaped for the format: one usage record, and for the line formats one line that the
    /// prefilter drops.
    var sample: (path: String, text: String) {
        switch format {
        case .jsonl:
            (
                "sessions/2026-01-15.jsonl",
                """
                {"type":"user","id":"msg-1","timestamp":"2026-01-15T09:59:58Z","text":"a prompt"}
                {"type":"response","id":"msg-2","timestamp":"2026-01-15T10:00:00Z","model":"gpt-5","usage":{"input_tokens":1200,"output_tokens":300,"cache_read_tokens":800}}

                """
            )
        case .json:
            (
                "sessions/session-1.json",
                """
                {
                  "id": "session-1",
                  "messages": [
                    { "role": "user", "id": "msg-1", "time": "2026-01-15T09:59:58Z", "text": "a prompt" },
                    {
                      "role": "assistant", "id": "msg-2", "time": "2026-01-15T10:00:00Z", "model": "gpt-5",
                      "usage": { "input_tokens": 1200, "output_tokens": 300, "cache_read_tokens": 800 }
                    }
                  ]
                }

                """
            )
        case .sqlite:
            (
                "usage.db.sql",
                """
                -- The database usage.db, as SQL text: `readers test` (and a dry run whose --root is this case) builds
                -- it from these statements, in a copy of the case. EDIT: the tool's own tables, with invented rows.
                CREATE TABLE messages (
                  id TEXT PRIMARY KEY,
                  created_at INTEGER NOT NULL,  -- epoch milliseconds: 2026-01-15T10:00:00Z
                  model TEXT,
                  input_tokens INTEGER,
                  output_tokens INTEGER,
                  cache_read_tokens INTEGER
                );
                INSERT INTO messages VALUES ('msg-2', 1768471200000, 'gpt-5', 1200, 300, 800);

                """
            )
        case .text:
            (
                "logs/usage.log",
                """
                2026-01-15T09:59:58Z session started
                2026-01-15T10:00:00Z gpt-5 tokens: 1200 in, 300 out, 800 cached

                """
            )
        }
    }

    /// What the sample gives: `lines` counts the line the prefilter drops too (a document or a row is one).
    private var expected: String {
        let lines = format == .jsonl || format == .text ? 2 : 1
        let counts = #"{ "input": 1200, "output": 300, "cacheRead": 800, "cacheWrite5m": 0, "cacheWrite1h": 0, "cacheWrite12h": 0, "reasoning": 0 }"#
        return """
            {
              "sources": 1,
              "lines": \(lines),
              "records": 1,
              "events": 1,
              "skipped": {},
              "totals": \(counts),
              "byModel": { "gpt-5": \(counts) },
              "byDay": { "\(Self.day)": \(counts) }
            }

            """
    }

    private var readme: String {
        """
        # \(id)/basic

        The sample `unprompt-scan readers new` wrote: one usage record of gpt-5 on \(Self.day) (UTC), 1,200 input
        tokens, 300 output and 800 read from the cache, in \(sample.path). EDIT: replace it with files shaped like
        the tool's real ones (invented content), laid out below this folder as the descriptor's globs expect; work
        the figures out by hand into expected.json; and say here, in a sentence or two, which trap the case covers
        and what must happen.

        """
    }
}
