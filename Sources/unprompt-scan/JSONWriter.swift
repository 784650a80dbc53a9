/// A JSON value with ordered keys, so output is stable byte for byte.
indirect enum JSON {
    case object([(String, JSON)])
    case array([JSON])
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null

    static func int(_ value: Int) -> JSON { .integer(Int64(value)) }

    var text: String {
        var output = ""
        write(into: &output)
        return output
    }

    private func write(into output: inout String) {
        switch self {
        case .object(let entries):
            output += "{"
            for (index, (key, value)) in entries.enumerated() {
                if index > 0 { output += "," }
                JSON.string(key).write(into: &output)
                output += ":"
                value.write(into: &output)
            }
            output += "}"
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(into: &output)
            }
            output += "]"
        case .string(let text):
            output += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                default:
                    if scalar.value < 0x20 {
                        output += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                            + String(scalar.value, radix: 16)
                    } else {
                        output.unicodeScalars.append(scalar)
                    }
                }
            }
            output += "\""
        case .integer(let value): output += String(value)
        case .number(let value): output += value.isFinite ? "\(value)" : "null"
        case .bool(let value): output += value ? "true" : "false"
        case .null: output += "null"
        }
    }
}
