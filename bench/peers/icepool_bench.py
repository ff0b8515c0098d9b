"""icepool timings for bench/run.

    python icepool_bench.py sample N RUNS   per-sample ns of (d6.highest(4, 3) + 2).sample():
                                            one untimed warm-up loop of N, then RUNS timed loops
    python icepool_bench.py cold EXPR       the first computation of EXPR's exact distribution
                                            in this process (import excluded): JSON {"ns": ...}
    python icepool_bench.py print EXPR      compute and print the distribution (whole-process runs)
    python icepool_bench.py cold ROW        F1-F5, S1 (issues 25 and 27): the first computation of
                                            the row's distribution(s), as for EXPR
    python icepool_bench.py json ROW        compute ROW and print its distribution as dice's JSON
                                            does: {"distribution": [[outcome, p], ...]} (a text
                                            outcome a string, a tally an object), or for S1
                                            {"sweep": [{"ac": AC, "distribution": [...]}, ...]}

EXPR is one of the dice expressions in FORMS; each is translated to icepool by hand, and so is
each row of OUTCOME_FORMS.
Explosions: icepool's explode(depth=D) stops after D extra dice; depth 15 leaves a tail
below 1e-12 per die, the cut dice uses, so both compute to the same precision.
"""
import json
import sys
import time

import icepool
from icepool import Deck, Die, Vector, d6, d8, d10, d20, d100

sys.setrecursionlimit(1_000_000)  # icepool sums N dice by recursion N deep

FORMS = {
    "4d6kh3": lambda: d6.highest(4, 3),
    "3d6": lambda: 3 @ d6,
    "100d6": lambda: 100 @ d6,
    "10d6kh3": lambda: d6.highest(10, 3),
    "20d10kh5": lambda: d10.highest(20, 5),
    "8d6!": lambda: 8 @ d6.explode(depth=15),
    "8d6!@depth9": lambda: 8 @ d6.explode(),  # icepool's default depth (9): a coarser tail
    "1d20+5 >= 15": lambda: d20 + 5 >= 15,
    # Keep/drop over exploding pools: explode_to_pool makes each extra die a separate die;
    # depth 6 for a d100 leaves a tail below 1e-12 per die, as 15 does for a d6.
    "6d6!dl4": lambda: d6.explode_to_pool(6, depth=15).lowest(drop=4).sum(),
    "5d6!dl1dh1": lambda: d6.explode_to_pool(5, depth=15).lowest(drop=1).highest(drop=1).sum(),
    "4d100!kh3": lambda: d100.explode_to_pool(4, depth=6).highest(3).sum(),
    "20d6!dl10": lambda: d6.explode_to_pool(20, depth=15).lowest(drop=10).sum(),
    "100000d6": lambda: 100000 @ d6,
    "1000d20!": lambda: 1000 @ d20.explode(depth=12),
    "10000d100": lambda: 10000 @ icepool.d100,
}

SPELLING = {
    "4d6kh3": "d6.highest(4, 3)",
    "3d6": "3 @ d6",
    "100d6": "100 @ d6",
    "10d6kh3": "d6.highest(10, 3)",
    "20d10kh5": "d10.highest(20, 5)",
    "8d6!": "8 @ d6.explode(depth=15)",
    "8d6!@depth9": "8 @ d6.explode()",
    "1d20+5 >= 15": "d20 + 5 >= 15",
    "6d6!dl4": "d6.explode_to_pool(6, depth=15).lowest(drop=4).sum()",
    "5d6!dl1dh1": "d6.explode_to_pool(5, depth=15).lowest(drop=1).highest(drop=1).sum()",
    "4d100!kh3": "d100.explode_to_pool(4, depth=6).highest(3).sum()",
    "20d6!dl10": "d6.explode_to_pool(20, depth=15).lowest(drop=10).sum()",
    "100000d6": "100000 @ d6",
    "1000d20!": "1000 @ d20.explode(depth=12)",
    "10000d100": "10000 @ d100",
}



# ---- outcome rows (issue 25) and the sweep (issue 27), each with dice's statement in bench/run.

def pbta_move():
    """F1 `match 2d6 + 1 { 6-: "miss", 7-9: "weak hit", 10+: "strong hit" }`."""
    return (2 @ d6 + 1).map(lambda t: "miss" if t <= 6 else "weak hit" if t <= 9 else "strong hit")


def pf2e_check(mod, dc):
    """F2 the PF2e `check(mod, dc)` of LANGUAGE.md §5b: four degrees, a natural 20 or 1 moves one."""
    def degree(r):
        t = r + mod
        step = (t >= dc + 10) + (t >= dc) - (t <= dc - 10) + (r == 20) - (r == 1)
        return ("critical failure" if step <= -1 else "failure" if step == 0
                else "success" if step == 1 else "critical success")
    return d20.map(degree)


# F3: the Genesys symbol dice of LANGUAGE.md §5b as (success, advantage) vectors: a difficulty
# die's failure and threat count against them, so the sum of the pool is the net result
# `(success: g.s - g.f, advantage: g.a - g.t)` without a map.
ABILITY = Die([Vector((0, 0)), Vector((1, 0)), Vector((1, 0)), Vector((2, 0)),
               Vector((0, 1)), Vector((0, 1)), Vector((1, 1)), Vector((0, 2))])
DIFFICULTY = Die([Vector((0, 0)), Vector((-1, 0)), Vector((-2, 0)), Vector((0, -1)),
                  Vector((0, -1)), Vector((0, -1)), Vector((0, -2)), Vector((-1, -1))])


def genesys(n, k):
    return n @ ABILITY + k @ DIFFICULTY


def shadowrun(n):
    """F4 `let p = 20d6 in (hits: count(p, >=5), glitch: count(p, =1) > 10)`: each die a
    (hit, one) vector, summed, then the glitch test on the ones."""
    counts = n @ d6.map(lambda x: Vector((int(x >= 5), int(x == 1))))
    return counts.map(lambda v: Vector((v[0], int(v[1] > 10))))


def unique(n, sides):
    """F5 `10d20u`: n different faces of a fair die, drawn without replacement."""
    return Deck(range(1, sides + 1)).deal(n).sum()


def attack(ac, bonus):
    """The crit attack of LANGUAGE.md §5a."""
    return d20.map(lambda r: 2 @ d8 + 3 if r == 20 else d8 + 3 if r + bonus >= ac else 0)


# Each row: (build, tally field names or None). S1 builds one Die per AC, each separately.
OUTCOME_FORMS = {
    "F1": (pbta_move, None),
    "F2": (lambda: pf2e_check(7, 20), None),
    "F3": (lambda: genesys(3, 2), ("success", "advantage")),
    "F4": (lambda: shadowrun(20), ("hits", "glitch")),
    "F5": (lambda: unique(10, 20), None),
    "S1": (lambda: [(ac, attack(ac, 7)) for ac in range(10, 31)], None),
}

OUTCOME_SPELLING = {
    "F1": '(2 @ d6 + 1).map(lambda t: "miss" if t <= 6 else "weak hit" if t <= 9 else "strong hit")',
    "F2": "d20.map(degree) (degree(r): the four degrees of check(7, 20))",
    "F3": "3 @ ABILITY + 2 @ DIFFICULTY (faces as Vector((success, advantage)))",
    "F4": "(20 @ d6.map(lambda x: Vector((x >= 5, x == 1)))).map(lambda v: Vector((v[0], v[1] > 10)))",
    "F5": "Deck(range(1, 21)).deal(10).sum()",
    "S1": "[d20.map(lambda r: 2 @ d8 + 3 if r == 20 else d8 + 3 if r + 7 >= ac else 0) for ac in 10..30]",
}


def json_outcome(outcome, fields):
    if fields is not None:
        return {name: int(x) for name, x in zip(fields, outcome)}
    return outcome if isinstance(outcome, str) else int(outcome)


def json_distribution(die, fields):
    return [[json_outcome(outcome, fields), float(probability)]
            for outcome, probability in zip(die.outcomes(), die.probabilities())]


def mean_of(result):
    """A checksum for the cold run: the number of outcomes built."""
    dice = [die for _, die in result] if isinstance(result, list) else [result]
    return sum(len(die) for die in dice)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "sample" and len(sys.argv) == 4:
        n, runs = int(sys.argv[2]), int(sys.argv[3])
        die = d6.highest(4, 3) + 2
        sample = die.sample
        checksum = 0
        for _ in range(n):
            checksum += sample()
        samples = []
        for _ in range(runs):
            start = time.perf_counter_ns()
            for _ in range(n):
                checksum += sample()
            samples.append((time.perf_counter_ns() - start) / n)
        print(json.dumps({"tool": "icepool", "n": n, "ns": samples, "checksum": checksum}))
    elif mode == "cold" and len(sys.argv) == 3 and sys.argv[2] in OUTCOME_FORMS:
        build, _ = OUTCOME_FORMS[sys.argv[2]]
        start = time.perf_counter_ns()
        result = build()
        ns = time.perf_counter_ns() - start
        print(json.dumps({"tool": "icepool", "row": sys.argv[2], "spelling": OUTCOME_SPELLING[sys.argv[2]],
                          "ns": ns, "outcomes": mean_of(result)}))
    elif mode == "json" and len(sys.argv) == 3 and sys.argv[2] in OUTCOME_FORMS:
        build, fields = OUTCOME_FORMS[sys.argv[2]]
        result = build()
        if isinstance(result, list):
            print(json.dumps({"sweep": [{"ac": ac, "mean": float(die.mean()),
                                         "distribution": json_distribution(die, fields)} for ac, die in result]}))
        else:
            print(json.dumps({"distribution": json_distribution(result, fields)}))
    elif mode == "cold" and len(sys.argv) == 3:
        form = FORMS[sys.argv[2]]
        start = time.perf_counter_ns()
        die = form()
        ns = time.perf_counter_ns() - start
        print(json.dumps({"tool": "icepool", "expr": sys.argv[2], "spelling": SPELLING[sys.argv[2]],
                          "ns": ns, "mean": float(die.mean()), "outcomes": len(die)}))
    elif mode == "print" and len(sys.argv) == 3:
        die = FORMS[sys.argv[2]]()
        lines = [f"{outcome}\t{float(probability)}" for outcome, probability
                 in zip(die.outcomes(), die.probabilities())]
        lines.append(f"mean\t{float(die.mean())}")
        print("\n".join(lines))
    else:
        sys.exit("usage: icepool_bench.py sample N RUNS | cold EXPR|ROW | print EXPR | json ROW")


if __name__ == "__main__":
    main()
