/// The command line, split into words and options, and checked against the options of the command it names.
///
/// `--` ends the options; `--name=value` and `--name value` are the same; an alias is read as its option.
struct Arguments {
    /// Words that are not options, in order (the command's own words included).
    private(set) var words: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Options given that no command knows, and ones given more than once that may be given once.
    private var unknown: [String] = []
    private var repeated: [String] = []

    /// Splits `arguments` with what `options` say each name takes. A missing or empty value is refused here,
    /// for every option.
    init(_ arguments: [String], options: [Option] = Option.all) throws(UsageError) {
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
            guard let option = options.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                unknown.append(name)
                continue
            }
            if option.value != nil {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if value.isEmpty { throw UsageError("\(name) needs a value, and was given an empty one") }
                if !option.repeatable, values[option.name] != nil { repeated.append(option.name) }
                values[option.name, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("\(name) takes no value") }
                flags.insert(option.name)
            }
        }
    }

    /// Every option given, by its name (aliases read as their option), in no particular order.
    var given: Set<String> { flags.union(values.keys) }

    /// Refuses what `command` does not take: options no command knows, options of other commands, and
    /// single-valued options given twice; and an option it needs that is missing.
    func check(against command: Command) throws(UsageError) {
        if let name = unknown.first { throw UsageError("unknown option \(name)") }
        let taken = Set(command.options.map(\.name))
        if let other = given.subtracting(taken).sorted().first {
            throw UsageError("\(command.title) does not take \(other)")
        }
        if let name = repeated.first { throw UsageError("\(name) is given more than once") }
        if let missing = command.required.first(where: { !given.contains($0.name) }) {
            throw UsageError("\(command.title) needs \(missing.synopsis): \(missing.help)")
        }
    }

    /// The words after the command's own.
    func operands(of command: Command) -> [String] { Array(words.dropFirst(command.words.count)) }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func all(_ option: String) -> [String] { values[option] ?? [] }
    /// The value of an option that may be given once.
    func single(_ option: String) -> String? { values[option]?.first }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
