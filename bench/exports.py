#!/usr/bin/env python3
"""Writes a sync folder of device exports (docs/sync.schema.json), for `make bench`'s merge benchmark.

Usage: exports.py --root DIR [--devices 30] [--days 365] [--seed 16] [--version 5]

Each device is a heavy user's year: on most days (about 6 in 7) a working stretch of 6 to 11 hours, with activity
in most of its quarter-hours, and in each active quarter-hour 2 to 4 buckets (tool x model x context band x
logged cost) with counts shaped like Claude Code's and Codex's; limit samples of its last 8 days. Every file is the
header (a zstd skippable frame naming the device and sequence) and the document compressed with the `zstd` command
(level 6, content checksum), named unprompt-<id>.export. Version 5 (the default) writes each day packed as
docs/SYNC.md describes (variable-length integers, after the document's JSON part and a newline: each row's fields
that are not 0), packed here from the same rows; version 4 packs every field of a row; version 2 writes the rows
as JSON (14 integers each), as versions 1-3 did.
DIR/expected.json holds each device's label, sequence, bucket rows and total tokens, worked out here.
Deterministic for a given seed. Standard library only (and the zstd command).
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

QUARTER_MS = 15 * 60 * 1000
START_DAY = 20454  # 2026-01-01
KEYS = [  # tool, model, context band, logged cost
    ("claude-code", "claude-sonnet-4-5", 0, 0),
    ("claude-code", "claude-sonnet-4-5", 32000, 0),
    ("claude-code", "claude-sonnet-4-5", 100000, 0),
    ("claude-code", "claude-opus-4-5", 32000, 0),
    ("claude-code", "claude-haiku-4-5", 0, 0),
    ("codex", "gpt-5", 128000, 0),
    ("codex", "gpt-5-mini", 0, 0),
    ("opencode", "claude-sonnet-4-5", 32000, 1),
]


def device(rng, days, index):
    tools, models = [], []
    def at(names, name):
        if name not in names:
            names.append(name)
        return names.index(name)
    entries, rows, tokens = [], 0, 0
    for offset in range(days):
        day = START_DAY + offset
        if rng.random() < 1 / 7:
            continue
        start = rng.randrange(28, 44)  # 07:00-11:00 UTC
        length = rng.randrange(24, 45)
        buckets, activity = [], []
        for quarter in range(start, min(96, start + length)):
            if rng.random() < 0.2:
                continue
            keys = sorted(rng.sample(range(len(KEYS)), rng.randrange(2, 5)))
            day_rows = []
            for k in keys:
                tool, model, band, logged = KEYS[k]
                events = rng.randrange(1, 30)
                uncached = events * rng.randrange(3, 400)
                cache_read = events * rng.randrange(band or 8000, (band or 8000) + 60000)
                write5 = events * rng.randrange(0, 4000)
                write1 = events * rng.randrange(0, 800) if tool == "claude-code" else 0
                output = events * rng.randrange(50, 3000)
                reasoning = output // 3 if tool == "codex" else 0
                nanos = events * rng.randrange(1000000, 90000000) if logged else 0
                day_rows.append([quarter, at(tools, tool), at(models, model), band, logged, uncached, cache_read,
                                 write5, write1, output, reasoning, events, nanos, 0])
                tokens += uncached + cache_read + write5 + write1 + output
            day_rows.sort(key=lambda r: r[:5])
            buckets += day_rows
            first = rng.randrange(0, QUARTER_MS // 2)
            activity.append([quarter, first, first + rng.randrange(0, QUARTER_MS // 2)])
        rows += len(buckets)
        entries.append({"day": day, "buckets": buckets, "activity": activity})
    # Names in UTF-8 order, as the program writes them (rows in index order are then in the store's order).
    order = sorted(tools + (["codex"] if "codex" not in tools else []))
    tool_map = {tools.index(t): order.index(t) for t in tools}
    model_order = sorted(models)
    model_map = {models.index(m): model_order.index(m) for m in models}
    for entry in entries:
        for row in entry["buckets"]:
            row[1], row[2] = tool_map[row[1]], model_map[row[2]]
        entry["buckets"].sort(key=lambda r: r[:5])
    tools, models = order, model_order
    last = START_DAY + days - 1
    windows = ["primary", "secondary"]
    codex = at(tools, "codex")
    limits = []
    for w, minutes in enumerate([300, 10080]):
        for sample in range(8 * 40):
            time = (last - 7) * 86400000 + sample * 30 * 60 * 1000 + w
            limits.append([codex, w, time, round(rng.uniform(0, 100), 1), minutes, time + minutes * 60000])
    limits.sort(key=lambda r: r[:3])
    ident = "%032x" % rng.getrandbits(128)
    measured = (last + 1) * 86400000 - 3600000
    document = {
        "format": "unprompt-sync", "version": 2, "device": {"id": ident, "label": "device-%02d" % index},
        "sequence": rng.randrange(1, 5000), "exportedAt": measured + 1000, "measuredAt": measured,
        "tools": tools, "models": models, "windows": windows, "days": entries, "limits": limits, "confirmations": [],
    }
    return ident, document, rows, tokens


def varint(value, out):
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def zigzag(value, out):
    varint(2 * value if value >= 0 else -2 * value - 1, out)


# Packing version 3 (export version 5) writes a row's fields that are not 0, in this order (the store's field
# names), after an integer whose bits say which; the two that can be below 0 are zigzag encoded.
PRESENT_ORDER = ["events", "input", "cache_read", "output", "context_above", "cache_write_5m", "cache_write_1h",
                 "reasoning", "cost_logged", "logged_cost_nanos", "cache_write_12h", "estimated_events", "web_search",
                 "web_fetch", "speed", "tier", "region"]
SIGNED = {"context_above", "logged_cost_nanos"}


def packed_day(entry, tools, models, packing):
    """One day's bytes: its names in order of first use, its buckets with the store's fields (speed, tier,
    region, 12-hour cache writes, estimated events and server-tool calls all 0 here), its activity. Packing 2
    writes every field signed; packing 3 the fields present."""
    names, rows = [], bytearray()
    def local(name):
        if name not in names:
            names.append(name)
        return names.index(name)
    for quarter, tool, model, band, logged, uncached, cache_read, write5, write1, output, reasoning, events, nanos, \
            estimated in entry["buckets"]:
        varint(quarter, rows)
        varint(local(tools[tool]), rows)
        varint(local(models[model]), rows)
        fields = {"context_above": band, "cost_logged": logged, "speed": 0, "tier": 0, "region": 0, "input": uncached,
                  "cache_read": cache_read, "cache_write_5m": write5, "cache_write_1h": write1, "cache_write_12h": 0,
                  "output": output, "reasoning": reasoning, "events": events, "logged_cost_nanos": nanos,
                  "estimated_events": estimated, "web_search": 0, "web_fetch": 0}
        if packing == 2:
            for name in ["context_above", "cost_logged", "speed", "tier", "region", "input", "cache_read",
                         "cache_write_5m", "cache_write_1h", "cache_write_12h", "output", "reasoning", "events",
                         "logged_cost_nanos", "estimated_events", "web_search", "web_fetch"]:
                zigzag(fields[name], rows)
            continue
        present = [name for name in PRESENT_ORDER if fields[name] != 0]
        varint(sum(1 << PRESENT_ORDER.index(name) for name in present), rows)
        for name in present:
            (zigzag if name in SIGNED else varint)(fields[name], rows)
    out = bytearray()
    varint(packing, out)
    varint(len(names), out)
    for name in names:
        text = name.encode()
        varint(len(text), out)
        out += text
    varint(len(entry["buckets"]), out)
    out += rows
    varint(len(entry["activity"]), out)
    for quarter, first, last in entry["activity"]:
        varint(quarter, out)
        zigzag(first, out)
        zigzag(last, out)
    return bytes(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--devices", type=int, default=30)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--version", type=int, choices=[2, 4, 5], default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.root, exist_ok=True)
    expected = {}
    for index in range(args.devices):
        ident, document, rows, tokens = device(rng, args.days, index)
        packed = b""
        if args.version >= 4:
            days = [entry for entry in document["days"] if entry["buckets"] or entry["activity"]]
            packing = 2 if args.version == 4 else 3
            blobs = [packed_day(entry, document["tools"], document["models"], packing) for entry in days]
            document["version"] = args.version
            document["days"] = [[entry["day"], len(blob)] for entry, blob in zip(days, blobs)]
            packed = b"\n" + b"".join(blobs)
        text = json.dumps(document, separators=(",", ":")).encode() + packed
        path = os.path.join(args.root, "unprompt-%s.export" % ident)
        # The frame states its size, as unprompt-scan writes its frames (a reader then decompresses it at once).
        frame = subprocess.run(["zstd", "-q", "-6", "--check", "--stream-size=%d" % len(text), "-c"], input=text,
                               stdout=subprocess.PIPE, check=True).stdout
        header = json.dumps({"format": "unprompt-sync", "version": document["version"], "device": ident,
                             "sequence": document["sequence"], "bytes": len(frame)}, separators=(",", ":")).encode()
        with open(path, "wb") as out:
            out.write(struct.pack("<II", 0x184D2A50, len(header)) + header + frame)
        expected[ident] = {"label": document["device"]["label"], "sequence": document["sequence"], "rows": rows,
                           "tokens": tokens, "documentBytes": len(text), "fileBytes": os.path.getsize(path)}
    with open(os.path.join(args.root, "expected.json"), "w") as out:
        json.dump(expected, out, indent=1, sort_keys=True)
    total_rows = sum(e["rows"] for e in expected.values())
    print("%d devices, %d bucket rows, %.1f MB of documents in %.1f MB of files" % (
        args.devices, total_rows, sum(e["documentBytes"] for e in expected.values()) / 1e6,
        sum(e["fileBytes"] for e in expected.values()) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
