import XCTest
@testable import UnpromptKit

final class GlobTests: XCTestCase {
    func glob(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Glob {
        switch Glob.parse(text) {
        case .success(let glob): return glob
        case .failure(let error):
            XCTFail("'\(text)' should parse, got \(error)", file: file, line: line)
            return try! Glob.parse("never.match").get()
        }
    }

    func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> FieldPathError? {
        switch Glob.parse(text) {
        case .success: XCTFail("'\(text)' should not parse", file: file, line: line); return nil
        case .failure(let error): return error
        }
    }

    func matches(_ g: Glob, _ path: String) -> Bool {
        g.matches(path.split(separator: "/", omittingEmptySubsequences: false))
    }

    func mayDescend(_ g: Glob, _ path: String) -> Bool {
        g.mayDescend(into: path.isEmpty ? [] : path.split(separator: "/", omittingEmptySubsequences: false))
    }

    // MARK: Matching

    /// A plain name, and `*` then a plain end, are matched without the general matcher: the same answers.
    func testPlainNamesAndPlainEndsMatchExactly() {
        let end = glob("*.jsonl")
        XCTAssertTrue(matches(end, "a.jsonl"))
        XCTAssertTrue(matches(end, ".jsonl"), "* may match nothing")
        XCTAssertFalse(matches(end, "jsonl"), "shorter than the end")
        XCTAssertFalse(matches(end, "a.jsonl.bak"))
        XCTAssertFalse(matches(end, "a.JSONL"))
        let any = glob("*")
        XCTAssertTrue(matches(any, "anything"))
        XCTAssertTrue(matches(any, ""))
        let name = glob("sessions.db")
        XCTAssertTrue(matches(name, "sessions.db"))
        XCTAssertFalse(matches(name, "sessions.db-wal"))
        XCTAssertFalse(matches(name, "xsessions.db"))
        XCTAssertFalse(matches(name, "sessions.d"))
        // Scalars, not characters: a precomposed é is not an e and a combining accent.
        let accented = glob("*caf\u{E9}")
        XCTAssertTrue(matches(accented, "le caf\u{E9}"))
        XCTAssertFalse(matches(accented, "le cafe\u{301}"))
        // A star that is not first, or a set, takes the general matcher, with the same rules.
        XCTAssertTrue(matches(glob("a*.jsonl"), "a.jsonl"))
        XCTAssertFalse(matches(glob("a*.jsonl"), "b.jsonl"))
        XCTAssertTrue(matches(glob("*.json[l]"), "x.jsonl"))
        XCTAssertTrue(matches(glob("projects/*/x.jsonl"), "projects/p/x.jsonl"))
        XCTAssertFalse(matches(glob("projects/*/x.jsonl"), "projectsx/p/x.jsonl"))
    }

    func testMayDescendIntoADirectoryMatchedByAWildcardSegment() {
        let g = glob("a/*/b.jsonl")
        XCTAssertTrue(matches(g, "a/x/b.jsonl"))
        XCTAssertTrue(mayDescend(g, "a"))
        XCTAssertTrue(mayDescend(g, "a/x"), "a/x may hold a/x/b.jsonl")
        XCTAssertFalse(mayDescend(g, "a/x/y"))
        XCTAssertFalse(mayDescend(g, "c"))
    }

    func testRecursiveGlobAtEveryDepth() {
        let g = glob("projects/**/*.jsonl")
        XCTAssertEqual(g.text, "projects/**/*.jsonl")
        XCTAssertEqual(g.description, "projects/**/*.jsonl")
        XCTAssertTrue(g.isRecursive)
        XCTAssertTrue(matches(g, "projects/a.jsonl"), "** matches zero directories")
        XCTAssertTrue(matches(g, "projects/p1/a.jsonl"))
        XCTAssertTrue(matches(g, "projects/p1/sub/a.jsonl"))
        XCTAssertTrue(matches(g, "projects/p1/sub/deeper/a.jsonl"))
        XCTAssertFalse(matches(g, "projects/p1/a.json"))
        XCTAssertFalse(matches(g, "projects/p1/a.jsonl.bak"))
        XCTAssertFalse(matches(g, "other/p1/a.jsonl"))
        XCTAssertFalse(matches(g, "a.jsonl"))
        XCTAssertFalse(matches(g, "projects"))
    }

    func testLeadingDoubleStar() {
        let g = glob("**/x.jsonl")
        XCTAssertTrue(matches(g, "x.jsonl"))
        XCTAssertTrue(matches(g, "a/x.jsonl"))
        XCTAssertTrue(matches(g, "a/b/c/x.jsonl"))
        XCTAssertFalse(matches(g, "a/y.jsonl"))
        XCTAssertEqual(g.literalPrefix, [])
    }

    func testDoubleStarBetweenLiterals() {
        let g = glob("a/**/b/*.log")
        XCTAssertTrue(matches(g, "a/b/x.log"))
        XCTAssertTrue(matches(g, "a/q/b/x.log"))
        XCTAssertTrue(matches(g, "a/q/r/b/x.log"))
        XCTAssertFalse(matches(g, "a/q/x.log"))
        XCTAssertFalse(matches(g, "a/b/q/x.log"))
    }

    func testStarStaysWithinOneSegment() {
        let g = glob("archived_sessions/*.jsonl")
        XCTAssertFalse(g.isRecursive)
        XCTAssertTrue(matches(g, "archived_sessions/rollout-1.jsonl"))
        XCTAssertTrue(matches(g, "archived_sessions/.jsonl"), "* may match nothing")
        XCTAssertFalse(matches(g, "archived_sessions/sub/rollout-1.jsonl"))
        XCTAssertFalse(matches(g, "archived_sessions"))
    }

    func testStarInTheMiddleOfAName() {
        let g = glob("rollout-*-end.jsonl")
        XCTAssertTrue(matches(g, "rollout--end.jsonl"))
        XCTAssertTrue(matches(g, "rollout-2024-end-x-end.jsonl"))
        XCTAssertFalse(matches(g, "rollout-2024-end.json"))
    }

    func testQuestionMarkIsExactlyOneCharacter() {
        let g = glob("log?.txt")
        XCTAssertTrue(matches(g, "log1.txt"))
        XCTAssertTrue(matches(g, "logé.txt"), "one character, not one byte")
        XCTAssertFalse(matches(g, "log.txt"))
        XCTAssertFalse(matches(g, "log12.txt"))
    }

    func testAlternatives() {
        let g = glob("{sessions,archived}/*.{jsonl,json}")
        XCTAssertTrue(matches(g, "sessions/a.jsonl"))
        XCTAssertTrue(matches(g, "archived/a.json"))
        XCTAssertFalse(matches(g, "other/a.jsonl"))
        XCTAssertFalse(matches(g, "sessions/a.txt"))
        XCTAssertEqual(g.literalPrefix, [])
    }

    func testEmptyAlternative() {
        let g = glob("a{,-old}.log")
        XCTAssertTrue(matches(g, "a.log"))
        XCTAssertTrue(matches(g, "a-old.log"))
        XCTAssertFalse(matches(g, "a-new.log"))
    }

    func testNestedAlternatives() {
        let g = glob("{a,b{1,2}}.x")
        XCTAssertTrue(matches(g, "a.x"))
        XCTAssertTrue(matches(g, "b1.x"))
        XCTAssertTrue(matches(g, "b2.x"))
        XCTAssertFalse(matches(g, "b.x"))
        XCTAssertFalse(matches(g, "b3.x"))
    }

    func testCharacterSetsAreLiteralCharacters() {
        // Sets list characters; there are no ranges: `[0-9]` is the three characters '0', '-' and '9'.
        let g = glob("v[0-9].log")
        XCTAssertTrue(matches(g, "v0.log"))
        XCTAssertTrue(matches(g, "v-.log"))
        XCTAssertTrue(matches(g, "v9.log"))
        XCTAssertFalse(matches(g, "v5.log"))
        let abc = glob("[abc].txt")
        XCTAssertTrue(matches(abc, "b.txt"))
        XCTAssertFalse(matches(abc, "d.txt"))
        XCTAssertFalse(matches(abc, "ab.txt"))
    }

    func testNegatedSet() {
        let g = glob("[!x]*.log")
        XCTAssertTrue(matches(g, "a.log"))
        XCTAssertTrue(matches(g, "ax.log"))
        XCTAssertFalse(matches(g, "x.log"))
        XCTAssertFalse(matches(g, "xa.log"))
    }

    // MARK: Pruning and literal prefix

    func testMayDescendForRecursiveGlob() {
        let g = glob("projects/**/*.jsonl")
        XCTAssertTrue(mayDescend(g, ""))
        XCTAssertTrue(mayDescend(g, "projects"))
        XCTAssertTrue(mayDescend(g, "projects/p1"))
        XCTAssertTrue(mayDescend(g, "projects/p1/sub/deeper"))
        XCTAssertFalse(mayDescend(g, "other"))
        XCTAssertFalse(mayDescend(g, "other/projects"))
    }

    func testMayDescendStopsBelowTheFileLevel() {
        let g = glob("a/b/c.jsonl")
        XCTAssertTrue(mayDescend(g, "a"))
        XCTAssertFalse(mayDescend(g, "x"))
        XCTAssertFalse(mayDescend(g, "a/x"))
        XCTAssertFalse(mayDescend(g, "a/b/c.jsonl"), "nothing below the file-name level can match")
        XCTAssertFalse(mayDescend(g, "a/b/c.jsonl/d"))
    }

    func testMayDescendWithWildcardDirectory() {
        let g = glob("{x,y}/**/*.log")
        XCTAssertTrue(mayDescend(g, "x"))
        XCTAssertTrue(mayDescend(g, "y/z"))
        XCTAssertFalse(mayDescend(g, "z"))
    }

    func testLiteralPrefix() {
        XCTAssertEqual(glob("projects/**/*.jsonl").literalPrefix, ["projects"])
        XCTAssertEqual(glob("sessions/**/*.jsonl").literalPrefix, ["sessions"])
        XCTAssertEqual(glob("archived_sessions/*.jsonl").literalPrefix, ["archived_sessions"])
        XCTAssertEqual(glob("a/b/c.jsonl").literalPrefix, ["a", "b"], "the last segment names files")
        XCTAssertEqual(glob("x.jsonl").literalPrefix, [])
        XCTAssertEqual(glob("a/b?/c/d.log").literalPrefix, ["a"])
        XCTAssertEqual(glob("a/[b]/c.log").literalPrefix, ["a"])
        XCTAssertEqual(glob("a/{b}/c.log").literalPrefix, ["a"])
        XCTAssertEqual(glob("*/x.jsonl").literalPrefix, [])
    }

    // MARK: Errors

    func testParseErrors() {
        XCTAssertEqual(failure("")?.offset, 0)
        XCTAssertEqual(failure("/abs.jsonl")?.offset, 0)
        XCTAssertTrue(failure("/abs.jsonl")?.message.contains("must not start with '/'") == true)
        XCTAssertEqual(failure("a/../x")?.offset, 2)
        XCTAssertTrue(failure("a/../x")?.message.contains("'..' is not allowed") == true)
        XCTAssertEqual(failure("./x")?.offset, 0)
        XCTAssertEqual(failure("ab/c**/x")?.offset, 3)
        XCTAssertTrue(failure("ab/c**/x")?.message.contains("'**' must be a whole path segment") == true)
        XCTAssertEqual(failure("a//b")?.offset, 2)
        XCTAssertEqual(failure("a/")?.offset, 2)
        XCTAssertEqual(failure("a/**")?.offset, 2)
        XCTAssertTrue(failure("a/**")?.message.contains("not '**'") == true)
        XCTAssertEqual(failure("**")?.offset, 0)
    }

    func testBracketAndBraceErrorsPointAtTheCharacter() {
        XCTAssertEqual(failure("dir/ab[cd")?.offset, 6)
        XCTAssertTrue(failure("dir/ab[cd")?.message.contains("unclosed '['") == true)
        XCTAssertEqual(failure("dir/[]x")?.offset, 4)
        XCTAssertEqual(failure("dir/[!]x")?.offset, 4)
        XCTAssertTrue(failure("dir/[!]x")?.message.contains("empty '[]'") == true)
        XCTAssertEqual(failure("dir/x{a,b")?.offset, 5)
        XCTAssertTrue(failure("dir/x{a,b")?.message.contains("unclosed '{'") == true)
        XCTAssertEqual(failure("dir/x}")?.offset, 5)
        XCTAssertTrue(failure("dir/x}")?.message.contains("unexpected '}'") == true)
        XCTAssertEqual(failure("dir/x]")?.offset, 5)
        XCTAssertEqual(failure("d/{a,[b}")?.offset, 5)
    }

    /// Alternatives live inside one segment: a `/` inside a closed `{…}` is named as what it is, not as an
    /// unclosed brace. An unclosed brace is still that.
    func testASlashInsideBracesIsNamedAtTheSlash() {
        let glob = "{Code,VSCodium}/User/{workspaceStorage/*,globalStorage}/x.jsonl"
        XCTAssertEqual(failure(glob)?.offset, 38)
        XCTAssertTrue(failure(glob)?.message.hasPrefix("a '/' inside '{…}': alternatives choose within one path segment") == true)
        XCTAssertEqual(failure("a/{b,c/d}/x")?.offset, 6)
        XCTAssertTrue(failure("a/{b,c/d/x")?.message.contains("unclosed '{'") == true)
        XCTAssertNotNil(try? Glob.parse("{a,b}/{c,d}/*.json").get())
    }
}
