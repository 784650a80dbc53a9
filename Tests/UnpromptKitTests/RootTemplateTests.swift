import XCTest
@testable import UnpromptKit

final class RootTemplateTests: XCTestCase {
    let home = "/home/u"

    func expand(_ template: String, _ environment: [String: String] = [:]) -> [String] {
        RootTemplate.expand(template, environment: environment, home: home)
    }

    func testTilde() {
        XCTAssertEqual(expand("~"), ["/home/u"])
        XCTAssertEqual(expand("~/.claude"), ["/home/u/.claude"])
        XCTAssertEqual(expand("~other/x"), ["~other/x"], "only ~ and ~/ mean the home directory")
        XCTAssertEqual(expand("/abs/~/x"), ["/abs/~/x"])
    }

    func testNestedTemplateIsAProblem() {
        XCTAssertEqual(RootTemplate.problem(in: "${A:-${B}}"), "a default cannot hold another ${...}")
        XCTAssertNil(RootTemplate.problem(in: "${A:-~/.a}/${B:-x}"))
    }

    func testPlainPath() {
        XCTAssertEqual(expand("/var/log/tool"), ["/var/log/tool"])
    }

    func testVariableSetAndUnset() {
        XCTAssertEqual(expand("${CLAUDE_CONFIG_DIR}", ["CLAUDE_CONFIG_DIR": "/c"]), ["/c"])
        XCTAssertEqual(expand("${CLAUDE_CONFIG_DIR}"), [], "an unset variable without default names no root")
        XCTAssertEqual(expand("${CLAUDE_CONFIG_DIR}", ["CLAUDE_CONFIG_DIR": ""]), [], "empty counts as unset")
        XCTAssertEqual(expand("${A}/sub", ["B": "/b"]), [])
    }

    func testDefaultWithTilde() {
        XCTAssertEqual(expand("${CODEX_HOME:-~/.codex}"), ["/home/u/.codex"])
        XCTAssertEqual(expand("${CODEX_HOME:-~/.codex}", ["CODEX_HOME": "/srv/codex"]), ["/srv/codex"])
        XCTAssertEqual(expand("${CODEX_HOME:-~/.codex}", ["CODEX_HOME": ""]), ["/home/u/.codex"])
        XCTAssertEqual(expand("${XDG_CONFIG_HOME:-~/.config}/claude"), ["/home/u/.config/claude"])
        XCTAssertEqual(expand("${XDG_CONFIG_HOME:-~/.config}/claude", ["XDG_CONFIG_HOME": "/x"]), ["/x/claude"])
    }

    func testDefaultMayHoldAColon() {
        XCTAssertEqual(expand("${A:-/p:q}"), ["/p:q"])
    }

    func testEmptyDefaultNamesNoRoot() {
        XCTAssertEqual(expand("${A:-}"), [])
    }

    func testVariableValueIsTildeExpanded() {
        XCTAssertEqual(expand("${C}", ["C": "~/cfg"]), ["/home/u/cfg"])
    }

    func testCommaListsAndTrimming() {
        XCTAssertEqual(expand("${C}", ["C": "/a,/b"]), ["/a", "/b"])
        XCTAssertEqual(expand("${C}", ["C": " /a , ~/b ,~, ,"]), ["/a", "/home/u/b", "/home/u"])
        XCTAssertEqual(expand("/x,/y"), ["/x", "/y"])
        XCTAssertEqual(expand("${C}/projects", ["C": "/a,/b"]), ["/a", "/b/projects"], "commas split after expansion")
        XCTAssertEqual(expand("${C}", ["C": "\u{3000}/a\u{A0},\t/b\u{2003}"]), ["/a", "/b"], "tabs and every space separator")
        XCTAssertEqual(expand("${C}", ["C": "\n/a"]), ["\n/a"], "not line breaks")
    }

    func testSeveralVariables() {
        XCTAssertEqual(expand("${A}/${B:-d}", ["A": "/r"]), ["/r/d"])
        XCTAssertEqual(expand("${A}/${B}", ["A": "/r"]), [])
    }

    func testUnclosedExpandsToNothing() {
        XCTAssertEqual(expand("${A"), [])
    }

    func testProblems() {
        XCTAssertNil(RootTemplate.problem(in: "~/.codex"))
        XCTAssertNil(RootTemplate.problem(in: "${CODEX_HOME:-~/.codex}"))
        XCTAssertNil(RootTemplate.problem(in: "${A}/${B_2:-x}"))
        XCTAssertNil(RootTemplate.problem(in: "$HOME"), "only ${...} is a substitution")
        XCTAssertEqual(RootTemplate.problem(in: "${}"), "'${}' must name a variable: letters, digits and '_'")
        XCTAssertEqual(RootTemplate.problem(in: "${A-b}"), "'${A-b}' must name a variable: letters, digits and '_'")
        XCTAssertEqual(RootTemplate.problem(in: "${A:b}"), "'${A:b}': only ${VAR} and ${VAR:-default} are supported")
        XCTAssertEqual(RootTemplate.problem(in: "${A:=b}"), "'${A:=b}': only ${VAR} and ${VAR:-default} are supported")
        XCTAssertEqual(RootTemplate.problem(in: "/x/${A"), "unclosed '${'")
        XCTAssertEqual(RootTemplate.problem(in: "${A}/${"), "unclosed '${'")
        // The file system's root, however written, alone or in a list; a folder below it is a root like any other.
        for root in ["/", "//", "/./", " / ", "~/.a, /"] {
            XCTAssertEqual(
                RootTemplate.problem(in: root)?.hasSuffix("is the file system's root, not a tool's folder: name the folder its files are in"),
                true, root)
        }
        XCTAssertNil(RootTemplate.problem(in: "/var/log"))
        XCTAssertNil(RootTemplate.problem(in: "${ROOT:-/}x"))
    }
}
