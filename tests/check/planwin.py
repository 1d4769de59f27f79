"""planwin — the plan's window rule, written out again for the checkers.

window_steps(base, a, d, S): the steps [lo, hi) a reservation of a window
[base + a, base + d] s may use on a grid of S s steps: the whole steps inside
it, except that the grid never costs the window a whole step: when only
L - 1 grid steps lie inside but d - a >= L * S, the window starts one step
early, at the grid point below a (the deadline d, the SLO, never moves).
docs/lcmpack.md, "Windows off the grid".
"""
import math


def window_steps(base, a, d, S):
    lo = math.ceil((base + a) / S - 1e-9)
    hi = math.floor((base + d) / S + 1e-9)
    whole = math.floor((d - a) / S + 1e-9)
    if hi - lo < whole and lo > 0:
        lo -= 1                                 # the grid point below a; d stays
    return max(lo, 0), hi
