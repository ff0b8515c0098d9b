#!/usr/bin/env python3
"""Writes Tests/DiceKitTests/Stats/Reference/stats-reference.json: exact distributions of
dice expressions computed by an independent exact calculator, icepool, each expression
translated to icepool by hand.

    python3 scripts/make-stats-reference.py            # makes a virtualenv under /tmp

The virtualenv (with `pip install icepool`) is built once under $ICEPOOL_VENV
(default /tmp/dice-icepool-venv) and the script re-runs itself inside it.

How icepool's semantics line up with ours, construct by construct:
- `r` (reroll until no recursive point matches) is `reroll(R, depth='inf')`; `ro` is
  `reroll(O, depth=1)`. With both, ours rolls again on a recursive match, and once on a
  `ro` match, the new face still subject to `r`: that is
  `die.reroll(R, depth='inf').reroll(O, depth=1)` (the once-reroll draws from the die
  already conditioned on not matching R).
- `!` (extra dice are separate dice) is `explode(...)` for sums and
  `explode_to_pool(...)` for keep/drop and counting; `!!` (compound) is `explode(...)` as
  one die's value. icepool stops after `depth` extra dice and counts the last exploding
  face as is, where we drop that tail and report the cut: the two differ by at most
  p^(depth+1) per die, so depth is chosen with p^(depth+1) < 1e-13.
- `!p` has no icepool primitive: it is written as a recursive mixture (each extra die
  counts its face less one; the explosion looks at the face), summed only.
- mi/ma are `map(max/min)`; bare `r` is the lowest clamped face and bare `!` the highest.
- cs/cf count kept dice matching; df subtracts one per kept match: `map` per die for
  sums, `keep_outcomes(...).size()` after keep/drop.
- Division is true division (floats, printed as integers when whole), `//` and `%` are
  Python's (floor, sign of the divisor), round() halves away from zero.
- A macro argument is evaluated once: `dbl(1d6)` with `def dbl(x) = x + x` is
  `d6.map(lambda x: x + x)`.
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DiceKitTests", "Stats", "Reference", "stats-reference.json")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from icepool_env import ensure_icepool  # noqa: E402

ensure_icepool()

from fractions import Fraction  # noqa: E402
import operator  # noqa: E402
import icepool  # noqa: E402
from icepool import Die, Pool, d  # noqa: E402

d4, d6, d8, d10, d12, d20, d100 = d(4), d(6), d(8), d(10), d(12), d(20), d(100)
dF = Die([-1, 0, 1])
OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
       ">": operator.gt, ">=": operator.ge}


def cmp(op, a, b):
    """Our comparison: a 0/1 value."""
    if not isinstance(b, Die):
        b = Die([b])
    if not isinstance(a, Die):
        a = Die([a])
    return icepool.map(lambda x, y: int(OPS[op](x, y)), a, b)


def depth_for(p):
    """The fewest extra dice k with p^(k+1) < 1e-13."""
    k = 0
    while p ** (k + 1) >= 1e-13:
        k += 1
    return k


def rnd(x):
    """round(): halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def clamp(die, *steps):
    """mi/ma in written order: ("mi", n) raises, ("ma", n) lowers."""
    def f(x):
        for kind, n in steps:
            x = max(x, n) if kind == "mi" else min(x, n)
        return x
    return die.map(f)


def penetrate(die, match, depth):
    """One die with `!p`: the first face counts as is, each extra die one less."""
    cache = {}

    def extra(level):
        if level not in cache:
            if level == 0:
                cache[level] = die.map(lambda f: f - 1)
            else:
                rest = extra(level - 1)
                cache[level] = die.map(lambda f: (f - 1) + rest if match(f) else f - 1)
        return cache[level]

    tail = extra(depth - 1)
    return die.map(lambda f: f + tail if match(f) else f)


def chain_count(die, explode, count, depth):
    """Per original die with `!`: the number of dice in its chain that `count` (cs) matches."""
    level = die.map(lambda f: int(count(f)))
    for _ in range(depth):
        prev = level
        level = die.map(lambda f: int(count(f)) + prev if explode(f) else int(count(f)))
    return level


K6 = depth_for(1 / 6)
K10 = depth_for(1 / 10)
K4 = depth_for(1 / 4)
K3 = depth_for(1 / 3)
K20 = depth_for(1 / 10)


def exploding(expr, die_expr, p, depth=None):
    return depth if depth is not None else depth_for(p)


# (program, icepool distribution, explosion depth or None, note)
CASES = []


def case(program, die, depth=None, note=None):
    CASES.append((program, die, depth, note))


# ---- sums, faces, arithmetic ------------------------------------------------------------
case("1d6", d6)
case("3d6", 3 @ d6)
case("8d6", 8 @ d6)
case("100d6", 100 @ d6)
case("1d20+5", d20 + 5)
case("2d6+1d8-3", 2 @ d6 + d8 - 3)
case("d%", d100)
case("2d%", 2 @ d100)
case("4dF", 4 @ dF)
case("4dF+2", 4 @ dF + 2)
case("2d{-1,0,1}", 2 @ dF)
case("d{1,1,2,3}", Die([1, 1, 2, 3]))
case("3d{1,1,2,3}", 3 @ Die([1, 1, 2, 3]))
case("2d{0,5,10}", 2 @ Die([0, 5, 10]))
case("1d6*2", d6 * 2)
case("1d6*1d6", d6 * d6)
case("1d6-1d4", d6 - d4)
case("-2d6", -(2 @ d6))
case("-1d6+3", -d6 + 3)
case("2d6/2", (2 @ d6) / 2)
case("1d6//2", d6 // 2)
case("1d7%3", d(7) % 3)
case("(1d6-4)%3", (d6 - 4) % 3)
case("(1d6-4)%-3", (d6 - 4) % -3)
case("-1d6//2", (-d6) // 2)
case("2^1d4", d4.map(lambda e: 2 ** e))
case("1d4^2", d4.map(lambda x: x ** 2))
case("2^(1d4-2)", d4.map(lambda e: 2 ** (e - 2)), note="negative exponents give decimals")
case("2d6/1d3", icepool.map(lambda a, b: a / b, 2 @ d6, d(3)))
case("1d6+0.5", d6 + 0.5)
case("1d4*1.5", d4 * 1.5)
case("x = 3; 1d6 + x", d6 + 3)

# ---- comparisons ------------------------------------------------------------------------
case("2d6 > 7", cmp(">", 2 @ d6, 7))
case("1d20+5 >= 15", cmp(">=", d20 + 5, 15))
case("1d6 == 1d6", cmp("==", d6, d6))
case("1d6 != 3", cmp("!=", d6, 3))
case("1d6 < 1d8", cmp("<", d6, d8))
case("1d6 <= 3", cmp("<=", d6, 3))
case("2d20kh1 + 1d4 >= 15", cmp(">=", d20.highest(2, 1) + d4, 15))
case("4d6kh3 + 2 > 12", cmp(">", d6.highest(4, 3) + 2, 12))
case("1d6/4 > 1", cmp(">", d6 / 4, 1))

# ---- functions --------------------------------------------------------------------------
case("abs(1d6-1d6)", (d6 - d6).map(abs))
case("abs(1d6-4)", (d6 - 4).map(abs))
case("floor(1d20/2)", (d20 / 2).map(math.floor))
case("ceil(1d6/2)", (d6 / 2).map(math.ceil))
case("round(1d6/4)", (d6 / 4).map(rnd))
case("round(-1d6/2)", ((-d6) / 2).map(rnd))
case("max(1d20, 1d20)", icepool.map(lambda *v: max(v), d20, d20))
case("min(1d20, 1d20)", icepool.map(lambda *v: min(v), d20, d20))
case("max(1d6, 1d8, 1d10)", icepool.map(lambda *v: max(v), d6, d8, d10))
case("min(2d6, 7)", (2 @ d6).map(lambda x: min(x, 7)))
case("max(3d6, 4d6kh3)", icepool.map(lambda *v: max(v), 3 @ d6, d6.highest(4, 3)))
case("min(1d6/2, 1d4)", icepool.map(lambda *v: min(v), d6 / 2, d4))

# ---- keep / drop ------------------------------------------------------------------------
case("4d6kh3", d6.highest(4, 3))
case("4d6k3", d6.highest(4, 3))
case("2d20kh1", d20.highest(2, 1))
case("2d20kl1", d20.lowest(2, 1))
case("2d20kh", d20.highest(2, 1))
case("4d6dl1", d6.highest(4, 3))
case("4d6d1", d6.highest(4, 3))
case("5d6dh2", d6.lowest(5, 3))
case("10d6kh3", d6.highest(10, 3))
case("20d10kh5", d10.highest(20, 5))
case("10d10kl3", d10.lowest(10, 3))
case("3d20kh2kl1", d20.pool(3)[1:2].sum())
case("5d6kh4dl1", d6.pool(5)[2:5].sum())
case("6d6dh1dl1", d6.pool(6)[1:5].sum())
case("4d6kh5", 4 @ d6)
case("4d6dl5", Die([0]))
case("4d6kh0", Die([0]))
case("3d{1,1,2,3}kh2", Die([1, 1, 2, 3]).highest(3, 2))
case("4dFkh2", dF.highest(4, 2))
case("4d6r1kh3", d6.reroll([1], depth="inf").highest(4, 3))
case("50d6dl3", d6.highest(50, 47))

# ---- rerolls ----------------------------------------------------------------------------
case("1d6r", d6.reroll([1], depth="inf"))
case("1d6r1", d6.reroll([1], depth="inf"))
case("2d6r<3", 2 @ d6.reroll([1, 2], depth="inf"))
case("1d6r1r2", d6.reroll([1, 2], depth="inf"))
case("1d20ro1", d20.reroll([1], depth=1))
case("2d6ro<3", 2 @ d6.reroll([1, 2], depth=1))
case("1d6ro", d6.reroll([1], depth=1))
case("1d6ro<3ro5", d6.reroll([1, 2, 5], depth=1))
case("1d6r1ro2", d6.reroll([1], depth="inf").reroll([2], depth=1))
case("1d6ro<3r1", d6.reroll([1], depth="inf").reroll([1, 2], depth=1))
case("1d8r>=7", d8.reroll([7, 8], depth="inf"))
case("1d6r!=3ro3", Die([3]), note="only 3 survives the recursive reroll")

# ---- clamps -----------------------------------------------------------------------------
case("3d6mi2", 3 @ clamp(d6, ("mi", 2)))
case("4d6ma5", 4 @ clamp(d6, ("ma", 5)))
case("1d20mi10", clamp(d20, ("mi", 10)))
case("1d6mi2ma5", clamp(d6, ("mi", 2), ("ma", 5)))
case("1d6ma3mi4", clamp(d6, ("ma", 3), ("mi", 4)), note="written order: ma3 then mi4")
case("2d6mi3r", 2 @ clamp(d6, ("mi", 3)).reroll([3], depth="inf"), note="bare r: the lowest clamped face, 3")
case("4dFmi0", 4 @ clamp(dF, ("mi", 0)))

# ---- explosions -------------------------------------------------------------------------
case("1d6!", d6.explode(depth=K6), K6)
case("1d10!", d10.explode(depth=K10), K10)
case("2d6!", 2 @ d6.explode(depth=K6), K6)
case("8d6!", 8 @ d6.explode(depth=K6), K6)
case("1d6!>=5", d6.explode([5, 6], depth=K3), K3)
case("1d6!<2", d6.explode([1], depth=K6), K6)
case("1d6!!", d6.explode(depth=K6), K6)
case("1d6!!>=5", d6.explode([5, 6], depth=K3), K3)
case("1d4! + 1d4!", d4.explode(depth=K4) + d4.explode(depth=K4), K4)
case("2d6!!kh1", d6.explode(depth=K6).highest(2, 1), K6)
case("3d6!!dl1", d6.explode(depth=K6).highest(3, 2), K6)
case("8d6!kh3", d6.explode_to_pool(8, depth=K6).highest(3).sum(), K6)
case("4d6!kh3", d6.explode_to_pool(4, depth=K6).highest(3).sum(), K6)
case("3d6!kl1", d6.explode_to_pool(3, depth=K6).lowest(1).sum(), K6)
case("4d6!dl1", d6.explode_to_pool(4, depth=K6).lowest(drop=1).sum(), K6)
case("3d6!>=5kh2", d6.explode_to_pool(3, [5, 6], depth=K3).highest(2).sum(), K3)
case("1d6r1!", d6.reroll([1], depth="inf").explode([6], depth=depth_for(1 / 5)), depth_for(1 / 5))
case("2d6ro<3!", 2 @ d6.reroll([1, 2], depth=1).explode([6], depth=depth_for(2 / 9)), depth_for(2 / 9))
case("1d20!>=19", d20.explode([19, 20], depth=K20), K20)
case("4dF!", 4 @ dF.explode([1], depth=K3), K3)
case("1d6mi3!", clamp(d6, ("mi", 3)).explode([6], depth=K6), K6)
case("1d6ma5!", clamp(d6, ("ma", 5)).explode([5], depth=K3), K3, note="bare !: the highest clamped face, 5")
case("1d6!p", penetrate(d6, lambda f: f == 6, K6), K6)
case("2d6!p", 2 @ penetrate(d6, lambda f: f == 6, K6), K6)
case("1d10!p>=9", penetrate(d10, lambda f: f >= 9, depth_for(0.2)), depth_for(0.2))
case("1d6!!+1d6!", d6.explode(depth=K6) + d6.explode(depth=K6), K6)

# ---- keep/drop over exploding pools: either end, both ends, steps in written order --------
# `explode_to_pool` is `!` for keep/drop (each extra die a separate die); a slice of
# `.lowest(...)`/`.highest(...)` calls applies the steps in written order.
K100 = depth_for(1 / 100)
K5 = depth_for(1 / 5)


def xpool(die, n, which=None, depth=K6):
    return die.explode_to_pool(n, which, depth=depth) if which is not None else die.explode_to_pool(n, depth=depth)


case("6d6!dl4", xpool(d6, 6).lowest(drop=4).sum(), K6)
case("5d6!dl1dh1", xpool(d6, 5).lowest(drop=1).highest(drop=1).sum(), K6)
case("4d100!kh3", xpool(d100, 4, depth=K100).highest(3).sum(), K100)
case("3d100!dl1", xpool(d100, 3, depth=K100).lowest(drop=1).sum(), K100)
case("5d6!dl3", xpool(d6, 5).lowest(drop=3).sum(), K6)
case("6d8!kh2", xpool(d8, 6, depth=depth_for(1 / 8)).highest(2).sum(), depth_for(1 / 8))
case("10d10!kh5", xpool(d10, 10, depth=K10).highest(5).sum(), K10)
case("8d6!dl4", xpool(d6, 8).lowest(drop=4).sum(), K6)
case("4d6!kh3kl2", xpool(d6, 4).highest(3).lowest(2).sum(), K6, note="kh3 then kl2: the middle two of the top three")
case("5d6!kl3kh2", xpool(d6, 5).lowest(3).highest(2).sum(), K6)
case("5d6!dh2dl1", xpool(d6, 5).highest(drop=2).lowest(drop=1).sum(), K6)
case("4d10!dl1dh1", xpool(d10, 4, depth=K10).lowest(drop=1).highest(drop=1).sum(), K10)
case("4d6!>=5dl1dh1", xpool(d6, 4, [5, 6], depth=K3).lowest(drop=1).highest(drop=1).sum(), K3)
case("4d6!>=5kh2", xpool(d6, 4, [5, 6], depth=K3).highest(2).sum(), K3)
case("4d6!<2kh2", xpool(d6, 4, [1]).highest(2).sum(), K6, note="explodes on 1: the extra dice are the lowest")
case("4d6!<2dl1dh1", xpool(d6, 4, [1]).lowest(drop=1).highest(drop=1).sum(), K6)
case("3d6!dh1dl1cs>=5", xpool(d6, 3).highest(drop=1).lowest(drop=1).keep_outcomes(lambda o: o >= 5).size(), K6)
case("4d6!kh2cs6", xpool(d6, 4).highest(2).keep_outcomes(lambda o: o == 6).size(), K6)
case("4d6!dl1dh1df1", xpool(d6, 4).lowest(drop=1).highest(drop=1).expand().map(lambda t: sum(t) - t.count(1)),
     K6, note="df1: each kept 1 counts one less")
case("4d6r1!dl1dh1", xpool(d6.reroll([1], depth="inf"), 4, [6], depth=K5).lowest(drop=1).highest(drop=1).sum(), K5)
case("4d6mi3!kh2", xpool(clamp(d6, ("mi", 3)), 4, [6]).highest(2).sum(), K6)
case("3d6ma5!dl1dh1", xpool(clamp(d6, ("ma", 5)), 3, [5], depth=K3).lowest(drop=1).highest(drop=1).sum(), K3,
     note="bare !: the highest clamped face, 5")
case("4dF!dh1dl1", xpool(dF, 4, [1], depth=K3).highest(drop=1).lowest(drop=1).sum(), K3)
case("3d{1,1,2,3}!kh1dl1", xpool(Die([1, 1, 2, 3]), 3, [3], depth=depth_for(1 / 4)).highest(1).lowest(drop=1).sum(),
     depth_for(1 / 4), note="kh1 then dl1 drops the one kept: 0")
case("5d6!!dl1dh1", d6.explode(depth=K6).pool(5).lowest(drop=1).highest(drop=1).sum(), K6)
case("4d6!!kh3kl2", d6.explode(depth=K6).pool(4).highest(3).lowest(2).sum(), K6)
case("3d10!!>=9dl1", d10.explode([9, 10], depth=K5).pool(3).lowest(drop=1).sum(), K5)

# ---- counting ---------------------------------------------------------------------------
case("5d10cs>=7", 5 @ d10.map(lambda f: int(f >= 7)))
case("6d10cs>=8df=1", 6 @ d10.map(lambda f: int(f >= 8) - int(f == 1)))
case("6d10cs>=8df1", 6 @ d10.map(lambda f: int(f >= 8) - int(f == 1)))
case("10d6cf<3", 10 @ d6.map(lambda f: int(f < 3)))
case("4d6df1", 4 @ d6.map(lambda f: f - int(f == 1)))
case("5d6kh3cs>=5", d6.pool(5).highest(3).keep_outcomes(lambda o: o >= 5).size())
case("8d10kh4cs>8", d10.pool(8).highest(4).keep_outcomes(lambda o: o > 8).size())
case("3d6cs6", 3 @ d6.map(lambda f: int(f == 6)))
case("5d10!cs>=8", d10.explode_to_pool(5, depth=K10).keep_outcomes(lambda o: o >= 8).size(), K10)
case("12d6cs>=5!", 12 @ chain_count(d6, lambda f: f == 6, lambda f: f >= 5, K6), K6)
case("6d6!cs6", 6 @ chain_count(d6, lambda f: f == 6, lambda f: f == 6, K6), K6)
case("4d6!kh2cs>=5", d6.explode_to_pool(4, depth=K6).highest(2).keep_outcomes(lambda o: o >= 5).size(), K6)

# ---- computed counts and sides ----------------------------------------------------------
case("(1d4)d6", d4 @ d6)
case("2d(1d3*2)", (d(3) * 2).map(lambda s: 2 @ d(s)))
case("(1d4)d6kh1", d4.map(lambda n: d6.highest(n, 1)))
case("(1d3)d(1d4+2)", icepool.map(lambda n, s: n @ d(s), d(3), d4 + 2))
case("(1d4-1)d6", (d4 - 1) @ d6)
case("4d6kh(1d3)", d(3).map(lambda k: d6.highest(4, k)))
case("(1d2)d6!", d(2).map(lambda n: n @ d6.explode(depth=K6)), K6)

# ---- groups and repeat ------------------------------------------------------------------
case("{1d20+5, 1d20+5}kh1", (d20 + 5).highest(2, 1))
case("{1d4, 1d6, 1d8}kl1", Pool([d4, d6, d8]).lowest(1).sum())
case("{1d6, 1d6, 1d6}cs>=5", 3 @ d6.map(lambda f: int(f >= 5)))
case("{1d4, 1d6, 1d8}", d4 + d6 + d8)
case("{2d6, 1d12}kh1", icepool.map(lambda *v: max(v), 2 @ d6, d12))
case("{1d6, 1d8, 1d10, 1d12}dl1", Pool([d6, d8, d10, d12]).highest(3).sum())
case("{1d6/2, 1d4}kh1", icepool.map(lambda *v: max(v), d6 / 2, d4))
case("{3d6, 4d6kh3, 1d20}dh1dl1", icepool.map(lambda a, b, c: sorted([a, b, c])[1], 3 @ d6, d6.highest(4, 3), d20))
case("{1d6, 2d6, 3d6}cs>=6", icepool.map(lambda a, b, c: int(a >= 6) + int(b >= 6) + int(c >= 6), d6, 2 @ d6, 3 @ d6))
case("{1d6, 1d8}kh1df1", icepool.map(lambda a, b: max(a, b) - int(max(a, b) == 1), d6, d8))
case("repeat(3, 1d6)", 3 @ d6)
case("repeat(6, 4d6kh3)", 6 @ d6.highest(4, 3))
case("repeat(4, 1d20)kh1", d20.highest(4, 1))
case("repeat(2, 1d20)kl1", d20.lowest(2, 1))
case("repeat(1d4, 1d6)", d4 @ d6)
case("repeat(0, 1d6)", Die([0]))
case("repeat(5, 1d10)cs>=6", 5 @ d10.map(lambda f: int(f >= 6)))
case("repeat(3, 2d6)dl1", (2 @ d6).highest(3, 2))
case("repeat(6, 4d6kh3)kh3", d6.highest(4, 3).highest(6, 3))
case("repeat(3, 1d6/2)kh2", (d6 / 2).highest(3, 2))

# ---- macros and variables ---------------------------------------------------------------
case("def r = 1d6; r + r", d6 + d6)
case("def dbl(x) = x + x; dbl(1d6)", d6.map(lambda x: x + x))
case("def atk(b) = 1d20 + b >= 15; atk(5)", cmp(">=", d20 + 5, 15))
case("def sq(x) = x*x; sq(1d6)", d6.map(lambda x: x * x))
case("def f(x, y) = x*y + x; f(1d4, 1d6)", icepool.map(lambda x, y: x * y + x, d4, d6))
case("def g(x) = repeat(2, x); g(1d6)", d6.map(lambda x: 2 * x))
case("def h(n) = (n)d6; h(1d3)", d(3).map(lambda n: n @ d6))
case("def once(x) = x + 1d4; once(2d6)", 2 @ d6 + d4)
case("def adv = 2d20kh1; def hit(m) = adv + m >= 15; hit(1d4)", cmp(">=", d20.highest(2, 1) + d4, 15))
case("lvl = 3; (lvl)d8 + lvl", 3 @ d8 + 3)
case("def twice(x) = x - x; twice(3d6)", Die([0]))


def normalize(outcome):
    if isinstance(outcome, bool):
        return int(outcome)
    if isinstance(outcome, Fraction):
        outcome = float(outcome)
    if isinstance(outcome, float) and outcome.is_integer():
        return int(outcome)
    return outcome


def distribution(die):
    total = die.denominator()
    merged = {}
    for outcome, weight in die.items():
        key = normalize(outcome)
        merged[key] = merged.get(key, 0) + weight
    return [[key, float(Fraction(weight, total))] for key, weight in sorted(merged.items()) if weight]


def main():
    cases = []
    for program, die, depth, note in CASES:
        entry = {"program": program, "distribution": distribution(die)}
        if depth is not None:
            entry["explode_depth"] = depth
            entry["note"] = ("icepool stops after %d extra dice per die and counts the last exploding face; "
                             "outcomes it puts there differ from ours by less than 1e-12" % depth)
        if note:
            entry["note"] = note if "note" not in entry else entry["note"] + "; " + note
        cases.append(entry)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"generator": "scripts/make-stats-reference.py with icepool %s" % icepool.__version__,
                   "cases": cases}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print("wrote %d cases to %s" % (len(cases), os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
