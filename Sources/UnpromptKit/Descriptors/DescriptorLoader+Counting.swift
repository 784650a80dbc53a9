/// How a record's counts are read: counting rules, running totals, identities.
extension DescriptorDecoder {
    func countingRules(_ node: YAMLNode) throws(DescriptorError) -> CountingRules {
        let map = try reader(node, DescriptorKeys.counting)
        return CountingRules(
            inputIncludesCache: try countingFlag(try map.required("input_includes_cache"), "input_includes_cache", map),
            outputIncludesReasoning: try countingFlag(
                try map.required("output_includes_reasoning"), "output_includes_reasoning", map))
    }

    func countingFlag(_ node: YAMLNode, _ what: String, _ parent: MappingReader) throws(DescriptorError) -> CountingFlag {
        let allowsAuto = what == "input_includes_cache"
        switch node.kind {
        case .scalar("auto", true) where allowsAuto:
            return .auto
        case .scalar:
            return .always(try parent.bool(node, what))
        case .mapping(let entries) where entries.contains(where: { $0.key == "by_total" }):
            let map = try reader(node, DescriptorKeys.byTotal, context: what)
            let otherwise = try map.bool(try map.required("by_total"), "\(what).by_total")
            let withoutTotal = try map.optional("without_total") { (n) throws(DescriptorError) in try map.bool(n, "\(what).without_total") }
            return .byTotal(otherwise: otherwise, withoutTotal: withoutTotal ?? otherwise)
        case .mapping:
            let map = try reader(node, DescriptorKeys.conditionalFlag, context: what)
            func answer(_ key: String) throws(DescriptorError) -> CountingAnswer {
                let branch = try map.required(key)
                if case .scalar("auto", true) = branch.kind, allowsAuto { return .auto }
                guard case .scalar(let text, true) = branch.kind, text == "true" || text == "false" else {
                    throw map.error(branch, "\(what).\(key) must be true\(allowsAuto ? ", false or auto" : " or false")")
                }
                return text == "true" ? .yes : .no
            }
            return .conditional(
                when: try conditions(try map.required("when"), "\(what).when"), then: try answer("then"),
                otherwise: try answer("else"))
        case .sequence:
            throw parent.error(node, "\(what) must be true, false\(allowsAuto ? ", auto" : ""), { when, then, else } or { by_total }")
        }
    }

    func cumulativeSpec(_ node: YAMLNode) throws(DescriptorError) -> CumulativeSpec {
        let map = try reader(node, DescriptorKeys.cumulative)
        let key = try map.optional("key") { (n) throws(DescriptorError) in try valueList(n, "cumulative.key", map) } ?? []
        let fallback = try map.optional("fallback_at") { (n) throws(DescriptorError) in
            try map.fieldPath(try map.string(n, "fallback_at"), at: n, "cumulative.fallback_at")
        }
        let cost = try map.optional("cost") { (n) throws(DescriptorError) in try map.bool(n, "cumulative.cost") } ?? false
        return CumulativeSpec(key: key, fallbackAt: fallback, cost: cost)
    }

    func identitySpec(_ node: YAMLNode) throws(DescriptorError) -> IdentitySpec {
        let map = try reader(node, DescriptorKeys.identity)
        let key = try valueList(try map.required("key"), "identity.key", map)
        let fallback = try map.optional("fallback") { (n) throws(DescriptorError) in try valueList(n, "identity.fallback", map) } ?? []
        let scope: IdentityScope = try map.optional("scope") { (n) throws(DescriptorError) in try map.choice(n, "identity.scope") } ?? .global
        let keep: KeepRule = try map.choice(try map.required("keep"), "identity.keep")
        let alias = try map.optional("alias") { (n) throws(DescriptorError) in try identityAlias(n) }
        let former = try map.optional("former") { (n) throws(DescriptorError) in try formerIdentity(n) }
        return IdentitySpec(key: key, fallback: fallback, scope: scope, keep: keep, alias: alias, former: former)
    }

    func identityAlias(_ node: YAMLNode) throws(DescriptorError) -> IdentityAlias {
        let map = try reader(node, DescriptorKeys.alias)
        return IdentityAlias(
            key: try valueList(try map.required("key"), "identity.alias.key", map),
            checkWhen: try map.optional("check_when") { (n) throws(DescriptorError) in
                try conditions(n, "identity.alias.check_when")
            } ?? [],
            group: try map.optional("group") { (n) throws(DescriptorError) in try map.string(n, "identity.alias.group") })
    }

    func formerIdentity(_ node: YAMLNode) throws(DescriptorError) -> FormerIdentity {
        let map = try reader(node, DescriptorKeys.formerIdentity)
        let scope: IdentityScope =
            try map.optional("scope") { (n) throws(DescriptorError) in try map.choice(n, "identity.former.scope") } ?? .global
        return FormerIdentity(key: try valueList(try map.required("key"), "identity.former.key", map), scope: scope)
    }
}
