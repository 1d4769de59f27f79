#!/usr/bin/python3
"""sloinfer_permute.py — any order of the run rows gives the same bytes.

usage: sloinfer_permute.py SLOINFER RUNS.csv TMPDIR [SEED...] [-- ARGS...]

Runs `SLOINFER -q ARGS RUNS.csv`, then the same on copies of RUNS.csv whose
rows (the header stays first) are reversed and shuffled with Python's
random.shuffle under each SEED (default 1 2 3 4 5), and checks that every
output is byte-identical to the first.  sloinfer(1) reads the history "in
any order", and two runs of a period equally near the schedule are settled
by their values, not their line: a shuffle that moves one of them first must
not change the SLO.  Independent of sloinfer: it only permutes lines and
compares bytes.  Exit 1 on any difference (the differing rows of the first
permutation that differs are printed), 0 otherwise.
"""
import os, random, subprocess, sys


def run(cmd, args, path):
    out = subprocess.run(cmd.split() + ["-q"] + args + [path], capture_output=True)
    if out.returncode != 0:
        sys.exit("sloinfer failed on %s: %s" % (path, out.stderr.decode()))
    return out.stdout


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd, path, tmp = argv[:3]
    seeds = [int(s) for s in argv[3:]] or [1, 2, 3, 4, 5]
    with open(path, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    if rows and not rows[-1].endswith(b"\n"):
        rows[-1] += b"\n"
    ref = run(cmd, extra, path)
    orders = [("reversed", rows[::-1])]
    for s in seeds:
        p = list(rows)
        random.Random(s).shuffle(p)
        orders.append(("shuffle seed %d" % s, p))
    bad = 0
    os.makedirs(tmp, exist_ok=True)
    for name, p in orders:
        if p == rows and len(rows) > 1:
            sys.exit("%s: the permutation is the identity; pick another seed" % name)
        q = os.path.join(tmp, "permuted.csv")
        with open(q, "wb") as f:
            f.write(head + b"".join(p))
        got = run(cmd, extra, q)
        if got != ref:
            a, b = ref.decode().splitlines(), got.decode().splitlines()
            diff = [(x, y) for x, y in zip(a, b) if x != y]
            print("%s: %d rows differ%s" % (name, len(diff) + abs(len(a) - len(b)),
                                            " (row counts %d, %d)" % (len(a), len(b)) if len(a) != len(b) else ""))
            if not bad:
                for x, y in diff[:5]:
                    print("  input order: %s\n  %s: %s" % (x, name, y))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
