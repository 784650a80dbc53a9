#if canImport(_FoundationICU)
    internal import _FoundationICU
#endif

/// Why the regular-expression engine refuses a pattern, and where: the descriptor's error then says what is wrong
/// and points at it, not only at the pattern. The engine is ICU, as `NSRegularExpression` uses it; where ICU's
/// own diagnostics cannot be reached (they are Foundation's on Linux), only the refusal is known.
enum RegexProblem {
    struct Diagnosis: Equatable {
        let reason: String
        /// The character offset in the pattern where ICU stopped, when it says.
        let offset: Int?
    }

    static func diagnose(_ pattern: String) -> Diagnosis {
        #if canImport(_FoundationICU)
            var units = Array(pattern.utf16)
            var parseError = UParseError()
            var status = U_ZERO_ERROR
            let compiled = swift_uregex_open(&units, Int32(units.count), 0, &parseError, &status)
            defer { if let compiled { swift_uregex_close(compiled) } }
            guard status.rawValue > U_ZERO_ERROR.rawValue else {
                return Diagnosis(reason: "the regular-expression engine refused it", offset: nil)
            }
            let code = String(cString: swift_u_errorName(status))
            let offset = parseError.offset >= 0 ? characterOffset(ofUTF16: Int(parseError.offset), in: pattern) : nil
            return Diagnosis(reason: words(code) + " (ICU \(code))", offset: offset)
        #else
            return Diagnosis(reason: "the regular-expression engine refused it", offset: nil)
        #endif
    }

    /// ICU's error names in words, for the ones a pattern written by hand meets.
    static func words(_ code: String) -> String {
        switch code {
        case "U_REGEX_MISMATCHED_PAREN": "a parenthesis is not closed, or closes nothing"
        case "U_REGEX_MISSING_CLOSE_BRACKET": "a '[' set is not closed"
        case "U_REGEX_BAD_ESCAPE_SEQUENCE": "a bad escape sequence"
        case "U_REGEX_MAX_LT_MIN": "in {min,max}, max is smaller than min"
        case "U_REGEX_BAD_INTERVAL": "a bad {min,max} repeat"
        case "U_REGEX_INVALID_RANGE": "a set range ends before it starts"
        case "U_REGEX_RULE_SYNTAX": "a syntax error"
        case "U_REGEX_INVALID_FLAG": "an unknown (?flag)"
        case "U_REGEX_PROPERTY_SYNTAX": "a bad \\p{…} property"
        case "U_REGEX_LOOK_BEHIND_LIMIT": "a look-behind must have a bounded length"
        case "U_REGEX_INVALID_CAPTURE_GROUP_NAME": "a bad capture-group name"
        case "U_REGEX_NUMBER_TOO_BIG": "a number too big"
        case "U_REGEX_UNIMPLEMENTED": "a feature the engine does not support"
        default: code.replacingPrefix("U_REGEX_").lowercased().split(separator: "_").joined(separator: " ")
        }
    }

    /// The number of characters before UTF-16 offset `units`.
    private static func characterOffset(ofUTF16 units: Int, in text: String) -> Int {
        var count = 0
        var seen = 0
        for character in text {
            if seen >= units { break }
            seen += character.utf16.count
            count += 1
        }
        return count
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
