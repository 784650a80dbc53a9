#!/usr/bin/env python3
"""Rebuild pricing/litellm-prices.json and pricing/manifest.json from a LiteLLM price file.

The bundled table is a filtered copy of LiteLLM's `model_prices_and_context_window.json` (MIT licence):
same keys, same field names, same units (USD per token), so a refresh is running this script on a newer
file and reviewing the diff. It never downloads anything; give it the file, e.g. from the `litellm` wheel:

    pip download litellm==VERSION --no-deps -d /tmp/l && cd /tmp/l && unzip -o litellm-*.whl \
        litellm/model_prices_and_context_window_backup.json
    python3 scripts/update-prices.py /tmp/l/litellm/model_prices_and_context_window_backup.json \
        --source "PyPI litellm VERSION (litellm/model_prices_and_context_window_backup.json)" --date YYYY-MM-DD

Kept rows: text models (mode chat, responses or completion) of the providers whose ids coding tools log
(Anthropic, OpenAI, Google Gemini/Vertex, Bedrock and Vertex Claude, xAI, DeepSeek, Moonshot, Alibaba
DashScope, Z.ai) that have an input and an output price, or `tiered_pricing` (whole-request tiers by
prompt size). Kept fields: per-token prices and a few descriptive ones.
"""
import argparse
import hashlib
import json
import os
import re

PROVIDERS = {
    "anthropic", "openai", "gemini", "vertex_ai-language-models", "vertex_ai-anthropic_models", "bedrock",
    "bedrock_converse", "xai", "deepseek", "moonshot", "dashscope", "zai",
}
# Of these providers, only their Claude rows (the others resell many families).
CLAUDE_ONLY = {"bedrock", "bedrock_converse", "vertex_ai-anthropic_models"}
GEMINI_ONLY = {"vertex_ai-language-models"}
MODES = {"chat", "responses", "completion"}
PRICE_FIELD = re.compile(
    r"^(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost|cache_creation_input_token_cost"
    r"|output_cost_per_reasoning_token)")
# Besides per-token prices: per-request charges (web search) and the multipliers of a region, which pricing
# reads (docs/METHOD.md, "Cost").
DESCRIPTIVE = {"litellm_provider", "mode", "max_input_tokens", "max_output_tokens", "deprecation_date",
               "provider_specific_entry", "source", "tiered_pricing", "search_context_cost_per_query",
               "regional_processing_uplift_multiplier_us", "regional_processing_uplift_multiplier_eu"}


def keep_row(key, row):
    if key == "sample_spec" or not isinstance(row, dict):
        return False
    provider = row.get("litellm_provider")
    if provider not in PROVIDERS or row.get("mode") not in MODES:
        return False
    tiered = isinstance(row.get("tiered_pricing"), list)
    if not tiered and ("input_cost_per_token" not in row or "output_cost_per_token" not in row):
        return False
    if provider in CLAUDE_ONLY and "claude" not in key:
        return False
    if provider in GEMINI_ONLY and "gemini" not in key:
        return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("litellm_json")
    ap.add_argument("--source", required=True, help="where the file came from (package and version)")
    ap.add_argument("--date", required=True, help="the day it was taken, YYYY-MM-DD")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "pricing"))
    a = ap.parse_args()
    raw = open(a.litellm_json, "rb").read()
    table = json.loads(raw)
    subset = {}
    for key in sorted(table):
        row = table[key]
        if keep_row(key, row):
            subset[key] = {f: row[f] for f in sorted(row) if PRICE_FIELD.match(f) or f in DESCRIPTIVE}
    text = json.dumps(subset, indent=1, sort_keys=True, ensure_ascii=True) + "\n"
    data = text.encode()
    with open(os.path.join(a.out, "litellm-prices.json"), "wb") as f:
        f.write(data)
    manifest = {
        "file": "litellm-prices.json",
        "source": a.source,
        "upstream": "https://github.com/BerriAI/litellm (model_prices_and_context_window.json, MIT licence)",
        "date": a.date,
        "upstreamBytes": len(raw),
        "upstreamSha256": hashlib.sha256(raw).hexdigest(),
        "upstreamEntries": len([k for k in table if k != "sample_spec"]),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "entries": len(subset),
        "filter": ("rows of providers " + ", ".join(sorted(PROVIDERS)) + " (Claude rows only for "
                   + ", ".join(sorted(CLAUDE_ONLY)) + "; Gemini rows only for " + ", ".join(sorted(GEMINI_ONLY))
                   + ") with mode chat, responses or completion and both input_cost_per_token and "
                   "output_cost_per_token; fields: per-token prices and " + ", ".join(sorted(DESCRIPTIVE))),
        "script": "scripts/update-prices.py",
    }
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print("%d of %d rows, %d bytes, sha256 %s" % (len(subset), manifest["upstreamEntries"], len(data), manifest["sha256"]))


if __name__ == "__main__":
    main()
