/* Unit tests of lib/jockey/jockeyio: a sample stream fed to an Amdahl
 * controller (a job far behind its deadline gets more than its allocation;
 * every decision reaches the callback), and the stream's rejections. */
#include "unit.h"
#include "base/diag.h"
#include "jockey/jockeyio.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *write_tmp(const char *text)
{
    static char path[4][64];
    static int which;
    char *p = path[which++ & 3];
    snprintf(p, sizeof path[0], "/tmp/test_jockeyio_XXXXXX");
    int fd = mkstemp(p);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return p;
}

struct seen {
    int n;
    double last_new;
};

static void decide(void *ctx, double t, const char *job, const struct jockey_decision *dec)
{
    struct seen *s = ctx;
    s->n++;
    s->last_new = dec->new_alloc;
}

static int run(const char *text, struct seen *s, struct jockey_stats *js)
{
    struct jockey_opts o;
    jockey_opts_default(&o);
    o.deadline = 600;
    o.parallel = 3600;   /* C(p, a) = (1 - p) 3600 / a: 1 token needs an hour */
    jockey *jk = NULL;
    CHECK(jockey_new(&o, NULL, NULL, NULL, &jk) == SLK_OK);
    char *p = write_tmp(text);
    int st;
    csvr *r = csvr_open_with(p, &csv_dialect_plain, 0, &st);
    st = jockeyio_run(r, jk, decide, s);
    jockey_get_stats(jk, js);
    csvr_close(r);
    jockey_free(jk);
    unlink(p);
    return st;
}

int main(void)
{
    slk_init("test_jockeyio");
    struct seen s = {0, 0};
    struct jockey_stats js;
    CHECK(run("job,t,progress,alloc\nj,0,0,1\nj,60,0.01,1\n", &s, &js) == SLK_OK);
    CHECK(js.samples == 2);
    CHECK(s.n >= 1 && (unsigned)s.n == js.changes);
    CHECK(s.last_new > 1);           /* 1 token would take an hour for a 600 s deadline */
    struct seen s2 = {0, 0};
    CHECK(run("job,t,progress,alloc\nj,60,0,1\nj,0,0.1,1\n", &s2, &js) == SLK_EDATA); /* time goes back */
    CHECK(run("job,t,progress,alloc\nj,0,1.5,1\n", &s2, &js) == SLK_EDATA);           /* progress above 1 */
    CHECK(run("job,t,alloc\nj,0,1\n", &s2, &js) == SLK_EDATA);                        /* no progress column */
    return unit_done("jockeyio");
}
