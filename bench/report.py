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
  report.py store-row NAME FILES TIME_V.txt RESCAN.json INPROCESS.jsonl COLD.json...
      One row of the store benchmark as JSON: cold scan vs aiburn (pooled over the COLD hyperfine exports),
      rescan with nothing new, peak RSS.
  report.py store-summary OUT.json ROW.json...
      Prints the store table and writes OUT.json.
  report.py append-record FILE
      Appends one new Claude Code usage record (1 input, 1 output token, a fresh id) to FILE, as a tool would.
  report.py watch-latency OUT.json ROUNDS FILE -- WATCH-COMMAND...
      Starts `unprompt-scan watch --json` (the command), lets its first round pass, then ROUNDS times appends one
      record to FILE and times until the watch prints the line that counts it; then samples the watch's CPU time
      over 5 idle seconds. Writes the median and every latency (ms) and the idle CPU (ms per s) to OUT.json.
  report.py goals OUT.json SUMMARY.json STORE.json EXTRA.json
      Prints the one table of every performance goal (DESIGN.md, "Performance budget") and writes OUT.json.
  report.py statusline OUT.json HYPERFINE.json
      The status line's run times (mean, median, min, in ms) beside its goal, printed and written to OUT.json.
"""
import json
import statistics
import sys

FIELDS = ["input", "output", "cacheRead", "cacheWrite5m", "cacheWrite1h", "cacheWrite12h", "reasoning"]


def diff(label, ours, want):
    out = []
    for f in FIELDS:
        got = ours.get(f, 0) if ours is not None else None
        if got != want.get(f, 0):
            out.append("  %s %s: ours %s, expected %s" % (label, f, got, want.get(f, 0)))
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
            ocache = t.get("cacheRead", 0) + t.get("cacheWrite5m", 0) + t.get("cacheWrite1h", 0) + t.get("cacheWrite12h", 0)
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
        "SELECT sum(input), sum(output), sum(cache_read), sum(cache_write_5m), sum(cache_write_1h), "
        "sum(cache_write_12h), sum(reasoning), sum(events) FROM buckets").fetchone()
    ours = dict(zip(FIELDS, row[:7]))
    with open(expected_path) as f:
        e = json.load(f)
    want, events = e["rules"]["true"]["totals"], e["rules"]["true"]["events"]
    problems = diff("store total", ours, want)
    if row[7] != events:
        problems.append("  store events: ours %s, expected %s" % (row[7], events))
    if problems:
        print("store totals differ from %s:" % expected_path)
        print("\n".join(problems))
        return 1
    print("store totals equal %s exactly (%s events)" % (expected_path, fmt(events)))
    return 0


def store_row(name, files, time_path, rescan_path, inprocess_path, cold_paths):
    cold = {"cold-scan": [], "aiburn": []}
    for path in cold_paths:
        with open(path) as f:
            for r in json.load(f)["results"]:
                cold[r["command"]].extend(r["times"])
    with open(rescan_path) as f:
        rescan = json.load(f)["results"][0]
    rss_kib = None
    with open(time_path) as f:
        for line in f:
            if "Maximum resident set size" in line:
                rss_kib = int(line.rsplit(":", 1)[1])
    with open(inprocess_path) as f:
        inprocess = [json.loads(line)["scan"]["milliseconds"] for line in f if line.strip()]
    ours, peer = statistics.mean(cold["cold-scan"]), statistics.mean(cold["aiburn"])
    print(json.dumps({
        "rescan_in_process_median_ms": statistics.median(inprocess),
        "tree": name, "files": int(files), "cold_scan_s": ours, "aiburn_s": peer, "ratio": ours / peer,
        "cold_scan_median_s": statistics.median(cold["cold-scan"]), "aiburn_median_s": statistics.median(cold["aiburn"]),
        "cold_runs": len(cold["cold-scan"]),
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
            r["tree"], r["files"], r["cold_scan_s"], r["aiburn_s"], r["ratio"], r["rescan_median_ms"],
            r["rescan_in_process_median_ms"], r["cold_scan_rss_mb"] or 0))
    print("cold scan and aiburn: means of %s alternating runs each; rescan: medians" % (
        ", ".join(str(r.get("cold_runs", "?")) for r in rows)))
    print("goals: cold scan <= 0.6x aiburn; rescan with nothing new <= 12 ms whole process, <= 5 ms the scan; RSS <= 40 MB")
    print("rescan ms (proc) is the whole process, start-up and descriptor loading included; (scan) is the scan itself")
    with open(out_path, "w") as f:
        json.dump({"rows": rows}, f, indent=1)
        f.write("\n")
    return 0


def append_record(path):
    import os
    import time
    n = 0
    if os.path.exists(path):
        with open(path, "rb") as f:
            n = f.read().count(b"\n")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    line = ('{"type":"assistant","isSidechain":false,"timestamp":"%s","requestId":"req_bench_append_%d_%d",'
            '"message":{"id":"msg_bench_append_%d_%d","model":"claude-sonnet-4-5-20250929","role":"assistant",'
            '"usage":{"input_tokens":1,"output_tokens":1,"cache_read_input_tokens":0,'
            '"cache_creation_input_tokens":0}}}\n') % (stamp, os.getpid(), n, os.getpid(), n)
    with open(path, "a") as f:
        f.write(line)
    return 0


def watch_latency(out_path, rounds, path, command):
    import os
    import select
    import signal
    import subprocess
    import time
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    fd = proc.stdout.fileno()
    pending = b""

    def next_line(timeout):
        nonlocal pending
        deadline = time.monotonic() + timeout
        while b"\n" not in pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            pending += chunk
        line, pending = pending.split(b"\n", 1)
        return line

    def cpu_ms():
        with open("/proc/%d/stat" % proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")

    try:
        time.sleep(2)  # the first round: the store is up to date, so it prints nothing
        while next_line(0.1) is not None:
            pass
        latencies = []
        for _ in range(int(rounds)):
            start = time.monotonic()
            append_record(path)
            line = next_line(10)
            if line is None:
                print("watch-latency: no line within 10 s", file=sys.stderr)
                return 1
            latencies.append((time.monotonic() - start) * 1000)
            time.sleep(0.5)
        time.sleep(1)
        before = cpu_ms()
        time.sleep(5)
        idle = (cpu_ms() - before) / 5
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    doc = {"median_ms": statistics.median(latencies), "latencies_ms": latencies, "idle_cpu_ms_per_s": idle}
    print("watch: appended line -> store, median %.0f ms (%s); idle CPU %.2f ms per s" % (
        doc["median_ms"], ", ".join("%.0f" % x for x in latencies), idle))
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    return 0


def goals(out_path, summary_path, store_path, extra_path):
    with open(summary_path) as f:
        dry = {r["tree"]: r for r in json.load(f)["rows"]}
    with open(store_path) as f:
        store = {r["tree"]: r for r in json.load(f)["rows"]}
    with open(extra_path) as f:
        extra = json.load(f)
    rows = []

    def add(goal, value, limit, unit, fmt_value="%.2f"):
        if value is None:
            rows.append((goal, "-", "<= %s%s" % (limit, unit), "not measured"))
            return
        rows.append((goal, (fmt_value % value) + unit, "<= %s%s" % (limit, unit), "met" if value <= limit else "MISSED"))

    trees = [t for t in ("claude-300", "codex-300", "claude-3000") if t in dry or t in store]
    for t in trees:
        add("dry run / aiburn, %s" % t, dry.get(t, {}).get("ratio"), 0.5, "x")
    for t in trees:
        add("cold scan / aiburn, %s" % t, store.get(t, {}).get("ratio"), 0.6, "x")
    for t in trees:
        d, c = dry.get(t, {}).get("ours_mean_s"), store.get(t, {}).get("cold_scan_s")
        add("cold scan / dry run, %s" % t, c / d if c and d else None, 1.25, "x")
    small, big = store.get("claude-300", {}).get("cold_scan_s"), store.get("claude-3000", {}).get("cold_scan_s")
    add("cold scan 3 GB / 300 MB", big / small if big and small else None, 11, "x", "%.1f")
    for t in ("claude-30", "claude-300", "codex-300", "claude-3000"):
        if t in dry:
            add("peak RSS, dry run %s" % t, dry[t].get("ours_rss_mb"), 40, " MB", "%.1f")
    for t in ("claude-30", "claude-300", "codex-300", "claude-3000"):
        if t in store:
            add("peak RSS, cold scan %s" % t, store[t].get("cold_scan_rss_mb"), 40, " MB", "%.1f")
    r = store.get("claude-300", {})
    add("rescan, nothing new, whole process (claude-300)", r.get("rescan_median_ms"), 12, " ms", "%.1f")
    add("rescan, nothing new, the scan itself (claude-300)", r.get("rescan_in_process_median_ms"), 5, " ms", "%.1f")
    add("one line appended, whole process (%s)" % extra.get("append_tree", "-"), extra.get("append_median_ms"), 15, " ms", "%.1f")
    add("watch: appended line reaches the store", extra.get("watch_median_ms"), 200, " ms", "%.0f")
    add("watch: idle CPU", extra.get("watch_idle_cpu_ms_per_s"), 1, " ms/s", "%.2f")
    width = [max(len(row[i]) for row in rows + [("goal", "measured", "goal", "")]) for i in range(4)]
    print("Goals (issue 14), one run:")
    print("  " + "  ".join(h.ljust(width[i]) for i, h in enumerate(("goal", "measured", "limit", ""))))
    for row in rows:
        print("  " + "  ".join(c.ljust(width[i]) for i, c in enumerate(row)))
    print()
    print("Scaling (wall s, peak RSS MB): tree, dry run, cold scan")
    for t in ("claude-30", "claude-300", "claude-3000"):
        d, c = dry.get(t, {}), store.get(t, {})
        if d or c:
            def v(x, nd):
                return "-" if x is None else "%.*f" % (nd, x)
            print("  %-12s dry %7s s %6s MB   cold %7s s %6s MB" % (
                t, v(d.get("ours_mean_s"), 3), v(d.get("ours_rss_mb"), 1), v(c.get("cold_scan_s"), 3),
                v(c.get("cold_scan_rss_mb"), 1)))
    with open(out_path, "w") as f:
        json.dump({"goals": [dict(zip(("goal", "measured", "limit", "status"), row)) for row in rows]}, f, indent=1)
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
    if cmd == "store-row" and len(argv) >= 8:
        return store_row(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7:])
    if cmd == "statusline" and len(argv) == 4:
        statusline(argv[2], argv[3])
        return 0
    if cmd == "store-summary" and len(argv) >= 4:
        return store_summary(argv[2], argv[3:])
    if cmd == "append-record" and len(argv) == 3:
        return append_record(argv[2])
    if cmd == "watch-latency" and len(argv) >= 7 and argv[5] == "--":
        return watch_latency(argv[2], argv[3], argv[4], argv[6:])
    if cmd == "goals" and len(argv) == 6:
        return goals(*argv[2:6])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
