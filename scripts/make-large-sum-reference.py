#!/usr/bin/env python3
"""Writes Tests/DiceKitTests/Stats/Reference/large-sum-reference.json: exact distributions of
large sums (the squaring path of `LargeSum`) computed by icepool, an independent exact
calculator, each expression translated by hand.

    python3 scripts/make-large-sum-reference.py      # icepool in a virtualenv (scripts/icepool_env.py)

Explosions: icepool stops after `depth` extra dice and counts the last exploding face as is,
where we drop that tail; depth is chosen so that the count times p^(depth+1) is below 1e-13.
icepool sums N dice by N-1 additions of exact fractions, recursively (hence the recursion
limit): a few of these take tens of seconds, which is why the cases are mid-size.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DiceKitTests", "Stats", "Reference", "large-sum-reference.json")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from icepool_env import ensure_icepool  # noqa: E402

ensure_icepool()
sys.setrecursionlimit(100000)
import icepool  # noqa: E402
from fractions import Fraction  # noqa: E402

CASES = [
    ("1000d6", lambda: 1000 @ icepool.d6),
    ("300d20", lambda: 300 @ icepool.d20),
    ("100d20!", lambda: 100 @ icepool.d20.explode(depth=11)),
    ("repeat(400, 1d8 - 2)", lambda: 400 @ (icepool.d8 - 2)),
    ("2000dF", lambda: 2000 @ icepool.Die([-1, 0, 1])),
]


def main():
    cases = []
    for program, make in CASES:
        die = make()
        denominator = die.denominator()
        # Exact division of big integers before rounding to a double.
        distribution = [[int(o), float(Fraction(q, denominator))]
                        for o, q in die.items()]
        cases.append({"program": program, "distribution": [p for p in distribution if p[1] > 0]})
        print(program, len(distribution), file=sys.stderr)
    with open(OUT, "w") as f:
        json.dump({"generator": "scripts/make-large-sum-reference.py", "icepool": icepool.__version__,
                   "cases": cases}, f, separators=(",", ":"))
        f.write("\n")


main()
