import Foundation
import Testing
import UnpromptTestSupport

/// `serve` over raw sockets (a Python client, so each request is exactly as written): GET and HEAD only, the
/// Host checked, bounded headers, a slow client holding up no one, the token off loopback, the store read-only
/// and read again when it changes, and a clean stop on SIGINT and SIGTERM.
struct ServeTests {
    static let corpus = Repository.root + "/Tests/Golden/corpus"
    static let now = "2026-03-10T11:30:30Z"
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for tool in ["claude", "codex"] {
            try FileManager.default.copyItem(atPath: Self.corpus + "/" + tool, toPath: directory + "/" + tool)
        }
    }

    var store: String { directory + "/usage.sqlite" }
    var environment: [String: String] {
        ["CLAUDE_CONFIG_DIR": directory + "/claude", "CODEX_HOME": directory + "/codex", "UNPROMPT_NOW": Self.now]
    }
    var settings: [String] { ["--store", store, "--config", Self.corpus + "/config.yaml", "--tz", "UTC"] }

    func scan() throws {
        let output = try Binary.run(settings, environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// Sends each raw request of `requests` (a JSON list of strings) to the port, one connection each, and prints
    /// a JSON list of [status, headers (lower-case names), body]. `slow` first opens a connection that sends half a
    /// request and nothing more, held open while the others are asked.
    static let client = #"""
        import json, socket, sys, time
        port, requests, slow = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3] == "slow"
        def ask(raw):
            s = socket.create_connection(("127.0.0.1", port), timeout=15)
            s.sendall(raw.encode("latin-1"))
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            s.close()
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            return [int(lines[0].split(" ")[1]), headers, body.decode("utf-8", "replace")]
        holder = None
        if slow:
            holder = socket.create_connection(("127.0.0.1", port), timeout=15)
            holder.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")
        started = time.time()
        out = [ask(raw) for raw in requests]
        out.append(round(time.time() - started, 3))
        print(json.dumps(out))
        """#

    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    func ask(_ port: Int, _ requests: [String], slow: Bool = false) throws -> (answers: [Answer], seconds: Double) {
        let list = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
        let output = try Python.run(Self.client, arguments: [String(port), list, slow ? "slow" : "fast"])
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [Any]
        let answers = parsed.dropLast().map { item -> Answer in
            let fields = item as! [Any]
            return Answer(status: fields[0] as! Int, headers: fields[1] as! [String: String], body: fields[2] as! String)
        }
        return (answers, (parsed.last as! NSNumber).doubleValue)
    }

    func get(_ path: String, port: Int, host: String? = nil, extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(extra)\r\n"
    }

    @Test func onLoopbackItAnswersGETAndHEADOnlyAndChecksTheHost() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try scan()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let served = try ServedBinary(["serve", "--port", "0"] + settings, environment: environment)
        #expect(served.url == "http://127.0.0.1:\(served.port)/" && !served.printed.contains("token"))
        let port = served.port
        let (answers, _) = try ask(port, [
            get("/", port: port), get("/snapshot.json", port: port), get("/metrics", port: port),
            "HEAD / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", get("/", port: port, host: "localhost:\(port)"),
            get("/", port: port, host: "rebind.example:\(port)"), get("/", port: port, host: "127.0.0.1:\(port + 1)"),
            "GET / HTTP/1.1\r\n\r\n", "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 2\r\n\r\nhi",
            "DELETE /snapshot.json HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n",
            get("/", port: port, extra: "Content-Length: 5\r\n"), get("/other", port: port),
            get("/", port: port, extra: "X-Big: " + String(repeating: "a", count: 20_000) + "\r\n"),
            "GARBAGE\r\n\r\n",
        ])
        #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 403, 403, 400, 405, 405, 400, 404, 431, 400])
        let page = answers[0]
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(page.headers["content-security-policy"]?.contains("connect-src 'self'") == true)
        #expect(page.headers["x-frame-options"] == "DENY" && page.headers["cache-control"] == "no-store")
        #expect(page.body.contains("<h2 id=\"h-today\">Today</h2>") && page.body.contains("snapshot.json"))
        // The same documents as the commands, at the same moment.
        let snapshot = try Binary.run(["snapshot", "--no-scan"] + settings, environment: environment).stdout
        #expect(answers[1].body + "\n" == snapshot && answers[1].headers["content-type"] == "application/json")
        let metrics = try Binary.run(["metrics", "--no-scan"] + settings, environment: environment).stdout
        #expect(answers[2].body == metrics && answers[2].headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(answers[3].body.isEmpty && answers[3].headers["content-length"] == String(page.body.utf8.count), "HEAD: headers only")
        #expect(answers[8].headers["allow"] == "GET, HEAD")
        #expect(served.stop(SIGINT) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before, "the store is only read")
    }

    @Test func aSlowClientHoldsUpNoOneAndTheStoreIsReadAgainWhenItChanges() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try scan()
        let served = try ServedBinary(["serve", "--port", "0"] + settings, environment: environment)
        let port = served.port
        let (first, seconds) = try ask(port, [get("/snapshot.json", port: port)], slow: true)
        #expect(first.map(\.status) == [200])
        #expect(seconds < 3, "a connection that sends nothing more keeps no one waiting (\(seconds) s)")
        let before = try JSONTree(parsing: first[0].body)
        // Another program (a scan) adds a record; the next request sees it, though the clock has not moved.
        let project = directory + "/claude/projects/-home-dev-project"
        let usage = #"{"input_tokens":1000,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0}"#
        let line =
            #"{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/project","sessionId":"n1","version":"2.1.90","gitBranch":"main","message":{"model":"claude-sonnet-4-5","id":"msg_new1","type":"message","role":"assistant","content":[{"type":"text","text":"x"}],"usage":\#(usage)},"requestId":"req_new1","type":"assistant","uuid":"n1","timestamp":"2026-03-10T11:25:00.000Z"}"#
        try (line + "\n").write(toFile: project + "/new-session.jsonl", atomically: true, encoding: .utf8)
        try scan()
        let after = try JSONTree(parsing: try ask(port, [get("/snapshot.json", port: port)]).answers[0].body)
        guard case .number(let tokens)? = before["usage"]?["tokens"] else {
            Issue.record("no tokens in \(before)")
            return
        }
        #expect(after["usage"]?["tokens"] == .number(tokens + 1000))
        #expect(served.stop(SIGTERM) == 0)
    }

    @Test func offLoopbackEveryRequestNeedsTheTokenPrintedOnce() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try scan()
        let served = try ServedBinary(["serve", "--port", "0", "--host", "0.0.0.0"] + settings, environment: environment)
        let port = served.port
        guard let tokenStart = served.url.range(of: "?token=") else {
            Issue.record("no token in \(served.printed)")
            return
        }
        let token = String(served.url[tokenStart.upperBound...])
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        let cookie = "Cookie: unprompt_token=\(token)\r\n"
        // The token with its last digit changed: one token in 16 ends in 0, which a 0 in its place would give back.
        let wrong = token.dropLast() + (token.hasSuffix("0") ? "1" : "0")
        let (answers, _) = try ask(port, [
            get("/", port: port), get("/?token=\(token)", port: port), get("/", port: port, extra: cookie),
            get("/metrics", port: port, extra: "Authorization: Bearer \(token)\r\n"), get("/snapshot.json?token=\(token)", port: port),
            get("/", port: port, extra: "Cookie: unprompt_token=\(wrong)\r\n"), get("/?token=\(token)x", port: port),
            get("/", port: port, host: "unprompt.example:\(port)", extra: cookie), get("/", port: port, host: "[::1]:\(port)", extra: cookie),
        ])
        #expect(answers.map(\.status) == [401, 303, 200, 200, 200, 401, 401, 403, 200])
        #expect(answers[1].headers["location"] == "/")
        #expect(answers[1].headers["set-cookie"] == "unprompt_token=\(token); Path=/; HttpOnly; SameSite=Strict")
        #expect(!answers[0].body.contains(token) && !answers[5].body.contains(token))
        #expect(served.stop(SIGTERM) == 0)
    }

    @Test func withoutAStoreItServesAnEmptyDayAndCreatesNone() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let served = try ServedBinary(["serve", "--port", "0"] + settings, environment: environment)
        let answers = try ask(served.port, [get("/snapshot.json", port: served.port), get("/", port: served.port)]).answers
        #expect(answers.map(\.status) == [200, 200])
        #expect(try JSONTree(parsing: answers[0].body)["usage"]?["tokens"] == .number(0))
        #expect(answers[1].body.contains("not measured yet"))
        #expect(served.stop(SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func aBadPortOrAddressIsAUsageError() throws {
        for (arguments, message) in [
            (["--port", "70000"], "--port: expected a port from 0 to 65535, got '70000'"),
            (["--host", "my-laptop.local"], "serve: --host: 'my-laptop.local' is not an IPv4 or IPv6 address"),
        ] {
            let output = try Binary.run(["serve"] + arguments + settings, environment: environment)
            #expect(output.status == 2 && output.stderr.hasPrefix("unprompt-scan: " + message), "\(output.stderr)")
        }
    }
}
