/* unit.h — the smallest unit-test harness that tells you what failed.
 *
 *   CHECK(cond)                   a condition
 *   CHECK_NEAR(got, want, tol)    |got - want| <= tol (absolute)
 *   CHECK_STR(got, want)          string equality
 *   return unit_done("name");     prints "#unit name P F" for tests/run.sh
 */
#ifndef SLOKIT_UNIT_H
#define SLOKIT_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_pass, unit_fail;

#define CHECK(c) do { if (c) unit_pass++; else { unit_fail++; \
    fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define CHECK_NEAR(got, want, tol) do { double g_ = (got), w_ = (want); \
    if (fabs(g_ - w_) <= (tol) || (isnan(g_) && isnan(w_))) unit_pass++; else { unit_fail++; \
    fprintf(stderr, "FAIL %s:%d: %s = %.17g, want %.17g\n", __FILE__, __LINE__, #got, g_, w_); } } while (0)
#define CHECK_STR(got, want) do { const char *g_ = (got), *w_ = (want); \
    if (g_ && w_ && strcmp(g_, w_) == 0) unit_pass++; else { unit_fail++; \
    fprintf(stderr, "FAIL %s:%d: %s = '%s', want '%s'\n", __FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); } } while (0)

static inline int unit_done(const char *name)
{
    printf("#unit %s %d %d\n", name, unit_pass, unit_fail);
    return unit_fail ? 1 : 0;
}

#endif
