/* skyline — the Morpheus skyline LP (OSDI 2016, §5): one job's resource
 * allocation s_1..s_K that best fits the usage skylines s_ik of its N runs.
 *
 *   minimize  alpha A_o(s) + (1 - alpha) A_u(s) + beta eps
 *   A_o = (1/N) sum_i sum_k (s_k - s_ik)+                 over-allocation
 *   A_u = (1/N) sum_i D_iK,  D_ik = (D_i,k-1 + s_ik - s_k)+, D_i0 = 0   final debt
 *   eps >= (1/N) sum_i sum_k (s_ik - s_k)+ / sum_k s_ik   regularization
 *   s_k >= 0
 *
 * A run whose usage is all zero has no regularization term (0/0).  beta is
 * either fixed or set by the paper's two-phase rule: solve with beta = 0, get
 * the optimum V, then solve again with beta = beta_frac * V.
 *
 * A prior (not in the paper): with a prior allocation p_1..p_K (last
 * night's skyline) and weight mu > 0 the objective gains
 *   mu sum_k |s_k - p_k|                                   the prior's cost
 * (p_k = 0 past the prior's end), so a step keeps the prior's value unless
 * moving it gains more than mu per container in the fit's own objective: a
 * fit whose optimum is nearly flat between two allocations (a bimodal step)
 * stays where it was instead of flipping with every small change of its
 * runs.  Only the final solve carries it: phase 1 (and so V and beta) is
 * the paper's; objective, a_o, a_u and eps are the fit's own at the
 * result, prior_cost the added term.
 *
 * Three solvers, one optimum:
 *   SKYLINE_PLAIN    the LP exactly as written (s, over/under/debt variables per
 *                    run and step, about 3NK columns) by GLPK; the reference, slow.
 *   SKYLINE_FLOW     the same optimum through duality: with cumulative
 *                    allocation S_k and Q_i = S_K + D_iK the problem is a
 *                    min-cost tension problem (convex piecewise-linear costs on
 *                    S_k - S_k-1, difference constraints Q_i - S_j >= C_iK - C_ij),
 *                    whose LP dual is a min-cost flow on K + N + 1 nodes.  GLPK's
 *                    primal simplex solves the flow with the difference arcs
 *                    generated lazily (only violated ones are added); the
 *                    allocation is read from the node potentials (row duals).
 *   SKYLINE_NETWORK  (default) the same flow by our own primal network simplex,
 *                    about 20x faster than SKYLINE_FLOW and 1000x faster than
 *                    SKYLINE_PLAIN at a month of one-minute steps.
 * The flow solvers are certified: the flow's cost gives a lower bound on the
 * optimum (weak duality), and a fit is accepted only when its exact objective
 * (skyline_eval) is within 1e-9 relative of it.  Otherwise NETWORK falls back
 * to FLOW, and FLOW to PLAIN (skyline_result.fallback says so).
 *
 * Ownership: the caller owns every array; nothing is kept between calls.
 * Errors: functions return a status code (enum skyline_status), never print.
 *
 * Threads: no shared state (the solvers keep their workspaces in their
 * arguments and sort with qsort_r); fits of different jobs may run in
 * different threads.
 */
#ifndef SLOKIT_SKYLINE_H
#define SLOKIT_SKYLINE_H

enum skyline_solver {
    SKYLINE_NETWORK = 0,/* default: the min-cost flow by our network simplex, certified */
    SKYLINE_FLOW = 1,   /* the min-cost flow by GLPK with arc generation, certified */
    SKYLINE_PLAIN = 2   /* the plain LP by GLPK (reference) */
};

enum skyline_status {
    SKYLINE_OK = 0,         /* optimal */
    SKYLINE_ESOLVER = 1,    /* GLPK failed or did not reach an optimum */
    SKYLINE_EINPUT = 2      /* n < 1, k < 1, or a negative/non-finite usage or prior value */
};

struct skyline_opts {
    double alpha;           /* weight of over-allocation, in [0,1] */
    double beta;            /* fixed beta >= 0, or < 0 for the two-phase rule */
    double beta_frac;       /* two-phase rule: beta = beta_frac * V (paper: 0.1) */
    enum skyline_solver solver;
    const double *prior;    /* prior allocation p[0..prior_k-1], or NULL: no prior (see above) */
    int prior_k;            /* its steps (>= 0); steps past it have prior 0 */
    double prior_mu;        /* the prior's weight mu >= 0 (0: no prior) */
};

struct skyline_result {
    double objective;       /* alpha a_o + (1-alpha) a_u + beta eps, evaluated exactly on alloc */
    double prior_cost;      /* mu sum_k |alloc_k - p_k| (0 without a prior) */
    double a_o, a_u, eps;   /* the terms at alloc (eps is the regularizer's left side) */
    double beta;            /* the beta used in the final solve */
    double v;               /* phase-1 optimum (beta = 0) */
    double gap;             /* FLOW: objective minus the certified lower bound (>= ~0) */
    int fallback;           /* a certificate failed: 1 = GLPK flow form used, 2 = plain LP used */
    int lp_solves;          /* GLPK simplex calls */
    int arcs;               /* FLOW: difference arcs generated (of n(k+1)) */
};

/* skyline_defaults: alpha 0.01, two-phase beta with fraction 0.1,
 * SKYLINE_NETWORK, no prior. */
void skyline_defaults(struct skyline_opts *o);

/* skyline_fit: fit the allocation for usage use[i*k + j] (run i, step j;
 * n runs, k steps, containers, >= 0, finite; a prior, when o has one, with
 * finite values >= 0).  Writes alloc[0..k-1] (>= 0) and
 * *res.  Returns SKYLINE_OK, SKYLINE_EINPUT (nothing written) or
 * SKYLINE_ESOLVER (alloc undefined).  Deterministic for the same input. */
int skyline_fit(const double *use, int n, int k, const struct skyline_opts *o,
                double *alloc, struct skyline_result *res);

/* skyline_eval: the exact objective of allocation alloc (alloc_k < 0 counts
 * as given) for weights alpha, beta; stores the terms in *a_o, *a_u, *eps
 * (any may be NULL).  Used to report results and to certify solutions. */
double skyline_eval(const double *use, int n, int k, const double *alloc,
                    double alpha, double beta, double *a_o, double *a_u, double *eps);

/* skyline_prior_cost: mu sum_k |alloc_k - p_k| for o's prior over k steps
 * (0 when o has none). */
double skyline_prior_cost(const struct skyline_opts *o, const double *alloc, int k);

#endif
