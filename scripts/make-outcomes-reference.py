#!/usr/bin/env python3
"""Writes Tests/DiceKitTests/Stats/Reference/outcomes.json: exact distributions of the
stats forms of LANGUAGE.md §5b (texts, tables, tallies, bound pools, and/or/not, unique dice,
default parameters) and of §7's `given`, each listed in the contract's outcome order.

    python3 scripts/make-outcomes-reference.py     # icepool in a virtualenv (scripts/icepool_env.py)

Two independent methods, neither the project's code: icepool, each expression translated by
hand, and where icepool cannot say it (unique dice whose faces repeat, `given` over a bound
roll, ...) an exact enumeration in plain Python with Fractions (`Exact`, scripts/exact_outcomes.py). Many cases
are computed both ways and must agree to 1e-15 before anything is written.

How the constructs line up:
- `match E { ... }` and `if`: E's distribution mapped entry by entry (`Die.map`), each
  result a number, a text or a die (a mixture).
- `let x = E in BODY`: E.map(lambda x: BODY); a bound pool `let p = NdS in ...` keeps the
  dice: the counts of the classes BODY reads (`count(p, >=5)`, `count(p, =1)`, p's own sum)
  are a multinomial over the faces, summed as vectors of (class indicators, face).
- Tallies are vectors in the case's field order (a field not written is 0); tally dice sum
  fieldwise. Texts stay strings.
- `u` (LANGUAGE.md §5b): each die showing a face already shown in the pool is rolled again
  until it shows a new one. For a die of different faces that is drawing without
  replacement (icepool's Deck); for repeated faces it is not uniform over subsets, so
  `Exact.unique` follows the dice one at a time: a die's next face is drawn from the faces
  not shown yet, in proportion to how often each is on the die.
- `E given C`: E's joint distribution with C (through the `let` names C sees), kept where
  C != 0 and scaled to 1.
- Outcome order: numbers ascending, then texts in the order they first appear in the
  program read left to right with its macros expanded (`texts`, written by hand per case),
  then tallies ascending by their fields in order of first appearance (`fields`).
"""
import json
import os
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DiceKitTests", "Stats", "Reference", "outcomes.json")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from icepool_env import ensure_icepool  # noqa: E402
from exact_outcomes import Exact, pool_kept  # noqa: E402

ensure_icepool()

import icepool  # noqa: E402
from icepool import Deck, Die, Vector, d  # noqa: E402

d4, d6, d8, d10, d20 = d(4), d(6), d(8), d(10), d(20)


# ---------------------------------------------------------------- icepool helpers

def text_die(faces):
    return Die(list(faces))


def tally(fields, **values):
    return Vector(tuple(values.get(name, 0) for name in fields))


def counted(n, die, *tests):
    """The joint counts of n dice (a bound pool): a Vector with, per test, how many dice pass
    it, and last the dice's sum."""
    return n @ die.map(lambda x: Vector(tuple(int(t(x)) for t in tests) + (x,)))


def mixed(x):
    """An outcome of a distribution that has both numbers and texts: icepool sorts a Die's
    outcomes, so each is tagged (("#", number) or ("$", text)); `from_icepool` takes the tags
    off. A Die of numbers is tagged outcome by outcome."""
    if isinstance(x, Die):
        return x.map(lambda v: ("#", v))
    return ("$", x) if isinstance(x, str) else ("#", x)


def joint(*dice):
    """Independent dice as one Die of tuples."""
    return icepool.map(lambda *xs: Vector(xs), *dice)


def conditioned(die, value, condition):
    """`E given C` from a Die of outcomes x: value(x) where condition(x) != 0 (rerolling every
    other outcome for ever is conditioning on the rest)."""
    return die.reroll(lambda x: condition(x) == 0, depth="inf").map(value)


# ---------------------------------------------------------------- the cases

MOVE = 'def move(stat) = match 2d6 + stat { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }'
LOOT = 'def loot = match 1d20 { 1-5: "junk", 6-12: "potion", 13-19: 2d6 * 10, 20: "flame tongue" }'
CHECK = ("def check(mod, dc) = let r = 1d20 in let t = r + mod in\n"
         "    match (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1) {\n"
         '        <=-1: "critical failure", 0: "failure", 1: "success", else: "critical success" }')
DEGREES = ["critical failure", "failure", "success", "critical success"]
ABILITY = "def ability = d{(), (s: 1), (s: 1), (s: 2), (a: 1), (a: 1), (s: 1, a: 1), (a: 2)}"
DIFFICULTY = "def difficulty = d{(), (f: 1), (f: 2), (t: 1), (t: 1), (t: 1), (t: 2), (f: 1, t: 1)}"
GENESYS = ("def genesys(n, k) = let g = repeat(n, ability) + repeat(k, difficulty) in\n"
           "    (success: g.s - g.f, advantage: g.a - g.t)")
ATTACK = ("def attack(ac, bonus) = let r = 1d20 in if r == 20 then 2d8 + 3 "
          "else if r + bonus >= ac then 1d8 + 3 else 0")
ABILITY_FACES = [{}, {"s": 1}, {"s": 1}, {"s": 2}, {"a": 1}, {"a": 1}, {"s": 1, "a": 1}, {"a": 2}]
DIFFICULTY_FACES = [{}, {"f": 1}, {"f": 2}, {"t": 1}, {"t": 1}, {"t": 1}, {"t": 2}, {"f": 1, "t": 1}]

CASES = []


def case(expression, ice=None, exact=None, setup=(), texts=(), fields=None, note=None):
    """One expression: its icepool Die and/or its Exact distribution (functions, so that a
    failure names the case), the statements before it, the order of its texts and the field
    order of its tallies (outcomes that are tuples in that order)."""
    CASES.append(dict(expression=expression, ice=ice, exact=exact, setup=list(setup), texts=list(texts),
                      fields=fields, note=note))


def pbta(total):
    return "miss" if total <= 6 else "weak hit" if total <= 9 else "strong hit"


def degree(r, mod, dc):
    t = r + mod
    step = (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1)
    return DEGREES[0] if step <= -1 else DEGREES[1] if step == 0 else DEGREES[2] if step == 1 else DEGREES[3]


# ---- match: bands, ranges, compare points, parenthesised bounds, else -------------------
case('match 2d6 + 1 { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }',
     ice=lambda: (2 @ d6 + 1).map(pbta),
     exact=lambda: Exact.bind(Exact.sum_of([Exact.die(range(1, 7))] * 2, 1), pbta),
     texts=["miss", "weak hit", "strong hit"])
for stat in (-1, 3, 5):
    case(f"move({stat})", setup=[MOVE], ice=lambda stat=stat: (2 @ d6 + stat).map(pbta),
         texts=["miss", "weak hit", "strong hit"],
         note="move(5) cannot miss: \"miss\" is not listed" if stat == 5 else None)
case("loot", setup=[LOOT],
     ice=lambda: d20.map(lambda r: mixed("junk" if r <= 5 else "potion" if r <= 12 else
                               (2 @ d6) * 10 if r <= 19 else "flame tongue")),
     texts=["junk", "potion", "flame tongue"], note="numbers ascending, then the texts")
case('match 2d6 - 7 { -5--1: "low", 0: "even", 1+: "high" }',
     ice=lambda: (2 @ d6 - 7).map(lambda x: "low" if x <= -1 else "even" if x == 0 else "high"),
     texts=["low", "even", "high"])
case('match 1d20 { >=(5 + 10): "hit", <=1: "fumble", else: "miss" }',
     ice=lambda: d20.map(lambda r: "hit" if r >= 15 else "fumble" if r <= 1 else "miss"),
     texts=["hit", "fumble", "miss"])
case("match 1d6 { 1: 10, 2-3: 20, >3: 1d4 }",
     ice=lambda: d6.map(lambda r: 10 if r == 1 else 20 if r <= 3 else d4),
     exact=lambda: Exact.bind(Exact.die(range(1, 7)),
                              lambda r: 10 if r == 1 else 20 if r <= 3 else Exact.die(range(1, 5))))
case('match 1d8 { =1: "one", !=8: "mid", else: "eight" }',
     ice=lambda: d8.map(lambda r: "one" if r == 1 else "mid" if r != 8 else "eight"),
     texts=["one", "mid", "eight"])
case('match 1d6 { <3: "low", >5: "six", 3-5: 1d6 }',
     ice=lambda: d6.map(lambda r: mixed("low" if r < 3 else "six" if r > 5 else d6)), texts=["low", "six"])
case('match d{"goblin", "orc", "troll"} { "orc": 2d6, "troll": 3d6, else: 1d6 }',
     ice=lambda: text_die(["goblin", "orc", "troll"]).map(
         lambda m: 2 @ d6 if m == "orc" else 3 @ d6 if m == "troll" else d6))
case('match 1d10 { 1-3: "a", 4-6: "b", 7-9: "c", 10: "d" }',
     ice=lambda: d10.map(lambda r: "a" if r <= 3 else "b" if r <= 6 else "c" if r <= 9 else "d"),
     texts=["a", "b", "c", "d"])

# ---- the PF2e check of §5b ------------------------------------------------------------
for mod, dc in ((7, 20), (0, 15), (15, 15), (-2, 25)):
    case(f"check({mod}, {dc})", setup=[CHECK], texts=DEGREES,
         ice=lambda mod=mod, dc=dc: d20.map(lambda r: degree(r, mod, dc)),
         exact=lambda mod=mod, dc=dc: Exact.bind(Exact.die(range(1, 21)), lambda r: degree(r, mod, dc)))

# ---- text dice ------------------------------------------------------------------------
case('d{"a", "b", "b"}', ice=lambda: text_die(["a", "b", "b"]), texts=["a", "b"])
case('4d{"hit", "miss", "miss"}cs="hit"', ice=lambda: 4 @ Die([1, 0, 0]),
     exact=lambda: Exact.bind(Exact.rolls(["hit", "miss", "miss"], 4), lambda roll: roll.count("hit")))
case('6d{"hit", "miss", "miss"}cs="miss"', ice=lambda: 6 @ Die([0, 1, 1]))
case('4d{"hit", "miss", "miss"}ro="miss"cs="hit"',
     ice=lambda: 4 @ Die([1, 0, 0]).reroll([0], depth=1),
     note="ro: a miss is rolled once more, so a die hits with 1/3 + 2/3 * 1/3 = 5/9")
case('d{"goblin", "orc"} == "orc"', ice=lambda: text_die(["goblin", "orc"]).map(lambda m: int(m == "orc")))
case('let m = d{"x", "y", "z"} in if m == "x" then 1d4 else m',
     ice=lambda: text_die(["x", "y", "z"]).map(lambda m: mixed(d4 if m == "x" else m)), texts=["y", "z"])
case('count(repeat(3, d{"hit", "miss"}), ="hit")', ice=lambda: 3 @ Die([1, 0]))
case('2d{"goblin", "orc", "orc", "troll"}ucs="orc"',
     exact=lambda: Exact.bind(Exact.unique(["goblin", "orc", "orc", "troll"], 2), lambda roll: roll.count("orc")),
     note="u on text faces that repeat: P(1 orc) = 1/2 + 1/2 * 2/3")

# ---- tallies: literals, fields, + - and * by a number, tally faces ----------------------
SA = ["s", "a"]
SAFT = ["s", "a", "f", "t"]
SUCCESS = ["success", "advantage"]


def genesys_ice(n, k):
    ability = Die([tally(SAFT, **face) for face in ABILITY_FACES])
    difficulty = Die([tally(SAFT, **face) for face in DIFFICULTY_FACES])
    return (n @ ability + k @ difficulty).map(lambda g: Vector((g[0] - g[2], g[1] - g[3])))


def genesys_exact(n, k):
    ability = Exact.die([tuple(face.get(f, 0) for f in SAFT) for face in ABILITY_FACES])
    difficulty = Exact.die([tuple(face.get(f, 0) for f in SAFT) for face in DIFFICULTY_FACES])
    add = (lambda u, v: tuple(a + b for a, b in zip(u, v)))
    total = {(0, 0, 0, 0): Fraction(1)}
    for die in [ability] * n + [difficulty] * k:
        total = Exact.bind(total, lambda acc, die=die: Exact.bind(die, lambda face: add(acc, face)))
    return Exact.bind(total, lambda g: (g[0] - g[2], g[1] - g[3]))


GENESYS_SETUP = [ABILITY, DIFFICULTY, GENESYS]
case("(s: 1) + (a: 2) * 2 - (s: 3)", ice=lambda: Die([Vector((-2, 4))]), fields=SA)
case("genesys(3, 2)", setup=GENESYS_SETUP, ice=lambda: genesys_ice(3, 2), exact=lambda: genesys_exact(3, 2),
     fields=SUCCESS)
case("genesys(1, 1)", setup=GENESYS_SETUP, ice=lambda: genesys_ice(1, 1), exact=lambda: genesys_exact(1, 1),
     fields=SUCCESS)
case("let g = genesys(2, 1) in g.success", setup=GENESYS_SETUP,
     ice=lambda: genesys_ice(2, 1).map(lambda g: g[0]))
case("let g = genesys(2, 2) in g.success > 0 and g.advantage >= 0", setup=GENESYS_SETUP,
     ice=lambda: genesys_ice(2, 2).map(lambda g: int(g[0] > 0 and g[1] >= 0)))
case("repeat(2, ability)", setup=[ABILITY], fields=SA,
     ice=lambda: 2 @ Die([tally(SA, **face) for face in ABILITY_FACES]))
case("ability + difficulty", setup=[ABILITY, DIFFICULTY], fields=SAFT,
     ice=lambda: Die([tally(SAFT, **face) for face in ABILITY_FACES])
     + Die([tally(SAFT, **face) for face in DIFFICULTY_FACES]))
case("2d{(s: 1), (a: 1)}", ice=lambda: 2 @ Die([Vector((1, 0)), Vector((0, 1))]), fields=SA)
case("d{(), (h: 1)} * 3 - (h: 1)", ice=lambda: Die([Vector((-1,)), Vector((2,))]), fields=["h"])
case("3d{(), (h: 1), (h: 1, c: 1)}", ice=lambda: 3 @ Die([Vector((0, 0)), Vector((1, 0)), Vector((1, 1))]),
     fields=["h", "c"])
case("if 1d6 >= 4 then (hits: 1) else (misses: 1)",
     ice=lambda: d6.map(lambda r: Vector((1, 0)) if r >= 4 else Vector((0, 1))), fields=["hits", "misses"],
     note="tallies by their fields in order of first appearance: (hits: 0, misses: 1) first")
case("(s: 1d4, a: 1d4 - 2)", ice=lambda: joint(d4, d4 - 2), fields=SA)
case("let t = (s: 1d4) + (a: 1d2) in t.s * t.a", ice=lambda: d4 * d(2))
case("let t = d{(s: 1), (a: 1)} in t.z + t.s", ice=lambda: Die([1, 0]), note="an absent field reads 0")
case("(s: 1) == (s: 1, a: 0)", ice=lambda: Die([1]))
case("d{(s: 1), (a: 1), ()} == ()", ice=lambda: Die([0, 0, 1]))
case("d{(x: 1), (x: -1, y: 2), (y: -1), ()}",
     ice=lambda: Die([Vector((1, 0)), Vector((-1, 2)), Vector((0, -1)), Vector((0, 0))]), fields=["x", "y"],
     note="tallies ascending by x, then y")

# ---- bound pools counted several ways --------------------------------------------------
case("let p = 8d6 in (hits: count(p, >=5), ones: count(p, =1))", fields=["hits", "ones"],
     ice=lambda: counted(8, d6, lambda x: x >= 5, lambda x: x == 1).map(lambda v: Vector((v[0], v[1]))),
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 8),
                              lambda roll: (sum(x >= 5 for x in roll), roll.count(1))))
case("let p = 4d6 in p + count(p, =6)",
     ice=lambda: counted(4, d6, lambda x: x == 6).map(lambda v: v[1] + v[0]),
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 4), lambda roll: sum(roll) + roll.count(6)))
case("let p = 20d6 in (hits: count(p, >=5), glitch: count(p, =1) > 10)", fields=["hits", "glitch"],
     ice=lambda: counted(20, d6, lambda x: x >= 5, lambda x: x == 1).map(lambda v: Vector((v[0], int(v[1] > 10)))))
case("let p = 12d6 in (hits: count(p, >=5), glitch: count(p, =1) > 6)", fields=["hits", "glitch"],
     ice=lambda: counted(12, d6, lambda x: x >= 5, lambda x: x == 1).map(lambda v: Vector((v[0], int(v[1] > 6)))))
case("let p = 5d6 in (hits: count(p, >=5), glitch: count(p, =1) >= 3)", fields=["hits", "glitch"],
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 5),
                              lambda roll: (sum(x >= 5 for x in roll), int(roll.count(1) >= 3))))
case("let p = 6d6kh3 in count(p, >=5)",
     ice=lambda: d6.pool(6).highest(3).expand().map(lambda *kept: sum(x >= 5 for x in kept), star=True),
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 6),
                              lambda roll: sum(x >= 5 for x in pool_kept(roll, high=3))),
     note="count sees the kept dice only")
case("let p = 5d6kh3 in p - count(p, =6)",
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 5),
                              lambda roll: sum(pool_kept(roll, high=3)) - pool_kept(roll, high=3).count(6)))
case("count(repeat(6, 4d6kh3), >=15)", ice=lambda: 6 @ (d6.highest(4, 3) >= 15).map(lambda b: int(b)))
case("count(4d6, =6)", ice=lambda: 4 @ (d6 == 6).map(lambda b: int(b)))
case("let p = 6d10cs>=8 in p + count(p, =10)",
     ice=lambda: 6 @ d10.map(lambda x: int(x >= 8) + int(x == 10)),
     note="p's value is its cs count; count(p, =10) counts its dice showing 10")
case("let p = 6d6 in count(p, =1) > 0 and count(p, =6) > 0",
     ice=lambda: counted(6, d6, lambda x: x == 1, lambda x: x == 6).map(lambda v: int(v[0] > 0 and v[1] > 0)),
     exact=lambda: Exact.bind(Exact.rolls(range(1, 7), 6), lambda roll: int(1 in roll and 6 in roll)))
case('let p = 2d20 in if count(p, =20) > 0 then "crit" else p',
     ice=lambda: counted(2, d20, lambda x: x == 20).map(lambda v: mixed("crit" if v[0] > 0 else v[1])),
     texts=["crit"])

# ---- bound pools whose count, sides or modifier argument is rolled ---------------------
# The part is rolled once, then the dice: each outcome of it a pool of its own, mixed.
case("let p = (1d2)d6 in count(p, =6)",
     ice=lambda: d(2).map(lambda n: counted(n, d6, lambda x: x == 6).map(lambda v: v[0])),
     exact=lambda: Exact.bind(Exact.die([1, 2]), lambda n: Exact.bind(Exact.rolls(range(1, 7), n),
                                                                      lambda roll: roll.count(6))))
case("let p = 2d(1d2+4) in (hits: count(p, >=5), ones: count(p, =1))", fields=["hits", "ones"],
     ice=lambda: d(2).map(lambda s: counted(2, d(s + 4), lambda x: x >= 5, lambda x: x == 1)
                          .map(lambda v: Vector((v[0], v[1])))),
     exact=lambda: Exact.bind(Exact.die([5, 6]), lambda s: Exact.bind(
         Exact.rolls(range(1, s + 1), 2), lambda roll: (sum(x >= 5 for x in roll), roll.count(1)))))
case("let p = 4d6kh(1d2) in count(p, >=5)",
     ice=lambda: d(2).map(lambda k: d6.pool(4).highest(k).expand()
                          .map(lambda *kept: sum(x >= 5 for x in kept), star=True)),
     exact=lambda: Exact.bind(Exact.die([1, 2]), lambda k: Exact.bind(
         Exact.rolls(range(1, 7), 4), lambda roll: sum(x >= 5 for x in pool_kept(roll, high=k)))))
case('let p = (1d2)d{"a","b"} in count(p, ="a")',
     ice=lambda: d(2).map(lambda n: n @ text_die(["a", "b"]).map(lambda x: int(x == "a"))),
     exact=lambda: Exact.bind(Exact.die([1, 2]), lambda n: Exact.bind(Exact.rolls("ab", n),
                                                                      lambda roll: roll.count("a"))))
case("1d6 + (let p = (1d3)d6 in count(p, >2))",
     ice=lambda: d6 + d(3).map(lambda n: n @ (d6 > 2).map(lambda b: int(b))))
case("count((1d3)d6, >2)", ice=lambda: d(3).map(lambda n: n @ (d6 > 2).map(lambda b: int(b))))
case("let p = (1d3)d6 in p * 10 + count(p, =6)",
     ice=lambda: d(3).map(lambda n: counted(n, d6, lambda x: x == 6).map(lambda v: v[1] * 10 + v[0])),
     exact=lambda: Exact.bind(Exact.die([1, 2, 3]), lambda n: Exact.bind(
         Exact.rolls(range(1, 7), n), lambda roll: sum(roll) * 10 + roll.count(6))),
     note="p and its count are one roll")

# ---- and, or, not ---------------------------------------------------------------------
case("1d6 >= 4 and 1d6 >= 4", ice=lambda: icepool.map(lambda a, b: int(a >= 4 and b >= 4), d6, d6))
case("let r = 1d20 in r == 1 or r == 20", ice=lambda: d20.map(lambda r: int(r == 1 or r == 20)))
case("not 1d6 == 6", ice=lambda: d6.map(lambda r: int(not r == 6)))
case("let r = 1d20 in let w = 1d20 in r == 1 and w == 1 or r == 20",
     ice=lambda: icepool.map(lambda r, w: int((r == 1 and w == 1) or r == 20), d20, d20),
     note="and binds tighter than or")
case("1d4 - 1 and 1d3 - 1", ice=lambda: icepool.map(lambda a, b: int(a - 1 != 0 and b - 1 != 0), d4, d(3)))
case("not 1d4 - 1 or 0", ice=lambda: d4.map(lambda a: int(a - 1 == 0)), note="not is looser than arithmetic")
case("if 1d6 > 3 and not 1d6 == 1 then 2d6 else 0",
     ice=lambda: icepool.map(lambda a, b: 2 @ d6 if a > 3 and b != 1 else 0, d6, d6))

# ---- unique dice ----------------------------------------------------------------------


def unique_sum(faces, n, high=None, low=None):
    return Exact.bind(Exact.unique(faces, n), lambda roll: sum(pool_kept(roll, high=high, low=low)))


case("3d6u", ice=lambda: Deck(range(1, 7)).deal(3).sum(), exact=lambda: unique_sum(range(1, 7), 3))
case("4d8u", ice=lambda: Deck(range(1, 9)).deal(4).sum(), exact=lambda: unique_sum(range(1, 9), 4))
case("5d6ukh2", ice=lambda: Deck(range(1, 7)).deal(5).highest(2).sum(),
     exact=lambda: unique_sum(range(1, 7), 5, high=2))
case("4d10ukl2", ice=lambda: Deck(range(1, 11)).deal(4).lowest(2).sum(),
     exact=lambda: unique_sum(range(1, 11), 4, low=2))
case("6d6u", ice=lambda: Die([21]), exact=lambda: unique_sum(range(1, 7), 6))
case("2dFu", exact=lambda: unique_sum([-1, 0, 1], 2))
case("3d{1,1,2,3}u", exact=lambda: unique_sum([1, 1, 2, 3], 3), note="three different faces: always 6")
case("2d{1,1,2,3}u", exact=lambda: unique_sum([1, 1, 2, 3], 2),
     note="not uniform over pairs: a first 1 (1/2) leaves 2 and 3 alike")
case("3d{1,1,1,2,3,4}u", exact=lambda: unique_sum([1, 1, 1, 2, 3, 4], 3))
case("3d{1,1,2,3,4}ukh2", exact=lambda: unique_sum([1, 1, 2, 3, 4], 3, high=2))

# ---- default parameters ---------------------------------------------------------------
ATK = "def atk(bonus = 0) = 1d20 + 5 + bonus"
case("atk", setup=[ATK], ice=lambda: d20 + 5)
case("atk()", setup=[ATK], ice=lambda: d20 + 5)
case("atk(2)", setup=[ATK], ice=lambda: d20 + 7)
DMG = "def dmg(n, sides = 6) = (n)d(sides)"
case("dmg(2)", setup=[DMG], ice=lambda: 2 @ d6)
case("dmg(2, 4)", setup=[DMG], ice=lambda: 2 @ d4)
case("dmg(1d2)", setup=[DMG], ice=lambda: d(2).map(lambda n: n @ d6), note="a computed count, default sides")

# ---- given ----------------------------------------------------------------------------
case("let r = 1d20 in r given r >= 18", ice=lambda: conditioned(d20, lambda r: r, lambda r: r >= 18),
     exact=lambda: Exact.given(Exact.bind(Exact.die(range(1, 21)), lambda r: (r, int(r >= 18)))))
case("2d6 given 2d6 > 0", ice=lambda: 2 @ d6, note="C rolls its own 2d6, always > 0")
case("let r = 1d20 + 5 in r given r >= 15", ice=lambda: conditioned(d20 + 5, lambda r: r, lambda r: r >= 15))
case("let a = 1d6 in let b = 1d6 in a + b given a == b",
     exact=lambda: Exact.given(Exact.bind(Exact.rolls(range(1, 7), 2), lambda ab: (ab[0] + ab[1], int(ab[0] == ab[1])))),
     note="the let bodies reach over given")
case("let h = attack(15, 5) in h given h > 0", setup=[ATTACK],
     ice=lambda: conditioned(d20.map(lambda r: 2 @ d8 + 3 if r == 20 else d8 + 3 if r + 5 >= 15 else 0),
                             lambda x: x, lambda x: x > 0),
     note="the damage of a hit")
case('let m = move(1) in m given m != "miss"', setup=[MOVE],
     ice=lambda: conditioned((2 @ d6 + 1).map(pbta), lambda m: m, lambda m: m != "miss"),
     texts=["weak hit", "strong hit"])
case("3d6 given 1d6 == 6", ice=lambda: 3 @ d6)
case("let p = 4d6 in p given count(p, =6) >= 2",
     exact=lambda: Exact.given(Exact.bind(Exact.rolls(range(1, 7), 4), lambda roll: (sum(roll), int(roll.count(6) >= 2)))))

# ---- outcome order --------------------------------------------------------------------
case('if 1d2 == 1 then "y" else m', setup=['def m = match 1d6 { 1-3: "x", else: "y" }'],
     ice=lambda: d(2).map(lambda c: "y" if c == 1 else d6.map(lambda r: "x" if r <= 3 else "y")),
     texts=["y", "x"], note="\"y\" appears first, before m's \"x\"")
case('match 1d6 { 1: "one", 2: (a: 1), 3: 3, 4: "four", 5: (a: 2), else: 7 }',
     exact=lambda: Exact.bind(Exact.die(range(1, 7)),
                              lambda r: {1: "one", 2: (1,), 3: 3, 4: "four", 5: (2,), 6: 7}[r]),
     texts=["one", "four"], fields=["a"], note="numbers, then texts, then tallies")
case('match 1d6 { 1-2: "zeta", 3-4: "alpha", else: "mid" }',
     ice=lambda: d6.map(lambda r: "zeta" if r <= 2 else "alpha" if r <= 4 else "mid"), texts=["zeta", "alpha", "mid"])
case('d{"b", "a", "c", "a"}', ice=lambda: text_die(["b", "a", "c", "a"]), texts=["b", "a", "c"])
case("if 1d2 == 1 then b else a", setup=['def a = d{"p", "q"}', 'def b = d{"r", "p"}'],
     ice=lambda: d(2).map(lambda c: text_die(["r", "p"]) if c == 1 else text_die(["p", "q"])),
     texts=["r", "p", "q"], note="texts in order of first appearance with the macros expanded")


# ---------------------------------------------------------------- output

def from_icepool(die):
    total = die.denominator()
    out = {}
    for outcome, quantity in die.items():
        if isinstance(outcome, Vector):
            key = tuple(int(x) for x in outcome)
        elif isinstance(outcome, tuple) and len(outcome) == 2 and outcome[0] in ("#", "$"):
            key = outcome[1]
        else:
            key = outcome
        out[key] = out.get(key, 0) + Fraction(quantity, total)
    return out


def order_key(spec):
    def key(outcome):
        if isinstance(outcome, tuple):
            return (2, 0, outcome)
        if isinstance(outcome, str):
            assert outcome in spec["texts"], f"{spec['expression']}: text {outcome!r} has no place in `texts`"
            return (1, spec["texts"].index(outcome), ())
        return (0, outcome, ())
    return key


def json_outcome(outcome, fields):
    if isinstance(outcome, tuple):
        assert fields is not None and len(fields) == len(outcome)
        return dict(zip(fields, outcome))
    if isinstance(outcome, str):
        return outcome
    value = Fraction(outcome)
    return int(value) if value.denominator == 1 else float(value)


def compute(spec):
    results = []
    for method in ("ice", "exact"):
        if spec[method] is not None:
            dist = spec[method]()
            dist = from_icepool(dist) if method == "ice" else dist
            results.append({k: p for k, p in dist.items() if p != 0})
    assert results, f"{spec['expression']}: no method"
    if len(results) == 2:
        a, b = results
        for k in a.keys() | b.keys():
            assert abs(a.get(k, 0) - b.get(k, 0)) < Fraction(1, 10 ** 15), \
                f"{spec['expression']}: icepool and enumeration disagree at {k!r}"
    dist = results[0]
    assert sum(dist.values()) == 1, f"{spec['expression']}: total {sum(dist.values())}"
    return sorted(dist.items(), key=lambda item: order_key(spec)(item[0])), len(results) == 2


def main():
    out, both = [], 0
    for spec in CASES:
        dist, checked = compute(spec)
        both += checked
        entry = {"expression": spec["expression"], "setup": spec["setup"],
                 "distribution": [[json_outcome(k, spec["fields"]), float(p)] for k, p in dist]}
        if spec["note"]:
            entry["note"] = spec["note"]
        out.append(entry)
    with open(OUT, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(entry) for entry in out) + "\n]\n")
    print(f"wrote {len(out)} cases to {os.path.relpath(OUT, ROOT)} "
          f"({both} computed both by icepool {icepool.__version__} and by enumeration)")


main()
