/* skyline.mod — the Morpheus skyline LP (OSDI 2016, section 5) exactly as
 * written in the paper, for glpsol: the independent reference that skyfit's
 * tests compare against (tests/check/skyline_check.py).
 *
 *   glpsol -m skyline.mod -d instance.dat
 * prints "OBJ <optimum>" and one "A <k> <s_k>" line per step.
 *
 * With mu > 0 and a prior p (skyfit --prior, not in the paper) the
 * objective gains mu * sum_k |a_k - p_k|, written with r_k >= |a_k - p_k|. */

param N integer > 0;                    /* runs */
param K integer > 0;                    /* steps */
param s{1..N, 1..K} >= 0;               /* usage of run i at step k (containers) */
param alpha >= 0, <= 1;
param beta >= 0;
param mu >= 0, default 0;               /* the prior's weight */
param p{1..K} >= 0, default 0;          /* the prior */
param T{i in 1..N} := sum{k in 1..K} s[i,k];

var a{1..K} >= 0;                       /* the allocation s_k */
var o{1..N, 1..K} >= 0;                 /* (s_k - s_ik)+ */
var u{1..N, 1..K} >= 0;                 /* (s_ik - s_k)+ */
var D{1..N, 0..K} >= 0;                 /* debt */
var eps >= 0;
var r{1..K} >= 0;                       /* |a_k - p_k| */

s.t. over{i in 1..N, k in 1..K}: o[i,k] >= a[k] - s[i,k];
s.t. under{i in 1..N, k in 1..K}: u[i,k] >= s[i,k] - a[k];
s.t. debt0{i in 1..N}: D[i,0] = 0;
s.t. debt{i in 1..N, k in 1..K}: D[i,k] >= D[i,k-1] + s[i,k] - a[k];
s.t. prior_up{k in 1..K}: r[k] >= a[k] - p[k];
s.t. prior_down{k in 1..K}: r[k] >= p[k] - a[k];
s.t. reg: eps >= (1/N) * sum{i in 1..N: T[i] > 0} (sum{k in 1..K} u[i,k]) / T[i];

minimize obj: alpha / N * sum{i in 1..N, k in 1..K} o[i,k]
            + (1 - alpha) / N * sum{i in 1..N} D[i,K]
            + beta * eps
            + mu * sum{k in 1..K} r[k];

solve;
printf "OBJ %.17g\n", obj;
printf{k in 1..K} "A %d %.17g\n", k, a[k];
end;
