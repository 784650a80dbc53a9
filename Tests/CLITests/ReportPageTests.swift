import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// `report`: one self-contained file. Its policy allows exactly its own inline style and script (their hashes),
/// nothing in it points anywhere, every string is escaped, and it says nothing that judges.
struct ReportPageTests {
    static let corpus = Repository.root + "/Tests/Golden/corpus"
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["CLAUDE_CONFIG_DIR": Self.corpus + "/claude", "CODEX_HOME": Self.corpus + "/codex", "UNPROMPT_NOW": "2026-03-10T11:30:00Z"]
    }
    var settings: [String] { ["--store", directory + "/usage.sqlite", "--config", Self.corpus + "/config.yaml", "--tz", "UTC"] }

    func page() throws -> String {
        let output = try Binary.run(["report", "--out", "-"] + settings, environment: environment)
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        return output.stdout
    }

    /// The text between `open` and the next `close`.
    func between(_ text: String, _ open: String, _ close: String) -> String? {
        guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func thePolicyAllowsExactlyItsOwnStyleAndScriptAndNothingPointsAnywhere() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let html = try page()
        let style = try #require(between(html, "<style>", "</style>"))
        let script = try #require(between(html, "<script>", "</script>"))
        let policy = try #require(between(html, "http-equiv=\"Content-Security-Policy\" content=\"", "\""))
            .replacingOccurrences(of: "&#39;", with: "'")
        #expect(policy == "default-src 'none'; style-src \(HTML.hashSource(style)); script-src \(HTML.hashSource(script)); img-src 'none'; base-uri 'none'; form-action 'none'")
        // An independent SHA-256 of the style, base64: the policy's hash is of what the page holds.
        let digest = try Python.run(
            "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode())",
            arguments: [style])
        #expect(policy.contains("'sha256-\(digest.trimmingCharacters(in: .newlines))'"))
        for pattern in ["http:", "https:", "//", " src=", "url(", "@import", "<link", "<iframe", "<img", "<object", "fetch("] {
            let outsideScript = html.replacingOccurrences(of: script, with: "")
            #expect(!outsideScript.lowercased().contains(pattern), "the page holds \(pattern)")
        }
        #expect(!script.contains("http") && !script.contains("fetch("), "the report's script asks for nothing")
        #expect(html.components(separatedBy: "href=\"").dropFirst().allSatisfy { $0.hasPrefix("#") }, "only links inside the page")
    }

    @Test func itSaysNothingThatJudgesAndHoldsNoEmoji() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let html = try page()
        let text = html.replacingOccurrences(of: #"<[^>]+>"#, with: " ", options: .regularExpression).lowercased()
        for word in ["good", "bad", "great", "well done", "warning", "too much", "too many", "excessive", "over budget", "budget", "goal", "target:", "careful", "slow down", "alert", "danger"] {
            #expect(!text.contains(word) || text.contains("not a \(word)") || text.contains("none of it is a \(word)"), "the page says '\(word)'")
        }
        let emoji = html.unicodeScalars.filter { (0x1F000...0x1FAFF).contains($0.value) || (0x2600...0x27BF).contains($0.value) }
        #expect(emoji.isEmpty, "\(emoji.map { String($0.value, radix: 16) })")
        #expect(!DashboardStyle.css.lowercased().contains("red"), "no red anywhere")
    }

    @Test func everyStringIsEscapedInTextAndAttributes() {
        #expect(HTML.escaped("<script>alert('x') & \"y\"</script>") == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;")
        #expect(HTML.number("a<b", value: "1\"2", key: "k'&") == "<data value=\"1&quot;2\" data-key=\"k&#39;&amp;\">a&lt;b</data>")
    }

    @Test func theFileIsWrittenWholeWhereAsked() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/out/page.html"
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: true)
        let output = try Binary.run(["report", "--out", file] + settings, environment: environment)
        #expect(output.status == 0 && output.stdout == "wrote \(file) (open it in a browser; it loads nothing from anywhere)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("</html>\n"))
        let missing = try Binary.run(["report", "--no-scan", "--out", directory + "/no/such/dir/page.html"] + settings, environment: environment)
        #expect(missing.status == 7 && missing.stderr.hasPrefix("unprompt-scan: report: cannot write "), "\(missing.stderr)")
        let month = try Binary.run(["report", "--month", "2026-13"] + settings, environment: environment)
        #expect(month.status == 2 && month.stderr.hasPrefix("unprompt-scan: --month: expected a month YYYY-MM"))
        // Another month: its calendar and its models; today and the limits stay today's.
        let february = try Binary.run(["report", "--no-scan", "--month", "2026-02", "--out", "-"] + settings, environment: environment)
        #expect(february.stdout.contains("<h2 id=\"h-month\">February 2026</h2>") && february.stdout.contains("By model, February 2026"))
        #expect(february.stdout.contains("data-key=\"day.2026-02-20.tokens\">73k</data>"))
    }
}
