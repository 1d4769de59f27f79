/* skyline — the Morpheus skyline LP, solved with GLPK (see skyline.h).
 *
 * Tuned for N runs of up to a few dozen and K steps of up to a few thousand
 * (a month of daily runs at one-minute steps).  The plain LP is kept as the
 * reference; the flow form is what skyfit uses by default.
 *
 * The flow form, briefly (derivation in skyfit(1) and docs/skyfit.md).  Put
 * S_k = s_1 + ... + s_k (S_0 = 0), C_ik the same for run i, and
 * Q_i = S_K + D_iK.  Unrolling the debt recursion, D_iK = max(0, max_j
 * [(C_iK - C_ij) - (S_K - S_j)]), so the LP is
 *   min sum_k g_k(S_k - S_k-1) + c sum_i (Q_i - S_K),  c = (1-alpha)/N
 *   s.t. Q_i - S_j >= C_iK - C_ij (j = 0..K),  S_k - S_k-1 >= 0
 * with g_k(x) = alpha/N sum_i (x - s_ik)+ + beta/N sum_i (s_ik - x)+ / T_i,
 * convex and piecewise linear with breakpoints at the s_ik.  Writing g_k as
 * its slope at 0+ plus hinges (slope jump) * (x - b)+, each hinge becomes an
 * arc S_k -> S_k-1 of capacity "slope jump" and cost b, each difference
 * constraint an uncapacitated arc S_j -> Q_i of cost C_ij - C_iK, s_k >= 0 an
 * uncapacitated arc S_k-1 -> S_k of cost 0, and the linear terms node
 * supplies.  The min-cost flow's optimal node potentials (GLPK row duals,
 * or the network simplex's tree potentials; S_0 the root) are an optimal S, Q.
 * Both flow solvers are certified by solve_one (see skyline.h).
 *
 * The prior's cost mu |x - p_k| is one more convex piecewise-linear term of
 * g_k: slope -mu just right of 0 and a hinge of jump 2 mu at p_k (slope +mu
 * when p_k = 0), so every solver carries it as it carries the runs.
 */
#include "morpheus/skyline.h"

#include "base/diag.h"

#include <float.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void skyline_defaults(struct skyline_opts *o)
{
    o->alpha = 0.01;
    o->beta = -1;
    o->beta_frac = 0.1;
    o->solver = SKYLINE_NETWORK;
    o->prior = NULL;
    o->prior_k = 0;
    o->prior_mu = 0;
}

/* has_prior: o carries a prior term */
static int has_prior(const struct skyline_opts *o)
{
    return o->prior_mu > 0 && o->prior;
}

/* prior_at: p_j (0-based), 0 past the prior's end */
static double prior_at(const struct skyline_opts *o, int j)
{
    return o->prior && j < o->prior_k ? o->prior[j] : 0;
}

double skyline_prior_cost(const struct skyline_opts *o, const double *alloc, int k)
{
    if (!has_prior(o))
        return 0;
    double c = 0;
    for (int j = 0; j < k; j++) {
        double p = prior_at(o, j), d = fabs(alloc[j] - p);
        if (d > 1e-12 * (1 + p))   /* the solvers' rounding is not a change */
            c += d;
    }
    return o->prior_mu * c;
}

/* full_objective: the fit's objective plus the prior's cost: what the
 * solvers minimize and the certificate bounds. */
static double full_objective(const double *use, int n, int k, const double *alloc,
                             const struct skyline_opts *o, double beta)
{
    return skyline_eval(use, n, k, alloc, o->alpha, beta, NULL, NULL, NULL) + skyline_prior_cost(o, alloc, k);
}

double skyline_eval(const double *use, int n, int k, const double *alloc,
                    double alpha, double beta, double *a_o, double *a_u, double *eps)
{
    double over = 0, debt_sum = 0, reg = 0;
    for (int i = 0; i < n; i++) {
        const double *u = use + (size_t)i * k;
        double t = 0, under = 0, d = 0;
        for (int j = 0; j < k; j++) {
            double diff = alloc[j] - u[j];
            if (diff > 0)
                over += diff;
            else
                under -= diff;
            d += u[j] - alloc[j];
            if (d < 0)
                d = 0;
            t += u[j];
        }
        debt_sum += d;
        if (t > 0)
            reg += under / t;
    }
    over /= n;
    debt_sum /= n;
    reg /= n;
    if (a_o)
        *a_o = over;
    if (a_u)
        *a_u = debt_sum;
    if (eps)
        *eps = reg;
    return alpha * over + (1 - alpha) * debt_sum + beta * reg;
}

/* ---- the plain LP ------------------------------------------------------------ */

/* Solve the LP as written in the paper for one beta (and o's prior); alloc
 * gets s.  Columns: s_k, then o_ik, u_ik, D_ik (run-major), then eps, then
 * with a prior r_k >= |s_k - p_k|. */
static int plain_solve(const double *use, int n, int k, const struct skyline_opts *o, double beta,
                       double *alloc)
{
    double alpha = o->alpha;
    int prior = has_prior(o);
    size_t nk = (size_t)n * k;
    int col_s = 1, col_o = 1 + k, col_u = col_o + (int)nk, col_d = col_u + (int)nk;
    int col_eps = col_d + (int)nk, col_r = col_eps + 1, ncols = prior ? col_eps + k : col_eps;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, ncols);
    for (int c = 1; c <= ncols; c++)
        glp_set_col_bnds(lp, c, GLP_LO, 0, 0);
    for (size_t x = 0; x < nk; x++)
        glp_set_obj_coef(lp, col_o + (int)x, alpha / n);
    for (int i = 0; i < n; i++)
        glp_set_obj_coef(lp, col_d + i * k + (k - 1), (1 - alpha) / n);
    glp_set_obj_coef(lp, col_eps, beta);
    for (int j = 0; prior && j < k; j++)
        glp_set_obj_coef(lp, col_r + j, o->prior_mu);

    size_t nnz = 7 * nk + nk + 1 + 1 + (prior ? 4 * (size_t)k : 0);
    int *ia = xmalloc((nnz + 1) * sizeof *ia), *ja = xmalloc((nnz + 1) * sizeof *ja);
    double *ar = xmalloc((nnz + 1) * sizeof *ar);
    size_t z = 0;
    int row = glp_add_rows(lp, (int)(3 * nk + 1 + (prior ? 2 * (size_t)k : 0)));
#define NZ(r, c, v) (z++, ia[z] = (r), ja[z] = (c), ar[z] = (v))
/* GAP(c, sg, v): column c >= sg (s_j - v), one row */
#define GAP(c, sg, v) (NZ(row, (c), 1), NZ(row, col_s + j, -(sg)), glp_set_row_bnds(lp, row++, GLP_LO, -(sg) * (v), 0))
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            int x = i * k + j;
            double s = use[x];
            GAP(col_o + x, 1, s);    /* o_ik >= s_k - s_ik */
            GAP(col_u + x, -1, s);   /* u_ik >= s_ik - s_k */
            /* D_ik >= D_i,k-1 + s_ik - s_k */
            NZ(row, col_d + x, 1);
            if (j > 0)
                NZ(row, col_d + x - 1, -1);
            NZ(row, col_s + j, 1);
            glp_set_row_bnds(lp, row++, GLP_LO, s, 0);
        }
    }
    /* eps >= (1/N) sum_i sum_k u_ik / T_i */
    NZ(row, col_eps, 1);
    for (int i = 0; i < n; i++) {
        double t = 0;
        for (int j = 0; j < k; j++)
            t += use[i * k + j];
        if (t > 0)
            for (int j = 0; j < k; j++)
                NZ(row, col_u + i * k + j, -1.0 / (n * t));
    }
    glp_set_row_bnds(lp, row++, GLP_LO, 0, 0);
    /* r_k >= s_k - p_k and r_k >= p_k - s_k */
    for (int j = 0; prior && j < k; j++) {
        GAP(col_r + j, 1, prior_at(o, j));
        GAP(col_r + j, -1, prior_at(o, j));
    }
#undef GAP
#undef NZ
    glp_load_matrix(lp, (int)z, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    int rc = glp_simplex(lp, &parm), st = SKYLINE_ESOLVER;
    if (rc == 0 && glp_get_status(lp) == GLP_OPT) {
        for (int j = 0; j < k; j++) {
            double v = glp_get_col_prim(lp, col_s + j);
            alloc[j] = v > 0 ? v : 0;
        }
        st = SKYLINE_OK;
    }
    glp_delete_prob(lp);
    return st;
}

/* ---- the flow form with arc generation -------------------------------------- */

struct flow {
    const double *use;
    int n, k;
    const struct skyline_opts *o;   /* the prior (alpha and beta are passed per solve) */
    double *cum;            /* cum[i*(k+1) + j] = C_ij, j = 0..k */
    double *tot;            /* T_i */
    unsigned char *have;    /* have[i*(k+1) + j]: arc S_j -> Q_i is in the LP */
    double *pot;            /* potentials: S_0..S_k, then Q_1..Q_n */
    int arcs;
    /* scratch for the breakpoints of one step */
    double *bp;
    double *slope;
    int *ord;
    double *hcost, *hcap;   /* the hinges of one step (step_hinges) */
    struct ns *ns;          /* the network simplex's basis kept for phase 2 */
    int warm;               /* phase 2 started from phase 1's basis */
};

/* qsort_r comparator: indices by their key (ctx, a double array), then
 * index */
static int by_key(const void *a, const void *b, void *ctx)
{
    const double *key = ctx;
    double x = key[*(const int *)a], y = key[*(const int *)b];
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return *(const int *)a - *(const int *)b;
}

/* step_hinges: g_j (step j, 1-based; with the prior's term when prior is
 * set and f->o has one) as its slope just right of 0 (*sigma0) plus hinges:
 * f->hcost[0..m-1] ascending distinct breakpoints > 0 and f->hcap[] their
 * slope jumps (> 0).  Adds g_j(0) to *g0.  Returns m (at most n + 1). */
static int step_hinges(struct flow *f, int j, double alpha, double beta, int prior, double *sigma0, double *g0)
{
    int n = f->n, k = f->k, m = 0;
    double s0 = 0;
    for (int i = 0; i < n; i++) {
        double s = f->use[(size_t)i * k + (j - 1)];
        double t = f->tot[i];
        if (s <= 0) {
            s0 += alpha / n;
            continue;
        }
        s0 -= beta / (n * t);
        *g0 += beta / n * s / t;
        f->bp[m] = s;
        f->slope[m] = alpha / n + beta / (n * t);
        f->ord[m] = m;
        m++;
    }
    if (prior && has_prior(f->o)) {
        double p = prior_at(f->o, j - 1), mu = f->o->prior_mu;
        if (p > 0) {
            s0 -= mu;
            *g0 += mu * p;
            f->bp[m] = p;
            f->slope[m] = 2 * mu;
            f->ord[m] = m;
            m++;
        } else {
            s0 += mu;
        }
    }
    qsort_r(f->ord, (size_t)m, sizeof *f->ord, by_key, f->bp);
    int h = 0;
    for (int a = 0; a < m;) {
        double b = f->bp[f->ord[a]], jump = 0;
        while (a < m && f->bp[f->ord[a]] == b)
            jump += f->slope[f->ord[a++]];
        if (jump > 0) {
            f->hcost[h] = b;
            f->hcap[h++] = jump;
        }
    }
    *sigma0 = s0;
    return h;
}

static void add_arc(glp_prob *lp, struct flow *f, int i, int j)
{
    int k = f->k, ind[3], cnt = 0;
    double val[3];
    size_t x = (size_t)i * (k + 1) + j;
    f->have[x] = 1;
    f->arcs++;
    int c = glp_add_cols(lp, 1);
    if (j >= 1) {
        cnt++;
        ind[cnt] = j;
        val[cnt] = 1;
    }
    cnt++;
    ind[cnt] = k + 1 + i;
    val[cnt] = -1;
    glp_set_mat_col(lp, c, cnt, ind, val);
    glp_set_col_bnds(lp, c, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, c, f->cum[x] - f->cum[(size_t)i * (k + 1) + k]);
}

static void add_col2(glp_prob *lp, int from, int to, double lo, double hi, double cost)
{
    int ind[3], cnt = 0;
    double val[3];
    int c = glp_add_cols(lp, 1);
    if (from >= 1) {
        cnt++;
        ind[cnt] = from;
        val[cnt] = 1;
    }
    if (to >= 1) {
        cnt++;
        ind[cnt] = to;
        val[cnt] = -1;
    }
    glp_set_mat_col(lp, c, cnt, ind, val);
    if (hi == HUGE_VAL)
        glp_set_col_bnds(lp, c, GLP_LO, lo, 0);
    else
        glp_set_col_bnds(lp, c, GLP_DB, lo, hi);
    glp_set_obj_coef(lp, c, cost);
}

/* One solve of the flow form for weights alpha, beta.  On success fills
 * alloc and *lower (a certified lower bound on the optimum).  Arcs already
 * generated (f->have) are put in from the start. */
static int flow_solve(struct flow *f, double alpha, double beta, double *alloc,
                      double *lower, int *solves)
{
    int n = f->n, k = f->k;
    double c = (1 - alpha) / n;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_rows(lp, k + n);   /* rows 1..k: S_1..S_k; k+1..k+n: Q_1..Q_n */

    double g0 = 0, sigma_prev = 0;
    for (int j = 1; j <= k; j++) {
        double sigma0;
        int m = step_hinges(f, j, alpha, beta, 1, &sigma0, &g0);
        for (int a = 0; a < m; a++)
            add_col2(lp, j, j - 1, 0, f->hcap[a], f->hcost[a]);
        add_col2(lp, j - 1, j, 0, HUGE_VAL, 0);
        /* supply of S_j-1 gets sigma_j - sigma_j-1 (S_0 is the root: no row) */
        if (j >= 2)
            glp_set_row_bnds(lp, j - 1, GLP_FX, sigma0 - sigma_prev, 0);
        sigma_prev = sigma0;
    }
    glp_set_row_bnds(lp, k, GLP_FX, -sigma_prev + c * n, 0);
    for (int i = 0; i < n; i++)
        glp_set_row_bnds(lp, k + 1 + i, GLP_FX, -c, 0);

    /* difference arcs: S_K -> Q_i always, S_0 -> Q_i, and what earlier solves found */
    f->arcs = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= k; j++)
            if (f->have[(size_t)i * (k + 1) + j] || j == 0 || j == k)
                add_arc(lp, f, i, j);

    double scale = 1;
    for (int i = 0; i < n; i++)
        if (f->cum[(size_t)i * (k + 1) + k] > scale)
            scale = f->cum[(size_t)i * (k + 1) + k];
    double tol = 1e-9 * scale;

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_OFF;
    /* tighter than GLPK's 1e-7: the certificate uses the flow's cost */
    parm.tol_bnd = 1e-9;
    parm.tol_dj = 1e-9;
    int st = SKYLINE_ESOLVER;
    glp_scale_prob(lp, GLP_SF_AUTO);
    glp_adv_basis(lp, 0);
    for (int round = 0; round < 10000; round++) {
        int rc = glp_simplex(lp, &parm);
        (*solves)++;
        if (rc != 0 || glp_get_status(lp) != GLP_OPT)
            goto out;
        f->pot[0] = 0;
        for (int j = 1; j <= k; j++)
            f->pot[j] = glp_get_row_dual(lp, j);
        for (int i = 0; i < n; i++)
            f->pot[k + 1 + i] = glp_get_row_dual(lp, k + 1 + i);
        /* price the difference arcs: reduced cost C_ij - C_iK - S_j + Q_i */
        int added = 0;
        for (int i = 0; i < n; i++) {
            const double *ci = f->cum + (size_t)i * (k + 1);
            double q = f->pot[k + 1 + i] - ci[k], best = -tol;
            int bj = -1;
            for (int j = 0; j <= k; j++) {
                double rc_ij = ci[j] - f->pot[j] + q;
                if (rc_ij < best && !f->have[(size_t)i * (k + 1) + j]) {
                    best = rc_ij;
                    bj = j;
                }
            }
            if (bj >= 0) {
                add_arc(lp, f, i, bj);
                added++;
            }
        }
        if (!added)
            break;
    }
    for (int j = 0; j < k; j++) {
        double v = f->pot[j + 1] - f->pot[j];
        alloc[j] = v > 0 ? v : 0;
    }
    *lower = g0 - glp_get_obj_val(lp);
    st = SKYLINE_OK;
out:
    glp_delete_prob(lp);
    return st;
}

/* ---- the flow form by our own network simplex ----------------------------------
 *
 * A primal network simplex (Dantzig-style block pricing, Cunningham's
 * leaving-arc rule) on the same min-cost flow as flow_solve, with every
 * difference arc present except the dominated ones: S_j -> Q_i when run i
 * uses nothing in step j+1 costs exactly as much as S_j -> S_j+1 -> Q_i.
 * The start is a feasible tree without artificial arcs (root S_0): between
 * S_k-1 and S_k the net flow sigma0_k goes forward on the chain arc, or
 * backward on the cheapest hinges; Q_i hangs from S_K with its demand c.
 * Potentials then stay sums of real costs, so they keep full precision.
 * The answer is certified by the caller like flow_solve's. */

enum { NS_TREE = 0, NS_LOWER = 1, NS_UPPER = -1, NS_UP = 1, NS_DOWN = -1 };

/* What pricing reads of an arc, 16 contiguous bytes with the sign folded in:
 * an arc at its lower bound is (cost, src, tgt), at its upper bound
 * (-cost, tgt, src), so its reduced cost is always cost - pot[a] + pot[b],
 * no multiply and no int-to-double conversion.  A tree arc is kept as at
 * lower bound: its reduced cost is 0 up to rounding, far above -eps. */
struct ns_price_arc {
    double cost;
    int a, b;
};

struct ns {
    int nn, m;                  /* nodes, arcs */
    int *src, *tgt;
    double *cap, *cost, *flow;
    struct ns_price_arc *pr;
    signed char *state;
    int *parent, *pred, *depth, *child, *next, *prev, *stack;
    signed char *dir;
    double *pot;
    int next_arc, block;
    int hinge_end;              /* arcs before the warm start's extra ones */
    double eps;
};

static void ns_unlink(struct ns *g, int x)
{
    int p = g->parent[x];
    if (g->prev[x] >= 0)
        g->next[g->prev[x]] = g->next[x];
    else if (p >= 0)
        g->child[p] = g->next[x];
    if (g->next[x] >= 0)
        g->prev[g->next[x]] = g->prev[x];
    g->next[x] = g->prev[x] = -1;
}

static void ns_link(struct ns *g, int x, int p, int arc)
{
    g->parent[x] = p;
    g->pred[x] = arc;
    g->dir[x] = g->src[arc] == x ? NS_UP : NS_DOWN;
    g->next[x] = g->child[p];
    g->prev[x] = -1;
    if (g->child[p] >= 0)
        g->prev[g->child[p]] = x;
    g->child[p] = x;
}

/* depth and potential of the subtree under top from its parent's */
static void ns_update_subtree(struct ns *g, int top)
{
    int sp = 0;
    g->stack[sp++] = top;
    while (sp) {
        int x = g->stack[--sp], p = g->parent[x], a = g->pred[x];
        if (p >= 0) {
            g->depth[x] = g->depth[p] + 1;
            g->pot[x] = g->dir[x] == NS_UP ? g->pot[p] + g->cost[a] : g->pot[p] - g->cost[a];
        }
        for (int c = g->child[x]; c >= 0; c = g->next[c])
            g->stack[sp++] = c;
    }
}

static void ns_set_state(struct ns *g, int e, int st)
{
    g->state[e] = (signed char)st;
    int up = st == NS_UPPER;
    g->pr[e].cost = up ? -g->cost[e] : g->cost[e];
    g->pr[e].a = up ? g->tgt[e] : g->src[e];
    g->pr[e].b = up ? g->src[e] : g->tgt[e];
}

/* the most negative reduced cost of arcs lo..hi-1 below *best, into *best, *in */
static inline void ns_price(const struct ns_price_arc *a, const double *pot, int lo, int hi,
                            double *best, int *in)
{
    double b = *best;
    int bi = *in;
    for (int e = lo; e < hi; e++) {
        double c = a[e].cost - pot[a[e].a] + pot[a[e].b];
        if (c < b) {
            b = c;
            bi = e;
        }
    }
    *best = b;
    *in = bi;
}

/* block pricing: the best arc of the first block, from where the last
 * search stopped, that has one below -eps; -1 when none in all arcs */
static int ns_entering(struct ns *g)
{
    double best = 0;
    int in = -1, e = g->next_arc, m = g->m;
    for (int done = 0; done < m;) {
        int len = g->block < m - done ? g->block : m - done, end = e + len;
        if (end <= m) {
            ns_price(g->pr, g->pot, e, end, &best, &in);
        } else {
            ns_price(g->pr, g->pot, e, m, &best, &in);
            ns_price(g->pr, g->pot, 0, end - m, &best, &in);
            end -= m;
        }
        e = end == m ? 0 : end;
        done += len;
        if (best < -g->eps) {
            g->next_arc = e;
            return in;
        }
    }
    return -1;
}

/* ns_run: pivot to optimality.  Returns 0, or -1 (unbounded or too many pivots). */
static int ns_run(struct ns *g, long max_pivots)
{
    for (long piv = 0;; piv++) {
        if (piv > max_pivots)
            return -1;
        int in = ns_entering(g);
        if (in < 0)
            return 0;
        int first, second;
        if (g->state[in] == NS_LOWER) {
            first = g->src[in];
            second = g->tgt[in];
        } else {
            first = g->tgt[in];
            second = g->src[in];
        }
        /* the join: lowest common ancestor */
        int u = first, v = second;
        while (u != v) {
            if (g->depth[u] > g->depth[v])
                u = g->parent[u];
            else if (g->depth[v] > g->depth[u])
                v = g->parent[v];
            else {
                u = g->parent[u];
                v = g->parent[v];
            }
        }
        int join = u;
        /* the leaving arc: the last blocking one along the cycle's orientation */
        double delta = g->cap[in], d;
        int u_out = -1, result = 0, to_upper = 0;
        for (u = first; u != join; u = g->parent[u]) {
            int e = g->pred[u];
            int up = g->dir[u] == NS_DOWN;  /* flow increases on it */
            d = up ? g->cap[e] - g->flow[e] : g->flow[e];
            if (d < delta) {
                delta = d;
                u_out = u;
                result = 1;
                to_upper = up;
            }
        }
        for (u = second; u != join; u = g->parent[u]) {
            int e = g->pred[u];
            int up = g->dir[u] == NS_UP;
            d = up ? g->cap[e] - g->flow[e] : g->flow[e];
            if (d <= delta) {
                delta = d;
                u_out = u;
                result = 2;
                to_upper = up;
            }
        }
        if (delta == HUGE_VAL)
            return -1;
        if (delta > 0) {
            double val = g->state[in] * delta;
            g->flow[in] += val;
            for (u = g->src[in]; u != join; u = g->parent[u])
                g->flow[g->pred[u]] -= g->dir[u] * val;
            for (u = g->tgt[in]; u != join; u = g->parent[u])
                g->flow[g->pred[u]] += g->dir[u] * val;
        }
        if (result == 0) {
            /* the entering arc goes from one bound to the other */
            ns_set_state(g, in, -g->state[in]);
            g->flow[in] = g->state[in] == NS_LOWER ? 0 : g->cap[in];
            continue;
        }
        int out = g->pred[u_out];
        g->flow[out] = to_upper ? g->cap[out] : 0;
        ns_set_state(g, out, to_upper ? NS_UPPER : NS_LOWER);
        ns_set_state(g, in, NS_TREE);
        /* re-hang the cut subtree from the entering arc: reverse the path
         * u_in .. u_out */
        int u_in = result == 1 ? first : second, v_in = result == 1 ? second : first;
        int x = u_in, np = v_in, na = in;
        for (;;) {
            int op = g->parent[x], oa = g->pred[x];
            ns_unlink(g, x);
            ns_link(g, x, np, na);
            if (x == u_out)
                break;
            np = x;
            na = oa;
            x = op;
        }
        ns_update_subtree(g, u_in);
    }
}

static void ns_free(struct ns *g)
{
    if (!g)
        return;
    free(g->src); free(g->tgt); free(g->cost); free(g->pr); free(g->cap); free(g->flow); free(g->state);
    free(g->parent); free(g->pred); free(g->depth); free(g->child); free(g->next); free(g->prev);
    free(g->stack); free(g->dir); free(g->pot);
    free(g);
}

static void ns_drop(struct flow *f)
{
    ns_free(f->ns);
    f->ns = NULL;
}

/* ns_alloc: g sized for n runs of k steps: chain k, hinges <= (n + 1) k
 * (the prior's one more; twice when warm-started), difference arcs <=
 * n (k + 1). */
static void ns_alloc(struct ns *g, int n, int k)
{
    memset(g, 0, sizeof *g);
    g->nn = k + 1 + n;
    size_t cap_arcs = (size_t)k + 2 * ((size_t)n + 1) * k + (size_t)n * (k + 1);
    g->src = xmalloc(cap_arcs * sizeof *g->src);
    g->tgt = xmalloc(cap_arcs * sizeof *g->tgt);
    g->cost = xmalloc(cap_arcs * sizeof *g->cost);
    g->pr = xmalloc(cap_arcs * sizeof *g->pr);
    g->cap = xmalloc(cap_arcs * sizeof *g->cap);
    g->flow = xmalloc(cap_arcs * sizeof *g->flow);
    g->state = xmalloc(cap_arcs);
    g->parent = xmalloc((size_t)g->nn * sizeof(int));
    g->pred = xmalloc((size_t)g->nn * sizeof(int));
    g->depth = xmalloc((size_t)g->nn * sizeof(int));
    g->child = xmalloc((size_t)g->nn * sizeof(int));
    g->next = xmalloc((size_t)g->nn * sizeof(int));
    g->prev = xmalloc((size_t)g->nn * sizeof(int));
    g->stack = xmalloc((size_t)g->nn * sizeof(int));
    g->dir = xmalloc((size_t)g->nn);
    g->pot = xmalloc((size_t)g->nn * sizeof(double));
    for (int v = 0; v < g->nn; v++)
        g->child[v] = g->next[v] = g->prev[v] = g->parent[v] = g->pred[v] = -1;
    g->depth[0] = 0;
    g->pot[0] = 0;
}

static void ns_arc(struct ns *g, int s, int t, double cap, double cost, double flow, int st)
{
    int m = g->m++;
    g->src[m] = s;
    g->tgt[m] = t;
    g->cap[m] = cap;
    g->cost[m] = cost;
    g->flow[m] = flow;
    ns_set_state(g, m, st);
}

/* ns_cold: the network for alpha, beta with the start tree described above;
 * adds g_j(0) of every step to *g0.  Returns 0, or -1 (cannot happen). */
static int ns_cold(struct ns *g, struct flow *f, double alpha, double beta, double *g0)
{
    int n = f->n, k = f->k;
    double c = (1 - alpha) / n, maxcost = 1;
    for (int j = 1; j <= k; j++) {
        double sigma0, r;
        int h = step_hinges(f, j, alpha, beta, 1, &sigma0, g0), tree = sigma0 >= 0;
        if (h > 0 && f->hcost[h - 1] > maxcost)
            maxcost = f->hcost[h - 1];
        ns_arc(g, j - 1, j, HUGE_VAL, 0, tree ? sigma0 : 0, tree ? NS_TREE : NS_LOWER);
        if (tree)
            ns_link(g, j, j - 1, g->m - 1);
        r = -sigma0;
        for (int a = 0; a < h; a++) {
            if (tree) {
                ns_arc(g, j, j - 1, f->hcap[a], f->hcost[a], 0, NS_LOWER);
            } else if (r > f->hcap[a] && a + 1 < h) {
                ns_arc(g, j, j - 1, f->hcap[a], f->hcost[a], f->hcap[a], NS_UPPER);
                r -= f->hcap[a];
            } else {
                ns_arc(g, j, j - 1, f->hcap[a], f->hcost[a], fmin(r, f->hcap[a]), NS_TREE);
                ns_link(g, j, j - 1, g->m - 1);
                tree = 1;
            }
        }
        if (!tree)
            return -1;   /* cannot happen: the hinges can carry -sigma0 */
    }
    for (int i = 0; i < n; i++) {
        const double *ci = f->cum + (size_t)i * (k + 1);
        const double *ui = f->use + (size_t)i * k;
        if (ci[k] > maxcost)
            maxcost = ci[k];
        ns_arc(g, k, k + 1 + i, HUGE_VAL, 0, c, NS_TREE);
        ns_link(g, k + 1 + i, k, g->m - 1);
        for (int j = 0; j < k; j++)
            if (ui[j] > 0)   /* else S_j -> S_j+1 -> Q_i costs the same */
                ns_arc(g, j, k + 1 + i, HUGE_VAL, ci[j] - ci[k], 0, NS_LOWER);
    }
    g->eps = 1e-12 * maxcost;
    g->hinge_end = g->m;
    return 0;
}

/* ns_warm: turn g, optimal for (alpha, 0) without a prior and built by
 * ns_cold, into a feasible basis for (alpha, beta > 0) and f->o's prior.
 * Same arcs and costs; each hinge's capacity grows by its beta part, and
 * the supplies change by exactly what the beta parts carry backward when
 * saturated.  So: a hinge in the tree or at its upper bound takes its beta
 * part (flow + part), and a hinge at its lower bound gets a parallel arc of
 * the same cost holding the part at its upper bound.  The prior's term
 * mu |x - p| comes as arcs of its own, at their bounds: for p > 0 two
 * backward arcs of cost p and capacity mu, one saturated (it carries the
 * slope's -mu at 0), one empty; for p = 0 a forward arc of cost 0 and
 * capacity mu, saturated (the slope's +mu).  The tree and its flows stay.
 * Adds g_j(0) to *g0; returns 0, or -1 when the steps' hinges differ
 * (alpha = 0: no hinges at beta 0). */
static int ns_warm(struct ns *g, struct flow *f, double alpha, double beta, double *g0)
{
    int k = f->k, e = 0, m0 = g->m;
    for (int j = 1; j <= k; j++) {
        double sigma0;
        int h = step_hinges(f, j, alpha, beta, 0, &sigma0, g0);
        e++;   /* the chain arc */
        for (int a = 0; a < h; a++, e++) {
            if (e >= m0 || g->src[e] != j || g->tgt[e] != j - 1 || g->cost[e] != f->hcost[a])
                return -1;
            double part = f->hcap[a] - g->cap[e];
            if (!(part >= 0))
                return -1;
            if (g->state[e] == NS_LOWER) {
                /* the arc keeps its capacity: the parallel one adds the part */
                if (part > 0)
                    ns_arc(g, j, j - 1, part, f->hcost[a], part, NS_UPPER);
            } else {
                g->flow[e] += part;
                g->cap[e] = f->hcap[a];
            }
        }
        if (e < m0 && g->src[e] == j && g->tgt[e] == j - 1)
            return -1;   /* a hinge more at beta 0 */
        if (has_prior(f->o)) {
            double p = prior_at(f->o, j - 1), mu = f->o->prior_mu;
            if (p > 0) {
                ns_arc(g, j, j - 1, mu, p, mu, NS_UPPER);
                ns_arc(g, j, j - 1, mu, p, 0, NS_LOWER);
                *g0 += mu * p;
            } else {
                ns_arc(g, j - 1, j, mu, 0, mu, NS_UPPER);
            }
        }
    }
    return 0;
}

/* ns_finish: pivot to optimality, then alloc from the potentials and
 * *lower = g0 - flow cost.  Returns SKYLINE_OK or SKYLINE_ESOLVER. */
/* snap_step: v, the allocation of step j read as a difference of two
 * potentials of magnitude up to mag, set to the step's breakpoint (a run's
 * usage, the prior's value, or 0) it differs from by no more than the
 * rounding of that difference: the optimum's steps lie on breakpoints, and a
 * constant usage of 3.3 came out 3.2999999999999998 and 3.3000000000000007
 * (one step below every run's usage).  The nearest breakpoint wins. */
static double snap_step(const struct flow *f, int j, double v, double mag)
{
    double tol = 64 * DBL_EPSILON * mag, best = v, bd = tol;
    for (int i = 0; i <= f->n + 1; i++) {
        if (i == f->n && !has_prior(f->o))
            continue;
        double c = i < f->n ? f->use[(size_t)i * f->k + j] : i == f->n ? prior_at(f->o, j) : 0;
        double d = fabs(v - c);
        if (d <= bd) {
            bd = d;
            best = c;
        }
    }
    return best;
}

static int ns_finish(struct ns *g, const struct flow *f, double g0, double *alloc, double *lower)
{
    int k = f->k;
    /* small blocks: most arcs price out, and a pivot changes few potentials
     * (sqrt(m)/8 measured about 40% faster than sqrt(m) on N=30 x K=1440) */
    g->block = (int)(sqrt((double)g->m) / 8);
    if (g->block < 10)
        g->block = 10;
    g->next_arc = 0;
    ns_update_subtree(g, 0);
    /* pivots seen: under one per arc; far more means cycling: let GLPK do it */
    if (ns_run(g, 20L * (g->m + g->nn) + 10000) < 0)
        return SKYLINE_ESOLVER;
    ns_update_subtree(g, 0);   /* fresh potentials, no accumulated drift */
    double flow_cost = 0;
    for (int a = 0; a < g->m; a++)
        flow_cost += g->cost[a] * g->flow[a];
    for (int j = 0; j < k; j++) {
        double v = snap_step(f, j, g->pot[j + 1] - g->pot[j], fmax(fabs(g->pot[j]), fabs(g->pot[j + 1])));
        alloc[j] = v > 0 ? v : 0;
    }
    *lower = g0 - flow_cost;
    return SKYLINE_OK;
}

/* ns_solve: the flow form for alpha, beta by the network simplex, from
 * f->ns (the optimal basis of the same alpha at beta 0) when there is one,
 * else from the cold start.  Keeps the final basis in f->ns when beta is 0
 * (for the second phase), frees it otherwise. */
static int ns_solve(struct flow *f, double alpha, double beta, double *alloc, double *lower)
{
    double g0 = 0;
    struct ns *g = f->ns;
    int st = SKYLINE_ESOLVER;
    if (g && beta > 0 && ns_warm(g, f, alpha, beta, &g0) == 0) {
        f->warm = 1;
    } else {
        ns_drop(f);
        g = f->ns = xmalloc(sizeof *g);
        ns_alloc(g, f->n, f->k);
        g0 = 0;
        if (ns_cold(g, f, alpha, beta, &g0) < 0)
            goto out;
    }
    st = ns_finish(g, f, g0, alloc, lower);
    f->arcs = g->hinge_end;
out:
    if (st != SKYLINE_OK || beta > 0)
        ns_drop(f);
    return st;
}

/* certified: the flow's bound lower and the exact objective obj of the
 * allocation agree to 1e-9 relative.  Both ways: a bound above the
 * objective is no bound (the flow solved was not this LP's dual; the warm
 * start once gave its hinges their beta part twice and was not caught). */
static int certified(double obj, double lower)
{
    return fabs(obj - lower) <= 1e-9 * (1 + fabs(obj));
}

/* keep: when alloc (objective obj) is the best uncertified answer so far,
 * copy it to best (*best_obj: its objective, INFINITY: none yet) */
static void keep(const double *alloc, double obj, int k, double *best, double *best_obj)
{
    if (obj < *best_obj) {
        *best_obj = obj;
        memcpy(best, alloc, (size_t)k * sizeof *best);
    }
}

static int solve_one(struct flow *f, const struct skyline_opts *o, double beta,
                     double *alloc, struct skyline_result *res)
{
    double lower;
    if (o->solver == SKYLINE_PLAIN) {
        res->lp_solves++;
        return plain_solve(f->use, f->n, f->k, o, beta, alloc);
    }
    /* an answer whose certificate fails is still an allocation, its exact
     * objective known: when every solver's fails (a job of usage from 1e-4
     * to 1e11, where each is off by its own rounding), the lowest objective
     * wins, not the last solver's (GLPK's plain LP, 27% above the network's
     * exact optimum on one such job) */
    double *best = xmalloc((size_t)f->k * sizeof *best), best_obj = INFINITY;
    int st;
    if (o->solver == SKYLINE_NETWORK) {
        st = ns_solve(f, o->alpha, beta, alloc, &lower);
        if (st == SKYLINE_OK) {
            double obj = full_objective(f->use, f->n, f->k, alloc, o, beta);
            res->gap = obj - lower;
            if (certified(obj, lower))
                goto done;
            keep(alloc, obj, f->k, best, &best_obj);
        }
        res->fallback = 1;   /* certificate failed: GLPK decides */
    }
    st = flow_solve(f, o->alpha, beta, alloc, &lower, &res->lp_solves);
    if (st == SKYLINE_OK) {
        double obj = full_objective(f->use, f->n, f->k, alloc, o, beta);
        res->gap = obj - lower;
        if (certified(obj, lower))
            goto done;
        keep(alloc, obj, f->k, best, &best_obj);
    }
    /* certificate failed: the reference LP, and the best answer of the three */
    res->fallback = 2;
    res->lp_solves++;
    st = plain_solve(f->use, f->n, f->k, o, beta, alloc);
    if (st == SKYLINE_OK)
        keep(alloc, full_objective(f->use, f->n, f->k, alloc, o, beta), f->k, best, &best_obj);
    if (best_obj < INFINITY) {
        memcpy(alloc, best, (size_t)f->k * sizeof *best);
        st = SKYLINE_OK;
    }
done:
    free(best);
    return st;
}

int skyline_fit(const double *use, int n, int k, const struct skyline_opts *o,
                double *alloc, struct skyline_result *res)
{
    if (n < 1 || k < 1)
        return SKYLINE_EINPUT;
    for (size_t x = 0; x < (size_t)n * k; x++)
        if (!(use[x] >= 0) || !isfinite(use[x]))
            return SKYLINE_EINPUT;
    if (!(o->prior_mu >= 0) || !isfinite(o->prior_mu) || o->prior_k < 0 || (o->prior_k > 0 && !o->prior))
        return SKYLINE_EINPUT;
    for (int j = 0; o->prior && j < o->prior_k; j++)
        if (!(o->prior[j] >= 0) || !isfinite(o->prior[j]))
            return SKYLINE_EINPUT;
    memset(res, 0, sizeof *res);
    glp_term_out(GLP_OFF);

    struct flow f = { .use = use, .n = n, .k = k, .o = o };
    f.cum = xmalloc((size_t)n * (k + 1) * sizeof *f.cum);
    f.tot = xmalloc((size_t)n * sizeof *f.tot);
    f.have = xcalloc((size_t)n * (k + 1), 1);
    f.pot = xmalloc((size_t)(k + 1 + n) * sizeof *f.pot);
    /* a step's breakpoints: one per run and the prior's */
    f.bp = xmalloc(((size_t)n + 1) * sizeof *f.bp);
    f.slope = xmalloc(((size_t)n + 1) * sizeof *f.slope);
    f.ord = xmalloc(((size_t)n + 1) * sizeof *f.ord);
    f.hcost = xmalloc(((size_t)n + 1) * sizeof *f.hcost);
    f.hcap = xmalloc(((size_t)n + 1) * sizeof *f.hcap);
    for (int i = 0; i < n; i++) {
        double *ci = f.cum + (size_t)i * (k + 1);
        ci[0] = 0;
        for (int j = 0; j < k; j++)
            ci[j + 1] = ci[j] + use[(size_t)i * k + j];
        f.tot[i] = ci[k];
    }

    double beta = o->beta;
    int st;
    if (beta < 0) {
        /* phase 1 is the paper's, without the prior: V is the data's own */
        struct skyline_opts o1 = *o;
        o1.prior = NULL;
        o1.prior_mu = 0;
        f.o = &o1;
        st = solve_one(&f, &o1, 0, alloc, res);
        f.o = o;
        if (st != SKYLINE_OK)
            goto out;
        res->v = skyline_eval(use, n, k, alloc, o->alpha, 0, NULL, NULL, NULL);
        /* an optimum of 0 computed as 1e-14 must not become a beta */
        double scale = 0;
        for (int i = 0; i < n; i++)
            scale += f.tot[i] / n;
        if (res->v <= 1e-12 * (1 + scale))
            res->v = 0;
        beta = o->beta_frac * res->v;
    }
    if (o->beta >= 0 || beta > 0 || has_prior(o)) {
        st = solve_one(&f, o, beta, alloc, res);
        if (st != SKYLINE_OK)
            goto out;
    }
    res->beta = beta;
    res->arcs = f.arcs;
    res->objective = skyline_eval(use, n, k, alloc, o->alpha, beta, &res->a_o, &res->a_u, &res->eps);
    res->prior_cost = skyline_prior_cost(o, alloc, k);
    if (o->beta >= 0)
        res->v = NAN;
    st = SKYLINE_OK;
out:
    free(f.cum);
    free(f.tot);
    free(f.have);
    free(f.pot);
    free(f.bp);
    free(f.slope);
    free(f.ord);
    free(f.hcost);
    free(f.hcap);
    ns_drop(&f);
    return st;
}
