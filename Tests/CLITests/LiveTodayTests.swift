import Foundation
import Testing
import UnpromptTestSupport

/// `today --live` on a real terminal: tmux runs it in a pane of its own server; `capture-pane` reads the screen,
/// `send-keys` presses the keys, `display` tells whether the alternate screen is on and the cursor shown, and
/// `stty -a` before and after tells whether the terminal's modes came back. Skipped, saying so, without tmux
/// (`scripts/install-deps.sh` installs it on Linux).
///
/// The log holds five Claude requests of the last ten minutes, so the estimate grows by hundreds of tokens a
/// second. Every wait is a bounded poll for a condition, with deadlines far above what a pass needs.
final class LiveTodayTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let directory: String
    let socket = "unprompt-live-\(UUID().uuidString.prefix(8))"
    /// The view's zone: UTC, unless the real clock is within two hours of midnight UTC, when the requests of the last
    /// ten minutes (or the minutes the test takes) could fall on yesterday; then UTC+6, whose day they share.
    let zone: String = {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour ?? 12
        return hour >= 22 || hour < 2 ? "Etc/GMT-6" : "UTC"
    }()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/claude/projects/p", withIntermediateDirectories: true)
        let now = Date()
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var lines = ""
        for index in 0..<5 {
            let time = format.string(from: now.addingTimeInterval(Double(-600 + 120 * index)))
            let usage = #"{"input_tokens":20000,"cache_creation_input_tokens":0,"cache_read_input_tokens":60000,"output_tokens":40000}"#
            lines +=
                #"{"type":"assistant","sessionId":"s","uuid":"a-\#(index)","timestamp":"\#(time)","requestId":"req_live\#(index)","message":{"model":"claude-sonnet-4-5","id":"msg_live\#(index)","type":"message","role":"assistant","content":[],"usage":\#(usage)}}"#
                + "\n"
        }
        try lines.write(toFile: directory + "/claude/projects/p/s.jsonl", atomically: true, encoding: .utf8)
    }

    /// Ends the test's tmux server (and what runs in it) and removes its files; every test ends with it.
    func finish() {
        let socketPath = (try? tmux(["display", "-p", "#{socket_path}"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        _ = try? tmux(["kill-server"])
        if !socketPath.isEmpty { try? FileManager.default.removeItem(atPath: socketPath) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs a tmux command on this test's own server. `new-session` starts the server, which would keep every file
    /// it was started with open (the one by which `Process` sees its child end included) and the test runner's
    /// blocked signals blocked (`kill-server` would then never end it): it is started through Python, which closes
    /// the files, unblocks the signals and restores SIGPIPE first.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tmux!)
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard arguments.first != "new-session" else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let start = """
                import os, signal, sys
                os.closerange(3, 65536)
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                signal.signal(signal.SIGPIPE, signal.SIG_DFL)
                os.execv(sys.argv[1], sys.argv[1:])
                """
            process.arguments = ["python3", "-c", start, Self.tmux!] + (process.arguments ?? [])
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return ""
        }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `today --live` in a pane 100 columns wide: `stty -a` before and after it, its exit status, and its
    /// process id (the shell that writes it becomes the binary) in files of the directory.
    func start(_ name: String, arguments: [String] = []) throws {
        let environment = [
            "PATH=/usr/bin:/bin", "HOME=\(directory)/home", "TERM=xterm-256color", "TZ=\(zone)", "UNPROMPT_READERS_DIR=\(Repository.readers)",
            "CLAUDE_CONFIG_DIR=\(directory)/claude",
        ]
        let script = """
            stty -a > '\(directory)/\(name).before'
            sh -c 'echo $$ > "$0"; exec env -i "$@"' '\(directory)/\(name).pid' \(environment.map { "'\($0)'" }.joined(separator: " ")) \
            '\(Binary.path)' today --live --store '\(directory)/s.sqlite' \(arguments.map { "'\($0)'" }.joined(separator: " "))
            echo $? > '\(directory)/\(name).status'
            stty -a > '\(directory)/\(name).after'
            sleep 60
            """
        try script.write(toFile: directory + "/\(name).sh", atomically: true, encoding: .utf8)
        try tmux(["new-session", "-d", "-s", name, "-x", "100", "-y", "40", "sh '\(directory)/\(name).sh'"])
    }

    func screen(_ name: String) -> String { (try? tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    /// `alternate_on cursor_flag`: `1 0` while the view is up, `0 1` once the terminal is back.
    func modes(_ name: String) -> String {
        ((try? tmux(["display", "-p", "-t", name, "#{alternate_on} #{cursor_flag}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }

    /// The estimate on the screen's first line: `≈ 1,234,567 tokens`.
    static func tokens(_ screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains(" use today") || $0.contains(" uses today") }),
            let start = line.range(of: "≈ ")?.upperBound
        else { return nil }
        return Int(line[start...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber))
    }

    /// The clock on the screen's first line: `today, live · HH:MM:SS (UTC)`.
    static func clock(_ screen: String) -> Substring? {
        guard let range = screen.range(of: "today, live · ") else { return nil }
        return screen[range.upperBound...].prefix(8)
    }

    func file(_ name: String) -> String? { try? String(contentsOfFile: directory + "/" + name, encoding: .utf8) }

    /// Stops the view with `stop`, then checks it exited 0 with the terminal as it was.
    func expectRestored(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let ended = waitFor(10) { file(name + ".after").map { !$0.isEmpty } ?? false }
        #expect(ended, "the view did not end: \(screen(name))", sourceLocation: sourceLocation)
        #expect(file(name + ".status") == "0\n", sourceLocation: sourceLocation)
        #expect(file(name + ".before") == file(name + ".after"), "the terminal's modes came back", sourceLocation: sourceLocation)
        #expect(modes(name) == "0 1", "the alternate screen left, the cursor shown", sourceLocation: sourceLocation)
        #expect(!screen(name).contains("today, live"), "the main screen is back", sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: LiveTodayTests.tmux != nil, "tmux is not installed (scripts/install-deps.sh installs it on Linux)"))
    func theScreenTicksAndQRestoresTheTerminal() throws {
        defer { finish() }
        try start("q")
        let up = waitFor(30) { Self.tokens(screen("q")) != nil }
        let first = screen("q")
        #expect(up, "no estimate on the screen: \(first)")
        #expect(modes("q") == "1 0", "the alternate screen, the cursor hidden")
        // 5 requests of 120,000 tokens: uses, tokens, cost, water, the derived window's countdown, the tools.
        #expect(first.contains("1 use today · ≈ "), "\(first)")
        #expect(first.contains(" · $") && first.contains(" · water "), "\(first)")
        #expect(first.contains("claude-code 5-hour window") && first.contains("  claude-sonnet-4-5 "), "\(first)")
        #expect(first.split(separator: "\n").allSatisfy { $0.count <= 100 })
        // It ticks: a later second shows a later clock and more tokens, without any new log line.
        let before = try #require(Self.tokens(first))
        let ticked = waitFor(5) { Self.clock(screen("q")) != Self.clock(first) && (Self.tokens(screen("q")) ?? 0) > before }
        #expect(ticked, "first: \(first)\nnow: \(screen("q"))")
        #expect(before >= 600_000, "the estimate starts from the measured count")

        #if os(Linux)
            // Idle but for the ticking: the process sleeps between seconds (no busy loop).
            if let pid = file("q.pid").flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
                let start = Self.cpuTicks(pid)
                Thread.sleep(forTimeInterval: 3)
                if let start, let end = Self.cpuTicks(pid) {
                    print("today --live: CPU over 3 s of ticking, in clock ticks (1/100 s):", end - start)
                    #expect(end - start < 100, "a second of CPU in three is a busy loop")
                }
            }
        #endif
        try tmux(["send-keys", "-t", "q", "q"])
        expectRestored("q")
    }

    /// With a sync folder set, the screen syncs as `watch` does: another device's export written into the folder
    /// while the screen is up shows in today's tokens within seconds (the folder is watched; a round imports
    /// what is new, and reads only the headers of what is not).
    @Test(.enabled(if: LiveTodayTests.tmux != nil, "tmux is not installed (scripts/install-deps.sh installs it on Linux)"))
    func anotherDevicesExportShowsWhileTheScreenIsUp() throws {
        defer { finish() }
        let folder = directory + "/sync"
        let other = directory + "/other"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: other + "/claude/projects/p", withIntermediateDirectories: true)
        let set = try Binary.run(["config", "set", "sync-dir", folder, "--config", directory + "/config.yaml"])
        #expect(set.status == 0, "\(set.stderr)")
        try start("sync", arguments: ["--config", directory + "/config.yaml"])
        let up = waitFor(30) { Self.tokens(screen("sync")) != nil }
        let first = screen("sync")
        #expect(up, "no estimate on the screen: \(first)")
        #expect(try #require(Self.tokens(first)) < 2_000_000)

        // The other device: one request of 3,000,000 tokens a minute ago, synced into the folder.
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let usage = #"{"input_tokens":1000000,"cache_creation_input_tokens":0,"cache_read_input_tokens":1500000,"output_tokens":500000}"#
        let line =
            #"{"type":"assistant","sessionId":"o","uuid":"o-1","timestamp":"\#(format.string(from: Date().addingTimeInterval(-60)))","requestId":"req_other","message":{"model":"claude-sonnet-4-5","id":"msg_other","type":"message","role":"assistant","content":[],"usage":\#(usage)}}"#
        try (line + "\n").write(toFile: other + "/claude/projects/p/o.jsonl", atomically: true, encoding: .utf8)
        let synced = try Binary.run(
            ["sync", "--dir", folder, "--store", other + "/s.sqlite", "--config", other + "/config.yaml"],
            environment: ["HOME": other + "/home", "CLAUDE_CONFIG_DIR": other + "/claude"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let shown = waitFor(20) { (Self.tokens(screen("sync")) ?? 0) >= 3_600_000 }
        #expect(shown, "the other device's 3,000,000 tokens are not on the screen: \(screen("sync"))")
        try tmux(["send-keys", "-t", "sync", "q"])
        expectRestored("sync")
    }

    @Test(.enabled(if: LiveTodayTests.tmux != nil, "tmux is not installed (scripts/install-deps.sh installs it on Linux)"))
    func ctrlCAndSigtermRestoreTheTerminalToo() throws {
        defer { finish() }
        try start("c")
        #expect(waitFor(30) { Self.tokens(screen("c")) != nil }, "\(screen("c"))")
        try tmux(["send-keys", "-t", "c", "C-c"])
        expectRestored("c")

        try start("term")
        #expect(waitFor(30) { Self.tokens(screen("term")) != nil }, "\(screen("term"))")
        let pid = try #require(file("term.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(kill(pid, SIGTERM) == 0)
        expectRestored("term")
    }

    #if os(Linux)
        /// User and system CPU time of a process so far, in clock ticks (`/proc/PID/stat`, fields 14 and 15).
        static func cpuTicks(_ pid: Int32) -> Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.range(of: ")", options: .backwards)
            else { return nil }
            let fields = stat[close.upperBound...].split(separator: " ")
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }
    #endif
}
