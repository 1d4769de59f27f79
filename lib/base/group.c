/* group — the grouped-input iterator (see group.h). */
#include "base/group.h"
#include "base/diag.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void group_begin(group_iter *g, const char *what, int sortable)
{
    group_init(&g->t);
    g->what = what;
    g->sortable = sortable;
    g->how = (struct group_sort){NULL, 0, ',', 1};
}

void group_where(group_iter *g, const char *file, int col, char sep, int header)
{
    g->how = (struct group_sort){file, col, sep, header};
}

/* a file name the shell takes as one word unquoted, else "FILE" */
static const char *shell_name(const char *file)
{
    if (!file || !*file || strcmp(file, "-") == 0 || strcmp(file, "<stdin>") == 0 || strlen(file) > 80 ||
        strspn(file, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-,=") != strlen(file))
        return "FILE";
    return file;
}

/* the sort command of the message's example into buf */
static void sort_example(char *buf, size_t n, const struct group_sort *h)
{
    const char *f = shell_name(h->file);
    char t[32];
    if (!h->sep)
        t[0] = 0; /* blanks: sort's own fields */
    else if (h->sep == '\t')
        snprintf(t, sizeof t, "-t \"$(printf '\\t')\" ");
    else if (h->sep == ',')
        snprintf(t, sizeof t, "-t, ");
    else
        snprintf(t, sizeof t, "-t'%c' ", h->sep == '\'' ? '"' : h->sep);
    if (h->header)
        snprintf(buf, n, "the header kept on top, e.g. (head -1 %s; tail -n +2 %s | sort -s %s-k%d,%d)", f, f,
                 t, h->col, h->col);
    else
        snprintf(buf, n, "e.g. sort -s %s-k%d,%d %s", t, h->col, h->col, f);
}

/* classify: GROUP_NEW, GROUP_SAME, or GROUP_ERROR with *prev the key of
 * the group the record came back after (group_check's answers are the
 * GROUP_ values) */
static int classify(group_iter *g, const char *key, const char **prev)
{
    *prev = group_current(&g->t);
    return group_check(&g->t, key);
}

void group_message(char *buf, size_t n, const char *what, const char *key, const char *prev, int sortable,
                   const struct group_sort *how)
{
    char ex[256] = "";
    if (how && how->col > 0)
        sort_example(ex, sizeof ex, how);
    /* keys are shown whole up to 60 bytes, then cut with "..." */
    snprintf(
        buf, n,
        "input not grouped by %s: %s '%.60s%s' appears again after %s '%.60s%s' (sort by %s first%s%s%s)",
        what, what, key, strlen(key) > 60 ? "..." : "", what, prev, strlen(prev) > 60 ? "..." : "", what,
        ex[0] ? ", " : "", ex, sortable ? ", or use -s" : "");
}

int group_next(group_iter *g, const char *file, long line, const char *key)
{
    const char *prev;
    int c = classify(g, key, &prev);
    if (c == GROUP_ERROR) {
        char msg[GROUP_MSG_MAX];
        group_message(msg, sizeof msg, g->what, key, prev, g->sortable, &g->how);
        slk_error_at(file, line, "%s", msg);
    }
    return c;
}

int group_row(group_iter *g, csvr *r, const char *key)
{
    const char *prev;
    int c = classify(g, key, &prev);
    if (c == GROUP_ERROR) {
        char msg[GROUP_MSG_MAX];
        /* the key's column: the row field it points into */
        const char *const *f = csvr_row(r);
        struct group_sort how = {csvr_path(r), 0, csvr_delimiter(r), csvr_has_header(r)};
        for (int i = 0; f && i < csvr_ncols(r); i++)
            if (f[i] == key)
                how.col = i + 1;
        group_message(msg, sizeof msg, g->what, key, prev, g->sortable, &how);
        csvr_fail(r, "%s", msg);
        (void)csvr_status(r); /* not skippable: a held error becomes the stop */
    }
    return c;
}

void group_end(group_iter *g) { group_free(&g->t); }

/* ---- group_held: the rows of -s, held and sorted ---- */

/* Rows are fixed-size slots: a header, then the caller's record.  Strings
 * (keys, group_held_strdup) live in an arena of blocks that never move, so
 * the pointers in the slots stay valid while the slots are sorted. */
struct held_head {
    const char *key;
    double order;
    long line;
    size_t seq;
};

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    char data[];
};

struct group_held {
    size_t rec_size, slot;
    unsigned char *rows;
    size_t n, cap;
    struct arena_block *arena;
};

#define ARENA_BLOCK (1u << 20)

group_held *group_held_new(size_t rec_size)
{
    group_held *h = xcalloc(1, sizeof *h);
    h->rec_size = rec_size;
    size_t al = _Alignof(max_align_t);
    h->slot = (sizeof(struct held_head) + rec_size + al - 1) / al * al;
    return h;
}

const char *group_held_strdup(group_held *h, const char *s)
{
    size_t n = strlen(s) + 1;
    struct arena_block *b = h->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = xmalloc(sizeof *b + cap);
        b->next = h->arena;
        b->used = 0;
        b->cap = cap;
        h->arena = b;
    }
    char *p = b->data + b->used;
    memcpy(p, s, n);
    b->used += n;
    return p;
}

void group_held_add(group_held *h, const char *key, double order, long line, const void *rec)
{
    h->rows = xgrow(h->rows, &h->cap, (h->n + 1) * h->slot, 1);
    unsigned char *slot = h->rows + h->n * h->slot;
    struct held_head head = {group_held_strdup(h, key), order, line, h->n};
    memcpy(slot, &head, sizeof head);
    memcpy(slot + sizeof head, rec, h->rec_size);
    h->n++;
}

static int held_cmp(const void *a, const void *b)
{
    struct held_head x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    int c = strcmp(x.key, y.key);
    if (c)
        return c;
    if (x.order != y.order)
        return x.order < y.order ? -1 : 1;
    return (x.seq > y.seq) - (x.seq < y.seq);
}

size_t group_held_sort(group_held *h)
{
    if (h->n > 1)
        qsort(h->rows, h->n, h->slot, held_cmp);
    return h->n;
}

const void *group_held_row(const group_held *h, size_t i, const char **key, long *line)
{
    const unsigned char *slot = h->rows + i * h->slot;
    struct held_head head;
    memcpy(&head, slot, sizeof head);
    if (key)
        *key = head.key;
    if (line)
        *line = head.line;
    return slot + sizeof head;
}

void group_held_free(group_held *h)
{
    if (!h)
        return;
    for (struct arena_block *b = h->arena, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(h->rows);
    free(h);
}
