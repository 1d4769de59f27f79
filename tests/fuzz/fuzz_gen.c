/* fuzz_gen — libFuzzer target for tracegen's input path: its parameters.
 *
 * tracegen reads no data; what a user controls is the kind, --count, --days,
 * --seed and the --set KEY=VALUE pairs, which each generator must range-check
 * (printing why and returning an exit status, never crashing or looping).
 * Byte 0 picks the kind, byte 1 the seed, byte 2 a small --count (1-4) and a
 * short --days; the rest is lines, each one --set pair: the line's first byte
 * picks one of the kind's accepted keys, the remainder is the value text
 * (any number: negative, zero, huge, 1e308, nan; text that is not a number
 * is tracegen's usage error and skipped).  Output goes to /dev/null. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "gen/gen.h"
#include "base/parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > 4096)
        return 0;
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    slk_progname = "tracegen";
    slk_opt.quiet = 1;
    int nk = 0;
    while (gen_kinds[nk])
        nk++;
    const struct gen_kind *k = gen_kinds[data[0] % nk];
    static const double days[] = {1.0 / 24, 0.25, 1, 2};
    struct gen_params p;
    memset(&p, 0, sizeof p);
    p.seed = data[1];
    p.count = 1 + data[2] % 4;
    p.days = days[(data[2] >> 2) & 3];
    p.start = 1767571200;   /* 2026-01-05T00:00:00Z, tracegen's default */

    int nkeys = 0;
    while (k->keys && k->keys[nkeys])
        nkeys++;
    char *text = malloc(size - 2);
    memcpy(text, data + 3, size - 3);
    text[size - 3] = 0;
    for (char *line = text; line && *line && nkeys > 0 && p.nset < GEN_MAX_SET;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        p.set_key[p.nset] = k->keys[(unsigned char)line[0] % nkeys];
        p.set_val[p.nset] = line + 1;
        p.nset++;
        line = nl ? nl + 1 : NULL;
    }
    /* tracegen refuses a --set value that is not a number (gen_get exits
     * 64, by design): only numbers reach the generators' range checks. */
    int numeric = 1;
    for (int i = 0; i < p.nset; i++) {
        double v;
        if (parse_double(p.set_val[i], &v, 0) < 0)
            numeric = 0;
    }
    if (numeric && gen_check(k, &p) == 0) {
        csvw *w = csvw_new_with(sink, NULL);
        csvw *t = k->truth_columns ? csvw_new_with(sink, NULL) : NULL;
        k->generate(&p, w, t);
        csvw_free(w);
        if (t)
            csvw_free(t);
    }
    free(text);
    return 0;
}
