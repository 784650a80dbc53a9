import Foundation
import Testing
import UnpromptTestSupport

/// `confirm` on a real terminal: tmux runs it in a pane, the test types the keys (`send-keys`) and reads the
/// screen (`capture-pane`); the pane's terminal settings are compared before and after (`stty -g`), so raw
/// mode is always put back. Skipped, saying why, where tmux is not installed (`scripts/install-deps.sh` installs
/// it on Debian).
struct ConfirmTerminalTests {
    typealias Home = ReportCommandTests.Home

    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// One tmux server on its own socket, running `confirm` in one pane at a time.
    final class Terminal {
        let tmux: String
        let directory: String
        var socket: String { directory + "/tmux.sock" }

        init(tmux: String) throws {
            self.tmux = tmux
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-tmux-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit {
            _ = try? run(["kill-server"])
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Runs a tmux command; with `output`, returns what it printed. The first command starts the server,
        /// which would keep every descriptor it was given, Foundation's own way of seeing the child end
        /// included, and the test runner's blocked signals (tmux's `kill-server` is a SIGTERM to itself): so
        /// tmux starts with no descriptor but the standard three and no signal blocked, and only a command of
        /// a running server gets a pipe.
        @discardableResult
        func run(_ arguments: [String], output: Bool = false) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let closing =
                "import os, signal, sys; os.closerange(3, os.sysconf('SC_OPEN_MAX')); signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
            process.arguments = ["python3", "-c", closing, tmux, "-S", socket, "-f", "/dev/null"] + arguments
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "TERM": "xterm-256color"]
            process.standardInput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let out = Pipe()
            process.standardOutput = output ? out : FileHandle.nullDevice
            try process.run()
            let data = output ? out.fileHandleForReading.readDataToEndOfFile() : Data()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        /// Starts `arguments` (the binary's) in a new pane named `name`: a shell records the terminal's
        /// settings, the binary's pid, its exit status and the settings after it.
        func start(_ name: String, _ arguments: [String], environment: [String: String]) throws {
            let quoted = { (word: String) in "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\(quoted($0.value))" }
            let script = exports + [
                "stty -g > \(quoted(file(name, "before")))",
                "sh -c 'echo $$ > \"$0\"; exec \"$@\"' \(quoted(file(name, "pid"))) \(([Binary.path] + arguments).map(quoted).joined(separator: " "))",
                "echo $? > \(quoted(file(name, "status")))",
                "stty -g > \(quoted(file(name, "after")))",
                "exec sleep 600",
            ]
            try script.joined(separator: "\n").write(toFile: file(name, "run.sh"), atomically: true, encoding: .utf8)
            try run(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", "sh " + quoted(file(name, "run.sh"))])
        }

        func file(_ name: String, _ suffix: String) -> String { directory + "/" + name + "." + suffix }

        /// Keys as tmux names them (`Enter`, `Escape`, `C-c`) or, with `literal`, text typed as it is.
        func send(_ name: String, _ keys: String, literal: Bool = false) throws {
            try run(["send-keys", "-t", name] + (literal ? ["-l", keys] : [keys]))
        }

        func screen(_ name: String) throws -> String { try run(["capture-pane", "-p", "-t", name], output: true) }

        /// Waits (at most 20 s) until the screen shows `text`; the screen as it was last read.
        @discardableResult
        func wait(_ name: String, for text: String, _ why: String = "", sourceLocation: SourceLocation = #_sourceLocation)
            throws -> String
        {
            var screen = ""
            for _ in 0..<400 {
                screen = try self.screen(name)
                if screen.contains(text) { return screen }
                usleep(50_000)
            }
            Issue.record("the screen never showed '\(text)' \(why):\n\(screen)", sourceLocation: sourceLocation)
            return screen
        }

        /// Waits for the binary's exit status; then the settings before and after it must be the same.
        func finish(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32? {
            for _ in 0..<400 {
                if let text = try? String(contentsOfFile: file(name, "after"), encoding: .utf8), !text.isEmpty {
                    let before = try String(contentsOfFile: file(name, "before"), encoding: .utf8)
                    #expect(text == before, "the terminal's settings were not put back", sourceLocation: sourceLocation)
                    let status = try String(contentsOfFile: file(name, "status"), encoding: .utf8)
                    return Int32(status.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                usleep(50_000)
            }
            Issue.record("confirm did not end:\n\(try screen(name))", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The week of `ConfirmCommandTests`, on Sunday 2026-03-08 at 19:00 (today is proposed).
    func setUp() throws -> (home: Home, terminal: Terminal, environment: [String: String], arguments: [String]) {
        let tests = ConfirmCommandTests()
        let home = try tests.home()
        let binary = Binary.process([])
        var environment = binary.environment ?? [:]
        environment.merge(home.environment) { $1 }
        environment["UNPROMPT_NOW"] = "2026-03-08T19:00:00Z"
        let arguments = ["--store", home.store, "confirm", "--no-scan", "--tz", "UTC", "--config", tests.config(home)]
        return (home, try Terminal(tmux: Self.tmux!), environment, arguments)
    }

    func answers(_ home: Home, _ date: String) throws -> JSONTree? {
        let calendar = try home.json(
            ["calendar", "--no-scan", "--month", "2026-03", "--tz", "UTC", "--config", home.root + "/config.yaml"],
            environment: ["UNPROMPT_NOW": "2026-03-08T19:30:00Z"])
        guard case .array(let days)? = calendar["days"] else { return nil }
        return days.first { $0["date"] == .string(date) }
    }

    static let question = "Sunday 8 March: 1 use personal, 0 at work; 480 tokens, $0.0025 at API rates. Is that right?"

    @Test(.enabled(if: tmux != nil, "tmux is not installed: the real-terminal test of confirm's one key is skipped"))
    func oneKeyConfirmsAndTheTerminalIsPutBack() throws {
        let (home, terminal, environment, arguments) = try setUp()
        try terminal.start("yes", arguments, environment: environment)
        let asked = try terminal.wait("yes", for: "[y] yes   [c] context   [n] not now")
        #expect(asked.contains(Self.question), "\(asked)")
        try terminal.send("yes", "y")
        #expect(try terminal.finish("yes") == 0)
        let screen = try terminal.screen("yes")
        #expect(screen.contains("confirmed Sunday 8 March: 1 use personal, 0 at work; 480 tokens") && screen.contains("1 day confirmed in a row"), "\(screen)")
        #expect(try answers(home, "2026-03-08")?["confirmed"] == .number(1))
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed: the real-terminal test of confirm's one key is skipped"))
    func contextIsChosenOneKeyEachWithRangesAndHoursTypedWhereAKindNeedsThem() throws {
        let (home, terminal, environment, arguments) = try setUp()
        try terminal.start("kinds", arguments + ["yesterday"], environment: environment)
        try terminal.wait("kinds", for: "Saturday 7 March: no use that day: is that right?")
        try terminal.send("kinds", "c")
        try terminal.wait("kinds", for: "[e] elsewhere")
        for key in ["n", "e"] { try terminal.send("kinds", key) }
        try terminal.wait("kinds", for: "context: no-work, elsewhere")
        try terminal.send("kinds", "w")
        try terminal.wait("kinds", for: "worked HH:MM-HH:MM (empty: none):")
        try terminal.send("kinds", "9-17", literal: true)
        try terminal.send("kinds", "Enter")
        try terminal.wait("kinds", for: "expected a time HH:MM, found '9'")
        try terminal.send("kinds", "20:00-23:00", literal: true)
        try terminal.wait("kinds", for: "(empty: none): 20:00-23:00", "a line is typed with echo")
        try terminal.send("kinds", "Enter")
        try terminal.send("kinds", "h")
        try terminal.wait("kinds", for: "new work hours")
        try terminal.send("kinds", "Sat 10:00-14:00", literal: true)
        try terminal.send("kinds", "Enter")
        try terminal.wait("kinds", for: "context: no-work, worked 20:00-23:00, hours-changed Sat 10:00-14:00, elsewhere")
        try terminal.send("kinds", "n")
        try terminal.wait("kinds", for: "context: worked 20:00-23:00, hours-changed Sat 10:00-14:00, elsewhere")
        try terminal.send("kinds", "Enter")
        #expect(try terminal.finish("kinds") == 0)
        let screen = try terminal.screen("kinds")
        #expect(screen.contains("confirmed Saturday 7 March with worked 20:00-23:00, hours-changed Sat 10:00-14:00, elsewhere: no use that day"), "\(screen)")
        let day = try answers(home, "2026-03-07")
        #expect(day?["context"] == .array([.string("worked"), .string("hours-changed"), .string("elsewhere")]))
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed: the real-terminal test of confirm's one key is skipped"))
    func notNowEscapeAndCtrlCKeepNothing() throws {
        let (home, terminal, environment, arguments) = try setUp()
        for (name, keys) in [("no", ["n"]), ("escape", ["c", "Escape"]), ("interrupt", ["C-c"])] {
            try terminal.start(name, arguments, environment: environment)
            try terminal.wait(name, for: "[n] not now")
            for key in keys {
                try terminal.send(name, key)
                usleep(200_000)
            }
            #expect(try terminal.finish(name) == 0, "\(name)")
            #expect(try terminal.screen(name).contains("not now: nothing kept"), "\(name)")
        }
        #expect(try answers(home, "2026-03-08")?["confirmed"] == .number(0))
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed: the real-terminal test of confirm's one key is skipped"))
    func aSignalWhileAKeyIsAwaitedPutsTheTerminalBack() throws {
        let (_, terminal, environment, arguments) = try setUp()
        try terminal.start("term", arguments, environment: environment)
        try terminal.wait("term", for: "[n] not now")
        let pid = try #require(Int32(try String(contentsOfFile: terminal.file("term", "pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        #expect(try terminal.finish("term") == 128 + SIGTERM)
    }
}
