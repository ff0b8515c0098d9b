#!/usr/bin/env python3
"""Writes scripts/startup.order: the functions and data that short `dice` commands touch,
in the order they first touch them, for the linker to lay out side by side.

    make release && python3 scripts/make-startup-order.py

Why: a command like `dice --stats -e 3d6` lives about a millisecond, and most of that is
the kernel mapping pages of the executable. Each first touch of a 64 KB stretch of code
or data is a page fault that maps up to 16 pages, and when the binary came into the page
cache through `exec` (after a reboot, say) those pages are single 4 KB folios, each
costing the kernel bookkeeping of its own. Left to itself the linker scatters what start-up
runs over most of the 6 MB of code, so `dice --stats -e 3d6` took 131 page faults;
with this order (code compiled with `-function-sections`, linked by lld with
`--symbol-ordering-file`) it takes about 80. See the Makefile's `release` target.

How: valgrind's lackey tool traces every instruction and data address of each command
below; an address becomes the symbol that contains it (`nm` of the unstripped static
executable, whose addresses are fixed); symbols are listed in first-touch order, commands
in the order below (the most common first). What start-up runs moves a little with the
layout itself (the runtime's caches are keyed by addresses: a metadata accessor called with
one layout is not with the next), so names of the previous file not seen this time but still
in the binary stay, after the others. Symbols that later go missing (renamed code) are
skipped by the linker, so a stale file costs speed, never correctness: re-run this after
large changes to what start-up runs (`make startup-order`). Needs valgrind and nm.
"""
import bisect
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "scripts", "startup.order")
BINARY = os.path.join(ROOT, ".build", "release", "dice")

# What people run from a shell, most common first; all finish in well under a second.
COMMANDS = [
    ["-e", "1d20"],
    ["--stats", "-e", "3d6"],
    ["-e", "4d6kh3 + 2"],
    ["-n", "3", "-e", "2d20kh1 + 5"],
    ["-t", "-n", "5", "-e", "8d6!"],
    ["--json", "-e", "2d6 + 3"],
    ["--stats", "-e", "2d20kh1 + 5 >= 15"],
    ["--version"],
    ["-e", "1d"],  # an error, with its caret
]
SCRIPT = "def atk = 1d20 + 5\natk\n4d6kh3\n"

CODE_TYPES = set("tTwW")
DATA_TYPES = set("dDbBrRvVgGsS")


def symbols(binary, types):
    """[(address, name)] sorted, of nm's defined symbols of the given types."""
    out = subprocess.run(["nm", "-n", "--defined-only", binary], capture_output=True, text=True,
                         check=True).stdout
    table = []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[1] in types and not parts[2].startswith("."):
            table.append((int(parts[0], 16), parts[2]))
    return table


def trace(binary, args, stdin_text=None):
    """Lackey's trace of one run: [(kind, address)] with kind 'I' (instruction) or 'D'."""
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "lackey.txt")
        subprocess.run(["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={log}",
                        binary] + args, input=(stdin_text or "").encode(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        events = []
        with open(log) as lines:
            for line in lines:
                kind = line[:2].strip()
                if kind not in ("I", "L", "S", "M") or len(line) < 4:
                    continue
                fields = line[3:].split(",")
                try:
                    address = int(fields[0], 16)
                except ValueError:
                    continue
                events.append(("I" if kind == "I" else "D", address))
        return events


def main():
    for tool in ("valgrind", "nm"):
        if not shutil.which(tool):
            sys.exit(f"make-startup-order: {tool} is missing (apt-get install valgrind binutils)")
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"make-startup-order: {BINARY} is missing: run `make release` first")
    code, data = symbols(BINARY, CODE_TYPES), symbols(BINARY, DATA_TYPES)
    code_starts, data_starts = [a for a, _ in code], [a for a, _ in data]
    low_data = data_starts[0] if data_starts else 0
    # The heap starts past the end of .bss (`_end`): addresses there belong to no symbol.
    end = next((a for a, n in data if n == "_end"), None) or max(data_starts, default=0)

    def owner(table, starts, address):
        index = bisect.bisect_right(starts, address) - 1
        return table[index][1] if index >= 0 else None

    order, seen = [], set()
    runs = [(args, None) for args in COMMANDS]
    with tempfile.NamedTemporaryFile("w", suffix=".dice", delete=False) as script:
        script.write(SCRIPT)
    runs.append(([script.name], None))
    try:
        for args, stdin_text in runs:
            for kind, address in trace(BINARY, args, stdin_text):
                if address >= end:
                    continue
                if kind == "I":
                    name = owner(code, code_starts, address)
                elif address >= low_data:
                    name = owner(data, data_starts, address)
                else:
                    continue
                if name and name not in seen:
                    seen.add(name)
                    order.append(name)
    finally:
        os.unlink(script.name)
    traced = len(order)
    if os.path.exists(OUT):
        present = {name for _, name in code} | {name for _, name in data}
        with open(OUT) as previous:
            for line in previous:
                name = line.strip()
                if name and not name.startswith("#") and name not in seen and name in present:
                    seen.add(name)
                    order.append(name)
    with open(OUT, "w") as out:
        out.write("# Written by scripts/make-startup-order.py: what short dice commands touch,\n")
        out.write("# first touch first, for lld's --symbol-ordering-file (see the Makefile).\n")
        for name in order:
            out.write(name + "\n")
    print(f"make-startup-order: {traced} symbols traced, {len(order) - traced} kept from the last file, "
          f"into {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
