/// Metric families in the Prometheus text exposition format (version 0.0.4): each family's `# HELP` and
/// `# TYPE` lines, then its samples, one family after the other. No sample carries a timestamp, so the text
/// suits node_exporter's textfile collector (which refuses them) as well as a scrape.
struct PrometheusText {
    struct Sample {
        let labels: [(String, String)]
        let value: Double
    }

    private var text = ""

    /// One family: `name` and label names are the program's own (`[a-z_]`); label values are escaped.
    mutating func family(_ name: String, help: String, type: String = "gauge", _ samples: [Sample]) {
        text += "# HELP \(name) \(Self.escaped(help, quote: false))\n# TYPE \(name) \(type)\n"
        for sample in samples {
            let labels = sample.labels.map { "\($0.0)=\"\(Self.escaped($0.1, quote: true))\"" }
            text += name + (labels.isEmpty ? "" : "{" + labels.joined(separator: ",") + "}") + " " + Self.value(sample.value) + "\n"
        }
    }

    var rendered: String { text }

    /// A backslash and a line break escaped (in HELP text), and a double quote too (in a label value).
    static func escaped(_ text: String, quote: Bool) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\"" where quote: output += "\\\""
            default: output.append(character)
            }
        }
        return output
    }

    /// A whole number without a fraction, any other to the billionth (Go's float syntax reads both).
    static func value(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(ReadingsFormat.rounded(value))"
    }
}
