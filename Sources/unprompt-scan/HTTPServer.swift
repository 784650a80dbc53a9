import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server over POSIX sockets, for `serve`: it reads one request per connection (then closes
/// it), and hands GET and HEAD requests to its handler. Everything else is answered here:
///
/// - a request line and headers of more than `maxHeaderBytes`, or not in by `readTimeout` (a slow or stalled
///   client), end the connection with 431 or 408;
/// - a method other than GET or HEAD is 405; a request with a body, a malformed request line or header, or no
///   `Host` is 400;
/// - each connection is served on its own thread, at most `maxConnections` at once (then 503 at once), so a slow
///   client never holds up the others.
///
/// `run` returns when a byte arrives on the stop descriptor (`StopSignals`), after the requests in progress
/// end (each within its timeouts).
final class HTTPServer: Sendable {
    struct Request: Sendable {
        let method: String
        /// The path, without the query.
        let path: String
        /// The query's `name=value` pairs, undecoded but for `%XX` and `+`.
        let query: [String: String]
        /// Names in lower case, in the order sent.
        let headers: [(name: String, value: String)]

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: [UInt8] = []

        static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array((text + "\n").utf8))
        }
    }

    static let maxHeaderBytes = 16 * 1024
    static let readTimeout: Int = 5
    static let maxConnections = 32

    private let socket: Int32
    /// The port bound (the one asked for, or the system's choice for port 0).
    let port: UInt16

    /// Binds `address` (an IPv4 or IPv6 literal) and `port`, and listens.
    init(address: String, port: UInt16) throws(ServeError) {
        var v4 = in_addr()
        var v6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, address, &v4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            family = AF_INET6
        } else {
            throw ServeError("--host: '\(address)' is not an IPv4 or IPv6 address")
        }
        #if os(Linux)
            let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = Darwin.socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServeError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bound: Int32
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        if bound == 0 { bound = listen(fd, 64) }
        guard bound == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServeError("cannot listen on \(address) port \(port): \(message)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let raw = family == AF_INET
            ? withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port } }
            : withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port } }
        socket = fd
        self.port = UInt16(bigEndian: raw)
    }

    /// Serves until a byte can be read from `stopDescriptor`.
    func run(stopDescriptor: Int32, handler: @escaping @Sendable (Request) -> Response) {
        let slots = DispatchSemaphore(value: Self.maxConnections)
        var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if fds[1].revents != 0 { break }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            #if os(macOS)
                var one: Int32 = 1
                setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            guard slots.wait(timeout: .now()) == .success else {
                Self.respond(.text(503, "busy: too many connections at once"), to: client, head: false)
                Self.closeGently(client)
                continue
            }
            let thread = Thread {
                Self.serve(client, handler: handler)
                Self.closeGently(client)
                slots.signal()
            }
            thread.start()
        }
        close(socket)
        // The requests in progress end within their timeouts. Every slot goes back after: a semaphore must
        // not be released below its starting value.
        var taken = 0
        for _ in 0..<Self.maxConnections where slots.wait(timeout: .now() + .seconds(Self.readTimeout * 2 + 1)) == .success { taken += 1 }
        for _ in 0..<taken { slots.signal() }
    }

    /// Ends the connection after its answer: the sending side first, then what the client still sends (a body,
    /// the rest of headers too long) is read and dropped for a moment, so closing with unread bytes does not reset
    /// the connection before the client has read the answer.
    static func closeGently(_ client: Int32) {
        shutdown(client, Int32(SHUT_WR))
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var drained = 0
        while drained < 1 << 20 {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { break }
            drained += count
        }
        close(client)
    }

    /// Reads one request from `client` and answers it.
    static func serve(_ client: Int32, handler: (Request) -> Response) {
        let parsed: Result<Request, HTTPFailure>
        switch readHead(client) {
        case .success(let head): parsed = parse(head)
        case .failure(let failure): parsed = .failure(failure)
        }
        switch parsed {
        case .failure(let failure):
            if failure.status > 0 { respond(.text(failure.status, failure.message), to: client, head: false) }
        case .success(let request):
            guard request.method == "GET" || request.method == "HEAD" else {
                var response = Response.text(405, "only GET and HEAD: this server writes nothing")
                response.headers.append(("Allow", "GET, HEAD"))
                respond(response, to: client, head: false)
                return
            }
            respond(handler(request), to: client, head: request.method == "HEAD")
        }
    }

    /// Why a request is not handed over: the status to answer with (0: none, the client is gone).
    struct HTTPFailure: Error {
        let status: Int
        let message: String
    }

    /// The request line and headers, up to the empty line.
    static func readHead(_ client: Int32) -> Result<[UInt8], HTTPFailure> {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(TimeInterval(readTimeout * 2))
        while true {
            if let end = endOfHead(head) { return .success(Array(head[..<end])) }
            guard head.count < maxHeaderBytes else { return .failure(HTTPFailure(status: 431, message: "request headers too large")) }
            guard Date() < deadline else { return .failure(HTTPFailure(status: 408, message: "request not received in time")) }
            let count = read(client, &buffer, min(buffer.count, maxHeaderBytes + 4 - head.count))
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return .failure(HTTPFailure(status: 408, message: "request not received in time"))
            }
            guard count > 0 else { return .failure(HTTPFailure(status: 0, message: "")) }
            head += buffer[..<count]
        }
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// The request line (`METHOD TARGET HTTP/1.x`) and headers; any byte outside visible ASCII, space and tab
    /// is refused, as is a request that says it has a body.
    static func parse(_ head: [UInt8]) -> Result<Request, HTTPFailure> {
        let bad = HTTPFailure(status: 400, message: "malformed request")
        guard head.allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || (0x20...0x7E).contains($0) }) else { return .failure(bad) }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, ["HTTP/1.1", "HTTP/1.0"].contains(parts[2]), !parts[0].isEmpty, parts[1].hasPrefix("/") else {
            return .failure(bad)
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                return .failure(bad)
            }
            let name = line[..<colon].lowercased()
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }) else { return .failure(bad) }
            headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let method = String(parts[0])
        // Any other method is refused whole (405) by `serve`, a body with it.
        if ["GET", "HEAD"].contains(method), headers.contains(where: { $0.name == "transfer-encoding" })
            || headers.contains(where: { $0.name == "content-length" && $0.value != "0" })
        {
            return .failure(HTTPFailure(status: 400, message: "this server takes no request body"))
        }
        guard headers.filter({ $0.name == "host" }).count == 1 else { return .failure(HTTPFailure(status: 400, message: "one Host header is required")) }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                query[decode(kv[0])] = kv.count == 2 ? decode(kv[1]) : ""
            }
        }
        return .success(Request(method: method, path: String(pieces[0]), query: query, headers: headers))
    }

    static let reasons = [
        200: "OK", 303: "See Other", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        503: "Service Unavailable",
    ]

    /// Writes the response whole (its headers only for HEAD), with the headers every response carries.
    static func respond(_ response: Response, to client: Int32, head: Bool) {
        var text = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Status")\r\n"
        let common = [
            ("Content-Length", String(response.body.count)), ("Connection", "close"), ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
        ]
        for (name, value) in response.headers + common { text += "\(name): \(value)\r\n" }
        var bytes = Array((text + "\r\n").utf8)
        if !head { bytes += response.body }
        var sent = 0
        while sent < bytes.count {
            // A client that has gone raises no SIGPIPE: the write fails and the connection ends.
            #if os(Linux)
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
                let count = bytes[sent...].withUnsafeBytes { Darwin.send(client, $0.baseAddress, $0.count, 0) }
            #endif
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }
}

/// Why `serve` cannot start: said in one line.
struct ServeError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
