#!/usr/bin/env python3
"""Writes Tests/DiceKitTests/Stats/Reference/conditional-reference.json: exact distributions
of `if … then … else …` and `let … in …` (LANGUAGE.md §5a) from icepool, an independent
exact calculator, each expression translated to icepool by hand.

    python3 scripts/make-conditional-reference.py      # icepool in a virtualenv (scripts/icepool_env.py)

How the constructs line up: `let x = E in BODY` rolls E once, so it is `E.map(lambda x: BODY)`,
BODY a die or a number for each outcome x of E; `if C then A else B` is a mixture of A and B
weighted by P(C != 0) and P(C == 0), which is `C.map(lambda c: A if c != 0 else B)` when C is a
die (A and B are independent of C's dice). `repeat(n, e)` sums n independent copies.
"""
import json
import os
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DiceKitTests", "Stats", "Reference", "conditional-reference.json")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from icepool_env import ensure_icepool  # noqa: E402

ensure_icepool()

import icepool  # noqa: E402
from icepool import d  # noqa: E402

d4, d6, d8, d20 = d(4), d(6), d(8), d(20)


def crit(ac, bonus, natural_one_misses=False):
    def body(r):
        if r == 20:
            return 2 @ d8 + 3
        if natural_one_misses and r == 1:
            return 0
        return d8 + 3 if r + bonus >= ac else 0
    return d20.map(body)


CASES = [
    # The D&D attack with critical hits of LANGUAGE.md §5a.
    ("def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
     "else if r + bonus >= ac then 1d8 + 3 else 0\nattack(15, 5)", crit(15, 5)),
    ("def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
     "else if r == 1 then 0 else if r + bonus >= ac then 1d8 + 3 else 0\nattack(25, 5)",
     crit(25, 5, natural_one_misses=True)),
    # One roll used twice is not two rolls.
    ("let x = 1d6 in x * x", d6.map(lambda x: x * x)),
    ("1d6 * 1d6", d6 * d6),
    ("let x = 1d4 in x * x * x", d4.map(lambda x: x * x * x)),
    # Nested lets, the inner one using the outer.
    ("let a = 1d4 in let b = 1d4 + a in a * b", d4.map(lambda a: (d4 + a).map(lambda b: a * b))),
    ("let a = 1d6 in let a = a + 1d6 in a * 2", d6.map(lambda a: (a + d6).map(lambda b: b * 2))),
    # repeat of a let: independent copies.
    ("repeat(3, let x = 1d4 in x * x)", 3 @ d4.map(lambda x: x * x)),
    ("if 1d6 >= 5 then 2d6 else 1d6", d6.map(lambda c: 2 @ d6 if c >= 5 else d6)),
    ("if 1d20 + 5 >= 15 then 1d8 + 3 else 0", (d20 + 5).map(lambda c: d8 + 3 if c >= 15 else 0)),
    ("let r = 2d6 in if r >= 10 then r * 2 else r - 1", (2 @ d6).map(lambda r: r * 2 if r >= 10 else r - 1)),
    ("let x = 1d6 in if x > 3 then x + 1d4 else x - 1d4",
     d6.map(lambda x: x + d4 if x > 3 else x - d4)),
    ("max(let x = 1d6 in x * 2, 1d8)", icepool.highest(d6.map(lambda x: x * 2), d8)),
    ("{let x = 1d6 in x + x, 1d12}kh1", icepool.highest(d6.map(lambda x: x + x), d(12))),
    ("def best(a, b) = if a >= b then a else b\nbest(1d6, 1d6)", icepool.highest(d6, d6)),
    ("def sq(n) = let m = n in m * m\nsq(1d6) + sq(1d4)", d6.map(lambda x: x * x) + d4.map(lambda x: x * x)),
]


def distribution(die):
    die = icepool.Die(die) if not isinstance(die, icepool.Die) else die
    total = die.denominator()
    return [[int(outcome), float(Fraction(quantity, total))] for outcome, quantity in sorted(die.items())]


def main():
    cases = [{"program": program, "distribution": distribution(die)} for program, die in CASES]
    with open(OUT, "w") as out:
        json.dump({"generator": f"icepool {icepool.__version__} via scripts/make-conditional-reference.py",
                   "cases": cases}, out, indent=1)
        out.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


main()
