"""Exact distributions with fractions, for scripts/make-system-reference.py: a distribution is
a dict {outcome: Fraction}; an outcome is a number, a text, a tuple of numbers (several
counts at once) or a tally, a tuple of (field, value) pairs."""
import itertools
import math
from fractions import Fraction

# An exploding die's chain is followed until what is left is below this.
TAIL = Fraction(1, 10 ** 18)



def uniform(values):
    dist = {}
    for v in values:
        dist[v] = dist.get(v, 0) + Fraction(1, len(values))
    return dist


def die(sides):
    return uniform(list(range(1, sides + 1)))


def mapped(dist, f):
    out = {}
    for v, p in dist.items():
        w = f(v)
        out[w] = out.get(w, 0) + p
    return out


def bind(dist, f):
    """Each outcome v of dist, then the distribution f(v) (a roll that depends on v)."""
    out = {}
    for v, p in dist.items():
        for w, q in f(v).items():
            out[w] = out.get(w, 0) + p * q
    return out


def joint(*dists):
    """The independent rolls together, as tuples."""
    out = {(): Fraction(1)}
    for d in dists:
        out = {k + (v,): p * q for k, p in out.items() for v, q in d.items()}
    return out


def combine(a, b, add):
    out = {}
    for x, p in a.items():
        for y, q in b.items():
            v = add(x, y)
            out[v] = out.get(v, 0) + p * q
    return out


def repeated(dist, n, add, zero):
    out = {zero: Fraction(1)}
    for _ in range(n):
        out = combine(out, dist, add)
    return out


def plus(x, y):
    return tuple(a + b for a, b in zip(x, y)) if isinstance(x, tuple) else x + y


def enumerate_rolls(dice, f):
    """Every sequence of faces of `dice` (lists of faces), each weighed equally, mapped by f."""
    out = {}
    total = math.prod(len(d) for d in dice)
    for faces in itertools.product(*dice):
        v = f(faces)
        out[v] = out.get(v, 0) + Fraction(1, total)
    return out


def exploding(sides, again=None):
    """One die rolled again (and added) while it shows `again` or more (default: its highest)."""
    again = sides if again is None else again
    out, mass, base = {}, Fraction(1), 0
    while mass > TAIL:
        for face in range(1, sides + 1):
            if face < again:
                out[base + face] = out.get(base + face, 0) + mass / sides
        mass = mass * (sides - again + 1) / sides
        base += sides  # only the highest face explodes where this is used for sums
    return out


def tally(fields, values):
    return tuple(zip(fields, values))
