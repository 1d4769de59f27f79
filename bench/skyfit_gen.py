#!/usr/bin/python3
"""skyfit_gen.py JOBS N K SEED — the skyfit bench's input: usage rows
job,run,t,containers; every job has N runs of about K one-minute steps in
3-4 stages of random parallelism, noise, 2% zero steps and ragged run
ends.  Python's random with an integer seed gives the same stream on every
Python 3, so the input is the same on every machine (the awk generator it
replaces made different inputs under gawk and mawk)."""
import random, sys
J, N, K, seed = map(int, sys.argv[1:5])
r = random.Random(seed)
w = sys.stdout.write
w("job,run,t,containers\n")
for j in range(J):
    ns = 3 + int(r.random() * 2)
    lvl = [5 + int(r.random() * 200) for _ in range(ns)]
    cut = [(s + 1) / ns for s in range(ns)]
    for i in range(N):
        start = 1767571200 + i * 86400 + int(r.random() * 600)
        ln = K - int(r.random() * K * 0.1)
        out = []
        for k in range(ln):
            s = 0
            while k >= cut[s] * ln and s < ns - 1:
                s += 1
            v = lvl[s] * (0.75 + 0.5 * r.random())
            if r.random() < 0.02:
                v = 0
            out.append("job%05d,r%02d,%d,%d\n" % (j, i, start + 60 * k, int(v + 0.5)))
        w("".join(out))
