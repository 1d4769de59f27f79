/* csvraw — the reference for bench/csv.sh: plain libcsv, nothing else.
 *
 *   cc -O2 -o csvraw bench/csvraw.c -lcsv && csvraw < in.csv > out.csv
 *
 * Copies CSV from stdin to stdout the way the slokit lib does (same libcsv
 * options: strict quoting, empty fields as NULL, blanks kept; output with
 * minimal quoting: only fields holding a comma, a quote, CR or LF are quoted),
 * but with none of the lib's work: no line counting, no record queue, no
 * header or field-count checks, no NUL or record-length checks.  Its
 * throughput is the ceiling the lib is measured against.
 */
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)

static int nfield; /* fields written in the current record */

static int keep_space(unsigned char c)
{
    (void)c;
    return 0;
}

static void on_field(void *data, size_t len, void *ud)
{
    FILE *out = ud;
    if (nfield++)
        putc_unlocked(',', out);
    if (!data || len == 0)
        return;
    const char *s = data;
    int quote = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n') {
            quote = 1;
            break;
        }
    if (!quote) {
        fwrite_unlocked(s, 1, len, out);
        return;
    }
    putc_unlocked('"', out);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            putc_unlocked('"', out);
        putc_unlocked(s[i], out);
    }
    putc_unlocked('"', out);
}

static void on_record(int c, void *ud)
{
    (void)c;
    putc_unlocked('\n', (FILE *)ud);
    nfield = 0;
}

int main(void)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0)
        return 70;
    csv_set_space_func(&p, keep_space);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    char *buf = malloc(CHUNK);
    if (!buf)
        return 70;
    size_t n;
    while ((n = fread(buf, 1, CHUNK, stdin)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_record, stdout) != n) {
            fprintf(stderr, "csvraw: %s\n", csv_strerror(csv_error(&p)));
            return 65;
        }
    if (csv_fini(&p, on_field, on_record, stdout) != 0) {
        fprintf(stderr, "csvraw: %s\n", csv_strerror(csv_error(&p)));
        return 65;
    }
    csv_free(&p);
    free(buf);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 74;
    return 0;
}
