import Foundation
import UnpromptKit

/// `unprompt-scan serve [--port N] [--host ADDR] [--tz ZONE] [--cost-mode M] [--store PATH] [--config FILE]`:
/// the page of `report`, live, on `http://127.0.0.1:8787/`, with `/snapshot.json` (the snapshot) and `/metrics`
/// (the Prometheus text of `metrics`). Nothing else, and nothing that writes.
///
/// - It listens on loopback only, unless `--host` names another address. Then every request must carry the
///   access token made at start and printed once, inside the URL to open: as `?token=` (the page's address
///   then sets it as a cookie, `HttpOnly` and `SameSite=Strict`, and sends the browser to `/` without it), as
///   that cookie, or as `Authorization: Bearer` (for a scraper). The comparison takes the same time however
///   much of a wrong token is right.
/// - Every request's `Host` must name the address and port listened on (`localhost` for loopback; any IP
///   address for `0.0.0.0` or `::`), so a page of another site cannot reach it through DNS rebinding.
/// - It opens the store read-only, never scans, and reads it again when another program changed it (SQLite's
///   `data_version`) or 5 seconds have passed (the clock moves the live estimate and the countdowns); the page
///   asks for `/snapshot.json` every 5 seconds and reloads when the numbers changed. A running `watch` keeps
///   the store current.
/// - SIGINT and SIGTERM stop it once the requests in progress end.
enum ServeCommand {
    static let defaultPort: UInt16 = 8787

    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let port = try self.port(arguments.single(Option.port.name))
        var host = arguments.single(Option.host.name) ?? "127.0.0.1"
        if host.lowercased() == "localhost" { host = "127.0.0.1" }
        let request = try ViewOpener.request(arguments, environment: environment, scan: false)
        let source: DashboardSource
        do {
            source = try DashboardSource(request: request, descriptors: catalog.descriptors, environment: environment)
        } catch {
            return try ViewOpener.status(of: error)
        }
        let server: HTTPServer
        do {
            server = try HTTPServer(address: host, port: port)
        } catch {
            printError("unprompt-scan: serve: \(error.message)")
            return error.message.hasPrefix("--host") ? .usage : .unavailable
        }
        let gate = AccessGate(address: host, port: server.port)
        var stop: [Int32] = [-1, -1]
        guard pipe(&stop) == 0 else {
            printError("unprompt-scan: serve: cannot make a pipe: \(String(cString: strerror(errno)))")
            return .unavailable
        }
        StopSignals.install(wakingUp: stop[1])
        defer { StopSignals.restore() }
        let shown = host.contains(":") ? "[\(host)]" : host
        let url = "http://\(shown):\(server.port)/" + (gate.token.map { "?token=" + $0 } ?? "")
        print("serving \(url) (read-only; /snapshot.json and /metrics too; Ctrl-C stops)")
        if gate.token != nil {
            print("anyone who can reach this address needs the token in that URL; it is shown only now"
                + (["0.0.0.0", "::"].contains(host) ? " (put this machine's address in place of \(shown))" : ""))
        }
        fflush(nil)
        server.run(stopDescriptor: stop[0]) { request in route(request, gate: gate, source: source) }
        return .success
    }

    static func port(_ text: String?) throws(UsageError) -> UInt16 {
        guard let text else { return defaultPort }
        guard let port = UInt16(text) else { throw UsageError("--port: expected a port from 0 to 65535, got '\(text)'") }
        return port
    }

    static func route(_ request: HTTPServer.Request, gate: AccessGate, source: DashboardSource) -> HTTPServer.Response {
        switch gate.check(request) {
        case .allowed: break
        case .answer(let response): return response
        }
        guard ["/", "/snapshot.json", "/metrics"].contains(request.path) else { return .text(404, "not found: /, /snapshot.json, /metrics") }
        let content: DashboardSource.Content
        switch source.content() {
        case .success(let current): content = current
        case .failure(let error): return .text(500, "store: \(error.message)")
        }
        switch request.path {
        case "/":
            return HTTPServer.Response(
                status: 200,
                headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", content.policy + "; frame-ancestors 'none'")],
                body: Array(content.page.utf8))
        case "/snapshot.json":
            return HTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Array(content.snapshot.utf8))
        default:
            return HTTPServer.Response(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: Array(content.metrics.utf8))
        }
    }
}

/// The numbers `serve` answers with, read from the store again only when it changed or 5 seconds have passed.
/// One request computes them at a time (a page takes milliseconds); the others wait for it and share it.
final class DashboardSource: Sendable {
    struct Content: Sendable {
        let page: String
        let policy: String
        let snapshot: String
        let metrics: String
    }

    /// What changes between requests: the store (opened once it exists) and the last content made.
    private struct State {
        var store: UsageStore?
        var cached: (version: Int64, at: Int64, content: Content)?
    }

    static let maxAge: Int64 = 5000

    private let state: Locked<State>
    private let request: ViewRequest
    private let readings: Readings
    private let workHours: WorkHours
    private let descriptors: [Descriptor]
    private let environment: [String: String]

    init(request: ViewRequest, descriptors: [Descriptor], environment: [String: String]) throws(ViewOpeningError) {
        // The settings, the readings and the store, opened as every view opens them (no scan).
        let opened = try UsageQueries.open(request, descriptors: descriptors, step: ScanStep(environment: environment, home: ""))
        self.request = request
        readings = opened.queries.readings
        workHours = opened.queries.workHours
        state = Locked(State(store: opened.queries.store))
        self.descriptors = descriptors
        self.environment = environment
    }

    func content() -> Result<Content, StoreError> {
        let now = (try? Clock.now(environment)) ?? request.now
        return state.withLock { state in
            do throws(StoreError) {
                if state.store == nil, FileManager.default.fileExists(atPath: request.storePath) {
                    state.store = try UsageStore(path: request.storePath, readOnly: true)
                }
                let version = try state.store?.dataVersion() ?? -1
                if let cached = state.cached, cached.version == version, now - cached.at < Self.maxAge, now >= cached.at {
                    return .success(cached.content)
                }
                let queries = UsageQueries(
                    store: state.store, readings: readings, zone: request.zone, workHours: workHours, now: now,
                    descriptors: descriptors)
                let report = try queries.dashboard()
                let page = DashboardPage(report: report, queries: queries, live: true).render()
                let content = Content(
                    page: page.html, policy: page.contentSecurityPolicy, snapshot: SnapshotCommand.json(report.snapshot).text,
                    metrics: MetricsCommand.text(report.snapshot))
                state.cached = (version, now, content)
                return .success(content)
            } catch {
                return .failure(error)
            }
        }
    }
}

/// Who may ask `serve`: a request whose `Host` names the address listened on, and off loopback one that
/// carries the access token.
struct AccessGate: Sendable {
    enum Verdict {
        case allowed
        /// Answered here, not by the route: a refusal, or the redirect that moves the token into a cookie.
        case answer(HTTPServer.Response)
    }

    static let cookie = "unprompt_token"

    let port: UInt16
    /// The address listened on, as a `Host` header writes it (`127.0.0.1`, `[::1]`).
    let host: String
    let wildcard: Bool
    let loopback: Bool
    /// 32 random bytes in hex; nil on loopback.
    let token: String?

    init(address: String, port: UInt16, token: String? = nil) {
        self.port = port
        host = address.contains(":") ? "[\(address.lowercased())]" : address
        wildcard = ["0.0.0.0", "::"].contains(address)
        loopback = address == "::1" || address.hasPrefix("127.")
        self.token = loopback ? nil : token ?? Self.randomToken()
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    func check(_ request: HTTPServer.Request) -> Verdict {
        guard allowsHost(request.header("host") ?? "") else {
            return .answer(.text(403, "this server answers only to the address it listens on"))
        }
        guard let token else { return .allowed }
        let given = request.query["token"]
        if let given, Self.same(given, token) {
            guard request.path == "/" else { return .allowed }
            // The page's address keeps no token: it moves into a cookie that only this server gets.
            return .answer(HTTPServer.Response(
                status: 303,
                headers: [("Location", "/"), ("Set-Cookie", "\(Self.cookie)=\(token); Path=/; HttpOnly; SameSite=Strict")]))
        }
        let bearer = request.header("authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        let cookies = (request.header("cookie") ?? "").split(separator: ";").compactMap { pair -> String? in
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == Self.cookie ? String(parts[1]) : nil
        }
        if ([bearer].compactMap { $0 } + cookies).contains(where: { Self.same($0, token) }) { return .allowed }
        return .answer(.text(401, "a token is needed: open the URL that serve printed when it started"))
    }

    /// `Host` as the address and port listened on; for a wildcard address, any IP address with the port.
    func allowsHost(_ value: String) -> Bool {
        let value = value.lowercased()
        guard let colon = value.lastIndex(of: ":"), value[value.index(after: colon)...] == String(port) else { return false }
        let name = String(value[..<colon])
        if name == host || (loopback && name == "localhost") { return true }
        guard wildcard else { return false }
        if name == "localhost" { return true }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return true }
        return name.hasPrefix("[") && name.hasSuffix("]") && inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &v6) == 1
    }

    /// Equal strings, compared in a time that does not depend on where they first differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) { difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0) }
        return difference == 0
    }
}
