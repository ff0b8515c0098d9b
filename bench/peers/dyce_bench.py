"""dyce for bench/run: compute and print the exact distribution of EXPR (whole-process runs).

    python dyce_bench.py print EXPR

EXPR is one of the dice expressions in FORMS, translated to dyce by hand. Explosions use
explode_n(n=15): the tail left is below 1e-12 per die, the cut dice uses.
"""
import sys
import warnings

warnings.simplefilter("ignore")  # explode_n is marked experimental

from dyce import H, P, explode_n  # noqa: E402

FORMS = {
    "4d6kh3": lambda: (4 @ P(6)).at(slice(-3, None)),
    "3d6": lambda: 3 @ H(6),
    "100d6": lambda: 100 @ H(6),
    "10d6kh3": lambda: (10 @ P(6)).at(slice(-3, None)),
    "20d10kh5": lambda: (20 @ P(10)).at(slice(-5, None)),
    "8d6!": lambda: 8 @ explode_n(H(6), n=15),
    "1d20+5 >= 15": lambda: (H(20) + 5).ge(15),
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "print":
        sys.exit("usage: dyce_bench.py print EXPR")
    histogram = FORMS[sys.argv[2]]()
    lines = [f"{outcome}\t{float(probability)}" for outcome, probability in histogram.probability_items()]
    lines.append(f"mean\t{float(histogram.mean())}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
