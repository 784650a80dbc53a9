import Foundation
import UnpromptKit

/// `unprompt-scan friends [--by tokens|trend] [--period day|month] [--dir DIR] [--json]`, `friends add CODE` and
/// `friends remove NAME`: the friends whose codes were added (`ShareCode`), ranked with you by one number
/// (`FriendsRanking`): numbers only, no word about any of them.
enum FriendsCommand {
    static func list(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let period = try ShareOptions.period(arguments)
        let measure = try ShareOptions.measure(arguments, Option.by)
        let folder = arguments.single(Option.dir.name).map(FolderOption.absolute)
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, writable: folder != nil) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        var status = ExitCode.worst(ScanWarning.status(view.scan), opened.syncStatus)
        let ranking: FriendsRanking
        do {
            let friend = try view.queries.store?.friendID() ?? ""
            if let folder, let store = view.queries.store {
                let contents: ShareFolder.Contents
                do throws(SyncError) {
                    contents = try ShareFolder.read(folder)
                } catch {
                    printError("unprompt-scan: friends: \(error.message)")
                    return .sourcesUnreadable
                }
                for problem in contents.problems {
                    printError(
                        "unprompt-scan: friends: the share file of \(problem.friend.map { "friend \($0)" } ?? "an unknown friend") was not added: \(problem.problem.message)")
                    status = .sourcesUnreadable
                }
                for code in contents.codes where code.friend != friend { _ = try store.save(code.share) }
            }
            ranking = try view.queries.friends(period, by: measure, name: view.settings.shareName ?? "you", friend: friend)
        } catch {
            return StoreFailure.report(error)
        }
        print(arguments.has(Option.json.name) ? json(ranking).text : text(ranking))
        return status
    }

    /// `{"friends": [{"name", "period", "date", "tokens" or "trend", "you"}]}`, ranked first; an entry holds the
    /// number ranked by, or, unranked, the one it shared.
    static func json(_ ranking: FriendsRanking) -> JSON {
        .object([
            ("friends", .array(ranking.entries.map { entry in
                let measure: ShareMeasure = entry.value(ranking.measure) != nil ? ranking.measure : (entry.tokens != nil ? .tokens : .trend)
                return .object([
                    ("name", .string(entry.name)), ("period", .string(entry.period == .day ? "day" : "month")),
                    ("date", .string(ShareOptions.date(entry.period, entry.date))),
                    (measure.rawValue, entry.value(measure).map { .integer($0) } ?? .null), ("you", .bool(entry.you)),
                ])
            }))
        ])
    }

    static func text(_ ranking: FriendsRanking) -> String {
        let per = ranking.period == .day ? "day" : "month"
        var lines = ["friends and you by \(ranking.measure == .tokens ? "tokens" : "trend against each one's own 30-day average"), per \(per)"]
        var table = Table([
            .label(""), Table.Column("name", "name", .essential(1), alignment: .left, shortens: true),
            Table.Column("date", "date", .essential(2), alignment: .left),
            Table.Column(ranking.measure.rawValue, ranking.measure.rawValue, .essential(1)),
        ])
        for (index, entry) in ranking.entries.enumerated() {
            let ranked = index < ranking.rankedCount
            let value = ranked
                ? ShareOptions.value(ranking.measure, entry.value(ranking.measure)!)
                : "shares \(entry.tokens != nil ? "tokens" : "trend") only"
            table.add([
                ranked ? String(index + 1) : "-", entry.name + (entry.you ? " (you)" : ""),
                ShareOptions.date(entry.period, entry.date), value,
            ].map { Table.Cell($0) })
        }
        lines += table.render(TableLayout(width: nil))
        if ranking.entries.count == 1 { lines.append("no friend yet: `unprompt-scan friends add CODE` adds one") }
        return lines.joined(separator: "\n")
    }

    /// `friends add CODE`: the code's share kept, unless one of a later date from the same friend is held.
    static func add(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        let text = operands.joined(separator: " ")
        let code: ShareCode
        do throws(ShareCodeProblem) {
            code = try ShareCode.decode(text)
        } catch {
            throw UsageError("friends add: \(error.message); nothing was added")
        }
        guard let store = try open(arguments, environment) else { return .store }
        let saving: FriendSaving
        do {
            let own = try store.friendID()
            if own == code.friend { return ownCode() }
            saving = try store.save(code.share)
        } catch {
            return StoreFailure.report(error)
        }
        let what = "\(code.name): \(ShareOptions.headline(period: code.period, date: code.date)), \(ShareOptions.value(code.measure, code.value))"
        switch saving {
        case .added: print("added \(what)")
        case .replaced: print("updated \(what)")
        case .older: print("kept the share you have of \(code.name): this code is of an earlier \(code.period == .day ? "day" : "month")")
        }
        return .success
    }

    private static func ownCode() -> ExitCode {
        printError("unprompt-scan: friends add: this is your own share code; nothing was added")
        return .usage
    }

    /// `friends remove NAME`: every share of the friend of that name (or friend id).
    static func remove(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        let name = operands.joined(separator: " ")
        guard let store = try open(arguments, environment) else { return .store }
        let friends: Set<String>
        do {
            friends = Set(try store.friendShares().filter { $0.name == name || $0.friend == name.lowercased() }.map(\.friend))
        } catch {
            return StoreFailure.report(error)
        }
        guard friends.count == 1, let friend = friends.first else {
            throw UsageError(
                friends.isEmpty
                    ? "friends remove: no friend named '\(name)'; `unprompt-scan friends` lists them"
                    : "friends remove: \(friends.count) friends are named '\(name)'; give one's friend id: \(friends.sorted().joined(separator: ", "))")
        }
        do {
            _ = try store.removeFriend(friend)
        } catch {
            return StoreFailure.report(error)
        }
        print("removed \(name)")
        return .success
    }

    private static func open(_ arguments: Arguments, _ environment: [String: String]) throws(UsageError) -> UsageStore? {
        do {
            return try UsageStore(path: StoreLocation.path(arguments, environment))
        } catch {
            _ = StoreFailure.report(error)
            return nil
        }
    }
}
