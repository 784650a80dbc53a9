import Foundation
import UnpromptTestSupport

/// A throw-away home for hostile-input and fault cases: files written under it by relative path (as bytes, so
/// a name need not be UTF-8), the binary run with it as `HOME` and a store beside it.
struct HostileHome {
    let directory: String
    var home: String { directory + "/home" }
    var store: String { directory + "/usage.sqlite" }

    init(_ name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Writes `contents` at `relative` below the home; the path's bytes are taken as they are.
    func write(_ contents: String, at relative: [UInt8]) throws {
        let path = Array(home.utf8) + [UInt8(ascii: "/")] + relative
        if let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            var parent = Array(path[..<slash])
            parent.append(0)
            // `mkdir -p` by bytes: Foundation would take the path as UTF-8 text.
            for end in parent.indices where parent[end] == UInt8(ascii: "/") || parent[end] == 0 {
                guard end > 0 else { continue }
                var prefix = Array(parent[..<end])
                prefix.append(0)
                _ = prefix.withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) }
            }
        }
        var terminated = path
        terminated.append(0)
        let fd = terminated.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        guard fd >= 0 else { throw HostileHomeFailure(description: "cannot create a file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        guard bytes.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw HostileHomeFailure(description: "cannot write a file")
        }
    }

    func write(_ contents: String, at relative: String) throws { try write(contents, at: Array(relative.utf8)) }

    /// Runs the binary with this home, the store beside it unless `arguments` name one, and a fixed clock.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Binary.Output {
        let storeGiven = arguments.contains { $0 == "--store" || $0.hasPrefix("--store=") }
        let dryRun = arguments.contains("--dry-run") || arguments.first == "readers"
        return try Binary.run(
            arguments + (storeGiven || dryRun ? [] : ["--store", store]),
            environment: ["HOME": home, "UNPROMPT_AIDER_ROOTS": home, "UNPROMPT_NOW": "2026-04-05T12:00:00Z"]
                .merging(environment) { $1 })
    }

    /// One Claude Code assistant record; `input` is written as it is (any JSON number text).
    static func claudeRecord(_ id: String, input: String, output: Int = 1, model: String = "claude-sonnet-4-5-20250929")
        -> String
    {
        #"{"type":"assistant","timestamp":"2026-04-05T10:00:00.000Z","requestId":"req_\#(id)","message":{"model":"\#(model)","id":"msg_\#(id)","usage":{"input_tokens":\#(input),"output_tokens":\#(output)}}}"#
            + "\n"
    }
}

struct HostileHomeFailure: Error, CustomStringConvertible {
    let description: String
}
