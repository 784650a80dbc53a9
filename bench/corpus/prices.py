"""List prices in nano-USD per token (USD per million tokens × 1000), so every cost sums exactly.

Anthropic: https://platform.claude.com/docs/en/about-claude/pricing (cache writes: 5-minute 1.25× input, 1-hour
2× input; reads 0.1× input). OpenAI: https://platform.openai.com/docs/pricing (cached input at its own rate; reasoning
is billed as output). The corpora keep every Claude request under 200k prompt tokens, below Sonnet's long-context
rate. A model missing here is unpriced (the generator gives no cost for it).

Price dimensions (`--price-dimensions`), read on 2026-11-30: fast mode is 2x every token class of Opus 4.8
(https://platform.claude.com/docs/en/build-with-claude/fast-mode: $10 / $50 per million against $5 / $25); US-only
inference (`inference_geo: "us"`) 1.1x every token class on Opus 4.6 and later
(https://platform.claude.com/docs/en/build-with-claude/data-residency); the two stack; a web search costs $10 per
1,000 (pricing page, "Web search tool"), a web fetch nothing beyond its tokens. Written here from those pages, never
from the bundled table.
"""
from fractions import Fraction

# model: (input, output, cache read, cache write 5m, cache write 1h)
NANO_USD_PER_TOKEN = {
    "claude-sonnet-4-5-20250929": (3000, 15000, 300, 3750, 6000),
    "claude-opus-4-5-20251101": (5000, 25000, 500, 6250, 10000),
    "claude-opus-4-1-20250805": (15000, 75000, 1500, 18750, 30000),
    "claude-opus-4-8": (5000, 25000, 500, 6250, 10000),
    "claude-haiku-4-5-20251001": (1000, 5000, 100, 1250, 2000),
    "gpt-5-codex": (1250, 10000, 125, 0, 0),
    "gpt-5": (1250, 10000, 125, 0, 0),
    "gpt-5-mini": (250, 2000, 25, 0, 0),
}

FAST_MULTIPLIER = {"claude-opus-4-8": 2}
US_MULTIPLIER = {"claude-opus-4-8": Fraction(11, 10)}
WEB_SEARCH_NANO_USD = 10_000_000


def cost(call, one_hour_rate=True, dimensions=True):
    """Nano-USD of one call at list prices (a Fraction: 1.1x leaves tenths), or None when the model has no price.
    With `one_hour_rate` false every cache write is priced at the 5-minute rate, as tools that read only LiteLLM's
    flat cache-write price do; with `dimensions` false, speed, region and web searches are ignored."""
    price = NANO_USD_PER_TOKEN.get(call.model)
    if price is None:
        return None
    inp, out, read, write5m, write1h = price
    c = call.counts
    writes = c.cacheWrite5m * write5m + c.cacheWrite1h * (write1h if one_hour_rate else write5m)
    tokens = Fraction(c.input * inp + c.output * out + c.cacheRead * read + writes)
    if not dimensions:
        return tokens
    a = call.attributes
    if a.get("speed") == "fast":
        tokens *= FAST_MULTIPLIER[call.model]
    if a.get("inference_geo") == "us":
        tokens *= US_MULTIPLIER[call.model]
    return tokens + a.get("web_search_requests", 0) * WEB_SEARCH_NANO_USD
