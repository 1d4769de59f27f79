#!/usr/bin/python3
"""keyshard_check.py INPUT KEY N PREFIX [ORDER] — check keyshard's split
independently: every input record is in shard fmix64(fnv1a64(key)) % N (the
hash written out here from its definitions), in input order, with the header
on top of every shard; nothing is lost or added; with no quotes in the input
the shards' lines are the input's bytes; ORDER lists the key groups in input
order.  Exits 1 with the first difference."""
import csv, io, sys

M64 = (1 << 64) - 1

def fnv1a64(b):
    h = 14695981039346656037
    for c in b:
        h = ((h ^ c) * 1099511628211) & M64
    return h

def fmix64(h):
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & M64
    h ^= h >> 33
    h = (h * 0xc4ceb9fe1a85ec53) & M64
    h ^= h >> 33
    return h

def records(data):
    return list(csv.reader(io.StringIO(data.decode('utf-8'), newline='')))

def main():
    path, key, n, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = open(path, 'rb').read()
    rows = records(data)
    header, body = rows[0], [r for r in rows[1:] if r]
    k = header.index(key)
    want = [[] for _ in range(n)]
    groups = []
    for r in body:
        s = fmix64(fnv1a64(r[k].encode())) % n
        want[s].append(r)
        if not groups or groups[-1][1] != r[k]:
            groups.append((s, r[k]))
    raw = b'"' not in data
    lines = data.split(b'\n')
    want_lines = [[] for _ in range(n)]
    if raw:
        for ln in lines[1:]:
            if ln:
                want_lines[fmix64(fnv1a64(ln.split(b',')[k].rstrip(b'\r'))) % n].append(ln)
    for s in range(n):
        got = open('%s%04d.csv' % (prefix, s), 'rb').read()
        grows = records(got)
        if not grows or grows[0] != header:
            sys.exit('shard %d: header %r, want %r' % (s, grows[:1], header))
        if grows[1:] != want[s]:
            sys.exit('shard %d: %d rows, want %d (first difference at %s)' % (
                s, len(grows) - 1, len(want[s]),
                next((i for i, (a, b) in enumerate(zip(grows[1:], want[s])) if a != b), 'the end')))
        if raw and got.split(b'\n')[1:-1] != want_lines[s]:
            sys.exit('shard %d: bytes differ from the input lines' % s)
    if len(sys.argv) > 5:
        order = records(open(sys.argv[5], 'rb').read())
        if order[0] != ['shard', 'key'] or [(int(a), b) for a, b in order[1:]] != groups:
            sys.exit('order file differs: %r... want %r...' % (order[1:4], groups[:3]))
    print('ok: %d rows, %d groups, %d shards' % (len(body), len(groups), n))

main()
