/* Unit tests of lib/base/cli's option-table lookups, the names refusals
 * print ("--native-interval needs --format native"): cli_option_name and
 * cli_group_option on a table with groups, header entries (no name, no
 * key) and an alias, against the names written in the table. */
#include "base/cli.h"
#include "unit.h"

#include <argp.h>
#include <stddef.h>

enum { OPT_RATE = 1, OPT_EVENTS, OPT_SEED, OPT_LONELY };

static const struct argp_option table[] = {{0, 0, 0, 0, "Simulation:", 2},
                                           {"rate", OPT_RATE, "X", 0, "a rate", 2},
                                           {"events", OPT_EVENTS, "FILE", 0, "an events file", 2},
                                           {"event-log", 0, 0, OPTION_ALIAS, 0, 2},
                                           {0, 0, 0, 0, "Common:", 3},
                                           {"seed", OPT_SEED, "N", 0, "a seed", 3},
                                           {"quiet", 'q', 0, 0, "no progress", 3},
                                           {0}};

int main(void)
{
    /* every key's name as the table writes it */
    CHECK_STR(cli_option_name(table, OPT_RATE), "rate");
    CHECK_STR(cli_option_name(table, OPT_EVENTS), "events"); /* the option, not its alias */
    CHECK_STR(cli_option_name(table, OPT_SEED), "seed");
    CHECK_STR(cli_option_name(table, 'q'), "quiet");
    /* a key the table lacks */
    CHECK(cli_option_name(table, OPT_LONELY) == NULL);

    /* in the group asked for: its name; in another: NULL */
    CHECK_STR(cli_group_option(table, OPT_RATE, 2), "rate");
    CHECK_STR(cli_group_option(table, OPT_EVENTS, 2), "events");
    CHECK(cli_group_option(table, OPT_SEED, 2) == NULL);
    CHECK_STR(cli_group_option(table, OPT_SEED, 3), "seed");
    CHECK(cli_group_option(table, OPT_RATE, 3) == NULL);
    CHECK(cli_group_option(table, OPT_LONELY, 2) == NULL);
    return unit_done("cli");
}
