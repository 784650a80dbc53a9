import XCTest

@testable import UnpromptKit

/// The settings, the caches and the store follow one rule for where they live.
final class UserDirectoryTests: XCTestCase {
    func testEachKindHasItsOwnBaseAndItsVariableWinsUnlessEmpty() {
        #if os(macOS)
            XCTAssertEqual(
                UserDirectory.config.path(environment: [:], home: "/Users/u"), "/Users/u/Library/Application Support/Unprompt")
            XCTAssertEqual(UserDirectory.cache.path(environment: [:], home: "/Users/u"), "/Users/u/Library/Caches/Unprompt")
            XCTAssertEqual(
                UsageStore.defaultPath(environment: ["XDG_DATA_HOME": "/x"], home: "/Users/u"),
                "/Users/u/Library/Application Support/Unprompt/usage.sqlite")
        #else
            let cases: [(UserDirectory, String, String)] = [
                (.config, "XDG_CONFIG_HOME", "/home/u/.config/unprompt"),
                (.cache, "XDG_CACHE_HOME", "/home/u/.cache/unprompt"),
                (.data, "XDG_DATA_HOME", "/home/u/.local/share/unprompt"),
            ]
            for (kind, variable, fallback) in cases {
                XCTAssertEqual(kind.path(environment: [:], home: "/home/u"), fallback)
                XCTAssertEqual(kind.path(environment: [variable: ""], home: "/home/u"), fallback)
                XCTAssertEqual(kind.path(environment: [variable: "/x"], home: "/home/u"), "/x/unprompt")
                // Another kind's variable changes nothing.
                let others = Dictionary(uniqueKeysWithValues: cases.map(\.1).filter { $0 != variable }.map { ($0, "/y") })
                XCTAssertEqual(kind.path(environment: others, home: "/home/u"), fallback)
            }
            XCTAssertEqual(
                UsageStore.defaultPath(environment: ["XDG_DATA_HOME": "/x"], home: "/home/u"), "/x/unprompt/usage.sqlite")
            XCTAssertEqual(CacheDirectory.path(environment: [:], home: "/home/u"), "/home/u/.cache/unprompt")
            XCTAssertEqual(ConfigDirectory.path(environment: ["XDG_CONFIG_HOME": "/c"], home: "/home/u"), "/c/unprompt")
        #endif
    }
}
