/* outfile — outputs that are either complete or not there at all (see outfile.h).
 *
 * Temporary files still open are remembered in a small table so that a
 * signal or an exit without commit removes them: a killed run leaves the
 * old output and no debris.  SIGKILL (or a power loss) cannot be caught: it
 * leaves a hidden temporary, never a truncated output, and the next run that
 * writes into that directory removes it (outf_sweep_stale: the writer holds an
 * flock on its temporary until it ends, so an unlocked one is debris).  A held output's spool is unlinked
 * as soon as it is made, so it needs no entry there: the kernel frees it
 * when the process ends, however it ends.
 */
#include "base/outfile.h"
#include "base/diag.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct outf {
    FILE *fp;
    char *path;  /* final path, NULL for stdout */
    char *tmp;   /* temporary path */
    int slot;
    int direct;  /* path is not a regular file: written in place, never renamed over */
    FILE *dest;  /* held: the real output (stdout or the in-place file); fp is the spool */
    int ready;   /* outf_ready: 1 a file's temporary complete, fsynced and still open (locked) until its rename; -1 it failed (fp NULL, removed) */
};

#define MAX_OPEN 4100 /* keyshard writes up to SHARD_MAX shards at once */
static char *volatile open_tmps[MAX_OPEN];
/* dest_keys[i]: the file open_tmps[i] will replace (dest_key).  Two outputs
 * open at once that name one file (-o x.csv --stats ./x.csv) would each be
 * renamed over it, and only the last would be left: refused. */
static char *dest_keys[MAX_OPEN];
static int handlers_set;

static void remove_tmps(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmps[i])
            unlink(open_tmps[i]);
}

static void on_signal(int sig)
{
    remove_tmps();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void set_handlers(void)
{
    if (handlers_set)
        return;
    handlers_set = 1;
    atexit(remove_tmps);
    /* SIGABRT too: a library's failed assertion (FFTW's when it cannot
     * allocate) left the temporary behind for the next run's sweep */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigaction(sigs[i], NULL, &sa);
        if (sa.sa_handler == SIG_IGN)
            continue;
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* A temporary is ".BASE" OUTF_TMP_MARK "XXXXXX" (mkstemp's six characters;
 * BASE's first 200 bytes when it is longer):
 * the mark keeps the sweep to what slokit made. */
enum { STALE_AGE_S = 60 };

/* is_tmp_name: 1 when name is hidden and ends with the mark and six
 * characters (a visible file is the user's, whatever its name). */
static int is_tmp_name(const char *name)
{
    size_t n = strlen(name), m = strlen(OUTF_TMP_MARK);
    return name[0] == '.' && n > m + 6 && memcmp(name + n - 6 - m, OUTF_TMP_MARK, m) == 0;
}

/* remove_flat_dir: a temporary directory of plain files (skyplot's):
 * its files, then itself; one that holds anything else is not ours. */
static int remove_flat_dir(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct dirent *e;
    int ok = 1;
    while (ok && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat st;
        ok = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
             unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    closedir(d);
    return ok ? unlinkat(parent, name, AT_REMOVEDIR) : -1;
}

void outf_sweep_stale(const char *dir)
{
    static char *swept[8];
    static int nswept;
    for (int i = 0; i < nswept; i++)
        if (strcmp(swept[i], dir) == 0)
            return;
    if (nswept < (int)(sizeof swept / sizeof *swept))
        swept[nswept++] = xstrdup(dir);
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_tmp_name(e->d_name))
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
            continue;
        struct stat st;
        int gone = 0;
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && now - st.st_mtime > STALE_AGE_S &&
            flock(fd, LOCK_EX | LOCK_NB) == 0) {
            if (S_ISREG(st.st_mode))
                gone = unlinkat(dirfd(d), e->d_name, 0) == 0;
            else if (S_ISDIR(st.st_mode))
                gone = remove_flat_dir(dirfd(d), e->d_name) == 0;
        }
        if (gone && !slk_quiet())
            fprintf(stderr, "%s: removed %s/%s, the temporary of a run that was killed before it finished\n",
                    slk_progname, dir, e->d_name);
        close(fd);
    }
    closedir(d);
}

int outf_is_special(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

int outf_is_stdout(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 1;
    struct stat a, b;
    /* a file, pipe or socket: a terminal or /dev/null loses nothing to a
     * second open (a test's --stats /dev/null > /dev/null is two outputs) */
    return outf_is_special(path) && stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
           (S_ISREG(a.st_mode) || S_ISFIFO(a.st_mode) || S_ISSOCK(a.st_mode));
}

int outf_stdout_count(const char *const *paths, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += paths[i] && outf_is_stdout(paths[i]);
    return k;
}

/* keep_owner: give the temporary fd the owner and group of the file old
 * (at path) it will replace, as far as the process may (root: both; a
 * member of the file's group: the group), as sed -i does, so a plan that
 * its consumer reads through the group stays readable (mkstemp makes the
 * file ours, in our group).  When the owner cannot be kept the set-user
 * and set-group bits are dropped from *mode; when the group cannot be kept
 * either, one warning says so (the readers it served may lose access). */
static void keep_owner(int fd, const char *path, const struct stat *old, mode_t *mode)
{
    struct stat now;
    if (fstat(fd, &now) != 0 || (now.st_uid == old->st_uid && now.st_gid == old->st_gid))
        return;
    if (fchown(fd, old->st_uid, old->st_gid) == 0)
        return;
    *mode &= ~(mode_t)(S_ISUID | S_ISGID);
    if (now.st_gid == old->st_gid || fchown(fd, (uid_t)-1, old->st_gid) == 0)
        return;
    slk_warn_at(path, 0,
                "replaced in group gid %ld: its group gid %ld cannot be kept (not a member), "
                "so whoever read it through that group may not read the new file",
                (long)now.st_gid, (long)old->st_gid);
}

/* final_target: what replacing path replaces: path with its symlinks
 * followed, also when the last one dangles (the file it names is created,
 * the link kept).  Malloc'd; NULL with errno ELOOP for a loop or a chain
 * of more than 40 links (as the shell's > refuses it). */
static char *final_target(const char *path)
{
    char *cur = xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat lst;
        char buf[PATH_MAX];
        ssize_t n;
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode) || (n = readlink(cur, buf, sizeof buf - 1)) <= 0)
            return cur;
        buf[n] = 0;
        char *d = xstrdup(cur);
        const char *dir = dirname(d);
        size_t len = strlen(dir) + (size_t)n + 2;
        char *next = xmalloc(len);
        if (buf[0] == '/')
            snprintf(next, len, "%s", buf);
        else
            snprintf(next, len, "%s/%s", dir, buf);
        free(d);
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP; /* a loop, or a chain longer than the kernel follows */
    return NULL;
}

/* link_trusted: a symlink outfile may follow: not one that another user
 * left in a sticky, world-writable directory such as /tmp (unless that
 * user owns the directory), the rule of the kernel's protected_symlinks,
 * which a link resolved here (a dangling one) would otherwise sidestep. */
static int link_trusted(const char *link, const struct stat *lst)
{
    char *d = xstrdup(link);
    struct stat ds;
    int ok = stat(dirname(d), &ds) != 0 || !(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH) ||
             lst->st_uid == geteuid() || lst->st_uid == ds.st_uid;
    free(d);
    return ok;
}

/* dest_key: the file replacing path replaces, as its directory's real path
 * and its name (./x.csv, the absolute path and x.csv are one file).  Malloc'd. */
static char *dest_key(const char *path)
{
    char *d = xstrdup(path), *b = xstrdup(path);
    char *dir = realpath(dirname(d), NULL);
    const char *name = basename(b);
    size_t len = (dir ? strlen(dir) : strlen(path)) + strlen(name) + 2;
    char *key = xmalloc(len);
    if (dir)
        snprintf(key, len, "%s/%s", dir, name);
    else
        snprintf(key, len, "%s", path); /* no such directory: creating it fails anyway */
    free(dir);
    free(d);
    free(b);
    return key;
}

/* resolve_dest: the file replacing path replaces (a symlink followed: the
 * file it points to, or the one it names when it dangles).  Malloc'd; NULL
 * with *err set for a link loop (ELOOP) or an untrusted link (EACCES). */
static char *resolve_dest(const char *path, int exists, int *err)
{
    struct stat lst;
    char *real = NULL;
    *err = 0;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!link_trusted(path, &lst))
            *err = EACCES;
        else if (!(real = exists ? realpath(path, NULL) : final_target(path)) && !exists)
            *err = errno;
        if (*err)
            return NULL;
    }
    return real ? real : xstrdup(path);
}

/* dup_refused: say that dest is named by two outputs; SLK_EUSAGE. */
static int dup_refused(const char *dest)
{
    slk_error("%s: named by two outputs of this run, and each would replace the other: "
              "give each output its own file",
              dest);
    return SLK_EUSAGE;
}

/* claim_dest: resolve_dest, claimed for this output; *key gets its
 * dest_key, to keep while the output is open.  Malloc'd; NULL with the
 * message printed and *status set: a link loop or an untrusted link (exit
 * 73), or a file another open output will replace (exit 64). */
static char *claim_dest(const char *path, int exists, char **key, int *status)
{
    int e;
    char *dest = resolve_dest(path, exists, &e);
    if (!dest) {
        slk_error("%s: cannot create: %s%s", path, strerror(e),
                  e == EACCES ? " (another user's link in a sticky directory: not followed)" : "");
        *status = SLK_ECANTCREAT;
        return NULL;
    }
    *key = dest_key(dest);
    for (int i = 0; i < MAX_OPEN; i++)
        if (dest_keys[i] && strcmp(dest_keys[i], *key) == 0) {
            *status = dup_refused(dest);
            free(*key);
            *key = NULL;
            free(dest);
            return NULL;
        }
    return dest;
}

outf *outf_open(const char *path, int *status)
{
    outf *o = xcalloc(1, sizeof *o);
    o->slot = -1;
    if (!path || outf_is_stdout(path)) {
        o->fp = stdout;
        *status = SLK_OK;
        return o;
    }
    /* A device, FIFO or /dev/stdout cannot be replaced atomically, and renaming
     * a temporary over it would destroy it (as root: /dev/null becomes a
     * regular file).  Such outputs are written in place. */
    struct stat st0;
    int exists = stat(path, &st0) == 0;
    /* /dev/stdout may point at a regular file (tool -o /dev/stdout > f):
     * anything under /dev or /proc is written in place too. */
    int special = outf_is_special(path);
    if ((exists && !S_ISREG(st0.st_mode)) || special) {
        if (!exists)
            memset(&st0, 0, sizeof st0);
        if (S_ISDIR(st0.st_mode) || !(o->fp = fopen(path, "w"))) {
            slk_error("%s: cannot create: %s", path, S_ISDIR(st0.st_mode) ? strerror(EISDIR) : strerror(errno));
            *status = SLK_ECANTCREAT;
            free(o);
            return NULL;
        }
        o->path = xstrdup(path);
        o->direct = 1;
        *status = SLK_OK;
        return o;
    }
    set_handlers();
    char *key = NULL;
    if (!(o->path = claim_dest(path, exists, &key, status))) {
        free(o);
        return NULL;
    }
    path = o->path;
    char *d1 = xstrdup(path), *b1 = xstrdup(path);
    const char *dir = dirname(d1), *base = basename(b1);
    size_t n = strlen(dir) + strlen(base) + strlen(OUTF_TMP_MARK) + 16;
    o->tmp = xmalloc(n);
    /* the temporary's name within NAME_MAX: a long output name (241 to 255
     * bytes) gives it only its first bytes, and the mark finds it again */
    int keep = (int)(strlen(base) < 200 ? strlen(base) : 200);
    snprintf(o->tmp, n, "%s/.%.*s" OUTF_TMP_MARK "XXXXXX", dir, keep, base);
    outf_sweep_stale(dir);
    free(d1);
    free(b1);
    int fd = mkstemp(o->tmp);
    if (fd >= 0)
        (void)flock(fd, LOCK_EX | LOCK_NB); /* ours alone: marks it live for outf_sweep_stale */
    if (fd < 0) {
        slk_error("%s: cannot create: %s", path, strerror(errno));
        *status = SLK_ECANTCREAT;
        free(key);
        free(o->tmp);
        free(o->path);
        free(o);
        return NULL;
    }
    /* mkstemp makes 0600; an output should get the usual 0666 & ~umask,
     * or keep the mode, owner and group of the file it replaces. */
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
        keep_owner(fd, path, &st, &mode);
    } else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    fchmod(fd, mode);
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        slk_error("%s: cannot create: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        *status = SLK_ECANTCREAT;
        free(key);
        free(o->tmp);
        free(o->path);
        free(o);
        return NULL;
    }
    for (int i = 0; i < MAX_OPEN; i++)
        if (!open_tmps[i]) {
            open_tmps[i] = o->tmp;
            dest_keys[i] = key;
            key = NULL;
            o->slot = i;
            break;
        }
    free(key); /* more than MAX_OPEN at once: not tracked */
    *status = SLK_OK;
    return o;
}

/* dir_error: 0 when the directory of path exists and a file may be created
 * in it, else the errno outf_open's mkstemp would meet there. */
static int dir_error(const char *path)
{
    char *d = xstrdup(path);
    const char *dir = dirname(d);
    struct stat st;
    int e = 0;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        e = ENOTDIR;
    else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) !=
             0) /* ENOENT too; judged as mkstemp's open */
        e = errno;
    free(d);
    return e;
}

int outf_check_outputs(const char *const *paths, int n)
{
    char **keys = xcalloc((size_t)(n > 0 ? n : 1), sizeof *keys);
    int status = SLK_OK;
    for (int i = 0; i < n && status == SLK_OK; i++) {
        struct stat st;
        const char *p = paths[i];
        if (!p || strcmp(p, "-") == 0) /* not given, or stdout */
            continue;
        int exists = stat(p, &st) == 0, e;
        if (exists && S_ISDIR(st.st_mode)) { /* as outf_open says it */
            slk_error("%s: cannot create: %s", p, strerror(EISDIR));
            status = SLK_ECANTCREAT;
            break;
        }
        /* a device or FIFO: written in place, never renamed over */
        if (outf_is_special(p) || (exists && !S_ISREG(st.st_mode)))
            continue;
        char *dest = resolve_dest(p, exists, &e);
        if (!dest)
            continue; /* a loop or an untrusted link: its outf_open says so */
        if ((e = dir_error(dest)) != 0) {
            slk_error("%s: cannot create: %s", dest, strerror(e));
            status = SLK_ECANTCREAT;
        }
        keys[i] = dest_key(dest);
        for (int j = 0; j < i && status == SLK_OK; j++)
            if (keys[j] && strcmp(keys[j], keys[i]) == 0)
                status = dup_refused(dest);
        free(dest);
    }
    for (int i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    return status;
}

/* The directory held outputs are spooled in. */
static const char *spool_dir(void)
{
    const char *d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

/* A new spool: an unlinked temporary file in spool_dir(), or NULL with a
 * message. */
static FILE *spool_open(void)
{
    const char *dir = spool_dir();
    size_t n = strlen(dir) + 32;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s/.slokit-held.XXXXXX", dir);
    FILE *fp = NULL;
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        unlink(tmp);
        if (!(fp = fdopen(fd, "w+"))) {
            int err = errno;
            close(fd);
            errno = err;
        }
    }
    if (!fp)
        slk_error("cannot hold standard output in %s: %s", dir, strerror(errno));
    free(tmp);
    return fp;
}

outf *outf_open_held(const char *path, int *status)
{
    outf *o = outf_open(path, status);
    if (!o || (o->path && !o->direct))
        return o; /* a regular file is held by its temporary already */
    FILE *sp = spool_open();
    if (!sp) {
        outf_abort(o);
        *status = SLK_ECANTCREAT;
        return NULL;
    }
    o->dest = o->fp;
    o->fp = sp;
    return o;
}

/* Copy a held output's spool to its real output and close the spool; o->fp
 * is the real output again.  Returns 0, or -1 with a message when the spool
 * could not be written or read back (nothing was copied then).  A write
 * error on the real output is left in its error flag for the caller. */
static int unspool(outf *o)
{
    FILE *sp = o->fp;
    o->fp = o->dest;
    o->dest = NULL;
    int bad = fflush(sp) != 0 || ferror(sp) || fseek(sp, 0, SEEK_SET) != 0;
    int err = errno;
    enum { CHUNK = 1 << 16 };
    char *buf = xmalloc(CHUNK);
    size_t n, copied = 0;
    while (!bad && (n = fread(buf, 1, CHUNK, sp)) > 0) {
        if (fwrite(buf, 1, n, o->fp) != n)
            break;
        copied += n;
    }
    free(buf);
    if (!bad && ferror(sp)) {
        bad = 1;
        err = errno;
    }
    fclose(sp);
    const char *what = o->path ? o->path : "standard output";
    if (bad && !copied)
        slk_error("cannot hold %s in %s: %s (nothing written)", what, spool_dir(), strerror(err));
    else if (bad) /* the spool failed on reading back, after part of it went out */
        slk_error("cannot read back %s held in %s: %s (cut short after %zu bytes)", what, spool_dir(),
                  strerror(err), copied);
    return bad ? -1 : 0;
}

FILE *outf_fp(outf *o) { return o->fp; }

static void forget(outf *o)
{
    if (o->slot >= 0) {
        open_tmps[o->slot] = NULL;
        free(dest_keys[o->slot]);
        dest_keys[o->slot] = NULL;
    }
    free(o->tmp);
    free(o->path);
    free(o);
}

/* ready_failed: a file's temporary could not be completed: said, closed,
 * removed; the outf is left for commit, abort or finish to free. */
static int ready_failed(outf *o, int err)
{
    slk_error("%s: write error: %s (old file left unchanged)", o->path, strerror(err));
    if (o->fp)
        fclose(o->fp);
    o->fp = NULL;
    unlink(o->tmp);
    o->ready = -1;
    return SLK_EIO;
}

int outf_ready(outf *o)
{
    if (o->ready)
        return o->ready > 0 ? SLK_OK : SLK_EIO;
    if (!o->path || o->direct || o->dest)
        /* stdout, a device or a held output's spool: flushed, and its error
         * flag left for outf_finish to report in outf_commit's words */
        return fflush(o->fp) != 0 || ferror(o->fp) ? SLK_EIO : SLK_OK;
    /* the temporary stays open, and so locked, until its rename: closed
     * here, a run whose other outputs took over a minute to make ready had
     * it swept as a killed run's debris by another run in the directory */
    if (fflush(o->fp) != 0 || ferror(o->fp) || fsync(fileno(o->fp)) != 0)
        return ready_failed(o, errno);
    o->ready = 1;
    return SLK_OK;
}

int outf_commit(outf *o)
{
    if (o->dest && unspool(o) < 0) {
        outf_abort(o);
        return SLK_EIO;
    }
    if (!o->path) {
        int bad = fflush(o->fp) != 0 || ferror(o->fp);
        int err = errno;
        free(o);
        if (bad) {
            slk_stdout_error(err);
            return SLK_EIO;
        }
        return SLK_OK;
    }
    if (o->direct) {
        int bad = fflush(o->fp) != 0 || ferror(o->fp);
        int err = errno;
        if (fclose(o->fp) != 0 && !bad) {
            bad = 1;
            err = errno;
        }
        if (bad && err != EPIPE)
            slk_error("%s: write error: %s", o->path, strerror(err));
        forget(o);
        return bad ? SLK_EIO : SLK_OK;
    }
    /* a file: its temporary complete (unless outf_ready did it), closed
     * (its lock goes with it) and at once renamed */
    if (outf_ready(o) != SLK_OK) {
        forget(o);
        return SLK_EIO;
    }
    FILE *fp = o->fp;
    o->fp = NULL; /* fclose frees the stream even when it fails */
    if (fclose(fp) != 0) {
        ready_failed(o, errno);
        forget(o);
        return SLK_EIO;
    }
    if (rename(o->tmp, o->path) != 0) {
        slk_error("%s: cannot replace: %s (old file left unchanged)", o->path, strerror(errno));
        unlink(o->tmp);
        forget(o);
        return SLK_ECANTCREAT;
    }
    forget(o);
    return SLK_OK;
}

void outf_abort(outf *o)
{
    if (!o)
        return;
    if (o->ready) { /* made ready: its temporary is complete (closed and removed when it failed) */
        if (o->ready > 0) {
            fclose(o->fp);
            unlink(o->tmp);
        }
        forget(o);
        return;
    }
    if (o->dest) { /* held: the spool goes, the real output gets nothing */
        fclose(o->fp);
        o->fp = o->dest;
        o->dest = NULL;
    }
    if (!o->path) {
        fflush(o->fp);
        free(o);
        return;
    }
    fclose(o->fp);
    if (!o->direct)
        unlink(o->tmp);
    forget(o);
}

int outf_finish(outf *o, int status)
{
    if (!o)
        return status;
    if (status == SLK_OK)
        return outf_commit(o);
    /* the output's own write failed (its disk or $TMPDIR full): outf_commit
     * fails on the stream's error flag and says so, then throws it away */
    if (!o->ready && ferror(o->fp))
        outf_commit(o);
    else
        outf_abort(o);
    return status;
}

int outf_finish_all(outf *const *v, int n, int status)
{
    for (int i = 0; i < n && status == SLK_OK; i++)
        if (v[i])
            status = outf_ready(v[i]);
    if (status != SLK_OK) {
        for (int i = 0; i < n; i++)
            outf_finish(v[i], status);
        return status;
    }
    /* the files first (renames), then what cannot be taken back: standard
     * output, a device, a held output's copy; after a failure the rest is
     * thrown away */
    char *file = xcalloc((size_t)n + 1, 1); /* v[i] is a file to rename (read before any is freed) */
    for (int i = 0; i < n; i++)
        file[i] = v[i] && v[i]->ready > 0;
    char *done = NULL; /* the files already renamed, for the message when a later rename fails */
    size_t dlen = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if (!v[i] || (pass == 0) != file[i])
                continue;
            if (status != SLK_OK) {
                outf_abort(v[i]);
                continue;
            }
            char *path = file[i] ? xstrdup(v[i]->path) : NULL;
            if ((status = outf_commit(v[i])) == SLK_OK && path) {
                size_t k = strlen(path);
                done = xrealloc(done, dlen + k + 3);
                snprintf(done + dlen, k + 3, "%s%s", dlen ? ", " : "", path);
                dlen += k + (dlen ? 2 : 0);
            } else if (status != SLK_OK && done) /* a rename cannot be taken back */
                slk_error("replaced before that error: %s (the other outputs left unchanged)", done);
            free(path);
        }
    free(done);
    free(file);
    return status;
}
