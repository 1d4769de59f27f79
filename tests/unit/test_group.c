/* Unit tests of lib/base/group: the group-by iterator and the rows -s holds
 * (group_held), on hand-worked key sequences. */
#include "unit.h"
#include "base/diag.h"
#include "base/group.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct rec {
    int id;
    double v;
};

int main(void)
{
    slk_init("test_group");

    /* a a b | a: the third key starts a group, the fourth comes back */
    group_iter g;
    group_begin(&g, "job", GROUP_SORTABLE);
    CHECK(group_next(&g, "f", 2, "a") == GROUP_NEW);
    CHECK(group_next(&g, "f", 3, "a") == GROUP_SAME);
    CHECK(group_next(&g, "f", 4, "b") == GROUP_NEW);
    CHECK(group_next(&g, "f", 5, "b") == GROUP_SAME);
    fprintf(stderr, "(the 'not grouped' message below is expected)\n");
    CHECK(group_next(&g, "f", 6, "a") == GROUP_ERROR);
    group_end(&g);

    /* group_row over a reader, strict and under --on-error skip: the key
     * that comes back stops the reader either way (skipping rows cannot
     * group an input) */
    for (int skip = 0; skip < 2; skip++) {
        char path[] = "/tmp/test_group_XXXXXX";
        FILE *f = fdopen(mkstemp(path), "w");
        fputs("job,v\na,1\na,2\nb,3\na,4\nc,5\n", f);
        fclose(f);
        FILE *rf = tmpfile();
        csv_rejects *rj = csv_rejects_new(rf);
        struct csv_dialect d = csv_dialect_plain;
        if (skip)
            d.rejects = rj;
        int st;
        csvr *r = csvr_open_with(path, &d, 0, &st);
        int c = csvr_require(r, "job"), n = 0, got[5] = {9, 9, 9, 9, 9};
        group_begin(&g, "job", GROUP_SORTABLE);
        while (csvr_next(r) == 1 && n < 5) {
            got[n] = group_row(&g, r, csvr_field(r, c));
            if (got[n++] == GROUP_ERROR)
                break;
        }
        CHECK(n == 4);
        CHECK(got[0] == GROUP_NEW && got[1] == GROUP_SAME && got[2] == GROUP_NEW && got[3] == GROUP_ERROR);
        CHECK(csvr_status(r) == SLK_EDATA);
        CHECK(csv_rejects_count(rj) == 0);
        csvr_close(r);
        group_end(&g);
        csv_rejects_free(rj);
        fclose(rf);
        unlink(path);
    }

    /* held rows: keys b a b a with orders 5 3 1 3 (ids 0..3) sort to
     * a/3 (id 1), a/3 (id 3: equal key and order keep input order),
     * b/1 (id 2), b/5 (id 0) */
    group_held *h = group_held_new(sizeof(struct rec));
    const char *keys[4] = {"b", "a", "b", "a"};
    double ord[4] = {5, 3, 1, 3};
    for (int i = 0; i < 4; i++)
        group_held_add(h, keys[i], ord[i], 10 + i, &(struct rec){i, ord[i] * 2});
    CHECK(group_held_sort(h) == 4);
    int want_id[4] = {1, 3, 2, 0};
    const char *want_key[4] = {"a", "a", "b", "b"};
    for (size_t i = 0; i < 4; i++) {
        const char *k;
        long line;
        const struct rec *r = group_held_row(h, i, &k, &line);
        CHECK(r->id == want_id[i]);
        CHECK_STR(k, want_key[i]);
        CHECK(line == 10 + want_id[i]);
        CHECK_NEAR(r->v, ord[want_id[i]] * 2, 0);
    }
    group_held_free(h);

    /* strings kept by the store stay put while it grows past one arena
     * block (1 MiB) and its rows are sorted */
    h = group_held_new(sizeof(const char *));
    const char *first = NULL;
    char key[32];
    for (int i = 0; i < 100000; i++) {
        snprintf(key, sizeof key, "key%06d", 99999 - i);
        const char *s = group_held_strdup(h, key);
        if (i == 0)
            first = s;
        group_held_add(h, key, 0, i + 2, &s);
    }
    CHECK(group_held_sort(h) == 100000);
    const char *k0;
    const char *const *s0 = group_held_row(h, 0, &k0, NULL);
    CHECK_STR(k0, "key000000");
    CHECK_STR(*s0, "key000000");
    const char *const *slast = group_held_row(h, 99999, &k0, NULL);
    CHECK(*slast == first);
    CHECK_STR(first, "key099999");
    group_held_free(h);
    group_held_free(NULL);
    return unit_done("group");
}
