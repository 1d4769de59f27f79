/* Unit tests of lib/base/keytab: the one rule for keyed side tables (a
 * missing key and a repeated key are errors at their row, the first row of a
 * key is kept, --on-error skip rejects the later rows and goes on), and the
 * key -> row lookup (keyset_row), on hand-written tables. */
#include "unit.h"
#include "base/diag.h"
#include "base/keytab.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char path[64];

static const char *write_tmp(const char *text)
{
    snprintf(path, sizeof path, "/tmp/test_keytab_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* load: read column "vc" of text into a new table with dialect d; *status
 * gets the reader's status, *rows the rows the loop kept (as keys joined by
 * '|'), the table is returned */
static keyset *load(const char *text, const struct csv_dialect *d, int *status, char *rows, size_t n)
{
    int st;
    csvr *r = csvr_open_with(write_tmp(text), d, 0, &st);
    keyset *t = keyset_new();
    rows[0] = 0;
    int c = csvr_require(r, "vc");
    while (csvr_next(r) == 1) {
        const char *k = keytab_row(t, r, c);
        if (!k) {
            if (csvr_skip(r))
                continue;
            break;
        }
        snprintf(rows + strlen(rows), n - strlen(rows), "%s|", k);
    }
    *status = csvr_status(r);
    csvr_close(r);
    unlink(path);
    return t;
}

int main(void)
{
    slk_init("test_keytab");
    char rows[256];
    int st;

    /* strict: the duplicate stops the load at its row, first rows kept */
    keyset *t = load("vc,capacity\na,1\nb,2\na,3\nc,4\n", &csv_dialect_plain, &st, rows, sizeof rows);
    CHECK(st == SLK_EDATA);
    CHECK_STR(rows, "a|b|");
    CHECK(keyset_size(t) == 2);
    CHECK(keyset_row(t, "a") == 0 && keyset_row(t, "b") == 1 && keyset_row(t, "c") == -1);
    keyset_free(t);

    /* strict: a missing key is an error too */
    t = load("vc,capacity\na,1\n,2\n", &csv_dialect_plain, &st, rows, sizeof rows);
    CHECK(st == SLK_EDATA);
    CHECK(keyset_size(t) == 1);
    keyset_free(t);

    /* --on-error skip: the later rows of a key and the keyless row are
     * rejected with their reasons, the rest is read */
    FILE *rf = tmpfile();
    csv_rejects *rj = csv_rejects_new(rf);
    struct csv_dialect d = csv_dialect_plain;
    d.rejects = rj;
    t = load("vc,capacity\na,1\nb,2\na,3\n,5\nc,4\nb,6\n", &d, &st, rows, sizeof rows);
    CHECK(st == SLK_OK);
    CHECK_STR(rows, "a|b|c|");
    CHECK(keyset_row(t, "c") == 2);
    CHECK(csv_rejects_count(rj) == 3);
    fflush(rf);
    rewind(rf);
    char buf[1024] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, rf);
    buf[got] = 0;
    CHECK(strstr(buf, "duplicate vc 'a' (first at line 2)") != NULL);
    CHECK(strstr(buf, "duplicate vc 'b' (first at line 3)") != NULL);
    CHECK(strstr(buf, "column 'vc': missing value") != NULL);
    keyset_free(t);
    csv_rejects_free(rj);
    fclose(rf);

    /* many keys: the table grows and every key keeps its row */
    keyset *big = keyset_new();
    char text[40000];
    size_t len = (size_t)snprintf(text, sizeof text, "vc\n");
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "k%d\n", i);
    int st2;
    csvr *r = csvr_open_with(write_tmp(text), &csv_dialect_plain, 0, &st2);
    int c = csvr_require(r, "vc");
    int added = 1;
    while (csvr_next(r) == 1)
        added &= keytab_row(big, r, c) != NULL;
    CHECK(added);
    CHECK(csvr_status(r) == SLK_OK);
    csvr_close(r);
    unlink(path);
    CHECK(keyset_size(big) == 3000);
    int all = 1;
    for (int i = 0; i < 3000; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        all &= keyset_row(big, k) == i;
    }
    CHECK(all);
    CHECK(keyset_row(big, "k3000") == -1);
    keyset_free(big);
    keyset_free(NULL);
    return unit_done("keytab");
}
