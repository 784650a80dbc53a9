import Foundation
import Testing
import UnpromptTestSupport

@testable import unprompt_scan

/// The usage text, `COMMAND --help`, README's command list and the man page come from one table of commands
/// and options: README.md and docs/unprompt-scan.1 must say what the table says.
///
/// `UNPROMPT_UPDATE_DOCS=1 swift test --filter CommandDocsTests` rewrites both from the table.
struct CommandDocsTests {
    static let readme = Repository.root + "/README.md"
    static let manPage = Repository.root + "/docs/unprompt-scan.1"
    static var update: Bool { ProcessInfo.processInfo.environment["UNPROMPT_UPDATE_DOCS"] == "1" }

    /// README's text between the generated list's markers (the markers included), and the text around it.
    static func readmeParts() throws -> (before: String, list: String, after: String) {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        guard let start = text.range(of: Help.readmeStart), let end = text.range(of: Help.readmeEnd, range: start.upperBound..<text.endIndex)
        else { throw Missing(what: "the command list's markers in README.md") }
        return (String(text[..<start.lowerBound]), String(text[start.lowerBound..<end.upperBound]), String(text[end.upperBound...]))
    }

    struct Missing: Error {
        let what: String
    }

    @Test func readmesCommandListIsTheTables() throws {
        let parts = try Self.readmeParts()
        if Self.update {
            try (parts.before + Help.readme + parts.after).write(toFile: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(parts.list == Help.readme, "README.md's command list differs from the tables; UNPROMPT_UPDATE_DOCS=1 rewrites it")
    }

    @Test func theManPageIsTheTables() throws {
        if Self.update {
            try Help.manPage.write(toFile: Self.manPage, atomically: true, encoding: .utf8)
            return
        }
        #expect(try String(contentsOfFile: Self.manPage, encoding: .utf8) == Help.manPage, "UNPROMPT_UPDATE_DOCS=1 rewrites it")
    }

    @Test func everyCommandAndOptionIsInTheUsageTheReadmeAndTheManPage() {
        let usage = Help.usage
        let readme = Help.readme
        for command in Command.all {
            let lines = Help.wrapped(command, first: "       ").map { $0.drop { $0 == " " } }
            #expect(lines.allSatisfy { usage.contains($0) }, "\(command.title)")
            #expect(Help.wrapped(command, first: "").allSatisfy { readme.contains($0) }, "\(command.title)")
            #expect(Help.manPage.contains(Help.roff(command.synopsis)), "\(command.title)")
            for option in command.options { #expect(command.synopsis.contains(option.name), "\(command.title): \(option.name)") }
        }
        for option in Option.all {
            #expect(usage.contains(option.synopsis) && readme.contains(option.synopsis), "\(option.name)")
            #expect(!option.help.contains("\n"), "\(option.name): one line of help")
        }
    }

    @Test func aNameMeansOneOptionAndEveryOptionIsTakenBySomeCommand() {
        let names = Option.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count, "\(names)")
        let taken = Set(Command.all.flatMap(\.options).map(\.name))
        #expect(taken == Set(Option.all.map(\.name)).subtracting([Option.help.name]), "every option but --help (taken by all)")
        let titles = Command.all.map(\.title)
        #expect(Set(titles).count == titles.count, "\(titles)")
    }

    @Test func theUsageFitsItsWidth() {
        for line in Command.all.flatMap({ Help.wrapped($0, first: "usage: ") }) {
            #expect(line.count <= Help.width, "\(line)")
        }
    }

    @Test func roffIsEscaped() {
        #expect(Help.roff(#"--tz "UTC" \n"#) == #"\-\-tz \(dqUTC\(dq \en"#)
        #expect(Help.roff(".hidden") == #"\&.hidden"#)
    }
}
