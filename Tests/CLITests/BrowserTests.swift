import Foundation
import Testing
import UnpromptTestSupport

/// The page of `report` and of `serve`, opened in headless Chromium by `scripts/browser-check.py`: every number
/// it shows equals the CLI's JSON at the same moment, in light and dark, scripts on and off; it asks for nothing
/// (the served page only for its own `snapshot.json`); its text has WCAG AA contrast; no canary reaches it; its
/// screenshot is not blank. `make test` installs Chromium (`scripts/install-deps.sh`); without it, the test is
/// skipped and says why.
struct BrowserTests {
    static let chromium: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["UNPROMPT_CHROMIUM"], !given.isEmpty { return given }
        let names = ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for name in names {
            for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                return directory + "/" + name
            }
        }
        let mac = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"
        if FileManager.default.isExecutableFile(atPath: mac) { return mac }
        print("BrowserTests skipped: no Chromium binary (install chromium-headless-shell, or set UNPROMPT_CHROMIUM)")
        return nil
    }()

    static let corpus = Repository.root + "/Tests/Golden/corpus"
    static let now = "2026-03-10T11:30:30Z"
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    var store: String { directory + "/usage.sqlite" }
    var environment: [String: String] {
        ["CLAUDE_CONFIG_DIR": directory + "/claude", "CODEX_HOME": directory + "/codex", "UNPROMPT_NOW": Self.now]
    }
    var settings: [String] { ["--store", store, "--config", Self.corpus + "/config.yaml", "--tz", "UTC"] }

    /// The golden corpus, plus a Claude session whose path, working directory, branch and text carry the canary,
    /// scanned; then Claude Code's status line payload recorded.
    func prepare() throws {
        for tool in ["claude", "codex"] {
            try FileManager.default.copyItem(atPath: Self.corpus + "/" + tool, toPath: directory + "/" + tool)
        }
        let project = directory + "/claude/projects/-home-CANARY-secret"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let usage = #"{"input_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":11}"#
        let line =
            #"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/CANARY/secret","sessionId":"CANARY","version":"2.1.90","gitBranch":"CANARY-branch","message":{"model":"claude-sonnet-4-5","id":"msg_CANARY1","type":"message","role":"assistant","content":[{"type":"text","text":"CANARY in a reply"}],"usage":\#(usage)},"requestId":"req_CANARY1","type":"assistant","uuid":"c1","timestamp":"2026-03-10T10:05:00.000Z"}"#
        try (line + "\n").write(toFile: project + "/CANARY.jsonl", atomically: true, encoding: .utf8)
        let scan = try Binary.run(settings, environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let line2 = try Binary.run(["statusline", "--store", store, "--tz", "UTC"], environment: environment, input: StatusLineSample.claudeCode)
        #expect(line2.status == 0, "\(line2.stderr)")
        // The CLI's numbers at the same moment, for the checker.
        try FileManager.default.createDirectory(atPath: directory + "/expect", withIntermediateDirectories: true)
        for (name, arguments) in [
            ("snapshot", ["snapshot"]), ("limits", ["limits", "--json"]), ("calendar", ["calendar", "--json"]),
            ("daily", ["daily", "--json", "--since", "2026-02-09"]), ("monthly", ["monthly", "--json", "--since", "2026-03"]),
        ] {
            let output = try Binary.run(arguments + ["--no-scan"] + settings, environment: environment)
            #expect(output.status == 0, "\(name): \(output.stderr)")
            #expect(!output.stdout.contains("CANARY"))
            try output.stdout.write(toFile: directory + "/expect/\(name).json", atomically: true, encoding: .utf8)
        }
    }

    /// Runs the checker on `url`; its report when it passes.
    func check(_ url: String, origin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Repository.root + "/scripts/browser-check.py", "--chromium", Self.chromium!, "--url", url,
            "--expect", directory + "/expect", "--canary", "CANARY", "--screenshot", directory + "/shot.png",
        ] + (origin.map { ["--origin", $0] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(url):\n\(text)", sourceLocation: sourceLocation)
        return text
    }

    @Test(.enabled(if: chromium != nil, "no Chromium binary: install chromium-headless-shell (scripts/install-deps.sh) or set UNPROMPT_CHROMIUM"))
    func theReportShowsTheCLIsNumbersAndLoadsNothing() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try prepare()
        let page = directory + "/report.html"
        let report = try Binary.run(["report", "--no-scan", "--out", page] + settings, environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("CANARY"))
        let checked = try check(URL(fileURLWithPath: page).absoluteString)
        #expect(checked.contains("light, scripts off:") && checked.contains("dark screenshot:"), "\(checked)")
    }

    @Test(.enabled(if: chromium != nil, "no Chromium binary: install chromium-headless-shell (scripts/install-deps.sh) or set UNPROMPT_CHROMIUM"))
    func theServedPageShowsTheSameAndAsksOnlyItsOwnSnapshot() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try prepare()
        let served = try ServedBinary(["serve", "--port", "0"] + settings, environment: environment)
        let checked = try check(served.url, origin: String(served.url.dropLast()))
        #expect(checked.contains("/snapshot.json"), "\(checked)")
        #expect(served.stop(SIGTERM) == 0)
    }
}

/// `serve` running: started, its printed URL read, stopped by a signal.
final class ServedBinary {
    let process: Process
    /// `http://127.0.0.1:PORT/`, as `serve` printed it (with `?token=` off loopback).
    let url: String
    let printed: String
    private let output: Pipe

    init(_ arguments: [String], environment: [String: String]) throws {
        process = Binary.process(arguments, environment: environment)
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        printed = text
        guard let start = text.range(of: "http://"), let end = text[start.lowerBound...].firstIndex(of: " ") else {
            process.terminate()
            throw ServeNotStarted(output: text)
        }
        url = String(text[start.lowerBound..<end])
    }

    struct ServeNotStarted: Error, CustomStringConvertible {
        let output: String
        var description: String { "serve printed no URL: \(output)" }
    }

    /// The port in the URL.
    var port: Int { Int(url.split(separator: ":")[2].split(separator: "/")[0])! }

    /// Sends `signal` and waits; the exit status (-1 when it had to be killed after 10 s).
    func stop(_ signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
