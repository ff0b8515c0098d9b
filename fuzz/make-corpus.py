#!/usr/bin/env python3
"""Writes the fuzzer's seed corpus, fuzz/corpus/, from the grammar, the examples and
the conformance cases. Run from the package root: python3 fuzz/make-corpus.py

Each seed is one input of the harness (fuzz/FuzzDice.swift): a program, optionally
followed by a NUL byte and an 8-byte seed. Seeds are named by the hash of their bytes,
so rerunning the script only adds what is new; `--clean` rewrites the directory.
"""
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
CONFORMANCE = os.environ.get("CONFORMANCE_CASES",
                             os.path.join(ROOT, "..", "shared", "conformance", "cases.jsonl"))
MAX_SEED = 2048

# Every production of grammar/dice.ebnf and every modifier, compare point and function.
GRAMMAR = [
    # numbers and arithmetic
    "42", "1.5", "0", "9223372036854775807", "-9223372036854775807 - 1", "1 + 2 * 3", "(1 + 2) * 3",
    "7 / 2", "6 / 2", "7 // 2", "-7 // 2", "-7 % 3", "7 % -3", "2 ^ 10", "2 ^ -1", "0 ^ 0", "2 ^ 3 ^ 2",
    "-2 ^ 2", "+3", "--3", "-+-3", "10.0 ^ 400", "1 / 0", "1 // 0", "1 % 0", "(-9223372036854775807 - 1) % -1",
    "9223372036854775807 + 1", "0.1 + 0.2", "1.5 * 2",
    # comparisons
    "1 == 1", "1 != 2", "1 <> 2", "1 < 2", "1 <= 2", "1 > 2", "1 >= 2", "1 < 2 < 3", "1d20 + 5 >= 15",
    # functions
    "abs(-3)", "floor(-3.5)", "ceil(3.2)", "round(2.5)", "round(-2.5)", "min(1, 2, 3)", "max(1d6, 1d6)",
    "min()", "abs(1, 2)", "repeat(3, 1d6)", "repeat(0, 1d6)", "repeat(6, 4d6kh3)", "repeat(4, 1d6)kh2",
    "repeat(5, 1d10)cs>=6", "repeat(-1, 1)", "repeat(1.5, 1)",
    # dice forms
    "d20", "1d20", "4d6", "0d6", "d%", "3d%", "dF", "4dF", "d{1,1,2,3}", "2d{-1,0,1}", "d{}", "(1d4)d6",
    "2d(3)", "(2)d(1d4 + 2)", "1d0", "-1d6", "1.5d6", "1d1.5", "d", "dd", "2d6d6",
    # keep and drop
    "4d6kh3", "4d6kh", "4d6k3", "4d6k", "4d6kl1", "4d6kl", "4d6dh1", "4d6dh", "4d6dl1", "4d6dl", "4d6d1",
    "4d6kh(1 + 1)", "4d6kh(1.5)", "4d6kh(-1)", "4d6kh10", "4d6dl10", "8d6kh4dl1", "2d20kh1 + 5",
    # explode, compound, penetrate
    "8d6!", "3d6!!", "3d6!p", "6d10!>=8", "6d10!>8", "6d10!=10", "6d10!10", "2d6!!=4", "2d6!<>4",
    "2d6!!=4", "3d6!p>5", "1d1!", "1d6!<7", "2d6!(1 + 5)", "4d6!!<=2", "5d10!!>=9kh3",
    # rerolls
    "1d20ro1", "4d6r<3", "4d6r", "4d6ro", "4d6r1r2", "1d6r<7", "2d6ro<=2", "3d6r=1ro=2",
    # clamps
    "3d6mi2", "3d6ma5", "3d6mi2ma5", "3d6mi(1 + 1)", "3d6mi7", "3d6ma0", "4dFmi0",
    # counting
    "6d10cs>=8", "6d10cf<3", "6d10cs>=8df=1", "6d10!cs>=8df=1", "6d10df=1", "6d10cs>=8cf<3",
    "10d10cs>7cs<2", "4d6cs=6", "4d6cs6", "4d6cs!=1", "4d6cs<>1",
    # sorting
    "5d6s", "5d6sa", "5d6sd", "5d6sdkh3",
    # groups
    "{1d20 + 5, 1d20 + 5}kh1", "{1, 2, 3}", "{1d6, 2d6, 3d6}dl1", "{3d6, 3d6}cs>10", "{1, 2}df=1",
    "{1d6}!", "{1d6}r1", "{}", "{1, {2, 3}kh1}",
    # annotations and comments
    "2d6 [fire] + 1d8 [cold]", "8d6 [fire damage]", "1d6 [", "1d6 [a] [b]", "[x]", "1d6 # comment",
    "#!/usr/bin/env dice\n1d6",
    # statements
    "x = 3", "x = 3; x + 1", "x = 1d6\nx * 2", "def atk = 1d20 + 5\natk", "def smite(n) = (n + 1)d8\nsmite(2)",
    "def m(a, b) = a + b; m(1d6, 2)", "def m(a) = a + a + 1d6; m(1d4)", "stats 4d6kh3", "stats 1d20 + 5 >= 15",
    "stats 2d6!", "stats (1d4)d6", "stats repeat(3, 1d6)kh2", "def f = f\nf", "def f(n) = f(n - 1)\nf(3)",
    "def a = b; def b = a; a", "x = 1; x = x + 1; x", "def x = 1; x = 2; x", "d6 = 3", "def = 1", "stats",
    "def m() = 1; m()", "def m(a, a) = a; m(1, 2)", "y", "strength = 16; strenght", "x = ", "= 3", "1 +",
    "(((1)))", "(1", "1)", "{1, 2", "1;;2\n\n3", "1\r\n2\r\n", "\ufeff1d6",
    # values near the limits
    "100000d6", "1000001d6", "repeat(100001, 1)", "9223372036854775807d6", "1d9223372036854775807",
    "4d9223372036854775807", "3000000000d6", "2 ^ 62 * 2", "(2 ^ 62) * 4", "9223372036854775807 * 1.5",
    "x = 10000000000.5 * 10000000000", "x = 0.5 ^ 40", "x = 2 ^ 62 / 3",
    "9223.372036854775036", "922337203685477580.7",
]

# Odd bytes: invalid UTF-8, control characters, NUL, non-ASCII letters.
BINARY = [
    b"\xff\xfe1d6", b"1d6\xc3", b"1d6 + \xe2\x82", b"\x00", b"1\x002", b"\x01\x02\x03", b"\xc3\xa9 = 1",
    b"1d6 [\xf0\x9f\x8e\xb2]", b"\x7f", b"x\xe2\x80\x8b = 1", b"1d6\x1b[31m",
    # texts with control characters (escaped in JSON), a mark followed by a combining mark
    b'"%\x10"', b'"a\x00b\x1f"', b'1 [_\xcc\x97 d\xcc\x97`]',
]


def seed_suffix(seed):
    return b"\x00" + seed.to_bytes(8, "big")


def collect():
    seeds = []
    for text in GRAMMAR:
        seeds.append(text.encode())
    for text in GRAMMAR[:40]:
        seeds.append(text.encode() + seed_suffix(42))
    seeds.extend(BINARY)
    examples = os.path.join(ROOT, "examples")
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".dice"):
            continue
        with open(os.path.join(examples, name), "rb") as handle:
            data = handle.read()
        seeds.append(data[:MAX_SEED])
    if os.path.exists(CONFORMANCE):
        with open(CONFORMANCE) as handle:
            for line in handle:
                case = json.loads(line)
                if "stmts" in case:
                    text = "\n".join(case["stmts"])
                elif isinstance(case.get("script"), str):
                    text = case["script"]
                else:
                    continue
                data = text.encode()
                if len(data) <= MAX_SEED:
                    seeds.append(data)
    else:
        print(f"make-corpus: {CONFORMANCE} not found; conformance seeds skipped", file=sys.stderr)
    unique = {}
    for data in seeds:
        unique.setdefault(hashlib.sha1(data).hexdigest(), data)
    return unique


def main():
    unique = collect()
    os.makedirs(CORPUS, exist_ok=True)
    if "--clean" in sys.argv:
        for name in os.listdir(CORPUS):
            os.remove(os.path.join(CORPUS, name))
    for digest, data in unique.items():
        with open(os.path.join(CORPUS, digest[:16]), "wb") as handle:
            handle.write(data)
    print(f"make-corpus: {len(unique)} seeds in {os.path.relpath(CORPUS, ROOT)}")


if __name__ == "__main__":
    main()
