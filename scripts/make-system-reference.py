#!/usr/bin/env python3
"""Writes Tests/DiceKitTests/Systems/Reference/systems.json: the exact distribution of the
macros of each built-in game system (Sources/DiceKit/Systems/*.dice, LANGUAGE.md §8a) for
chosen arguments, worked out here from the games' rules, not from the .dice files: by
enumerating every roll where that is small, and otherwise by convolving one die's outcome
(its category, or its chain of explosions) over the pool. Exact fractions throughout; an
exploding die's chain is followed until what is left is below 1e-18, and such entries carry
"explodes": true and list only their outcomes above 1e-15 (the engine cuts its tails at 1e-12).

    python3 scripts/make-system-reference.py     # the standard library only (and exact_dice.py)

Each entry: {"system", "statement" (a statement of the dice language after `use SYSTEM`),
"distribution": [[outcome, p], ...], "explodes"}; an outcome is a number, a text (a JSON
string) or a tally (a JSON object of its fields, every field written, zeros included).

Published figures this agrees with (checked when it was written): a PbtA move at +0 misses
with 15/36 = 41.67% (2d6 <= 6); a Blades action roll with one die fails 50%, partial 33.3%,
succeeds 16.7%; a Call of Cthulhu skill of 60 with no bonus dice succeeds 60%, hard 30%,
extreme 12% (the Keeper Rulebook's definitions); Fate's 4dF gives 0 with 19/81.
"""
import json
import os
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "DiceKitTests", "Systems", "Reference", "systems.json")
# The outcomes of an exploding entry written out: those above 1e-15 (the tests compare above 1e-12).
SHOWN_TAIL = Fraction(1, 10 ** 15)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from exact_dice import (TAIL, bind, combine, die, enumerate_rolls, exploding, joint, mapped,  # noqa: E402
                        plus, repeated, tally, uniform)

# MARK: - the systems, each a list of (statement, distribution, explodes)


def pbta():
    def move(total):
        return "miss" if total <= 6 else "weak hit" if total <= 9 else "strong hit"
    d6 = list(range(1, 7))
    cases = []
    for stat in (2, 0, -1, 3):
        cases.append((f"move({stat})", enumerate_rolls([d6] * 2, lambda r, s=stat: move(sum(r) + s))))
    cases.append(("move", enumerate_rolls([d6] * 2, lambda r: move(sum(r)))))
    cases.append(("move_adv(1)", enumerate_rolls([d6] * 3, lambda r: move(sum(sorted(r)[1:]) + 1))))
    cases.append(("move_dis(1)", enumerate_rolls([d6] * 3, lambda r: move(sum(sorted(r)[:2]) + 1))))
    return [(s, d, False) for s, d in cases]


def d20(adv):
    if adv == 0:
        return die(20)
    return enumerate_rolls([range(1, 21)] * 2, lambda r: max(r) if adv > 0 else min(r))


def dnd5e():
    score = enumerate_rolls([range(1, 7)] * 4, lambda r: sum(r) - min(r))
    cases = [("score", score), ("abilities", repeated(score, 6, plus, 0))]
    cases += [("advantage(5)", mapped(d20(1), lambda r: r + 5)), ("disadvantage(5)", mapped(d20(-1), lambda r: r + 5))]
    cases += [(f"roll({a})", d20(a)) for a in (0, 1, -1)]

    def check(mod, dc, adv):
        return mapped(d20(adv), lambda r: "success" if r + mod >= dc else "failure")

    def attack(bonus, ac, adv):
        # SRD: a natural 20 hits and is critical; a natural 1 misses whatever the bonus.
        return mapped(d20(adv), lambda r: "critical hit" if r == 20 else "miss" if r == 1
                      else "hit" if r + bonus >= ac else "miss")

    def damage(bonus, ac, n, sides, mod, adv):
        def dealt(result):
            dice = 2 * n if result == "critical hit" else n if result == "hit" else 0
            if dice == 0:
                return {0: Fraction(1)}
            return mapped(repeated(die(sides), dice, plus, 0), lambda s: s + mod)
        return bind(attack(bonus, ac, adv), dealt)

    cases += [("check(3, 15)", check(3, 15, 0)), ("check(3, 15, 1)", check(3, 15, 1)),
              ("save(5, 12, -1)", check(5, 12, -1)), ("save(0, 25)", check(0, 25, 0))]
    cases += [("attack(5, 15)", attack(5, 15, 0)), ("attack(5, 15, 1)", attack(5, 15, 1)),
              ("attack(15, 10)", attack(15, 10, 0)), ("attack(0, 30, -1)", attack(0, 30, -1))]
    cases += [("damage(5, 15, 1, 8, 3)", damage(5, 15, 1, 8, 3, 0)),
              ("damage(7, 18, 2, 6, 4, -1)", damage(7, 18, 2, 6, 4, -1))]
    death = mapped(die(20), lambda r: "two failures" if r == 1 else "failure" if r < 10
                   else "regain 1 hit point" if r == 20 else "success")
    cases.append(("death_save", death))
    return [(s, d, False) for s, d in cases]


PF2E_DEGREES = ["critical failure", "failure", "success", "critical success"]


def pf2e_degree(r, total, dc):
    # Player Core "Checks": by 10 or more over/under the DC, then the natural 20/1 step.
    degree = 3 if total >= dc + 10 else 2 if total >= dc else 0 if total <= dc - 10 else 1
    if r == 20:
        degree = min(3, degree + 1)
    if r == 1:
        degree = max(0, degree - 1)
    return degree


def pf2e():
    def check(mod, dc):
        return mapped(die(20), lambda r: PF2E_DEGREES[pf2e_degree(r, r + mod, dc)])

    def strike(bonus, ac, attack, agile):
        penalty = ([0, 4, 8] if agile else [0, 5, 10])[min(max(attack, 1), 3) - 1]
        words = ["miss", "miss", "hit", "critical hit"]
        return mapped(die(20), lambda r: words[pf2e_degree(r, r + bonus - penalty, ac)])

    def damage(bonus, ac, n, sides, mod, attack, agile):
        roll = mapped(repeated(die(sides), n, plus, 0), lambda s: s + mod)
        return bind(strike(bonus, ac, attack, agile), lambda result: mapped(roll, lambda v: 2 * v)
                    if result == "critical hit" else roll if result == "hit" else {0: Fraction(1)})

    cases = [(f"check({m}, {dc})", check(m, dc)) for m, dc in ((7, 20), (0, 5), (20, 15), (3, 30), (10, 12))]
    cases += [("strike(10, 20)", strike(10, 20, 1, 0)), ("strike(10, 20, 2)", strike(10, 20, 2, 0)),
              ("strike(10, 20, 3, 1)", strike(10, 20, 3, 1)), ("strike(12, 18, 2, 1)", strike(12, 18, 2, 1))]
    cases += [("damage(10, 20, 1, 8, 4)", damage(10, 20, 1, 8, 4, 1, 0)),
              ("damage(10, 20, 2, 6, 3, 2, 1)", damage(10, 20, 2, 6, 3, 2, 1))]
    cases += [(f"flat({dc})", mapped(die(20), lambda r, dc=dc: "success" if r >= dc else "failure"))
              for dc in (5, 11)]
    return [(s, d, False) for s, d in cases]


def blades():
    def action(dots):
        if dots < 1:
            return enumerate_rolls([range(1, 7)] * 2, lambda r: word(min(r), 0))
        return enumerate_rolls([range(1, 7)] * dots, lambda r: word(max(r), r.count(6)))

    def word(highest, sixes):
        return "critical" if sixes >= 2 else "success" if highest == 6 else "partial" if highest >= 4 else "failure"

    def resist(dots):
        if dots < 1:
            return enumerate_rolls([range(1, 7)] * 2, lambda r: 6 - min(r))
        return enumerate_rolls([range(1, 7)] * dots, lambda r: -1 if r.count(6) >= 2 else 6 - max(r))

    cases = [(f"action({n})", action(n)) for n in (0, 1, 2, 3, 4)]
    cases += [(f"resist({n})", resist(n)) for n in (0, 1, 3)]
    return [(s, d, False) for s, d in cases]


SR_FIELDS = ("hits", "glitch", "critical_glitch")


def sr_outcome(hits, ones, rolled):
    glitch = 1 if 2 * ones > rolled else 0
    return tally(SR_FIELDS, (hits, glitch, 1 if glitch and hits == 0 else 0))


def sr_pool(n):
    """Hits and ones of n d6: a die is a hit (5, 6) 1/3, a one 1/6, else neither."""
    one_die = {(1, 0): Fraction(1, 3), (0, 1): Fraction(1, 6), (0, 0): Fraction(1, 2)}
    return repeated(one_die, n, plus, (0, 0))


def shadowrun():
    cases = [(f"test({n})", mapped(sr_pool(n), lambda ho, n=n: sr_outcome(ho[0], ho[1], n)), False)
             for n in (1, 2, 3, 6, 12)]

    # Push the Limit: every 6 is rolled again; a chain's (hits, ones, dice rolled).
    chain, mass, sixes = {}, Fraction(1), 0
    while mass > TAIL:
        for key, p in (((sixes + 1, 0, sixes + 1), Fraction(1, 6)),   # ends on a 5
                       ((sixes, 1, sixes + 1), Fraction(1, 6)),       # ends on a 1
                       ((sixes, 0, sixes + 1), Fraction(1, 2))):      # ends on 2-4
            chain[key] = chain.get(key, 0) + mass * p
        mass /= 6
        sixes += 1

    def push(dice, edge):
        pool = repeated(chain, dice + edge, plus, (0, 0, 0))
        return mapped(pool, lambda t: sr_outcome(t[0], t[1], t[2]))

    cases += [("push(6, 3)", push(6, 3), True), ("push(2, 1)", push(2, 1), True)]

    def second_chance(dice):
        def after(first):
            hits, ones = first
            glitched = sr_outcome(hits, ones, dice)
            again = mapped(sr_pool(dice - hits), lambda ho: ho[0])
            return mapped(again, lambda extra: tally(SR_FIELDS, (hits + extra, glitched[1][1], glitched[2][1])))
        return bind(sr_pool(dice), after)

    cases += [(f"second_chance({n})", second_chance(n), False) for n in (1, 5)]
    return cases


def wod_successes(n):
    return "failure" if n == 0 else "success" if n < 5 else "exceptional success"


def wod_die(again, rote=False):
    """The successes of one d10 and the dice its `again`s add (each rerolled once if rote)."""
    face = die(10)
    if rote:  # a failed die (below 8) is rolled once more
        face = bind(face, lambda f: die(10) if f < 8 else {f: Fraction(1)})
    out, mass, base = {}, Fraction(1), 0
    explode = sum(p for f, p in face.items() if f >= again)
    while mass > TAIL:
        for f, p in face.items():
            if f < again:
                k = base + (1 if f >= 8 else 0)
                out[k] = out.get(k, 0) + mass * p
        mass *= explode
        base += 1
    return out


def wod():
    def pool(dice, again=10, rote=False):
        return repeated(wod_die(again, rote), dice, plus, 0)

    # The chance die: 1 is a dramatic failure; only 10s succeed, and each 10 is rolled again.
    chance = {"dramatic failure": Fraction(1, 10), "failure": Fraction(8, 10)}
    tens, mass = 1, Fraction(1, 10)
    while mass > TAIL:
        word = wod_successes(tens)
        chance[word] = chance.get(word, 0) + mass * Fraction(9, 10)
        mass /= 10
        tens += 1
    cases = [("pool(5)", pool(5)), ("pool(5, 9)", pool(5, 9)), ("pool(5, 8)", pool(5, 8)), ("pool(1)", pool(1)),
             ("pool(8, 11)", pool(8, 11)), ("chance", chance), ("roll(0)", chance),
             ("roll(3)", mapped(pool(3), wod_successes)), ("roll(7, 8)", mapped(pool(7, 8), wod_successes)),
             ("rote(4)", pool(4, 10, True)), ("rote(3, 9)", pool(3, 9, True))]
    return [(s, d, s != "pool(8, 11)") for s, d in cases]


def coc_percentile(bonus, penalty):
    # Keeper Rulebook: one units die, 1 + |bonus - penalty| tens dice; the best (bonus) or worst
    # (penalty) tens die counts; tens "00" with units "0" reads 100.
    extra = abs(bonus - penalty)
    pick = min if bonus >= penalty else max

    def read(faces):
        units, tens = faces[0], faces[1:]
        return pick(100 if t == 0 and units == 0 else 10 * t + units for t in tens)
    return enumerate_rolls([range(10)] * (2 + extra), read)


def coc():
    def check(skill, bonus=0, penalty=0):
        def level(r):
            if r == 1:
                return "critical success"
            if r == 100 or (skill < 50 and r >= 96):
                return "fumble"
            if r <= skill // 5:
                return "extreme success"
            if r <= skill // 2:
                return "hard success"
            return "regular success" if r <= skill else "failure"
        return mapped(coc_percentile(bonus, penalty), level)

    cases = [("percentile", coc_percentile(0, 0)), ("percentile(1)", coc_percentile(1, 0)),
             ("percentile(2)", coc_percentile(2, 0)), ("percentile(0, 1)", coc_percentile(0, 1)),
             ("percentile(0, 2)", coc_percentile(0, 2)), ("percentile(1, 1)", coc_percentile(1, 1)),
             ("percentile(2, 1)", coc_percentile(2, 1))]
    cases += [("check(50)", check(50)), ("check(45)", check(45)), ("check(60)", check(60)),
              ("check(45, 1)", check(45, 1)), ("check(70, 0, 2)", check(70, 0, 2)), ("check(99)", check(99)),
              ("check(3)", check(3))]
    return [(s, d, False) for s, d in cases]


def savage():
    def wild(sides):
        return joint(exploding(sides), exploding(6))

    def test_word(t, w, mod, tn):
        if t == 1 and w == 1:
            return "critical failure"
        margin = max(t, w) + mod - tn
        return "failure" if margin < 0 else "success" if margin < 4 else "raise"

    def raises(tw, mod, tn):
        # Snake eyes fail critically whatever the modifier: a failure, -1.
        if tw == (1, 1):
            return -1
        return (max(tw) + mod - tn) // 4

    cases = [("trait(8)", mapped(wild(8), lambda tw: max(tw))), ("trait(4, 1)", mapped(wild(4), lambda tw: max(tw) + 1)),
             ("test(6)", mapped(wild(6), lambda tw: test_word(tw[0], tw[1], 0, 4))),
             ("test(8, 1)", mapped(wild(8), lambda tw: test_word(tw[0], tw[1], 1, 4))),
             ("test(12, 0, 8)", mapped(wild(12), lambda tw: test_word(tw[0], tw[1], 0, 8))),
             ("test(4, -2)", mapped(wild(4), lambda tw: test_word(tw[0], tw[1], -2, 4))),
             ("raises(8)", mapped(wild(8), lambda tw: raises(tw, 0, 4))),
             ("raises(10, 2, 6)", mapped(wild(10), lambda tw: raises(tw, 2, 6))),
             ("raises(8, 4)", mapped(wild(8), lambda tw: raises(tw, 4, 4))),
             ("extra(6)", mapped(exploding(6), lambda t: "failure" if t < 4 else "success" if t < 8 else "raise")),
             ("extra(4, 1)", mapped(exploding(4), lambda t: "failure" if t + 1 < 4 else "success" if t + 1 < 8
                                    else "raise"))]
    return [(s, d, True) for s, d in cases]


FATE_LADDER = {-2: "Terrible", -1: "Poor", 0: "Mediocre", 1: "Average", 2: "Fair", 3: "Good", 4: "Great",
               5: "Superb", 6: "Fantastic", 7: "Epic", 8: "Legendary"}


def fate():
    four = enumerate_rolls([(-1, 0, 1)] * 4, sum)

    def outcome(shifts):
        return "fail" if shifts < 0 else "tie" if shifts == 0 else "succeed" if shifts < 3 else "succeed with style"
    cases = [("roll(2)", mapped(four, lambda v: v + 2)), ("roll", four)]
    cases += [(f"ladder({s})", mapped(four, lambda v, s=s: FATE_LADDER[min(8, max(-2, v + s))])) for s in (0, 3, 6)]
    cases += [(f"action({s}, {o})", mapped(four, lambda v, s=s, o=o: outcome(v + s - o))) for s, o in ((2, 3), (4, 1))]
    return [(s, d, False) for s, d in cases]


def ironsworn():
    def against(score_dist):
        def result(t):
            score, c1, c2 = t
            beats = (score > c1) + (score > c2)
            if c1 == c2:
                return "strong hit with a match" if beats == 2 else "miss with a match"
            return ["miss", "weak hit", "strong hit"][beats]
        return mapped(joint(score_dist, die(10), die(10)), result)

    def action(stat, adds=0):
        return against(mapped(die(6), lambda a: min(a + stat + adds, 10)))
    cases = [("action(2)", action(2)), ("action(3, 1)", action(3, 1)), ("action(5, 3)", action(5, 3)),
             ("progress(6)", against({6: Fraction(1)})), ("progress(10)", against({10: Fraction(1)})),
             ("challenge(5)", against({5: Fraction(1)}))]
    return [(s, d, False) for s, d in cases]


YZ_FIELDS = ("successes", "banes", "gear_banes")


def yearzero():
    six, one = Fraction(1, 6), Fraction(1, 6)
    base_die = {(1, 0, 0): six, (0, 1, 0): one, (0, 0, 0): 1 - six - one}
    skill_die = {(1, 0, 0): six, (0, 0, 0): 1 - six}
    gear_die = {(1, 0, 0): six, (0, 0, 1): one, (0, 0, 0): 1 - six - one}

    # Pushing: a die without a 6 or a bane is rolled once more (a skill die's 1 is no bane).
    pushed_base = {(1, 0, 0): six + 4 * six * six, (0, 1, 0): one + 4 * six * one}
    pushed_base[(0, 0, 0)] = 1 - sum(pushed_base.values())
    pushed_skill = {(1, 0, 0): six + 5 * six * six}
    pushed_skill[(0, 0, 0)] = 1 - pushed_skill[(1, 0, 0)]
    pushed_gear = {(1, 0, 0): pushed_base[(1, 0, 0)], (0, 0, 1): pushed_base[(0, 1, 0)]}
    pushed_gear[(0, 0, 0)] = 1 - sum(pushed_gear.values())

    def roll(base, skill=0, gear=0, dice=(base_die, skill_die, gear_die)):
        total = {(0, 0, 0): Fraction(1)}
        for d, n in zip(dice, (base, skill, gear)):
            total = combine(total, repeated(d, n, plus, (0, 0, 0)), plus)
        return mapped(total, lambda t: tally(YZ_FIELDS, t))

    def push(base, skill=0, gear=0):
        return roll(base, skill, gear, (pushed_base, pushed_skill, pushed_gear))
    cases = [("roll(3)", roll(3)), ("roll(3, 2)", roll(3, 2)), ("roll(4, 2, 1)", roll(4, 2, 1)),
             ("roll(5, 3, 2)", roll(5, 3, 2))]
    cases += [("push(3)", push(3)), ("push(3, 2)", push(3, 2)), ("push(4, 2, 1)", push(4, 2, 1)),
              ("push(2, 0, 2)", push(2, 0, 2))]
    return [(s, d, False) for s, d in cases]


# Genesys Core Rulebook, "The Dice": each face as (success, advantage, triumph, failure,
# threat, despair); a triumph is also a success and a despair also a failure.
S, A, TR, F_, T, DE = (1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (1, 0, 1, 0, 0, 0), (0, 0, 0, 1, 0, 0), \
    (0, 0, 0, 0, 1, 0), (0, 0, 0, 1, 0, 1)


def face(*symbols):
    return tuple(sum(s[i] for s in symbols) for i in range(6))


GENESYS_DICE = {
    "ability": [face(), face(S), face(S), face(S, S), face(A), face(A), face(S, A), face(A, A)],
    "proficiency": [face(), face(S), face(S), face(S, S), face(S, S), face(A), face(S, A), face(S, A), face(S, A),
                    face(A, A), face(A, A), face(TR)],
    "boost": [face(), face(), face(S), face(S, A), face(A, A), face(A)],
    "difficulty": [face(), face(F_), face(F_, F_), face(T), face(T), face(T), face(T, T), face(F_, T)],
    "challenge": [face(), face(F_), face(F_), face(F_, F_), face(F_, F_), face(T), face(T), face(F_, T), face(F_, T),
                  face(T, T), face(T, T), face(DE)],
    "setback": [face(), face(), face(F_), face(F_), face(T), face(T)],
}
GENESYS_FACE_FIELDS = ("success", "advantage", "triumph", "failure", "threat", "despair")


def genesys():
    def net(t):
        success, advantage, triumph, failure, threat, despair = t
        return tally(("success", "advantage", "triumph", "despair"),
                     (success - failure, advantage - threat, triumph, despair))

    def check(green, yellow, purple, red=0, blue=0, black=0):
        total = {face(): Fraction(1)}
        for name, n in (("ability", green), ("proficiency", yellow), ("boost", blue), ("difficulty", purple),
                        ("challenge", red), ("setback", black)):
            total = combine(total, repeated(uniform(GENESYS_DICE[name]), n, plus, face()), plus)
        return mapped(total, net)

    def single(name):
        # One die's faces as written in the macro: only the fields it has.
        return mapped(uniform(GENESYS_DICE[name]),
                      lambda t: tuple((f, v) for f, v in zip(GENESYS_FACE_FIELDS, t) if v))

    cases = [(name, single(name)) for name in GENESYS_DICE]
    cases += [("check(2, 1, 2)", check(2, 1, 2)), ("check(1, 0, 1, 1, 1, 1)", check(1, 0, 1, 1, 1, 1)),
              ("check(0, 0, 0)", check(0, 0, 0)), ("check(2, 1, 3)", check(2, 1, 3))]
    return [(s, d, False) for s, d in cases]


SYSTEMS = [("dnd5e", dnd5e), ("pf2e", pf2e), ("pbta", pbta), ("blades", blades), ("shadowrun", shadowrun),
           ("wod", wod), ("coc", coc), ("savage", savage), ("fate", fate), ("ironsworn", ironsworn),
           ("yearzero", yearzero), ("genesys", genesys)]


def as_json(outcome):
    if isinstance(outcome, tuple):
        return {field: value for field, value in outcome}
    return outcome


def order(item):
    outcome = item[0]
    if isinstance(outcome, (int, Fraction)):
        return (0, outcome, "")
    if isinstance(outcome, str):
        return (1, 0, outcome)
    return (2, 0, json.dumps(as_json(outcome)))


def main():
    entries = []
    for system, make in SYSTEMS:
        for statement, dist, explodes in make():
            total = sum(dist.values())
            assert explodes or total == 1, (system, statement, total)
            assert abs(1 - total) < Fraction(1, 10 ** 15), (system, statement, float(total))
            entries.append({"system": system, "statement": statement, "explodes": explodes,
                            "distribution": [[as_json(v), float(p)] for v, p in sorted(dist.items(), key=order)
                                             if p > (SHOWN_TAIL if explodes else 0)]})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT + ".tmp", "w") as f:
        json.dump({"source": "scripts/make-system-reference.py", "cases": entries}, f, indent=None,
                  separators=(",", ":"))
        f.write("\n")
    os.replace(OUT + ".tmp", OUT)
    print(f"{len(entries)} cases written to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
