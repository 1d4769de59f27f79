/* timeit — run a command, print its wall-clock time and peak memory.
 *
 *   timeit FILE CMD [ARG...]
 *
 * Runs CMD (stdin, stdout and stderr inherited), then writes one line to
 * FILE: "SECONDS MAXRSS_KB EXIT USER SYS", the wall-clock time from fork to
 * wait in seconds with 6 decimals (CLOCK_MONOTONIC, so 1 us resolution,
 * where GNU time's %e rounds to 10 ms), the child's maximum resident set
 * size in KB (wait4's rusage, as GNU time's %M), its exit status (128+N for
 * a signal) and its user and system CPU seconds (rusage, to the
 * microsecond; GNU time's %U and %S print 10 ms).  Exits with the command's status; 127 when it cannot be run.
 * bench/lib.sh builds it on first use, as bench/csv.sh builds csvraw. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: timeit FILE CMD [ARG...]\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        fprintf(stderr, "timeit: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "timeit: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "timeit: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) {
            fprintf(stderr, "timeit: wait: %s\n", strerror(errno));
            return 2;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    double sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    fprintf(out, "%.6f %ld %d %.6f %.6f\n", s, ru.ru_maxrss, rc, user, sys);
    if (fclose(out) != 0) {
        fprintf(stderr, "timeit: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    return rc;
}
