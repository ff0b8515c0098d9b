"""Exact distributions by enumeration in plain Python (Fractions): the second, independent
method of scripts/make-outcomes-reference.py, for what icepool cannot say (unique dice whose
faces repeat, `given` over a bound roll, a pool's kept dice counted)."""
from fractions import Fraction
from itertools import product


class Exact:
    """Distributions as {outcome: Fraction}, enumerated."""

    @staticmethod
    def die(faces):
        out = {}
        for face in faces:
            out[face] = out.get(face, 0) + Fraction(1, len(faces))
        return out

    @staticmethod
    def const(value):
        return {value: Fraction(1)}

    @staticmethod
    def bind(dist, f):
        """A mixture: each outcome x of dist continues as f(x), a distribution or a value."""
        out = {}
        for x, p in dist.items():
            y = f(x)
            for value, q in (y.items() if isinstance(y, dict) else [(y, Fraction(1))]):
                out[value] = out.get(value, 0) + p * q
        return out

    @staticmethod
    def rolls(faces, n):
        """Every ordered roll of n dice with these faces (each face equally likely, so a face
        written twice is twice as likely)."""
        faces = list(faces)
        out = {}
        for roll in product(faces, repeat=n):
            out[roll] = out.get(roll, 0) + Fraction(1, len(faces) ** n)
        return out

    @staticmethod
    def sum_of(dists, start=0):
        out = {start: Fraction(1)}
        for dist in dists:
            out = Exact.bind(out, lambda acc, dist=dist: Exact.bind(dist, lambda x: acc + x))
        return out

    @staticmethod
    def unique(faces, n):
        """Ordered rolls of n dice with `u`: each die after the first is drawn again until it
        shows a face not shown yet (so from the faces left, as often as each is on the die)."""
        states = {(): Fraction(1)}
        for _ in range(n):
            nxt = {}
            for shown, p in states.items():
                left = [f for f in faces if f not in shown]
                assert left, "more dice than faces"
                for face in set(left):
                    key = shown + (face,)
                    nxt[key] = nxt.get(key, 0) + p * Fraction(left.count(face), len(left))
            states = nxt
        return states

    @staticmethod
    def given(pairs):
        """{(value, condition): p} -> value's distribution where condition != 0."""
        kept = {}
        for (value, condition), p in pairs.items():
            if condition != 0:
                kept[value] = kept.get(value, 0) + p
        total = sum(kept.values())
        assert total > 0, "a condition of probability 0"
        return {value: p / total for value, p in kept.items()}


def pool_kept(roll, high=None, low=None):
    """The dice kept by khN / klN, as a sorted tuple."""
    ordered = sorted(roll)
    if high is not None:
        return tuple(ordered[len(ordered) - high:])
    if low is not None:
        return tuple(ordered[:low])
    return tuple(ordered)
