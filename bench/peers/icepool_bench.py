"""icepool timings for bench/run.

    python icepool_bench.py sample N RUNS   per-sample ns of (d6.highest(4, 3) + 2).sample():
                                            one untimed warm-up loop of N, then RUNS timed loops
    python icepool_bench.py cold EXPR       the first computation of EXPR's exact distribution
                                            in this process (import excluded): JSON {"ns": ...}
    python icepool_bench.py print EXPR      compute and print the distribution (whole-process runs)

EXPR is one of the dice expressions in FORMS; each is translated to icepool by hand.
Explosions: icepool's explode(depth=D) stops after D extra dice; depth 15 leaves a tail
below 1e-12 per die, the cut dice uses, so both compute to the same precision.
"""
import json
import sys
import time

import icepool
from icepool import d6, d10, d20, d100

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
        sys.exit("usage: icepool_bench.py sample N RUNS | cold EXPR | print EXPR")


if __name__ == "__main__":
    main()
