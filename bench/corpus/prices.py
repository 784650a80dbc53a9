"""List prices in nano-USD per token (USD per million tokens × 1000), so every cost sums exactly.

Anthropic: https://platform.claude.com/docs/en/about-claude/pricing (cache writes: 5-minute 1.25× input, 1-hour
2× input; reads 0.1× input). OpenAI: https://platform.openai.com/docs/pricing (cached input at its own rate; reasoning
is billed as output). The corpora keep every Claude request under 200k prompt tokens, below Sonnet's long-context
rate. A model missing here is unpriced (the generator gives no cost for it).
"""

# model: (input, output, cache read, cache write 5m, cache write 1h)
NANO_USD_PER_TOKEN = {
    "claude-sonnet-4-5-20250929": (3000, 15000, 300, 3750, 6000),
    "claude-opus-4-5-20251101": (5000, 25000, 500, 6250, 10000),
    "claude-opus-4-1-20250805": (15000, 75000, 1500, 18750, 30000),
    "claude-haiku-4-5-20251001": (1000, 5000, 100, 1250, 2000),
    "gpt-5-codex": (1250, 10000, 125, 0, 0),
    "gpt-5": (1250, 10000, 125, 0, 0),
    "gpt-5-mini": (250, 2000, 25, 0, 0),
}


def cost(call, one_hour_rate=True):
    """Nano-USD of one call at list prices, or None when the model has no price. With `one_hour_rate` false every
    cache write is priced at the 5-minute rate, as tools that read only LiteLLM's flat cache-write price do."""
    price = NANO_USD_PER_TOKEN.get(call.model)
    if price is None:
        return None
    inp, out, read, write5m, write1h = price
    c = call.counts
    writes = c.cacheWrite5m * write5m + c.cacheWrite1h * (write1h if one_hour_rate else write5m)
    return c.input * inp + c.output * out + c.cacheRead * read + writes
