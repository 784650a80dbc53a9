"""A Codex CLI tree: `ROOT/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl` and `ROOT/archived_sessions/`, ROOT
playing `CODEX_HOME`.

Every line is `{"timestamp", "type", "payload"}` as codex-rs writes rollouts (docs/formats/codex.md). Usage is in
`event_msg` / `token_count` lines: `info.total_token_usage` is the file's running total, `info.last_token_usage` the
latest call; input includes cached input, output includes reasoning. The traps:
- running totals, and token_count events re-emitted with unchanged totals;
- `info: null` events (rate limits only) and `rate_limits: null`;
- the model named by `turn_context` and carried to later events; early builds without turn_context (model unknown);
- forks that begin by replaying their parent's turn_context and token_count lines, re-stamped to the fork time;
- archived sessions: moved to `archived_sessions/`, or present in both places;
- `rate_limits` in its three shapes (flat, `resets_in_seconds`, `resets_at`), one window sometimes missing;
- `token_usage_record` lines beside token_count in the newest CLIs (the same calls again);
- tool output encoded as a JSON string inside JSON, and long encrypted reasoning.
"""
import json
import math
from datetime import datetime, timezone

from .base import Corpus
from .model import Call, Counts
from .text import BASE64URL, Tokens, between, escaped, iso, random_id, uuid7

RULES = {
    "true": "each model call once: what a correct reader counts",
    "per-file": "each file's growth of its running totals, with no identity across files: fork replays and "
                "archived copies count again",
    "last-usage-sum": "last_token_usage summed over every token_count with info: re-emitted events, fork replays "
                      "and archived copies count again",
}

# Every trap the corpus writes, as counted in expected_totals.json `traps`.
TRAPS = (
    "reemittedEvents", "infoNullEvents", "rateLimitsNull", "rateLimitsFlat", "rateLimitsResetsIn", "rateLimitsResetsAt",
    "rateLimitsOneWindow", "forks", "replayedEvents", "archivedCopies", "archivedOnly", "sessionsWithoutTurnContext",
    "modelSwitches", "tokenUsageRecords",
)

MODELS = (("gpt-5-codex", 55), ("gpt-5", 30), ("gpt-5-mini", 15))
# (cli_version, rate_limits shape, writes turn_context, writes token_usage_record, weight)
VERSIONS = (
    ("0.31.0", None, False, False, 3),
    ("0.40.0", "flat", True, False, 8),
    ("0.45.0", "resets_in", True, False, 8),
    ("0.46.0", "resets_in", True, False, 8),
    ("0.58.0", "resets_at", True, False, 30),
    ("0.77.0", "resets_at", True, False, 30),
    ("0.151.0", "resets_at", True, True, 13),
)
USAGE_KEYS = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens", "total_tokens")
HOUR = 3_600_000


def lognormal(rng, median, sigma, lo, hi):
    return max(lo, min(hi, int(math.exp(rng.gauss(math.log(median), sigma)))))


def usage_json(u):
    return ('{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":%d,"reasoning_output_tokens":%d,'
            '"total_tokens":%d}' % u)


def disjoint(u):
    """Codex counts (input includes cached, output includes reasoning) in the dry run's disjoint shape."""
    return Counts(input=u[0] - u[1], output=u[2], cacheRead=u[1], reasoning=u[3])


class RateLimits:
    """One `rate_limits` value: the windows as (slot, used %, minutes, reset in seconds), in one of three shapes."""

    def __init__(self, shape, windows, plan):
        self.shape = shape
        self.windows = windows
        self.plan = plan

    def json(self, time_ms):
        if self.shape == "flat":
            parts = []
            for name, used, minutes, reset in self.windows:
                parts.append('"%s_used_percent":%r,"%s_window_minutes":%d' % (name, used, name, minutes))
                if reset is not None:
                    parts.append('"%s_reset_after_seconds":%d' % (name, reset))
            if len(self.windows) == 2:
                parts.append('"primary_to_secondary_ratio_percent":18.0')
            return "{%s}" % ",".join(parts)
        windows = {}
        for name, used, minutes, reset in self.windows:
            if self.shape == "resets_in":
                windows[name] = '{"used_percent":%r,"window_minutes":%d,"resets_in_seconds":%d}' % (used, minutes, reset)
            else:
                windows[name] = '{"used_percent":%r,"window_minutes":%d,"resets_at":%d}' % (
                    used, minutes, time_ms // 1000 + reset)
        body = '"primary":%s,"secondary":%s' % (windows.get("primary", "null"), windows.get("secondary", "null"))
        if self.shape == "resets_at":
            body += ',"credits":%s,"plan_type":%s' % (
                '{"has_credits":false,"unlimited":false,"balance":null}' if self.plan else "null",
                '"%s"' % self.plan if self.plan else "null")
        return "{%s}" % body

    # A window is named by its length, not by its slot (readers/codex.yaml, names_by_minutes).
    BY_LENGTH = {299: "five_hour", 300: "five_hour", 10079: "weekly", 10080: "weekly"}

    def samples(self, time_ms):
        """(window, used %, minutes, reset time in ms or None), as the reader derives them."""
        out = []
        for slot, used, minutes, reset in self.windows:
            name = self.BY_LENGTH.get(minutes, slot)
            if reset is None:
                resets = None
            elif self.shape == "resets_at":
                resets = (time_ms // 1000 + reset) * 1000
            else:
                resets = time_ms + reset * 1000
            out.append((name, used, minutes, resets))
        return out


class TokenCount:
    """A token_count line as written, kept so that a fork can replay it and a copy can be counted again."""
    __slots__ = ("info", "model", "last", "total", "limits", "time", "line", "reemit")

    def __init__(self, info, model, last, total, limits, time, line, reemit=False):
        self.info, self.model, self.last, self.total = info, model, last, total
        self.limits, self.time, self.line, self.reemit = limits, time, line, reemit


class Rollout:
    """A rollout file being written."""

    def __init__(self, relative, sid, version):
        self.relative = relative
        self.sid = sid
        self.version = version
        self.lines = []
        self.total = (0, 0, 0, 0, 0)
        # The turn_context payloads (str) and TokenCount lines, in order: what a fork replays.
        self.history = []
        self.calls = 0


class CodexCorpus(Corpus):
    def __init__(self, args, tree, expected):
        super().__init__(args, tree, expected, levels=2)
        rng = self.rng
        self.encrypted = Tokens(rng, BASE64URL)
        self.projects = ["/Users/dev/src/%s-%d" % (rng.choice(("api", "web", "cli", "core", "sdk")), i) for i in range(12)]
        self.totals_seen = set()
        self.used = {"primary": 0.0, "secondary": 0.0}
        self.parents = []
        self.sessions = 0

    def run(self):
        target = int(self.a.size_mb * 1024 * 1024)
        while self.tree.bytes < target:
            if self.parents and self.rng.random() < self.a.fork_frac:
                self.session(fork_of=self.rng.choice(self.parents))
            else:
                self.session()

    # ------------------------------------------------------------------ lines
    def emit(self, rollout, t, kind, payload):
        rollout.lines.append('{"timestamp":"%s","type":"%s","payload":%s}' % (iso(t), kind, payload))

    def token_count(self, rollout, t, info, model, last, total, limits, reemit=False):
        """A token_count line; its rate-limit readings go to the expected samples."""
        self.emit(rollout, t, "event_msg", '{"type":"token_count","info":%s,"rate_limits":%s}' % (
            info or "null", limits.json(t) if limits else "null"))
        line = TokenCount(info, model, last, total, limits, t, len(rollout.lines) - 1, reemit)
        rollout.history.append(line)
        self.limit_samples(rollout.relative, line)
        return line

    def limit_samples(self, relative, line):
        if line.limits:
            for window, used, minutes, resets in line.limits.samples(line.time):
                self.e.limits.add(window, line.time, (relative, line.line), used, minutes, resets)

    def rate_limits(self, shape):
        rng = self.rng
        if shape is None:
            return None
        if rng.random() < 0.05:
            self.e.trap("rateLimitsNull")
            return None
        used = self.used
        used["primary"] = 0.0 if rng.random() < 0.05 else min(100.0, used["primary"] + between(rng, 0, 20) / 10)
        used["secondary"] = min(100.0, used["secondary"] + between(rng, 0, 3) / 10)
        primary = ("primary", round(used["primary"], 1), 299 if shape != "resets_at" else 300, between(rng, 60, 5 * 3600))
        secondary = ("secondary", round(used["secondary"], 1), 10079 if shape != "resets_at" else 10080,
                     between(rng, 3600, 7 * 86400))
        windows = [primary, secondary]
        if rng.random() < 0.03:
            windows = [primary]
            self.e.trap("rateLimitsOneWindow")
        if shape == "flat" and rng.random() < 0.5:
            windows = [(w[0], w[1], w[2], None) for w in windows]
        self.e.trap({"flat": "rateLimitsFlat", "resets_in": "rateLimitsResetsIn", "resets_at": "rateLimitsResetsAt"}[shape])
        return RateLimits(shape, windows, rng.choice((None, "plus", "pro")))

    # ------------------------------------------------------------------ one session
    def session(self, fork_of=None):
        rng, a, e = self.rng, self.a, self.e
        if fork_of is None:
            # Dense corpora take each version in turn, so that a small corpus holds every shape.
            self.sessions += 1
            pick = VERSIONS[self.sessions % len(VERSIONS)] if a.dense else rng.choices(VERSIONS, [v[4] for v in VERSIONS])[0]
            version, shape, has_context, records, _ = pick
            t = between(rng, self.start, self.end - 6 * HOUR)
        else:
            parent, parent_start, parent_end = fork_of
            version, shape, has_context, records = parent.version
            t = between(rng, parent_start + 1000, max(parent_start + 2000, parent_end + 2 * HOUR))
        sid = uuid7(rng, t)
        d = datetime.fromtimestamp(t // 1000, tz=timezone.utc)
        name = "rollout-%s-%s.jsonl" % (d.strftime("%Y-%m-%dT%H-%M-%S"), sid)
        archive = fork_of is None and rng.random() < a.archive_frac
        moved = archive and rng.random() < 0.5
        relative = ("archived_sessions/" + name) if moved else d.strftime("sessions/%Y/%m/%d/") + name
        rollout = Rollout(relative, sid, (version, shape, has_context, records))
        start = t
        cwd = rng.choice(self.projects)
        if not has_context:
            e.trap("sessionsWithoutTurnContext")
        model = "unknown" if not has_context else rng.choices([m for m, _ in MODELS], [w for _, w in MODELS])[0]
        instructions = "null" if rng.random() < 0.7 else '"%s"' % self.prose.cut(rng, between(rng, 2000, 40000))
        fork = ',"forked_from_id":"%s"' % fork_of[0].sid if fork_of else ""
        self.emit(rollout, t, "session_meta", (
            '{"id":"%s","timestamp":"%s","cwd":%s,"originator":"codex_cli_rs","cli_version":"%s","instructions":%s,'
            '"source":"cli","model_provider":"openai"%s,"git":{"commit_hash":"%040x","branch":"main"}}') % (
            sid, iso(t), json.dumps(cwd), version, instructions, fork, rng.getrandbits(160)))
        self.emit(rollout, t, "response_item", '{"type":"message","role":"user","content":[{"type":"input_text",'
                  '"text":"<environment_context>\\n  <cwd>%s</cwd>\\n  <approval_policy>on-request</approval_policy>'
                  '\\n</environment_context>"}]}' % escaped(cwd))
        if fork_of:
            t = self.replay(rollout, fork_of[0], t)
        context = between(rng, 6000, 14000)
        t_limit = t + 4 * HOUR
        for _turn in range(lognormal(rng, a.turns_median, 1.0, 1, 60)):
            if t > t_limit:
                break
            if has_context and rng.random() < 0.08:
                switched = rng.choices([m for m, _ in MODELS], [w for _, w in MODELS])[0]
                if switched != model:
                    e.trap("modelSwitches")
                model = switched
            prompt = self.prose.cut(rng, lognormal(rng, 200, 1.0, 10, 4000))
            self.emit(rollout, t, "response_item",
                      '{"type":"message","role":"user","content":[{"type":"input_text","text":"%s"}]}' % prompt)
            self.emit(rollout, t, "event_msg", '{"type":"user_message","message":"%s","images":[]}' % prompt)
            if has_context:
                payload = ('{"cwd":%s,"approval_policy":"on-request","sandbox_policy":{"type":"workspace-write"},'
                           '"model":"%s","effort":"medium","summary":"auto"}' % (json.dumps(cwd), model))
                self.emit(rollout, t, "turn_context", payload)
                rollout.history.append(payload)
            self.token_count(rollout, t, None, model, None, None, self.rate_limits(shape))
            e.trap("infoNullEvents")
            t += between(rng, 1000, 6000)
            steps = 1 + min(40, int(rng.expovariate(1.0 / a.steps_mean)))
            for step in range(steps):
                t = self.step(rollout, t, cwd, step == steps - 1)
                t, context = self.call(rollout, t, model, context, shape, records)
                if context > 220000 and rng.random() < 0.7:
                    self.emit(rollout, t, "compacted", '{"message":"%s"}' % self.prose.cut(rng, between(rng, 2000, 8000)))
                    context = between(rng, 10000, 30000)
            t += between(rng, 20_000, 900_000)
        self.tree.write(relative, rollout.lines, t)
        e.count("sessions")
        self.per_file(rollout)
        if archive and not moved:
            # Archived and still in sessions/: the same file twice.
            self.tree.write("archived_sessions/" + name, rollout.lines, t)
            self.per_file(rollout)
            for line in rollout.history:
                if isinstance(line, TokenCount):
                    self.limit_samples("archived_sessions/" + name, line)
                    if line.last:
                        e.rules["last-usage-sum"].add(line.model, line.time, disjoint(line.last))
            e.trap("archivedCopies")
        elif moved:
            e.trap("archivedOnly")
        rollout.lines = None  # written; a fork needs only the history
        if fork_of is None and rollout.calls:
            self.parents.append((rollout, start, t))
            if len(self.parents) > 50:
                self.parents.pop(0)

    def step(self, rollout, t, cwd, last):
        """The bytes between two calls: reasoning, a tool call and its output, or the final message."""
        rng = self.rng
        if rng.random() < 0.7:
            summary = self.prose.cut(rng, lognormal(rng, 300, 0.8, 30, 3000))
            self.emit(rollout, t, "response_item", '{"type":"reasoning","summary":[{"type":"summary_text","text":"%s"}],'
                      '"content":null,"encrypted_content":"gAAAAA%s"}' % (
                          summary, self.encrypted(rng, lognormal(rng, 2500, 0.7, 200, 60000))))
            self.emit(rollout, t, "event_msg", '{"type":"agent_reasoning","text":"%s"}' % summary)
        if last:
            message = self.prose.cut(rng, lognormal(rng, 600, 0.9, 20, 8000))
            self.emit(rollout, t, "response_item", '{"type":"message","role":"assistant","content":[{"type":"output_text",'
                      '"text":"%s"}]}' % message)
            self.emit(rollout, t, "event_msg", '{"type":"agent_message","message":"%s"}' % message)
            return t + between(rng, 100, 2000)
        call_id = "call_" + random_id(rng, 24)
        if rng.random() < 0.2:
            self.emit(rollout, t, "response_item", '{"type":"custom_tool_call","status":"completed","call_id":"%s",'
                      '"name":"apply_patch","input":"*** Begin Patch\\n*** Update File: Sources/App.swift\\n%s\\n'
                      '*** End Patch"}' % (call_id, self.prose.cut(rng, lognormal(rng, 1500, 0.9, 80, 30000))))
            t += between(rng, 100, 2000)
            self.emit(rollout, t, "response_item", '{"type":"custom_tool_call_output","call_id":"%s","output":'
                      '"{\\"output\\":\\"Success. Updated the following files:\\\\nM Sources/App.swift\\\\n\\",'
                      '\\"metadata\\":{\\"exit_code\\":0,\\"duration_seconds\\":0.1}}"}' % call_id)
            return t
        arguments = json.dumps({"command": ["bash", "-lc", "rg -n token Sources"], "workdir": cwd, "timeout_ms": 120000})
        self.emit(rollout, t, "response_item", '{"type":"function_call","name":"shell","arguments":"%s","call_id":"%s"}' % (
            escaped(arguments), call_id))
        t += between(rng, 100, 30000)
        body = self.code.cut(rng, lognormal(rng, self.a.result_median, 1.4, 20, 150_000))
        self.emit(rollout, t, "response_item", '{"type":"function_call_output","call_id":"%s","output":"{\\"output\\":'
                  '\\"%s\\",\\"metadata\\":{\\"exit_code\\":0,\\"duration_seconds\\":%.1f}}"}' % (
                      call_id, body, between(rng, 0, 300) / 10))
        return t

    def call(self, rollout, t, model, context, shape, records):
        """One model call: its token_count (maybe re-emitted), and a token_usage_record in the newest CLIs."""
        rng, e = self.rng, self.e
        inp = context + between(rng, 50, 4000)
        cached = 0 if rng.random() < 0.05 else int(context * rng.uniform(0.85, 0.99))
        out = lognormal(rng, 300, 1.1, 5, 30000)
        reasoning = int(out * rng.uniform(0, 0.8)) if rng.random() < 0.8 else 0
        total = rollout.total
        while True:
            last = (inp, cached, out, reasoning, inp + out)
            new_total = tuple(a + b for a, b in zip(total, last))
            if new_total not in self.totals_seen:
                break
            out += 1  # running totals name the call across files: keep them unique
        self.totals_seen.add(new_total)
        rollout.total = new_total
        rollout.calls += 1
        t += between(rng, 50, 500)
        info = '{"total_token_usage":%s,"last_token_usage":%s,"model_context_window":272000}' % (
            usage_json(new_total), usage_json(last))
        record_first = rng.random() < 0.5
        if records and record_first:
            self.usage_record(rollout, t, last, new_total)
        self.token_count(rollout, t, info, model, last, new_total, self.rate_limits(shape))
        if records and not record_first:
            self.usage_record(rollout, t, last, new_total)
        e.call(Call(model, t, disjoint(last)))
        e.rules["last-usage-sum"].add(model, t, disjoint(last))
        e.count("calls")
        if rng.random() < self.a.reemit_frac:
            t += between(rng, 10, 3000)
            self.token_count(rollout, t, info, model, last, new_total, self.rate_limits(shape), reemit=True)
            e.rules["last-usage-sum"].add(model, t, disjoint(last))
            e.trap("reemittedEvents")
        return t + between(rng, 500, 5000), min(240000, inp + out)

    def usage_record(self, rollout, t, last, total):
        """Written once per response by the newest CLIs, beside its token_count: the same call, not read."""
        self.emit(rollout, t, "token_usage_record", '{"thread_id":"%s","turn_id":"%s","response_id":"resp_%s",'
                  '"usage":{"input_tokens":%d,"cached_input_tokens":%d,"cache_write_input_tokens":0,"output_tokens":%d,'
                  '"reasoning_output_tokens":%d,"total_tokens":%d},"thread_token_usage":%s}' % (
                      rollout.sid, random_id(self.rng, 12), random_id(self.rng, 24), *last, usage_json(total)))
        self.e.trap("tokenUsageRecords")

    def replay(self, rollout, parent, t):
        """A fork begins with its parent's turn_context and token_count lines up to one of its calls, re-stamped to
        the fork time in a burst, with the parent's running totals: the parent's calls again, not usage."""
        rng, e = self.rng, self.e
        calls = between(rng, 1, parent.calls)
        for item in parent.history:
            if isinstance(item, str):
                self.emit(rollout, t, "turn_context", item)
                rollout.history.append(item)
                continue
            self.token_count(rollout, t, item.info, item.model, item.last, item.total, item.limits, item.reemit)
            if item.last is not None:
                e.rules["last-usage-sum"].add(item.model, t, disjoint(item.last))
                rollout.total = item.total
                e.trap("replayedEvents")
                if not item.reemit:
                    calls -= 1
                    if calls == 0:
                        break
            t += between(rng, 1, 40)
        e.trap("forks")
        return t + between(rng, 1000, 5000)

    def per_file(self, rollout):
        """The per-file rule: each advance of the file's running total, attributed as the file shows it."""
        previous = (0, 0, 0, 0, 0)
        for line in rollout.history:
            if isinstance(line, str) or line.total is None or line.total == previous:
                continue
            delta = tuple(a - b for a, b in zip(line.total, previous))
            self.e.rules["per-file"].add(line.model, line.time, disjoint(delta))
            previous = line.total
