/// The command line, split into flags with values, bare flags and positional words.
///
/// Every flag must be known to the command; an unknown flag or a missing value is a usage error that names it.
struct Arguments {
    var words: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    init(_ arguments: [String], valueFlags: Set<String>, boolFlags: Set<String>) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                words += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                words.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valueFlags.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else if boolFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func all(_ flag: String) -> [String] { values[flag] ?? [] }

    func single(_ flag: String) throws(UsageError) -> String? {
        let given = all(flag)
        guard given.count <= 1 else { throw UsageError("\(flag) is given more than once") }
        return given.first
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
