"""planwin — the plan's window rule, written out again for the checkers.

window_steps(base, a, d, S, need): the steps [lo, hi) a reservation of need
steps (at full parallelism) may use in a window [base + a, base + d] s on a
grid of S s steps: the whole steps inside it, except that the grid never
refuses a request whose length fits the window: when need <= L =
floor((d - a) / S) but more grid steps than lie inside (L - 1), the window
starts one step early, at the grid point below a (the deadline d, the SLO,
never moves).  need=None widens whenever the grid cut a step (a superset:
for lower bounds).  A plan's reservation of len steps is checked with
need = len.
docs/lcmpack.md, "Windows off the grid".
"""
import math


def window_steps(base, a, d, S, need=None):
    lo = math.ceil((base + a) / S - 1e-9)
    hi = math.floor((base + d) / S + 1e-9)
    whole = math.floor((d - a) / S + 1e-9)
    if need is None:
        need = whole                            # a relaxation: widen whenever cut
    if hi - lo < need <= whole and lo > 0:
        lo -= 1                                 # the grid point below a; d stays
    return max(lo, 0), hi
