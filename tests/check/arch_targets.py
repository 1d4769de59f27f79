#!/usr/bin/env python3
"""arch_targets.py — measure the architecture targets of the tree.

  python3 tests/check/arch_targets.py [--max-fn 120] [--max-cmd-share 0.20] [--list N]

Targets (issue "Architecture"): cmd/ holds under 20% of the C lines of
cmd/ + lib/; no function in cmd/ or lib/ is longer than 120 lines; every
tool's main leaves through one cleanup path (one `return`, no `exit(` call
inside main itself); every lib header states what may be shared between
threads (its comment mentions threads: "Threads: ..."); no lib module keeps mutable file-scope
state (comparators get their context through qsort_r) except the
process-wide services listed in PROCESS_STATE, each with its reason.  Function extents come from universal-ctags (its
`end:` field), so this script does not parse C itself.  Prints a report
and exits 1 when a target is not met (0 when all are), 2 on a usage error.
"""
import argparse, glob, os, re, subprocess, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


# Mutable file-scope state that is process-wide on purpose.
PROCESS_STATE = {
    "lib/base/diag.c": "the tool's name, stdout buffer, finish hooks and progress line: one per process",
    "lib/base/strhash.c": "the string tables' secret hash key, drawn once under pthread_once",
    "lib/base/outfile.c": "temporary names the signal handlers remove: one table per process",
    "lib/base/cli.c": "the parsed command line and its shared reject file: one per process",
    "lib/harvest/fft.c": "FFTW's planner is not thread-safe: one lock per process",
    "lib/morpheus/planfile.c": "the CRC-32 table, built once under pthread_once",
    "lib/plot/plot.c": "the temporary directory its signal handler removes: one chart drawn at a time",
}


def file_statics(path):
    """Mutable file-scope variables (static, not const, outside functions)."""
    found, depth = [], 0
    for n, l in enumerate(lines(os.path.join(ROOT, path)), 1):
        code = re.sub(r"/\*.*?\*/|//.*$|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", "", l)
        decl = code.split("=")[0]
        if depth == 0 and re.match(r"\s*static\b", decl) and "(" not in decl \
                and not re.search(r"\bconst\b", decl.replace("* const", "*")):
            found.append((n, l.strip()))
        depth += code.count("{") - code.count("}")
    return found


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def functions(paths):
    """(file, name, first line, last line) of every function definition."""
    out = subprocess.run(["ctags", "--fields=+ne", "--c-kinds=f", "-o", "-"] + paths,
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    fns = []
    for row in out.splitlines():
        parts = row.split("\t")
        name, path = parts[0], parts[1]
        fields = dict(p.split(":", 1) for p in parts[3:] if ":" in p)
        if "line" in fields and "end" in fields:
            fns.append((path, name, int(fields["line"]), int(fields["end"])))
    return fns


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-fn", type=int, default=120)
    ap.add_argument("--max-cmd-share", type=float, default=0.20)
    ap.add_argument("--list", type=int, default=15, help="longest functions to list")
    a = ap.parse_args()
    cmd = sorted(glob.glob("cmd/*.c", root_dir=ROOT))
    lib = sorted(glob.glob("lib/*/*.[ch]", root_dir=ROOT))
    ncmd = sum(len(lines(os.path.join(ROOT, p))) - 1 for p in cmd)
    nlib = sum(len(lines(os.path.join(ROOT, p))) - 1 for p in lib)
    share = ncmd / (ncmd + nlib)
    ok = True
    print(f"cmd/ lines: {ncmd} of {ncmd + nlib} ({100 * share:.1f}%), target under {100 * a.max_cmd_share:.0f}%:"
          f" {'met' if share < a.max_cmd_share else 'NOT met'}")
    ok &= share < a.max_cmd_share

    fns = functions(cmd + [p for p in lib if p.endswith(".c")])
    fns.sort(key=lambda f: -(f[3] - f[2] + 1))
    long_fns = [f for f in fns if f[3] - f[2] + 1 > a.max_fn]
    print(f"functions over {a.max_fn} lines: {len(long_fns)} of {len(fns)}:"
          f" {'met' if not long_fns else 'NOT met'}")
    for path, name, b, e in fns[:max(a.list, len(long_fns))]:
        mark = "  over" if e - b + 1 > a.max_fn else ""
        print(f"  {e - b + 1:5d}  {path}:{b}  {name}{mark}")
    ok &= not long_fns

    bad_mains = []
    for path, name, b, e in fns:
        if name != "main" or not path.startswith("cmd/"):
            continue
        body = lines(os.path.join(ROOT, path))[b - 1:e]
        code = [re.sub(r"/\*.*?\*/|//.*$", "", l) for l in body]
        nret = sum(len(re.findall(r"\breturn\b", l)) for l in code)
        nexit = sum(len(re.findall(r"\bexit\s*\(", l)) for l in code)
        if nret != 1 or nexit:
            bad_mains.append((path, nret, nexit))
    print(f"mains with more than one exit path: {len(bad_mains)}:"
          f" {'met' if not bad_mains else 'NOT met'}")
    for path, nret, nexit in bad_mains:
        print(f"  {path}: {nret} return, {nexit} exit()")
    ok &= not bad_mains

    silent = [p for p in lib if p.endswith(".h")
              and not re.search(r"(?i)\bthread", "\n".join(lines(os.path.join(ROOT, p))))]
    print(f"lib headers that do not say what threads may share: {len(silent)} of "
          f"{sum(p.endswith('.h') for p in lib)}: {'met' if not silent else 'NOT met'}")
    for p in silent:
        print(f"  {p}")
    ok &= not silent

    state = [(p, n, l) for p in lib if p.endswith(".c") and p not in PROCESS_STATE
             for n, l in file_statics(p)]
    print(f"mutable file-scope state outside the process-wide services: {len(state)}:"
          f" {'met' if not state else 'NOT met'}")
    for p, n, l in state:
        print(f"  {p}:{n}  {l}")
    ok &= not state
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
