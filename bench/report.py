#!/usr/bin/env python3
"""Helpers for bench/run.sh (standard library only).

  report.py check KIND OURS.json EXPECTED.json [AIBURN.json]
      KIND is claude or codex. Compares our dry-run totals with the generator's expected totals (rules.true:
      exactly, in total, by model and by UTC day) and prints aiburn's totals beside ours for information.
      Exit 1 on a mismatch.
  report.py hyperfine HYPERFINE.json...
      Pools the run times of the commands named ours and aiburn over hyperfine exports and prints, in seconds,
      "mean stddev median min runs" for ours, then the same for aiburn.
  report.py rss TIME_V_OUTPUT...
      Prints the median "Maximum resident set size" of GNU time -v outputs, in KiB.
  report.py summary OUT.json META.json ROW.json...
      Prints the summary table and writes OUT.json.
  report.py store-check STORE.sqlite EXPECTED.json
      Compares the store's bucket totals with the generator's expected totals, exactly. Exit 1 on a mismatch.
  report.py store-row NAME FILES COLD.json RESCAN.json TIME_V.txt INPROCESS.jsonl
      One row of the store benchmark as JSON: cold scan vs aiburn, rescan with nothing new, peak RSS.
  report.py store-summary OUT.json ROW.json...
      Prints the store table and writes OUT.json.
  report.py statusline OUT.json HYPERFINE.json
      The status line's run times (mean, median, min, in ms) beside its goal, printed and written to OUT.json.
"""
import json
import statistics
import sys

FIELDS = ["input", "output", "cacheRead", "cacheWrite5m", "cacheWrite1h", "reasoning"]


def diff(label, ours, want):
    out = []
    for f in FIELDS:
        got = ours.get(f, 0) if ours is not None else None
        if got != want[f]:
            out.append("  %s %s: ours %s, expected %s" % (label, f, got, want[f]))
    return out


def fmt(n):
    return "{:,}".format(n)


def check(kind, ours_path, expected_path, aiburn_path=None):
    with open(ours_path) as f:
        ours_doc = json.load(f)
    with open(expected_path) as f:
        exp_doc = json.load(f)
    reader_id = "claude-code" if kind == "claude" else "codex"
    readers = [r for r in ours_doc.get("readers", []) if r.get("id") == reader_id]
    if len(readers) != 1:
        print("  MISMATCH: no single reader %r in our output" % reader_id)
        return 1
    ours = readers[0]
    truth = exp_doc["rules"]["true"]
    problems = diff("total", ours.get("totals", {}), truth["totals"])
    if ours.get("events") != truth["events"]:
        problems.append("  total events: ours %s, expected %s" % (ours.get("events"), truth["events"]))
    for key, label in (("byModel", "model"), ("byDay", "UTC day")):
        mine, want = ours.get(key, {}), truth[key]
        for name in sorted(set(mine) | set(want)):
            if name not in want:
                problems.append("  %s %s: ours has it, expected has not" % (label, name))
            elif name not in mine:
                problems.append("  %s %s: expected has it, ours has not" % (label, name))
            else:
                problems += diff("%s %s" % (label, name), mine[name], want[name])

    t = ours.get("totals", {})
    print("  ours:     sources %s, lines %s, events %s, skipped %s" % (
        fmt(ours.get("sources", 0)), fmt(ours.get("lines", 0)), fmt(ours.get("events", 0)),
        json.dumps(ours.get("skipped", {}), separators=(",", ":"))))

    if aiburn_path:
        try:
            with open(aiburn_path) as f:
                ab = json.load(f)
            a = {"input": 0, "output": 0, "cache": 0}
            for g in ab.get("groups", []):
                for k in a:
                    a[k] += int(g.get(k, 0) or 0)
            ocache = t.get("cacheRead", 0) + t.get("cacheWrite5m", 0) + t.get("cacheWrite1h", 0)
            rows = [("input", t.get("input", 0), a["input"]), ("output", t.get("output", 0), a["output"]),
                    ("cache (read+write)", ocache, a["cache"])]
            print("  beside aiburn (information):")
            print("    %-20s %18s %18s" % ("", "ours", "aiburn"))
            for name, o, b in rows:
                print("    %-20s %18s %18s  %s" % (name, fmt(o), fmt(b), "=" if o == b else "differs"))
        except Exception as e:  # informative only
            print("  aiburn totals unreadable: %s" % e)

    if problems:
        print("  MISMATCH against expected_totals.json (rules.true):")
        for p in problems[:40]:
            print(p)
        if len(problems) > 40:
            print("  … %d more" % (len(problems) - 40))
        return 1
    print("  OK: equal to expected_totals.json `rules.true` in total (%s events), for all %d models and all %d days" % (
        fmt(ours.get("events", 0)), len(truth["byModel"]), len(truth["byDay"])))
    return 0


def hyperfine(paths):
    """Pools the run times of the commands named ours and aiburn over one or more hyperfine exports."""
    times = {"ours": [], "aiburn": []}
    for path in paths:
        with open(path) as f:
            for r in json.load(f)["results"]:
                times[r["command"]].extend(r["times"])
    out = []
    for name in ("ours", "aiburn"):
        t = times[name]
        out += [statistics.mean(t), statistics.stdev(t) if len(t) > 1 else 0.0, statistics.median(t), min(t), len(t)]
    print(" ".join(str(x) for x in out))
    return 0


def rss(paths):
    values = []
    for p in paths:
        with open(p) as f:
            for line in f:
                if "Maximum resident set size" in line:
                    values.append(int(line.rsplit(":", 1)[1]))
    if len(values) != len(paths):
        print("rss: no 'Maximum resident set size' in some of %s" % paths, file=sys.stderr)
        return 1
    print(int(statistics.median(values)))
    return 0


def summary(out_path, meta_path, row_paths):
    with open(meta_path) as f:
        meta = json.load(f)
    rows = []
    for p in row_paths:
        with open(p) as f:
            rows.append(json.load(f))

    def s(x, nd=3):
        return "-" if x is None else ("%.*f" % (nd, x))

    header = ("tree", "ours s", "aiburn s", "ratio", "ours RSS MB", "aiburn RSS MB")
    lines = [header]
    for r in rows:
        lines.append((r["tree"], s(r.get("ours_mean_s")), s(r.get("aiburn_mean_s")), s(r.get("ratio"), 2),
                      s(r.get("ours_rss_mb"), 1), s(r.get("aiburn_rss_mb"), 1)))
    widths = [max(len(l[i]) for l in lines) for i in range(len(header))]
    print()
    print("Summary (wall: hyperfine mean, warm page cache; RSS: median of 3 GNU time -v runs, MB = MiB)")
    for i, l in enumerate(lines):
        print("  " + "  ".join((c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])) for j, c in enumerate(l)))
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))

    goals = meta.get("goals", {})
    notes = []
    for r in rows:
        if r.get("ratio") is not None:
            ok = r["ratio"] <= goals.get("ratio_max", 0.6)
            notes.append("%s: ratio %.2f, goal <= %.2f: %s" % (r["tree"], r["ratio"], goals.get("ratio_max", 0.6), "met" if ok else "MISSED"))
        if r.get("ours_rss_mb") is not None:
            ok = r["ours_rss_mb"] <= goals.get("rss_mb_max", 40)
            notes.append("%s: ours RSS %.1f MB, goal <= %d MB: %s" % (r["tree"], r["ours_rss_mb"], goals.get("rss_mb_max", 40), "met" if ok else "MISSED"))
    by_tree = {r["tree"]: r for r in rows}
    flat = None
    big, small = by_tree.get("claude-300"), by_tree.get("claude-30")
    if big and small and big.get("ours_rss_mb") and small.get("ours_rss_mb"):
        flat = big["ours_rss_mb"] / small["ours_rss_mb"]
        notes.append("RSS flat with corpus size: ours %.1f MB on 300 MB vs %.1f MB on 30 MB (x%.2f for 10x the data)" % (
            big["ours_rss_mb"], small["ours_rss_mb"], flat))
    print()
    print("Goals (information only, never a failure):")
    for n in notes:
        print("  " + n)

    doc = dict(meta)
    doc["rows"] = rows
    doc["rss_300_over_30"] = flat
    doc["goal_notes"] = notes
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print()
    print("Written: %s" % out_path)
    return 0


def store_check(store_path, expected_path):
    import sqlite3
    row = sqlite3.connect("file:%s?mode=ro" % store_path, uri=True).execute(
        "SELECT sum(input), sum(output), sum(cache_read), sum(cache_write_5m), sum(cache_write_1h), sum(reasoning), "
        "sum(events) FROM buckets").fetchone()
    ours = dict(zip(FIELDS, row[:6]))
    with open(expected_path) as f:
        e = json.load(f)
    want, events = e["rules"]["true"]["totals"], e["rules"]["true"]["events"]
    problems = diff("store total", ours, want)
    if row[6] != events:
        problems.append("  store events: ours %s, expected %s" % (row[6], events))
    if problems:
        print("store totals differ from %s:" % expected_path)
        print("\n".join(problems))
        return 1
    print("store totals equal %s exactly (%s events)" % (expected_path, fmt(events)))
    return 0


def store_row(name, files, cold_path, rescan_path, time_path, inprocess_path):
    with open(cold_path) as f:
        cold = {r["command"]: r for r in json.load(f)["results"]}
    with open(rescan_path) as f:
        rescan = json.load(f)["results"][0]
    rss_kib = None
    with open(time_path) as f:
        for line in f:
            if "Maximum resident set size" in line:
                rss_kib = int(line.rsplit(":", 1)[1])
    with open(inprocess_path) as f:
        inprocess = [json.loads(line)["scan"]["milliseconds"] for line in f if line.strip()]
    ours, peer = cold["cold-scan"]["mean"], cold["aiburn"]["mean"]
    print(json.dumps({
        "rescan_in_process_median_ms": statistics.median(inprocess),
        "tree": name, "files": int(files), "cold_scan_s": ours, "aiburn_s": peer, "ratio": ours / peer,
        "rescan_ms": rescan["mean"] * 1000, "rescan_median_ms": rescan["median"] * 1000,
        "cold_scan_rss_mb": rss_kib / 1024 if rss_kib else None,
    }))
    return 0


def store_summary(out_path, row_paths):
    rows = []
    for p in row_paths:
        with open(p) as f:
            rows.append(json.load(f))
    print("%-11s %6s %12s %10s %7s %16s %17s %12s" % (
        "tree", "files", "cold scan s", "aiburn s", "ratio", "rescan ms (proc)", "rescan ms (scan)", "cold RSS MB"))
    for r in rows:
        print("%-11s %6d %12.3f %10.3f %7.2f %16.1f %17.1f %12.1f" % (
            r["tree"], r["files"], r["cold_scan_s"], r["aiburn_s"], r["ratio"], r["rescan_ms"],
            r["rescan_in_process_median_ms"], r["cold_scan_rss_mb"] or 0))
    print("goals: cold scan <= 0.6x aiburn; rescan with nothing new <= 15 ms for ~650 files; RSS <= 40 MB")
    print("rescan ms (proc) is the whole process, start-up and descriptor loading included; (scan) is the scan itself")
    with open(out_path, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
        f.write("\n")
    return 0


STATUSLINE_GOAL_MS = 10


def statusline(out_path, hyperfine_path):
    times = json.load(open(hyperfine_path))["results"][0]["times"]
    row = {"mean_ms": statistics.mean(times) * 1000, "median_ms": statistics.median(times) * 1000,
           "min_ms": min(times) * 1000, "stddev_ms": statistics.pstdev(times) * 1000, "runs": len(times),
           "goal_ms_max": STATUSLINE_GOAL_MS}
    json.dump(row, open(out_path, "w"), indent=1)
    print("statusline, nothing new: mean %.1f ms, median %.1f ms, min %.1f ms (%d runs); goal at most %d ms: %s"
          % (row["mean_ms"], row["median_ms"], row["min_ms"], row["runs"], STATUSLINE_GOAL_MS,
             "met" if row["mean_ms"] <= STATUSLINE_GOAL_MS else "not met"))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "check" and len(argv) in (5, 6):
        return check(argv[2], argv[3], argv[4], argv[5] if len(argv) == 6 else None)
    if cmd == "hyperfine" and len(argv) >= 3:
        return hyperfine(argv[2:])
    if cmd == "rss" and len(argv) >= 3:
        return rss(argv[2:])
    if cmd == "summary" and len(argv) >= 4:
        return summary(argv[2], argv[3], argv[4:])
    if cmd == "store-check" and len(argv) == 4:
        return store_check(argv[2], argv[3])
    if cmd == "store-row" and len(argv) == 8:
        return store_row(*argv[2:8])
    if cmd == "statusline" and len(argv) == 4:
        statusline(argv[2], argv[3])
        return 0
    if cmd == "store-summary" and len(argv) >= 4:
        return store_summary(argv[2], argv[3:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
