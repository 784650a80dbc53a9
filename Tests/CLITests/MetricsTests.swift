import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// `metrics`: the Prometheus text format as its specification writes it (checked line by line by a reader
/// written from the specification, in Python), no timestamps (node_exporter's textfile collector refuses them),
/// and the same numbers as `snapshot --json` at the same moment.
struct MetricsTests {
    /// Parses argv[1] strictly and compares it with the snapshot in argv[2]; prints the samples read.
    static let check = #"""
        import json, math, re, sys
        text = open(sys.argv[1], encoding="utf-8").read()
        assert text.endswith("\n") and "\r" not in text
        name = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
        label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\\\|\\"|\\n)*"'
        sample = re.compile(r"^(%s)(?:\{(%s(?:,%s)*)?\})? (\S+)$" % (name, label, label))
        families, order, samples = {}, [], []
        for line in text.split("\n")[:-1]:
            if line.startswith("# HELP "):
                family = line.split(" ")[2]
                assert family not in families, "HELP twice: " + family
                families[family] = None
                order.append(family)
            elif line.startswith("# TYPE "):
                _, _, family, kind = line.split(" ")
                assert order and order[-1] == family and families[family] is None, "TYPE after its HELP: " + line
                assert kind in ("gauge", "counter", "untyped"), line
                families[family] = kind
            else:
                m = sample.match(line)
                assert m, "not a sample line: " + repr(line)
                assert m.group(1) == order[-1], "a sample outside its family: " + line
                value = float(m.group(3))
                assert not math.isnan(value)
                labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
                samples.append((m.group(1), labels, value))
        snapshot = json.load(open(sys.argv[2]))
        def one(family, **labels):
            found = [v for f, l, v in samples if f == family and l == labels]
            assert len(found) == 1, (family, labels, found)
            return found[0]
        usage = snapshot["usage"]
        for entry in usage["byModel"]:
            assert one("unprompt_today_tokens", tool=entry["tool"], model=entry["model"]) == entry["tokens"], entry
        assert sum(v for f, _, v in samples if f == "unprompt_today_tokens") == usage["tokens"]
        assert one("unprompt_today_tokens_estimate") == usage["estimate"]
        costs = [v for f, _, v in samples if f == "unprompt_today_cost_usd"]
        if usage["cost"]["usd"] is not None:
            assert abs(sum(costs) - usage["cost"]["usd"]) < 1e-8, (costs, usage["cost"])
        assert sum(v for f, _, v in samples if f == "unprompt_today_unpriced_tokens") == usage["cost"]["unpricedTokens"]
        water = sum(v for f, l, v in samples if f == "unprompt_today_water_liters" and l["estimate"] == "central")
        assert abs(water - usage["water"]["central"]) < 1e-8, (water, usage["water"])
        assert one("unprompt_today_uses", split="work") == snapshot["uses"]["work"]
        assert one("unprompt_today_uses", split="personal") == snapshot["uses"]["personal"]
        assert one("unprompt_measured_at_seconds") * 1000 == usage["measuredAt"]
        for limit in snapshot["limits"]:
            where = dict(tool=limit["tool"], window=limit["window"])
            assert one("unprompt_limit_used_percent", **where) == limit["usedPercent"], limit
            assert one("unprompt_limit_resets_at_seconds", **where) * 1000 == limit["resetsAt"], limit
            assert one("unprompt_limit_logged_at_seconds", **where) * 1000 == limit["measuredAt"], limit
            assert one("unprompt_limit_stale", **where) == (1 if limit["stale"] else 0), limit
        print(len(samples))
        """#

    @Test func theExpositionReadsBackAsTheSnapshotsNumbers() throws {
        let corpus = Repository.root + "/Tests/Golden/corpus"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = [
            "CLAUDE_CONFIG_DIR": corpus + "/claude", "CODEX_HOME": corpus + "/codex", "UNPROMPT_NOW": "2026-03-10T11:30:00Z",
        ]
        let common = ["--store", directory + "/usage.sqlite", "--config", corpus + "/config.yaml"]
        let metrics = try Binary.run(["metrics"] + common, environment: environment)
        #expect(metrics.status == 0 && metrics.stderr.isEmpty, "\(metrics.stderr)")
        let snapshot = try Binary.run(["snapshot", "--no-scan"] + common, environment: environment)
        try metrics.stdout.write(toFile: directory + "/unprompt.prom", atomically: true, encoding: .utf8)
        try snapshot.stdout.write(toFile: directory + "/snapshot.json", atomically: true, encoding: .utf8)
        // 3 tool-model cells × (tokens, events, cost, unpriced, 3 water) + estimate + 2 uses + measured at + 3 limits × 4.
        #expect(try Python.run(Self.check, arguments: [directory + "/unprompt.prom", directory + "/snapshot.json"]) == "37\n")
        #expect(!metrics.stdout.contains("\n\n"))
    }

    @Test func labelValuesAndHelpAreEscaped() {
        var text = PrometheusText()
        text.family("m", help: "a \\ b\nc \"q\"", [.init(labels: [("l", "x\"y\\z\nw")], value: 0.5), .init(labels: [], value: 3)])
        #expect(text.rendered == "# HELP m a \\\\ b\\nc \"q\"\n# TYPE m gauge\nm{l=\"x\\\"y\\\\z\\nw\"} 0.5\nm 3\n")
    }
}
