#!/usr/bin/python3
"""replay_plan.py — write a slokit-plan/1 file from a hand-made spec (tests only).

Reads CSV rows job,kind,instance,cycle,t,step,lcm,stage,gang,containers,cores,
mem_mb,period,a,d,problematic on stdin and writes them as a plan (the literal
plan column, a CRC-32 per row, the trailer), computed independently of
lib/morpheus/plan with zlib.crc32, so tests can feed reprov and replay exact plans.
"""
import csv
import sys
import zlib

FMT = "slokit-plan/1"
COLS = ["plan", "job", "kind", "instance", "cycle", "t", "step", "lcm", "stage", "gang",
        "containers", "cores", "mem_mb", "period", "a", "d", "problematic", "crc"]

rows = list(csv.DictReader(sys.stdin))
out = sys.stdout
out.write(",".join(COLS) + "\n")
crcs = ""
step = lcm = ""
for r in rows:
    vals = [FMT] + [r[c] for c in COLS[1:17]]
    crc = "%08x" % (zlib.crc32(",".join(vals).encode()) & 0xffffffff)
    crcs += crc
    step, lcm = r["step"], r["lcm"]
    out.write(",".join(vals + [crc]) + "\n")
trailer = [FMT, "", "end", str(len(rows)), "", "", step, lcm] + [""] * 9
out.write(",".join(trailer + ["%08x" % (zlib.crc32(crcs.encode()) & 0xffffffff)]) + "\n")
