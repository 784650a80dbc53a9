"""What every tool's writer starts from."""
import random

from .text import Pool, code_lines, pool_size, sentences


class Corpus:
    """The arguments, the tree, the expected totals, one seeded generator, the time range and the text pools
    (`levels` 2: tool output kept as JSON inside a JSON string)."""

    def __init__(self, args, tree, expected, levels=1):
        self.a = args
        self.tree = tree
        self.e = expected
        rng = self.rng = random.Random(args.seed)
        self.code = Pool(rng, code_lines(rng, 20000), "\n", pool_size(args.size_mb), levels=levels)
        self.prose = Pool(rng, sentences(rng, 10000), " ", 2_000_000)
        self.end = args.end_ms
        self.start = self.end - int(args.days * 86_400_000)
