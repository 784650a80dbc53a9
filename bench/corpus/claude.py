"""A Claude Code tree: `ROOT/projects/<encoded cwd>/<session>.jsonl`, ROOT playing `CLAUDE_CONFIG_DIR`.

Shaped like Claude Code 1.0 to 2.1 (docs/formats/claude-code.md), with every trap a reader must survive:
- one response written once per content block, each line repeating message.id, requestId and usage;
- streaming snapshots: earlier lines of a response with a smaller output_tokens (the largest copy is the true one);
- resumed sessions: a new file that begins with a verbatim copy of an earlier session's lines (original sessionId);
- sidechain lines inline in the parent file (older versions), subagent files `<session>/subagents/agent-*.jsonl`
  (and `subagents/workflows/<run>/`) with running counts per line and a `.meta.json` sidecar;
- side questions: a subagent file that first replays a parent response (same message.id, a new requestId);
- `<synthetic>` lines (zero usage, no requestId), some of them plan-limit hits with the reset time;
- requests without requestId (dedup by message.id alone);
- 5-minute and 1-hour cache writes, and old lines with the flat cache_creation_input_tokens only;
- long tool results, Task results whose toolUseResult carries a nested `usage`, and agent_progress lines that nest
  a whole assistant message with usage.
"""
import json
import math

from .base import Corpus
from .model import Call, Counts
from .text import BASE62, Tokens, between, hex_id, iso, random_id, uuid4

RULES = {
    "true": "each request once, at its largest logged copy (the first of equal copies): what a correct reader counts",
    "first-copy": "key (message.id, requestId), or message.id alone when requestId is absent; the first copy wins; "
                  "no sidechain alias, so a side question's replay of a parent response counts again",
    "every-line": "every assistant line with usage, no dedup",
}

# Every trap the corpus writes, as counted in expected_totals.json `traps`.
TRAPS = (
    "contentBlockRepeats", "streamingSnapshots", "resumedSessions", "copiedUsageLines", "inlineSidechainRequests",
    "subagentFiles", "workflowSubagentFiles", "sideQuestionReplays", "syntheticLines", "limitReachedLines",
    "requestsWithoutRequestId", "fiveMinuteCacheWrites", "oneHourCacheWrites", "flatCacheWriteOnly",
    "taskResultsWithUsage", "agentProgressWithUsage",
)
# And those it writes with --price-dimensions only.
PRICE_DIMENSION_TRAPS = ("fastRequests", "usOnlyRequests", "webSearchRequests", "webFetchRequests")

MODELS = (
    ("claude-sonnet-4-5-20250929", 50),
    ("claude-opus-4-5-20251101", 22),
    ("claude-opus-4-1-20250805", 6),
    ("claude-haiku-4-5-20251001", 22),
)
SUBAGENT_MODEL = "claude-haiku-4-5-20251001"
# With --price-dimensions, a share of sessions on this model, whose requests state fast mode, US-only inference
# and server-tool calls (see prices.py).
DIMENSIONS_MODEL = "claude-opus-4-8"
# (version, writes the cache_creation split, sidechains inline in the parent file)
VERSIONS = (
    ("1.0.88", False, True),
    ("2.0.31", True, True),
    ("2.0.76", True, False),
    ("2.1.29", True, False),
    ("2.1.50", True, False),
    ("2.1.61", True, False),
)
BRANCHES = ("main", "main", "main", "develop", "feature/scanner", "fix/parser", "HEAD")
TOOLS = (("Read", 30), ("Bash", 28), ("Edit", 14), ("Grep", 10), ("Write", 5), ("Task", 4), ("Glob", 5),
         ("TodoWrite", 4))
SYNTHETIC_TEXTS = (
    'API Error: 529 {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"overloaded_error\\",\\"message\\":\\"Overloaded\\"}}',
    "No response requested.",
    "[Request interrupted by user]",
)
# Requests stay under 200k prompt tokens, below Sonnet's long-context rate (see prices.py).
PROMPT_LIMIT = 199_000
HOUR = 3_600_000


def lognormal(rng, median, sigma, lo, hi):
    return max(lo, min(hi, int(math.exp(rng.gauss(math.log(median), sigma)))))


class Session:
    """One transcript being written: its lines, and for each line what it carries (for copies made later)."""

    def __init__(self, relative, sid, version, split, inline_sidechains, branch, cwd):
        self.relative = relative
        self.base = relative[:-len(".jsonl")]
        self.split = split
        self.inline_sidechains = inline_sidechains
        self.lines = []
        # Per line: None, ("usage", model, time, counts) or ("limit", time, resets_ms).
        self.carried = []
        self.end = 0
        self.fields = '"userType":"external","cwd":%s,"sessionId":"%s","version":"%s","gitBranch":%s' % (
            json.dumps(cwd), sid, version, json.dumps(branch))
        self.head = '"isSidechain":false,' + self.fields
        # (message.id, model, counts, usage JSON) of main-thread responses, for side questions to replay.
        self.responses = []

    def sidechain_head(self, agent=None):
        head = '"isSidechain":true,' + self.fields
        return head + ',"agentId":"%s"' % agent if agent else head


class ClaudeCorpus(Corpus):
    def __init__(self, args, tree, expected):
        super().__init__(args, tree, expected)
        rng = self.rng
        self.signature = Tokens(rng, BASE62)
        names = ("api", "web", "scanner", "usage-bar", "infra", "ml", "docs", "cli", "mobile", "backend", "tools",
                 "sdk", "site", "bot", "core", "data")
        count = args.projects or max(4, min(40, int(args.size_mb / 8) + 3))
        self.projects = []
        for i in range(count):
            name = "%s-%s%d" % (rng.choice(names), rng.choice(names), i)
            cwd = "/Users/dev/src/%s" % name if i % 3 else "/home/dev/work/%s.app" % name
            self.projects.append({
                "cwd": cwd, "dir": "".join(c if c.isalnum() else "-" for c in cwd), "previous": None})
        self.weights = [1.0 / (i + 1) ** 0.9 for i in range(count)]
        # Dense corpora call Task (a subagent) often enough for every subagent shape to appear.
        self.sessions = 0
        self.tool_weights = [w * 4 if t == "Task" and args.dense else w for t, w in TOOLS]

    # ------------------------------------------------------------------ the run
    def run(self):
        target = int(self.a.size_mb * 1024 * 1024)
        while self.tree.bytes < target:
            project = self.rng.choices(self.projects, self.weights)[0]
            self.session(project)

    # ------------------------------------------------------------------ pieces of lines
    def usage_json(self, session, c, dimensions=None):
        if dimensions:
            return ('{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,'
                    '"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d},'
                    '"output_tokens":%d,"server_tool_use":{"web_search_requests":%d,"web_fetch_requests":%d},'
                    '"service_tier":"%s","inference_geo":"%s","iterations":[],"speed":"%s"}') % (
                c.input, c.cacheWrite5m + c.cacheWrite1h, c.cacheRead, c.cacheWrite5m, c.cacheWrite1h, c.output,
                dimensions["web_search_requests"], dimensions["web_fetch_requests"], dimensions["service_tier"],
                dimensions["inference_geo"], dimensions["speed"])
        if session.split:
            return ('{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,'
                    '"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d},'
                    '"output_tokens":%d,"service_tier":"standard"}') % (
                c.input, c.cacheWrite5m + c.cacheWrite1h, c.cacheRead, c.cacheWrite5m, c.cacheWrite1h, c.output)
        return ('{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,'
                '"output_tokens":%d,"service_tier":"standard"}') % (c.input, c.cacheWrite5m, c.cacheRead, c.output)

    def block(self, kind, tool=None):
        rng = self.rng
        if kind == "thinking":
            return '{"type":"thinking","thinking":"%s","signature":"%s"}' % (
                self.prose.cut(rng, lognormal(rng, 600, 0.9, 40, 8000)), self.signature(rng, between(rng, 300, 1600)))
        if kind == "text":
            return '{"type":"text","text":"%s"}' % self.prose.cut(rng, lognormal(rng, 350, 1.0, 10, 6000))
        tool_id, name, inp = tool
        return '{"type":"tool_use","id":"%s","name":"%s","input":%s}' % (tool_id, name, inp)

    def tool_use(self, cwd):
        rng = self.rng
        name = rng.choices([t for t, _ in TOOLS], self.tool_weights)[0]
        path = "%s/Sources/%s/%s.swift" % (cwd, rng.choice(("App", "Core", "Model", "View")), random_id(rng, 8))
        if name in ("Read", "Edit", "Write"):
            inp = {"file_path": path}
            if name == "Edit":
                inp.update(old_string="…", new_string="…", replace_all=False)
        elif name == "Bash":
            inp = {"command": "swift build -c release 2>&1 | tail -%d" % between(rng, 5, 400),
                   "description": "Build the package", "timeout": 600000}
        elif name in ("Grep", "Glob"):
            inp = {"pattern": "**/*.swift" if name == "Glob" else "func ", "path": cwd}
        elif name == "TodoWrite":
            inp = {"todos": [{"content": "step %d" % i, "status": "pending", "activeForm": "working"}
                             for i in range(between(rng, 2, 6))]}
        else:
            inp = {"description": "Explore the codebase", "prompt": "Find where the parser reads lines",
                   "subagent_type": "Explore"}
        return "toolu_01" + random_id(rng, 22), name, json.dumps(inp, ensure_ascii=False, separators=(",", ":"))

    def counts(self, context, ttl, model):
        """One request's disjoint counts: a small fresh input on a cached context that grows, or a cache miss."""
        rng = self.rng
        output = lognormal(rng, 180, 1.2, 1, 16000)
        if rng.random() < 0.04:
            return Counts(input=between(rng, 2000, 40000), output=output)
        written = min(lognormal(rng, 1800, 1.1, 0, 60000), max(0, PROMPT_LIMIT - context - 12))
        if ttl == "1h":
            w5, w1 = 0, written
        elif ttl == "mixed":
            w1 = between(rng, 0, written)
            w5 = written - w1
        else:
            w5, w1 = written, 0
        return Counts(input=between(rng, 1, 12), output=output, cacheRead=context, cacheWrite5m=w5, cacheWrite1h=w1)

    # ------------------------------------------------------------------ one response
    def response(self, session, lines, carried, head, model, counts, blocks, t, parent, request_id, snapshot):
        """Appends the lines of one response to `lines`; returns (message.id, time after, last uuid, usage JSON).

        With `snapshot`, the lines before the last carry a smaller output_tokens, growing line by line."""
        rng = self.rng
        message_id = "msg_01" + random_id(rng, 22)
        n = len(blocks)
        outputs = [counts.output] * n
        if snapshot and counts.output >= 2:
            if n == 1:
                blocks, n = blocks * 2, 2
            # Earlier lines carry growing partial counts; only output_tokens differs.
            partial = sorted(rng.sample(range(1, counts.output), min(n - 1, counts.output - 1)))
            outputs = [partial[0]] * (n - 1 - len(partial)) + partial + [counts.output]
        else:
            snapshot = False
        request = ',"requestId":"%s"' % request_id if request_id else ""
        winner_time = None
        dimensions = None
        if model == DIMENSIONS_MODEL and session.split:
            dimensions = {
                "speed": "fast" if rng.random() < 0.5 else "standard",
                "inference_geo": "us" if rng.random() < 0.4 else "global",
                "service_tier": "standard",
                "web_search_requests": between(rng, 1, 5) if rng.random() < 0.2 else 0,
                "web_fetch_requests": between(rng, 1, 3) if rng.random() < 0.1 else 0,
            }
        usage_full = self.usage_json(session, counts, dimensions)
        for i, blk in enumerate(blocks):
            c = counts if outputs[i] == counts.output else Counts(
                counts.input, outputs[i], counts.cacheRead, counts.cacheWrite5m, counts.cacheWrite1h)
            usage = usage_full if c is counts else self.usage_json(session, c, dimensions)
            last = i == n - 1
            stop = ('"%s"' % ("tool_use" if '"tool_use"' in blk[:20] else "end_turn")) if last else "null"
            uuid = uuid4(rng)
            lines.append(
                '{"parentUuid":%s,%s,"message":{"model":"%s","id":"%s","type":"message","role":"assistant",'
                '"content":[%s],"stop_reason":%s,"stop_sequence":null,"usage":%s}%s,"type":"assistant","uuid":"%s",'
                '"timestamp":"%s"}' % (parent, head, model, message_id, blk, stop, usage, request, uuid, iso(t)))
            carried.append(("usage", model, t, c))
            self.e.rules["every-line"].add(model, t, c)
            if i == 0:
                self.e.rules["first-copy"].add(model, t, c)
            if winner_time is None and c is counts:
                winner_time = t
            parent = '"%s"' % uuid
            t += between(rng, 40, 1500)
        e = self.e
        e.call(Call(model, winner_time, counts, dimensions or {"service_tier": "standard"}))
        if dimensions:
            e.trap("fastRequests", dimensions["speed"] == "fast")
            e.trap("usOnlyRequests", dimensions["inference_geo"] == "us")
            e.trap("webSearchRequests", dimensions["web_search_requests"])
            e.trap("webFetchRequests", dimensions["web_fetch_requests"])
        e.count("requests")
        e.trap("contentBlockRepeats", n - 1)
        if snapshot:
            e.trap("streamingSnapshots")
        if request_id is None:
            e.trap("requestsWithoutRequestId")
        if counts.cacheWrite5m:
            e.trap("fiveMinuteCacheWrites" if session.split else "flatCacheWriteOnly")
        if counts.cacheWrite1h:
            e.trap("oneHourCacheWrites")
        if '"isSidechain":true' in head and session.inline_sidechains:
            e.trap("inlineSidechainRequests")
        return message_id, t, parent, usage_full

    # ------------------------------------------------------------------ one session
    def session(self, project):
        rng, a, e = self.rng, self.a, self.e
        sid = uuid4(rng)
        # Dense corpora take each session-level variant in turn, so that a small corpus holds all of them.
        self.sessions += 1
        number = self.sessions
        version, split, inline = VERSIONS[number % len(VERSIONS)] if a.dense else rng.choice(VERSIONS)
        session = Session("projects/%s/%s.jsonl" % (project["dir"], sid), sid, version, split, inline,
                          rng.choice(BRANCHES), project["cwd"])
        cwd = project["cwd"]
        model = rng.choices([m for m, _ in MODELS], [w for _, w in MODELS])[0]
        if a.price_dimensions and number % 2 == 0:
            model = DIMENSIONS_MODEL
        if a.dense:
            ttl = ("5m", "1h", "mixed")[number % 3] if split else "5m"
            no_request_id = number % 5 == 4
        else:
            ttl = rng.choices(("5m", "1h", "mixed"), (75, 20, 5))[0] if split else "5m"
            no_request_id = rng.random() < a.no_request_id_frac
        lines, carried = session.lines, session.carried
        t = between(rng, self.start, self.end - 6 * HOUR)
        parent = "null"
        previous = project["previous"]
        if previous is not None and rng.random() < a.resume_frac:
            # A resumed session: a summary, then an earlier session's lines copied as they are.
            e.trap("resumedSessions")
            keep = len(previous.lines) if rng.random() < 0.5 else max(1, int(len(previous.lines) * rng.uniform(0.3, 1)))
            lines.append('{"type":"summary","summary":"%s","leafUuid":"%s"}' % (self.prose.cut(rng, 60), uuid4(rng)))
            carried.append(None)
            for line, what in zip(previous.lines[:keep], previous.carried[:keep]):
                lines.append(line)
                carried.append(what)
                if what is None:
                    continue
                if what[0] == "usage":
                    e.rules["every-line"].add(what[1], what[2], what[3])
                    e.trap("copiedUsageLines")
                else:
                    self.limit_sample(session.relative, len(lines) - 1, what[1], what[2])
            t = max(t, previous.end + between(rng, 60_000, 3 * 86_400_000))
        head = session.head
        context = between(rng, 12000, 24000)
        t_limit = t + 4 * HOUR
        for _turn in range(lognormal(rng, a.turns_median, 1.0, 1, 80)):
            if t > t_limit:
                break
            uuid = uuid4(rng)
            lines.append('{"parentUuid":%s,%s,"type":"user","message":{"role":"user","content":"%s"},"uuid":"%s",'
                         '"timestamp":"%s"}' % (parent, head, self.prose.cut(rng, lognormal(rng, 200, 1.0, 10, 6000)),
                                                uuid, iso(t)))
            carried.append(None)
            parent = '"%s"' % uuid
            if rng.random() < 0.7:
                lines.append('{"type":"file-history-snapshot","messageId":"%s","snapshot":{"messageId":"%s",'
                             '"trackedFileBackups":{},"timestamp":"%s"},"isSnapshotUpdate":false}' % (uuid, uuid, iso(t)))
                carried.append(None)
            t += between(rng, 1000, 8000)
            steps = 1 + min(40, int(rng.expovariate(1.0 / a.steps_mean)))
            for step in range(steps):
                last = step == steps - 1
                if rng.random() < a.synthetic_frac:
                    t, parent = self.synthetic(session, head, t, parent)
                    continue
                sidechain = inline and rng.random() < 0.06
                line_head = session.sidechain_head() if sidechain else head
                step_model = model if rng.random() > 0.05 else rng.choice(MODELS)[0]
                counts = self.counts(context, ttl, step_model)
                context = min(185000, context + counts.cacheWrite5m + counts.cacheWrite1h + counts.output // 2)
                blocks = []
                if rng.random() < 0.25:
                    blocks.append(self.block("thinking"))
                if last or rng.random() < 0.33:
                    blocks.append(self.block("text"))
                tools = []
                if not last:
                    tools = [self.tool_use(cwd) for _ in range(2 if rng.random() < 0.12 else 1)]
                    blocks += [self.block("tool_use", tool) for tool in tools]
                request_id = None if no_request_id else "req_011C" + random_id(rng, 20)
                snapshot = rng.random() < a.snapshot_frac
                message_id, t, parent, usage = self.response(
                    session, lines, carried, line_head, step_model, counts, blocks, t, parent, request_id, snapshot)
                if not sidechain:
                    session.responses.append((message_id, step_model, counts, usage))
                for tool in tools:
                    t, parent = self.tool_result(session, head, tool, t, parent)
                t += between(rng, 500, 6000)
                if rng.random() < a.side_question_frac and session.responses:
                    self.side_question(session, t)
                if context > 170000 and rng.random() < 0.8:
                    uuid = uuid4(rng)
                    lines.append('{"parentUuid":%s,%s,"type":"system","subtype":"compact_boundary","content":'
                                 '"Conversation compacted","isMeta":false,"timestamp":"%s","uuid":"%s","level":"info",'
                                 '"compactMetadata":{"trigger":"auto","preTokens":%d}}' % (
                                     parent, head, iso(t), uuid, context))
                    carried.append(None)
                    parent = '"%s"' % uuid
                    context = between(rng, 15000, 30000)
            if rng.random() < 0.6:
                uuid = uuid4(rng)
                lines.append('{"parentUuid":%s,%s,"type":"system","subtype":"turn_duration","durationMs":%d,'
                             '"isMeta":false,"timestamp":"%s","uuid":"%s","level":"info"}' % (
                                 parent, head, between(rng, 2000, 900000), iso(t), uuid))
                carried.append(None)
                parent = '"%s"' % uuid
            t += between(rng, 20_000, 900_000)
        session.end = t
        self.tree.write(session.relative, lines, t)
        e.count("sessions")
        # A later resume copies at most the first ~2 MB of this session.
        kept, size = 0, 0
        while kept < len(lines) and size < 2_000_000:
            size += len(lines[kept])
            kept += 1
        session.lines, session.carried = lines[:kept], carried[:kept]
        project["previous"] = session

    def synthetic(self, session, head, t, parent):
        """A locally generated line: zero usage, no requestId. Some are plan-limit hits with the reset time."""
        rng = self.rng
        uuid = uuid4(rng)
        limit = rng.random() < 0.3
        if limit:
            resets = (t // HOUR + between(rng, 1, 5)) * HOUR
            text = "Claude AI usage limit reached|%d" % (resets // 1000)
            flag = ',"isApiErrorMessage":true'
        else:
            text = rng.choice(SYNTHETIC_TEXTS)
            flag = ',"isApiErrorMessage":true' if text.startswith("API Error") else ""
        session.lines.append(
            '{"parentUuid":%s,%s,"type":"assistant","uuid":"%s","timestamp":"%s","message":{"id":"%s","model":'
            '"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message",'
            '"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,'
            '"server_tool_use":{"web_search_requests":0},"service_tier":null},"content":[{"type":"text","text":"%s"}]}%s}'
            % (parent, head, uuid, iso(t), uuid4(rng), text, flag))
        if limit:
            session.carried.append(("limit", t, resets))
            self.limit_sample(session.relative, len(session.lines) - 1, t, resets)
            self.e.trap("limitReachedLines")
        else:
            session.carried.append(None)
        self.e.trap("syntheticLines")
        return t + between(rng, 1000, 10000), '"%s"' % uuid

    def limit_sample(self, relative, line, t, resets):
        self.e.limits.add("limit_reached", t, (relative, line), 100.0, None, resets)

    # ------------------------------------------------------------------ tool results and subagents
    def tool_result(self, session, head, tool, t, parent):
        rng, lines, carried = self.rng, session.lines, session.carried
        tool_id, name, _ = tool
        t += between(rng, 100, 20000)
        for _ in range(min(6, int(rng.expovariate(1 / 1.9)))):
            uuid = uuid4(rng)
            lines.append('{"parentUuid":%s,%s,"type":"progress","data":{"type":"hook_progress","hookEvent":'
                         '"PostToolUse","hookName":"PostToolUse:%s","command":"$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"},'
                         '"parentToolUseID":"%s","toolUseID":"%s","timestamp":"%s","uuid":"%s"}' % (
                             parent, head, name, tool_id, tool_id, iso(t), uuid))
            carried.append(None)
            t += between(rng, 10, 500)
        size = lognormal(rng, self.a.result_median, 1.4, 60, 200_000)
        if name == "Task":
            content, result, t = self.task(session, head, tool_id, t, parent)
        else:
            body = self.code.cut(rng, size)
            content = '"%s"' % body
            if name == "Bash":
                result = '{"stdout":"%s","stderr":"","interrupted":false,"isImage":false}' % body
            elif name == "Read":
                result = ('{"type":"text","file":{"filePath":"%s/Sources/File.swift","content":"%s","numLines":%d,'
                          '"startLine":1,"totalLines":%d}}' % ("…", body, body.count("\\n") + 1, body.count("\\n") + 9))
            elif name in ("Grep", "Glob"):
                result = '{"mode":"content","numFiles":%d,"filenames":[],"content":"%s","numLines":%d}' % (
                    between(rng, 1, 50), body, body.count("\\n") + 1)
            elif name == "Edit":
                result = ('{"filePath":"…","oldString":"…","newString":"…","originalFile":"%s","structuredPatch":[],'
                          '"userModified":false,"replaceAll":false}' % body)
            else:
                content = '"Done."'
                result = '{"type":"update","content":"%s"}' % body if name == "Write" else '{"oldTodos":[],"newTodos":[]}'
        uuid = uuid4(rng)
        lines.append('{"parentUuid":%s,%s,"type":"user","message":{"role":"user","content":[{"tool_use_id":"%s",'
                     '"type":"tool_result","content":%s,"is_error":false}]},"uuid":"%s","timestamp":"%s",'
                     '"toolUseResult":%s}' % (parent, head, tool_id, content, uuid, iso(t), result))
        carried.append(None)
        return t + between(rng, 50, 500), '"%s"' % uuid

    def task(self, session, head, tool_id, t, parent):
        """A Task: the subagent's requests go to a subagent file (inline sidechain lines in older versions); the
        parent gets agent_progress lines nesting the subagent's messages and a result with a nested usage."""
        rng, e = self.rng, self.e
        agent = hex_id(rng, 16)
        e.count("tasks")
        if session.inline_sidechains:
            sub_lines, sub_carried = session.lines, session.carried
            sub_head = session.sidechain_head()
        else:
            sub_lines, sub_carried = [], []
            sub_head = session.sidechain_head(agent)
        total = [0, 0, 0, 0]
        nested = []
        start = t
        sub_parent = "null"
        uuid = uuid4(rng)
        sub_lines.append('{"parentUuid":null,%s,"type":"user","message":{"role":"user","content":"%s"},"uuid":"%s",'
                         '"timestamp":"%s"}' % (sub_head, self.prose.cut(rng, 300), uuid, iso(t)))
        sub_carried.append(None)
        sub_parent = '"%s"' % uuid
        context = between(rng, 6000, 12000)
        for step in range(between(rng, 1, 6)):
            counts = self.counts(context, "5m", SUBAGENT_MODEL)
            context = min(120000, context + counts.cacheWrite5m + counts.output // 2)
            blocks = [self.block("text")] if rng.random() < 0.5 else []
            blocks.append(self.block("tool_use", self.tool_use("/")) if step < 5 and rng.random() < 0.7
                          else self.block("text"))
            # Subagent files keep running counts: every line but the last is a snapshot.
            message_id, t, sub_parent, usage = self.response(
                session, sub_lines, sub_carried, sub_head, SUBAGENT_MODEL, counts, blocks, t, sub_parent,
                "req_011C" + random_id(rng, 20), snapshot=not session.inline_sidechains)
            total[0] += counts.input
            total[1] += counts.cacheWrite5m
            total[2] += counts.cacheRead
            total[3] += counts.output
            if rng.random() < 0.5:
                nested.append((message_id, usage, t))
            body = self.code.cut(rng, lognormal(rng, self.a.result_median, 1.2, 60, 50_000))
            uuid = uuid4(rng)
            sub_lines.append('{"parentUuid":%s,%s,"type":"user","message":{"role":"user","content":[{"tool_use_id":'
                             '"toolu_01%s","type":"tool_result","content":"%s","is_error":false}]},"uuid":"%s",'
                             '"timestamp":"%s"}' % (sub_parent, sub_head, random_id(rng, 22), body, uuid, iso(t)))
            sub_carried.append(None)
            sub_parent = '"%s"' % uuid
            t += between(rng, 200, 9000)
        if not session.inline_sidechains:
            if rng.random() < 0.3:
                relative = "%s/subagents/workflows/wf-%s/agent-%s.jsonl" % (session.base, random_id(rng, 6), agent)
                e.trap("workflowSubagentFiles")
            else:
                relative = "%s/subagents/agent-%s.jsonl" % (session.base, agent)
                self.tree.write_other(relative[:-len(".jsonl")] + ".meta.json", json.dumps(
                    {"agentType": "Explore", "model": SUBAGENT_MODEL, "spawnDepth": 1}) + "\n")
            self.tree.write(relative, sub_lines, t)
            e.trap("subagentFiles")
        # The parent sees the subagent's messages again, nested in agent_progress lines: not records.
        for message_id, usage, when in nested:
            session.lines.append(
                '{"parentUuid":%s,%s,"type":"progress","data":{"message":{"type":"assistant","timestamp":"%s",'
                '"message":{"model":"%s","id":"%s","type":"message","role":"assistant","content":[],"usage":%s}},'
                '"type":"agent_progress","agentId":"%s"},"toolUseID":"agent_msg_%s","parentToolUseID":"%s",'
                '"uuid":"%s","timestamp":"%s"}' % (parent, head, iso(when), SUBAGENT_MODEL, message_id, usage, agent,
                                                   random_id(rng, 20), tool_id, uuid4(rng), iso(when + 50)))
            session.carried.append(None)
            e.trap("agentProgressWithUsage")
        text = self.prose.cut(rng, lognormal(rng, 800, 1.0, 40, 20000))
        content = '[{"type":"text","text":"%s"}]' % text
        result = ('{"status":"completed","prompt":"Find where the parser reads lines","agentId":"%s","content":%s,'
                  '"totalDurationMs":%d,"totalTokens":%d,"totalToolUseCount":%d,"usage":{"input_tokens":%d,'
                  '"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation":'
                  '{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":0},"output_tokens":%d,'
                  '"service_tier":"standard"}}') % (agent, content, t - start, sum(total), between(rng, 1, 40), total[0],
                                                    total[1], total[2], total[1], total[3])
        e.trap("taskResultsWithUsage")
        return content, result, t

    def side_question(self, session, t):
        """A side question (/btw): a subagent file that replays a parent response with the same message.id and a
        new requestId, then asks its own request. The replay is the parent response again, not usage."""
        rng, e = self.rng, self.e
        agent = "btw" + hex_id(rng, 8)
        head = session.sidechain_head(agent)
        message_id, model, counts, usage = rng.choice(session.responses)
        lines, carried = [], []
        lines.append('{"parentUuid":null,%s,"type":"assistant","uuid":"%s","timestamp":"%s","message":{"id":"%s",'
                     '"type":"message","role":"assistant","model":"%s","content":[{"type":"text","text":"%s"}],'
                     '"stop_reason":"end_turn","usage":%s},"requestId":"req_011C%s"}' % (
                         head, uuid4(rng), iso(t), message_id, model, self.prose.cut(rng, 200), usage,
                         random_id(rng, 20)))
        carried.append(None)
        e.rules["every-line"].add(model, t, counts)
        e.rules["first-copy"].add(model, t, counts)
        e.trap("sideQuestionReplays")
        t += between(rng, 1000, 5000)
        own = self.counts(counts.cacheRead, "5m", model)
        _, t, _, _ = self.response(session, lines, carried, head, model, own, [self.block("text")], t, "null",
                                   "req_011C" + random_id(rng, 20), snapshot=True)
        self.tree.write("%s/subagents/agent-%s.jsonl" % (session.base, agent), lines, t)
        e.trap("subagentFiles")
