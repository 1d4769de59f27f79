#!/usr/bin/python3
"""plan_segment.py -- cut a plan into segments, written from the file format
in lib/morpheus/plan.h (not from lcmpack's code), to test that readers take trailers
in the middle of a plan.

usage: plan_segment.py IN OUT K...
Writes IN's data rows unchanged, with a trailer (kind "end", the number of
data rows so far, the CRC-32 chain of their crc fields so far) before data
row K (0-based) for every K given, and one at the end.  K = 0 gives an empty
first segment, K = the number of rows an empty last one.
"""
import csv, sys, zlib
src, dst, cuts = sys.argv[1], sys.argv[2], sorted(int(k) for k in sys.argv[3:])
rows = list(csv.reader(open(src, newline='')))
data = [r for r in rows[1:] if r[2] != 'end']
step, lcm = rows[-1][6], rows[-1][7]
def trailer(n, chain):
    return ['slokit-plan/1', '', 'end', str(n), '', '', step, lcm] + [''] * 9 + ['%08x' % chain]
out, chain = [rows[0]], 0
for i, r in enumerate(data + [None]):
    for k in cuts:
        if k == i:
            out.append(trailer(i, chain))
    if r is None:
        break
    out.append(r)
    chain = zlib.crc32(r[17].encode(), chain)
out.append(trailer(len(data), chain))
with open(dst, 'w', newline='') as f:
    csv.writer(f, lineterminator='\n').writerows(out)
