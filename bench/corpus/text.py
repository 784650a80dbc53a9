"""Deterministic text, ids and times for the corpora.

Most bytes of a real log are tool output. They come from a `Pool`: one long text built once per run and kept in
its JSON-escaped form, so a cut at a unit boundary is already a valid JSON string body and costs one slice.
"""
import bisect
import json
from datetime import datetime, timezone

WORDS = (
    "the of and to in is that for it as with on be by this are from at or an function return value error file "
    "data config token usage session model parse line json record scanner cache input output stream buffer index "
    "swift struct class let var guard async await throws import self init protocol extension enum case switch "
    "request response client server handler router test assert expect build target package module path directory "
    "array dictionary string integer double optional nil true false count total sum memory time thread queue lock "
    "assistant user tool result content text thinking progress system summary hook bash read edit write grep "
    "rollout turn context event item reasoning shell patch café naïve résumé — → ✓ ✗ 日本語 中文 🚀 ü ß"
).split()

# Lines of code, compiler output and listings; quotes, backslashes, tabs and ANSI escapes need JSON escaping.
CODE_LINES = (
    '    let {a} = try {b}.{c}({d}: "{e}")',
    "func {a}(_ {b}: {c}) -> {d} {{",
    "}}",
    "import {a}",
    "// {a} {b} {c} {d} {e}",
    '    print("\\t{a}: \\({b})")',
    "{a}/{b}/{c}.swift:{n}:{m}: warning: '{d}' is deprecated",
    '  "{a}": {{"{b}": {n}, "{c}": "{d}"}},',
    "\x1b[32m✓\x1b[0m {a} {b} ({n} ms)",
    "-rw-r--r--  1 dev  staff  {m} Jan {n2} 12:{m2} {a}.{b}",
    "C:\\\\Users\\\\dev\\\\{a}\\\\{b}.txt\t{n}",
    "    {a} = {b}({c}, {d}={n})  # {e}",
    "SELECT {a}, {b} FROM {c} WHERE {d} = {n};",
    '<div class="{a}-{b}">{c} {d}</div>',
    "@@ -{n},{n2} +{n},{m2} @@",
    "",
)

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def escaped(text):
    """The body of `text` as a JSON string, non-ASCII kept as UTF-8 (as both tools write it)."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


class Pool:
    """Text made of units joined by a separator, held escaped `levels` times (2: a JSON document inside a JSON
    string, as Codex writes tool output). `cut` returns whole units only. The text is about `chars` long, drawn
    from the distinct `units` (each escaped once)."""

    def __init__(self, rng, units, separator, chars, levels=1):
        for _ in range(levels):
            units = [escaped(u) for u in units]
            separator = escaped(separator)
        mean = sum(map(len, units)) / len(units) + len(separator)
        drawn = rng.choices(units, k=int(chars / mean) + 2)
        self.text = separator.join(drawn)
        self.separator = len(separator)
        self.starts = []
        offset = 0
        for unit in drawn:
            self.starts.append(offset)
            offset += len(unit) + self.separator

    def cut(self, rng, length):
        """About `length` characters (at least one unit) starting at a random unit."""
        starts = self.starts
        first = rng.randrange(len(starts) - 1)
        start = starts[first]
        after = bisect.bisect_left(starts, start + length, first + 1)
        if after >= len(starts):
            return self.text[start:]
        return self.text[start:starts[after] - self.separator]


def pool_size(size_mb):
    """Characters of tool output to cut from: small corpora start faster, large ones repeat less."""
    return int(min(8_000_000, max(1_000_000, size_mb * 1048576 / 8)))


def code_lines(rng, count):
    """`count` distinct-looking lines of code, compiler output and listings."""
    words = WORDS
    lines = []
    for _ in range(count):
        lines.append(rng.choice(CODE_LINES).format(
            a=rng.choice(words), b=rng.choice(words), c=rng.choice(words), d=rng.choice(words), e=rng.choice(words),
            n=rng.randint(1, 999), m=rng.randint(1, 99999), n2=rng.randint(1, 28), m2="%02d" % rng.randint(0, 59)))
    return lines


def sentences(rng, count):
    words = WORDS
    return [" ".join(rng.choices(words, k=rng.randint(4, 18))).capitalize() + "." for _ in range(count)]


ID_CHARS = BASE62 + "Ab"


def random_id(rng, length, alphabet=ID_CHARS):
    """An id of `length` characters from 6 random bits each: unique in practice (22 characters: 132 bits)."""
    bits = rng.getrandbits(6 * length)
    mask = len(alphabet) - 1
    return "".join([alphabet[(bits >> (6 * i)) & mask] for i in range(length)])


def hex_id(rng, length):
    return "%0*x" % (length, rng.getrandbits(4 * length))


class Tokens:
    """Random strings over one alphabet (ids, signatures, encrypted blobs), cut from one long random string."""

    def __init__(self, rng, alphabet, chars=1_000_000):
        self.text = "".join(rng.choices(alphabet, k=chars))

    def __call__(self, rng, length):
        start = rng.randrange(len(self.text) - length)
        return self.text[start:start + length]


def uuid4(rng):
    h = "%032x" % rng.getrandbits(128)
    return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) & 3], h[17:20], h[20:])


def uuid7(rng, ms):
    """A UUIDv7 as Codex names sessions: the time in milliseconds first, so names sort by time."""
    h = "%012x%020x" % (ms, rng.getrandbits(80))
    return "%s-%s-7%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) & 3], h[17:20], h[20:])


_DATES = {}


def iso(ms):
    """Milliseconds since 1970 as JavaScript's toISOString() writes them (both tools use this form)."""
    days, rest = divmod(ms, 86_400_000)
    date = _DATES.get(days)
    if date is None:
        date = _DATES[days] = datetime.fromtimestamp(days * 86400, tz=timezone.utc).strftime("%Y-%m-%d")
    seconds, milli = divmod(rest, 1000)
    return "%sT%02d:%02d:%02d.%03dZ" % (date, seconds // 3600, seconds // 60 % 60, seconds % 60, milli)


def day(ms):
    return iso(ms - ms % 86_400_000)[:10]


def between(rng, low, high):
    """A whole number in [low, high]: `randint` without its checks, for the hot paths."""
    return low + int(rng.random() * (high - low + 1))


def parse_end(text):
    """`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ` (UTC) as milliseconds."""
    form = "%Y-%m-%d" if len(text) == 10 else "%Y-%m-%dT%H:%M:%SZ"
    return int(datetime.strptime(text, form).replace(tzinfo=timezone.utc).timestamp()) * 1000
