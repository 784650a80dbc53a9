"""Writes a synthetic log tree shaped like one tool's, and the totals it must read as.

  python3 bench/corpus claude --root DIR --size-mb 300 --days 30 --seed 300
  python3 bench/corpus codex  --root DIR --size-mb 300 --days 30 --seed 300

DIR must be empty or absent. DIR/expected_totals.json holds, for each counting rule (`true` is the one a correct
reader follows), the events and disjoint token counts in total, by model and by UTC day, in the dry run's names;
cost per model at list prices; the plan-limit readings; and counts of every trap written. The same arguments
always give a byte-identical tree. Standard library only. See bench/README.md.
"""
import argparse
import os
import sys
import time

# Run from a checkout that may be read-only: no __pycache__ beside the sources.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from corpus import claude, codex  # noqa: E402
from corpus.model import Expected  # noqa: E402
from corpus.text import parse_end  # noqa: E402
from corpus.tree import Tree  # noqa: E402

# Options left out take these values; --dense shrinks sessions and makes every trap frequent, so that a corpus of a
# megabyte or two holds each of them (the tests' corpora).
DEFAULTS = {
    "turns_median": 4.0, "steps_mean": 4.0, "result_median": 2500, "resume_frac": 0.12, "snapshot_frac": 0.03,
    "side_question_frac": 0.01, "synthetic_frac": 0.004, "no_request_id_frac": 0.03, "reemit_frac": 0.3,
    "fork_frac": 0.06, "archive_frac": 0.1,
}
DENSE = {
    "turns_median": 2.0, "steps_mean": 3.0, "result_median": 400, "resume_frac": 0.4, "snapshot_frac": 0.15,
    "side_question_frac": 0.05, "synthetic_frac": 0.05, "no_request_id_frac": 0.15, "reemit_frac": 0.3,
    "fork_frac": 0.25, "archive_frac": 0.4,
}

TOOLS = {
    "claude": (claude, "claude-code", claude.ClaudeCorpus),
    "codex": (codex, "codex", codex.CodexCorpus),
}


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool", choices=sorted(TOOLS))
    parser.add_argument("--root", required=True, help="the tree's root (the tool's home); must be empty or absent")
    parser.add_argument("--size-mb", type=float, default=30.0, help="stop once this many MiB of logs are written")
    parser.add_argument("--days", type=float, default=30.0, help="sessions start within this many days before --end")
    parser.add_argument("--end", default="2026-02-01", help="end of the time range, YYYY-MM-DD[THH:MM:SSZ] UTC")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dense", action="store_true", help="short sessions, every trap frequent (for tests)")
    parser.add_argument("--turns-median", type=float, default=None, help="user turns per session (median)")
    parser.add_argument("--steps-mean", type=float, default=None, help="model calls per turn (mean)")
    parser.add_argument("--result-median", type=int, default=None, help="characters of one tool output (median)")
    claude_options = parser.add_argument_group("claude")
    claude_options.add_argument("--projects", type=int, default=0, help="project folders (default: from the size)")
    claude_options.add_argument("--resume-frac", type=float, default=None,
                                help="sessions that begin with a copy of the project's previous session")
    claude_options.add_argument("--snapshot-frac", type=float, default=None,
                                help="main-thread responses written as streaming snapshots (growing output_tokens)")
    claude_options.add_argument("--side-question-frac", type=float, default=None,
                                help="calls after which a side question replays a parent response")
    claude_options.add_argument("--synthetic-frac", type=float, default=None, help="steps that are <synthetic> lines")
    claude_options.add_argument("--price-dimensions", action="store_true",
                                help="a share of sessions on Opus 4.8 in fast mode, US-only, with web searches and fetches")
    claude_options.add_argument("--no-request-id-frac", type=float, default=None,
                                help="sessions whose lines carry no requestId")
    codex_options = parser.add_argument_group("codex")
    codex_options.add_argument("--reemit-frac", type=float, default=None,
                               help="token_count events written again with unchanged totals")
    codex_options.add_argument("--fork-frac", type=float, default=None,
                               help="sessions that are forks replaying a parent's events")
    codex_options.add_argument("--archive-frac", type=float, default=None,
                               help="sessions archived (half moved to archived_sessions/, half in both places)")
    args = parser.parse_args()
    for name, value in (DENSE if args.dense else DEFAULTS).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.end_ms = parse_end(args.end)
    return args


def main():
    args = arguments()
    if os.path.isdir(args.root) and os.listdir(args.root):
        sys.exit("corpus: %s is not empty" % args.root)
    module, reader, corpus = TOOLS[args.tool]
    recorded = {k: v for k, v in sorted(vars(args).items()) if k not in ("root", "end_ms")}
    traps = module.TRAPS + (module.PRICE_DIMENSION_TRAPS if getattr(args, "price_dimensions", False) else ())
    expected = Expected(args.tool, reader, module.RULES, traps, recorded)
    tree = Tree(args.root, expected)
    started = time.monotonic()
    corpus(args, tree, expected).run()
    expected.write(os.path.join(args.root, "expected_totals.json"))
    seconds = time.monotonic() - started
    megabytes = tree.bytes / 1048576
    true = expected.rules["true"]
    print("%s: %d files, %.1f MiB in %.1f s (%.0f MiB/s), %d calls" % (
        args.tool, expected.stats["files"], megabytes, seconds, megabytes / max(seconds, 1e-9), true.events))


if __name__ == "__main__":
    main()
