#!/usr/bin/env python3
"""Validates a JSON document against a JSON Schema, with the standard library only.

Usage: check-json-schema.py SCHEMA DOCUMENT   (DOCUMENT may be - for standard input)

It implements the part of JSON Schema (draft 2020-12) that docs/*.schema.json use -- type, properties,
required, additionalProperties, items, minItems, maxItems, enum, const, minimum, maximum, pattern, oneOf
and local $ref into $defs -- and refuses any other keyword, so a schema can never lean on a rule this
checker would silently skip. Exit status: 0 valid, 1 invalid (each problem printed with its JSON path),
2 the schema uses something unsupported or a file cannot be read.
"""
import json
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "$defs"}
KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "enum",
            "const", "minimum", "maximum", "pattern", "oneOf", "$ref"}


class SchemaError(Exception):
    pass


def type_matches(value, name):
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    raise SchemaError("unknown type " + repr(name))


def same(a, b):
    """JSON equality: true is not 1."""
    return type(a) == type(b) and a == b or (
        isinstance(a, (int, float)) and isinstance(b, (int, float))
        and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def validate(value, schema, root, path, problems):
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise SchemaError("unsupported keyword(s) %s at %s" % (sorted(unknown), path))
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise SchemaError("only local #/$defs/ references are supported: " + ref)
        validate(value, root["$defs"][ref[len("#/$defs/"):]], root, path, problems)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_matches(value, name) for name in names):
            problems.append("%s: expected %s, found %s" % (path, "/".join(names), json.dumps(value)[:60]))
            return
    if "const" in schema and not same(value, schema["const"]):
        problems.append("%s: expected %s" % (path, json.dumps(schema["const"])))
    if "enum" in schema and not any(same(value, option) for option in schema["enum"]):
        problems.append("%s: %s is not one of %s" % (path, json.dumps(value), schema["enum"]))
    if "oneOf" in schema:
        matching = 0
        for option in schema["oneOf"]:
            found = []
            validate(value, option, root, path, found)
            matching += not found
        if matching != 1:
            problems.append("%s: matches %d of the oneOf alternatives, not exactly one" % (path, matching))
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if "minimum" in schema and number and value < schema["minimum"]:
        problems.append("%s: %s is below %s" % (path, value, schema["minimum"]))
    if "maximum" in schema and number and value > schema["maximum"]:
        problems.append("%s: %s is above %s" % (path, value, schema["maximum"]))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        problems.append("%s: %s does not match %s" % (path, json.dumps(value), schema["pattern"]))
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                problems.append("%s: missing %s" % (path, key))
        for key, item in value.items():
            if key in properties:
                validate(item, properties[key], root, path + "." + key, problems)
            elif schema.get("additionalProperties") is False:
                problems.append("%s: unexpected key %s" % (path, key))
            elif isinstance(schema.get("additionalProperties"), dict):
                validate(item, schema["additionalProperties"], root, path + "." + key, problems)
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            problems.append("%s: %d items, fewer than %d" % (path, len(value), schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append("%s: %d items, more than %d" % (path, len(value), schema["maxItems"]))
        if "items" in schema:
            for index, item in enumerate(value):
                validate(item, schema["items"], root, "%s[%d]" % (path, index), problems)


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as handle:
            schema = json.load(handle)
        document = json.load(sys.stdin if sys.argv[2] == "-" else open(sys.argv[2]))
        problems = []
        validate(document, schema, schema, "$", problems)
    except (OSError, ValueError, SchemaError) as error:
        print("check-json-schema: %s" % error, file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
