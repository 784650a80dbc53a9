"""The calls a corpus holds, and the totals they add up to under each counting rule.

A `Call` is one model request as the tool logged it: model, time, disjoint counts and optional attributes (service
tier, speed, server tools: anything a later price rule needs). The expected totals are sums over calls and over the
copies the writer emitted, never over bytes read back from the tree.
"""
import json
from dataclasses import dataclass, field

from . import prices
from .text import day, iso

FIELDS = ("input", "output", "cacheRead", "cacheWrite5m", "cacheWrite1h", "cacheWrite12h", "reasoning")


@dataclass(frozen=True, slots=True)
class Counts:
    """Disjoint token counts, in the dry run's names: input excludes the cache, output includes reasoning."""
    input: int = 0
    output: int = 0
    cacheRead: int = 0
    cacheWrite5m: int = 0
    cacheWrite1h: int = 0
    # OpenAI's 12-hour writes: neither tool the generator writes records them, so always 0 here.
    cacheWrite12h: int = 0
    reasoning: int = 0

    def total(self):
        return self.input + self.output + self.cacheRead + self.cacheWrite5m + self.cacheWrite1h + self.cacheWrite12h


@dataclass(slots=True)
class Call:
    model: str
    time_ms: int
    counts: Counts
    attributes: dict = field(default_factory=dict)


class Tally:
    """Events, totals, by model and by UTC day: the dry run's shape."""

    def __init__(self):
        self.events = 0
        self.total = [0] * len(FIELDS)
        self.by_model = {}
        self.by_day = {}

    def add(self, model, time_ms, counts):
        values = tuple(getattr(counts, name) for name in FIELDS)
        self.events += 1
        days = time_ms // 86_400_000
        empty = [0] * len(FIELDS)
        for target in (self.total, self.by_model.setdefault(model, list(empty)), self.by_day.setdefault(days, list(empty))):
            for i, v in enumerate(values):
                target[i] += v

    def add_call(self, call):
        self.add(call.model, call.time_ms, call.counts)

    def json(self):
        def named(values):
            return dict(zip(FIELDS, values))
        return {"events": self.events, "totals": named(self.total),
                "byModel": {k: named(v) for k, v in sorted(self.by_model.items())},
                "byDay": {day(k * 86_400_000): named(v) for k, v in sorted(self.by_day.items())}}


class LimitSamples:
    """Plan-limit readings as the dry run reports them: how many, and the latest per window (the later one in
    scan order, sorted path then line, wins a tie)."""

    def __init__(self):
        self.count = 0
        self.latest = {}

    def add(self, window, time_ms, order, used, minutes, resets_ms):
        self.count += 1
        key = (time_ms, order)
        best = self.latest.get(window)
        if best is None or best[0] <= key:
            self.latest[window] = (key, {"window": window, "time": iso(time_ms), "usedPercent": used,
                                         "windowMinutes": minutes,
                                         "resetsAt": None if resets_ms is None else iso(resets_ms)})

    def json(self):
        return {"samples": self.count, "latest": [self.latest[w][1] for w in sorted(self.latest)]}


class Expected:
    """Everything `expected_totals.json` holds. `true` is the rule a correct reader follows."""

    def __init__(self, tool, reader, rules, traps, arguments):
        self.tool = tool
        self.reader = reader
        self.rules = {name: Tally() for name in rules}
        self.descriptions = rules
        self.trap_names = traps
        self.arguments = arguments
        self.calls = []
        self.limits = LimitSamples()
        self.stats = {}
        # How often each trap was written: a corpus meant to test a trap must show it here.
        self.traps = {}

    def call(self, call):
        """One true call: counted once under `true`."""
        self.calls.append(call)
        self.rules["true"].add_call(call)

    def count(self, stat, n=1):
        self.stats[stat] = self.stats.get(stat, 0) + n

    def trap(self, name, n=1):
        self.traps[name] = self.traps.get(name, 0) + n

    def costs(self):
        list_price, five_minute, standard = {}, {}, {}
        for call in self.calls:
            nano = prices.cost(call)
            if nano is None:
                continue
            list_price[call.model] = list_price.get(call.model, 0) + nano
            five_minute[call.model] = five_minute.get(call.model, 0) + prices.cost(call, one_hour_rate=False)
            standard[call.model] = standard.get(call.model, 0) + prices.cost(call, dimensions=False)

        def usd(by_model):
            return {"byModel": {m: float(n / 10**9) for m, n in sorted(by_model.items())},
                    "total": float(sum(by_model.values()) / 10**9)}
        return {"listUSD": usd(list_price), "cacheWritesAt5mUSD": usd(five_minute),
                "standardDimensionsUSD": usd(standard),
                "unpricedModels": sorted({c.model for c in self.calls if c.model not in prices.NANO_USD_PER_TOKEN})}

    def write(self, path):
        document = {
            "generator": {"tool": self.tool, "reader": self.reader, "arguments": self.arguments},
            "rules": {name: dict(description=self.descriptions[name], **tally.json())
                      for name, tally in self.rules.items()},
            "cost": self.costs(),
            "limits": self.limits.json(),
            "traps": {name: self.traps.get(name, 0) for name in self.trap_names},
            "stats": dict(sorted(self.stats.items())),
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f, indent=1, ensure_ascii=False)
            f.write("\n")
