import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// `daily --csv` and `monthly --csv`, read back by Python's `csv` module (an independent RFC 4180 reader) and
/// compared field by field with the same view's JSON.
struct CSVExportTests {
    typealias Home = ReportCommandTests.Home

    /// Reads the CSV file (argv[1]) with `csv.reader` and checks every row against the JSON file (argv[2]):
    /// its period's entry, tool and model. Prints the number of rows checked.
    static let compare = #"""
        import csv, json, sys
        raw = open(sys.argv[1], "rb").read()
        assert raw.endswith(b"\r\n") and b"\n" not in raw.replace(b"\r\n", b""), "every row ends with CRLF, and only rows do"
        rows = list(csv.reader(open(sys.argv[1], newline=""), strict=True))
        view = json.load(open(sys.argv[2]))
        period = sys.argv[3]
        entries = {e["date" if period == "daily" else "month"]: e for e in view[period]}
        header = rows[0]
        assert header[:3] == ["date" if period == "daily" else "month", "tool", "model"], header
        names = {"input": "input", "output": "output", "cache_read": "cacheRead", "cache_write_5m": "cacheWrite5m",
                 "cache_write_1h": "cacheWrite1h", "cache_write_12h": "cacheWrite12h", "reasoning": "reasoning"}
        seen = set()
        for row in rows[1:]:
            assert len(row) == len(header), row
            r = dict(zip(header, row))
            entry = entries[r[header[0]]]
            tool = entry["byTool"][r["tool"]]
            counts = tool["byModel"][r["model"]]
            for column, key in names.items():
                assert int(r[column]) == counts[key], (row, column)
            assert int(r["total"]) == sum(counts[k] for k in names.values() if k != "reasoning"), row
            cost = tool["costByModel"][r["model"]]
            if cost["usd"] is None:
                assert r["cost_usd"] == "", row
            else:
                assert abs(float(r["cost_usd"]) - cost["usd"]) < 1e-9, (row, cost)
            assert int(r["unpriced_tokens"]) == cost["unpricedTokens"], row
            water = tool["waterByModel"][r["model"]]["liters"]
            for column, key in [("water_liters_low", "low"), ("water_liters_central", "central"), ("water_liters_high", "high")]:
                assert abs(float(r[column]) - water[key]) < 1e-9, (row, column)
            seen.add((r[header[0]], r["tool"], r["model"]))
        expected = {(p, t, m) for p, e in entries.items() for t, c in e["byTool"].items() for m in c["byModel"]}
        assert seen == expected, (seen ^ expected)
        print(len(rows) - 1)
        """#

    @Test func dailyAndMonthlyCSVHoldWhatTheirJSONHolds() throws {
        let home = try Home()
        let directory = home.root
        for (command, expectedRows) in [("daily", 7), ("monthly", 4)] {
            let csv = try home.run([command, "--csv", "--tz", "UTC"])
            #expect(csv.status == 0, "\(csv.stderr)")
            let json = try home.run([command, "--json", "--tz", "UTC", "--no-scan"])
            try csv.stdout.write(toFile: directory + "/\(command).csv", atomically: true, encoding: .utf8)
            try json.stdout.write(toFile: directory + "/\(command).json", atomically: true, encoding: .utf8)
            let checked = try Python.run(Self.compare, arguments: [directory + "/\(command).csv", directory + "/\(command).json", command])
            #expect(checked == "\(expectedRows)\n", "\(command): rows checked")
        }
    }

    @Test func csvAndJSONAreTwoFormats() throws {
        let output = try Binary.run(["daily", "--csv", "--json"], environment: ["HOME": FileManager.default.temporaryDirectory.path])
        #expect(output.status == 2 && output.stderr.hasPrefix("unprompt-scan: --csv and --json are two formats: give one\n"))
        #expect(output.stdout.isEmpty)
        let today = try Binary.run(["today", "--csv"])
        #expect(today.status == 2 && today.stderr.hasPrefix("unprompt-scan: today does not take --csv\n"), "\(today.stderr)")
    }

    @Test func quotesCommasAndLineBreaksInATextFieldSurviveAReader() throws {
        var table = CSVTable(header: ["a", "b,c"])
        table.add([.text("say \"hi\", then\r\nleave"), .decimal(0.1 + 0.2)])
        table.add([.empty, .integer(-3)])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try table.text.write(toFile: file, atomically: true, encoding: .utf8)
        let read = try Python.run(
            "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline=''), strict=True))))",
            arguments: [file])
        #expect(try JSONTree(parsing: read) == JSONTree(["a", "b,c", "say \"hi\", then\r\nleave", "0.3", "", "-3"].chunked()))
        #expect(CSVTable.decimal(1e-10) == "0" && CSVTable.decimal(12.5) == "12.5" && CSVTable.decimal(3) == "3")
    }
}

extension Array where Element == String {
    /// Pairs of fields, as the two-column table's rows.
    fileprivate func chunked() -> [[String]] { stride(from: 0, to: count, by: 2).map { [self[$0], self[$0 + 1]] } }
}
