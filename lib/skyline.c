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
 * S_0 the root) are an optimal S, Q.
 */
#include "skyline.h"

#include "diag.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void skyline_defaults(struct skyline_opts *o)
{
    o->alpha = 0.01;
    o->beta = -1;
    o->beta_frac = 0.1;
    o->solver = SKYLINE_FLOW;
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

/* Solve the LP as written in the paper for one beta; alloc gets s.
 * Columns: s_k, then o_ik, u_ik, D_ik (run-major), then eps. */
static int plain_solve(const double *use, int n, int k, double alpha, double beta,
                       double *alloc)
{
    size_t nk = (size_t)n * k;
    int col_s = 1, col_o = 1 + k, col_u = col_o + (int)nk, col_d = col_u + (int)nk;
    int col_eps = col_d + (int)nk, ncols = col_eps;
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

    size_t nnz = 7 * nk + nk + 1 + 1;
    int *ia = xmalloc((nnz + 1) * sizeof *ia), *ja = xmalloc((nnz + 1) * sizeof *ja);
    double *ar = xmalloc((nnz + 1) * sizeof *ar);
    size_t z = 0;
    int row = glp_add_rows(lp, (int)(3 * nk + 1));
#define NZ(r, c, v) (z++, ia[z] = (r), ja[z] = (c), ar[z] = (v))
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) {
            int x = i * k + j;
            double s = use[x];
            /* o_ik >= s_k - s_ik */
            NZ(row, col_o + x, 1);
            NZ(row, col_s + j, -1);
            glp_set_row_bnds(lp, row++, GLP_LO, -s, 0);
            /* u_ik >= s_ik - s_k */
            NZ(row, col_u + x, 1);
            NZ(row, col_s + j, 1);
            glp_set_row_bnds(lp, row++, GLP_LO, s, 0);
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
    glp_set_row_bnds(lp, row, GLP_LO, 0, 0);
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
    double *cum;            /* cum[i*(k+1) + j] = C_ij, j = 0..k */
    double *tot;            /* T_i */
    unsigned char *have;    /* have[i*(k+1) + j]: arc S_j -> Q_i is in the LP */
    double *pot;            /* potentials: S_0..S_k, then Q_1..Q_n */
    int arcs;
    /* scratch for the breakpoints of one step */
    double *bp;
    double *slope;
    int *ord;
};

static const double *sort_key;
static int by_key(const void *a, const void *b)
{
    double x = sort_key[*(const int *)a], y = sort_key[*(const int *)b];
    if (x < y)
        return -1;
    if (x > y)
        return 1;
    return *(const int *)a - *(const int *)b;
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
        /* breakpoints of g_j and its slope just right of 0 */
        double sigma0 = 0;
        int m = 0;
        for (int i = 0; i < n; i++) {
            double s = f->use[(size_t)i * k + (j - 1)];
            double t = f->tot[i];
            if (s <= 0) {
                sigma0 += alpha / n;
                continue;
            }
            sigma0 -= beta / (n * t);
            g0 += beta / n * s / t;
            f->bp[m] = s;
            f->slope[m] = alpha / n + beta / (n * t);
            f->ord[m] = m;
            m++;
        }
        sort_key = f->bp;
        qsort(f->ord, (size_t)m, sizeof *f->ord, by_key);
        for (int a = 0; a < m;) {
            double b = f->bp[f->ord[a]], jump = 0;
            while (a < m && f->bp[f->ord[a]] == b)
                jump += f->slope[f->ord[a++]];
            if (jump > 0)
                add_col2(lp, j, j - 1, 0, jump, b);
        }
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

static int solve_one(struct flow *f, const struct skyline_opts *o, double beta,
                     double *alloc, struct skyline_result *res)
{
    double lower;
    if (o->solver == SKYLINE_PLAIN) {
        res->lp_solves++;
        return plain_solve(f->use, f->n, f->k, o->alpha, beta, alloc);
    }
    int st = flow_solve(f, o->alpha, beta, alloc, &lower, &res->lp_solves);
    if (st == SKYLINE_OK) {
        double obj = skyline_eval(f->use, f->n, f->k, alloc, o->alpha, beta, NULL, NULL, NULL);
        res->gap = obj - lower;
        if (res->gap <= 1e-9 * (1 + fabs(obj)))
            return SKYLINE_OK;
    }
    /* certificate failed: the reference LP decides */
    res->fallback = 1;
    res->lp_solves++;
    return plain_solve(f->use, f->n, f->k, o->alpha, beta, alloc);
}

int skyline_fit(const double *use, int n, int k, const struct skyline_opts *o,
                double *alloc, struct skyline_result *res)
{
    if (n < 1 || k < 1)
        return SKYLINE_EINPUT;
    for (size_t x = 0; x < (size_t)n * k; x++)
        if (!(use[x] >= 0) || !isfinite(use[x]))
            return SKYLINE_EINPUT;
    memset(res, 0, sizeof *res);
    glp_term_out(GLP_OFF);

    struct flow f = { .use = use, .n = n, .k = k };
    f.cum = xmalloc((size_t)n * (k + 1) * sizeof *f.cum);
    f.tot = xmalloc((size_t)n * sizeof *f.tot);
    f.have = xcalloc((size_t)n * (k + 1), 1);
    f.pot = xmalloc((size_t)(k + 1 + n) * sizeof *f.pot);
    f.bp = xmalloc((size_t)n * sizeof *f.bp);
    f.slope = xmalloc((size_t)n * sizeof *f.slope);
    f.ord = xmalloc((size_t)n * sizeof *f.ord);
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
        st = solve_one(&f, o, 0, alloc, res);
        if (st != SKYLINE_OK)
            goto out;
        res->v = skyline_eval(use, n, k, alloc, o->alpha, 0, NULL, NULL, NULL);
        beta = o->beta_frac * res->v;
    }
    if (o->beta >= 0 || beta > 0) {
        st = solve_one(&f, o, beta, alloc, res);
        if (st != SKYLINE_OK)
            goto out;
    }
    res->beta = beta;
    res->arcs = f.arcs;
    res->objective = skyline_eval(use, n, k, alloc, o->alpha, beta, &res->a_o, &res->a_u, &res->eps);
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
    return st;
}
