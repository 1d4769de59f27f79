#!/usr/bin/python3
"""plan_recrc.py -- rewrite a plan's CRCs after editing it, to test that the
reader's semantic checks (holes, windows, repeated instances) catch what a
checksum cannot: a plan edited by someone who recomputed the checksums.

usage: plan_recrc.py IN OUT LINE FIELD VALUE   (LINE 1-based, FIELD a column name)
Sets FIELD of line LINE to VALUE, recomputes every row's crc and every
trailer (each holds the rows so far and the chain of their crcs).
"""
import csv, sys, zlib
src, dst, line, field, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
rows = list(csv.reader(open(src, newline='')))
col = rows[0].index(field)
rows[line - 1][col] = value
chain = n = 0
for r in rows[1:]:
    if r[2] == 'end':
        r[3], r[17] = str(n), '%08x' % chain
        continue
    r[17] = '%08x' % zlib.crc32(','.join(r[:17]).encode())
    chain = zlib.crc32(r[17].encode(), chain)
    n += 1
with open(dst, 'w', newline='') as f:
    csv.writer(f, lineterminator='\n').writerows(rows)
