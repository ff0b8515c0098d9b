"""In-process timings of avrae's d20 for bench/run: prints one JSON object.

    python d20_bench.py roll EXPR N RUNS [--no-parse-cache]

One untimed warm-up loop of N calls of d20.roll(EXPR), then RUNS timed loops of N calls;
"ns" lists the nanoseconds per call of each timed loop. d20.roll parses (through an LFU
cache of 256 expressions, so a repeated expression is parsed once), rolls, and renders
its Markdown text. --no-parse-cache replaces that cache with one that keeps nothing, so
every call parses, as DiceBench's parse-and-roll does.
"""
import json
import sys
import time

import d20


class NoCache(dict):
    def __setitem__(self, key, value):
        pass


def main():
    if len(sys.argv) < 5 or sys.argv[1] != "roll":
        sys.exit("usage: d20_bench.py roll EXPR N RUNS [--no-parse-cache]")
    expr, n, runs = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    roller = d20.Roller()
    if "--no-parse-cache" in sys.argv[5:]:
        roller._parse_cache = NoCache()
    roll = roller.roll
    checksum = 0
    for _ in range(n):
        checksum += roll(expr).total
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        for _ in range(n):
            checksum += roll(expr).total
        samples.append((time.perf_counter_ns() - start) / n)
    print(json.dumps({"tool": "d20", "version": d20.__version__ if hasattr(d20, "__version__") else None,
                      "expr": expr, "n": n, "ns": samples, "checksum": checksum,
                      "example": str(roll(expr))}))


if __name__ == "__main__":
    main()
