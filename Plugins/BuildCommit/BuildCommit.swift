import Foundation
import PackagePlugin

/// Before every build, writes `BuildCommit.swift` (`let buildCommit = "…"`) for `--version`: the checkout's
/// commit, with `+dirty` when tracked files have changed, or `unknown` outside a git checkout. The file is
/// rewritten only when the commit changes, so an unchanged checkout recompiles nothing.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [
            .prebuildCommand(
                displayName: "Naming the build commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    context.package.directoryURL.appending(path: "scripts/build-commit.sh").path,
                    context.package.directoryURL.path, output.appending(path: "BuildCommit.swift").path,
                ],
                outputFilesDirectory: output)
        ]
    }
}
