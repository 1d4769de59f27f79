#!/usr/bin/python3
"""stream_props.py [--small] [--work DIR] [--data DIR] [--only NAME] [--seed N]
— check slokit's stream and determinism promises (slokit(7), keyshard(1))
on tracegen output and, when --data holds them, on the public traces
converted by traceconv, for every per-key tool and every tool with --seed.

For each case (a tool, its arguments and an input):
  shard   the input split by key into k = 2..5 shards, keys assigned to
          shards at random (seeded), rows shuffled within a shard where the
          tool takes rows in any order (within a key where it takes a key's
          rows in any order); the tool on each shard; the outputs merged the
          documented way (keyshard --merge --order with the split's own order
          file, or --merge --sorted); compared byte for byte with one process
          on the whole input.  The summary's counts on standard error are
          summed over the shards and compared where the case says they add.
  order   rows shuffled as the tool allows: the same bytes.
  seed    the same --seed twice: the same bytes; another --seed: different
          bytes for a tool with random choices, the same for one without.
  time    the time columns written as ISO 8601 with Z, with +00:00, with a
          space for the T, in another zone (+02:00, -05:30, converted), and
          with a fractional part (.000 and a real fraction, epoch vs ISO):
          the same bytes as epoch seconds.
  format  --tsv and -d ';' (output parsed back), gzip and zstd input (file
          and standard input): the same result as plain CSV.
Also: keys that need quoting (a comma, quotes, a line break, a tab, UTF-8),
--on-error skip on inputs with bad rows (skipped counts add up), the files a
per-key tool writes beside its output (skyfit --stats, its wall time
solve_ms blanked), and tenantclass's classes from the features of shards.

Only the standard library.  Exits 1 after the last case when any check
failed; each failure names the case and the first differing line, and
leaves its files in the work directory."""
import argparse, csv, datetime, gzip, io, os, random, re, shutil, subprocess, sys, tempfile
from decimal import Decimal

FAILS = []
PASSES = [0]
NOTES = []


def run(argv, stdin=None, check=True):
    """Run argv; return (rc, stdout bytes, stderr text)."""
    p = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(argv), p.returncode, p.stderr.decode(errors='replace')[:500]))
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def read_csv(path, delim=','):
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, delimiter=delim))
    return rows[0], rows[1:]


def write_csv(path, header, rows, delim=','):
    with open(path, 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f, delimiter=delim, lineterminator='\n')
        w.writerow(header)
        w.writerows(rows)


def first_diff(a, b):
    al, bl = a.split(b'\n'), b.split(b'\n')
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return 'line %d: %r vs %r' % (i + 1, x[:200], y[:200])
    return 'lengths %d vs %d lines' % (len(al), len(bl))


def verdict(case, prop, ok, why=''):
    if ok:
        PASSES[0] += 1
    else:
        FAILS.append('%s: %s: %s' % (case, prop, why))
        print('FAIL %s: %s: %s' % (case, prop, why), flush=True)


def same(case, prop, got, want, where=''):
    verdict(case, prop, got == want, (where + ': ' if where else '') + first_diff(got, want))


# ---- summaries -------------------------------------------------------------

PAIR = re.compile(r'(?<![\w.])(\d+) ([a-z_]+(?: runs| jobs)?)')


def summary_counts(stderr):
    """{label: count} of the summary: every "N label" on standard error
    (e.g. "12 jobs", "6 actionable", "3 outlier runs"), summed over lines."""
    out = {}
    for line in stderr.splitlines():
        for n, label in PAIR.findall(line):
            out[label] = out.get(label, 0) + int(n)
    return out


def check_summary(case, whole, parts, labels):
    """The summary's counts of each label in `labels` (the ones the tool's
    documentation says add over shards: jobs, runs, statuses) equal their
    sums over the shards' summaries."""
    w = summary_counts(whole)
    ps = [summary_counts(p) for p in parts]
    for label in labels:
        tot = sum(p.get(label, 0) for p in ps)
        verdict(case, 'summary count "%s" adds over shards' % label, tot == w.get(label, 0),
                'whole %d, shards sum %d' % (w.get(label, 0), tot))


# ---- time forms ------------------------------------------------------------

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def iso(value, form):
    """Epoch seconds text `value` as ISO 8601 text of `form`."""
    d = Decimal(value)
    whole = int(d.to_integral_value(rounding='ROUND_FLOOR'))
    frac = d - whole
    off = {'z': 0, 'utc': 0, 'space': 0, 'p2': 7200, 'm0530': -19800, 'zfrac0': 0}[form]
    t = EPOCH + datetime.timedelta(seconds=whole + off)
    s = t.strftime('%Y-%m-%dT%H:%M:%S')
    if form == 'space':
        s = s.replace('T', ' ')
    if frac:
        s += str(frac)[1:] if str(frac).startswith('0.') else str(frac)
    elif form == 'zfrac0':
        s += '.000'
    return s + {'z': 'Z', 'utc': '+00:00', 'space': 'Z', 'p2': '+02:00', 'm0530': '-05:30', 'zfrac0': 'Z'}[form]


def scaled(value, mult):
    """Epoch seconds text `value` times mult, as plain decimal text."""
    t = format(Decimal(value) * mult, 'f')
    return t.rstrip('0').rstrip('.') if '.' in t else t


def retime(header, rows, cols, fn):
    idx = [header.index(c) for c in cols if c in header]
    out = []
    for r in rows:
        r = list(r)
        for i in idx:
            if i < len(r) and r[i] != '':
                r[i] = fn(r[i])
        out.append(r)
    return out


# ---- the cases -------------------------------------------------------------

class Case:
    """name; argv before the input (the input path is appended); input path;
    key column; order: 'any' (rows in any order), 'within' (a key's rows
    together, in any order) or 'grouped' (a key's rows together, in input
    order); merge: 'sorted' or 'order'; time columns; summary templates that
    add over shards; seeded: the tool makes random choices."""

    def __init__(self, name, argv, inp, key=None, order='grouped', merge='order', times=(), adds=(),
                 seeded=None, fmt=True, argv_after=(), stdin=True, time_unit=True, props=None, files=()):
        self.name, self.argv, self.inp, self.key = name, argv, inp, key
        self.order, self.merge, self.times, self.adds = order, merge if key else None, list(times), list(adds)
        self.seeded, self.fmt, self.argv_after, self.stdin = seeded, fmt, list(argv_after), stdin
        self.time_unit, self.props = time_unit, props
        self.files = list(files)  # (option, columns to blank): per-key files the tool also writes

    def cmd(self, path, extra=()):
        """The command line on input `path`: at '{}' in argv, else last."""
        if '{}' in self.argv:
            return [path if a == '{}' else a for a in self.argv] + list(extra)
        return self.argv + list(extra) + [path] + self.argv_after

    def on_stdin(self):
        """The command line reading the input from standard input, or None."""
        return None if '{}' in self.argv or self.argv_after or not self.stdin else self.argv


def shuffle_rows(rows, key_i, order, rng):
    if order == 'any':
        rows = list(rows)
        rng.shuffle(rows)
        return rows
    if order == 'within':
        groups, seen = {}, []
        for r in rows:
            if r[key_i] not in groups:
                groups[r[key_i]] = []
                seen.append(r[key_i])
            groups[r[key_i]].append(r)
        out = []
        for k in seen:
            g = groups[k]
            rng.shuffle(g)
            out += g
        return out
    return list(rows)


def check_shards(c, work, rng, ks):
    header, rows = read_csv(c.inp)
    ki = header.index(c.key)
    whole = os.path.join(work, c.name + '.whole.csv')
    write_csv(whole, header, rows)
    wfiles = [os.path.join(work, '%s.whole%s' % (c.name, opt)) for opt, _ in c.files]
    _, want, werr = run(c.cmd(whole, [x for (opt, _), p in zip(c.files, wfiles) for x in (opt, p)]))
    keys = []
    for r in rows:
        if not keys or keys[-1] != r[ki]:
            keys.append(r[ki])
    distinct = list(dict.fromkeys(keys))
    for k in ks:
        shard_of = {key: rng.randrange(k) for key in distinct}
        d = os.path.join(work, '%s.k%d' % (c.name, k))
        os.makedirs(d, exist_ok=True)
        outs, errs = [], []
        write_csv(os.path.join(d, 'order.csv'), ['shard', 'key'], [[shard_of[key], key] for key in distinct])
        for s in range(k):
            part = shuffle_rows([r for r in rows if shard_of[r[ki]] == s], ki, c.order, rng)
            p = os.path.join(d, 'in-%d.csv' % s)
            write_csv(p, header, part)
            fs = [os.path.join(d, 'file%s-%d.csv' % (opt, s)) for opt, _ in c.files]
            _, out, err = run(c.cmd(p, [x for (opt, _), q in zip(c.files, fs) for x in (opt, q)]))
            o = os.path.join(d, 'out-%d.csv' % s)
            with open(o, 'wb') as f:
                f.write(out)
            outs.append(o)
            errs.append(err)
        okey = c.key_out if hasattr(c, 'key_out') else c.key
        if c.merge == 'sorted':
            m = ['keyshard', '-q', '--merge', '--sorted', '-k', okey] + outs
        else:
            m = ['keyshard', '-q', '--merge', '--order', os.path.join(d, 'order.csv'), '-k', okey] + outs
        rc, got, merr = run(m, check=False)
        if rc != 0:
            verdict(c.name, 'shards k=%d merge' % k, False, 'keyshard --merge: exit %d: %s' % (rc, merr.strip()[:300]))
            continue
        same(c.name, 'shards k=%d + merge == one process' % k, got, want, d)
        for (opt, blank), wf in zip(c.files, wfiles):
            fs = [os.path.join(d, 'file%s-%d.csv' % (opt, s)) for s in range(k)]
            m = ['keyshard', '-q', '--merge'] + (['--sorted'] if c.merge == 'sorted' else
                                                 ['--order', os.path.join(d, 'order.csv')]) + ['-k', okey] + fs
            got = run(m)[1]
            same(c.name, 'shards k=%d: %s files merged == one process%s' %
                 (k, opt, ' (without %s)' % ','.join(blank) if blank else ''),
                 blanked(got, blank), blanked(open(wf, 'rb').read(), blank), d)
        if c.adds:
            check_summary('%s k=%d' % (c.name, k), werr, errs, c.adds)


def blanked(data, cols):
    """CSV bytes with the columns cols emptied (values that are not data,
    such as a wall time)."""
    if not cols:
        return data
    rows = list(csv.reader(io.StringIO(data.decode(), newline='')))
    idx = [rows[0].index(x) for x in cols]
    out = io.StringIO()
    w = csv.writer(out, lineterminator='\n')
    w.writerow(rows[0])
    for r in rows[1:]:
        w.writerow(['' if i in idx else v for i, v in enumerate(r)])
    return out.getvalue().encode()


def check_order(c, work, rng):
    if c.order == 'grouped':
        return
    header, rows = read_csv(c.inp)
    whole = os.path.join(work, c.name + '.whole.csv')
    write_csv(whole, header, rows)
    _, want, _ = run(c.cmd(whole))
    ki = header.index(c.key) if c.key else 0
    for i in range(2):
        p = os.path.join(work, '%s.shuf%d.csv' % (c.name, i))
        write_csv(p, header, shuffle_rows(rows, ki, c.order, rng))
        _, got, _ = run(c.cmd(p))
        same(c.name, 'rows shuffled (%s) == input order' % c.order, got, want, p)


def check_seed(c, work):
    seeded = lambda n: run(c.cmd(c.inp, ['--seed', n]) if c.inp else c.argv + ['--seed', n])[1]
    a, b, o = seeded('7'), seeded('7'), seeded('8')
    same(c.name, 'same --seed twice: same bytes', a, b)
    if c.seeded:
        verdict(c.name, 'another --seed changes the output (random choices)', a != o, 'identical output for --seed 7 and 8')
    elif c.seeded is False:
        same(c.name, 'another --seed: same bytes (no random choices)', o, a)
    else:
        NOTES.append('%s: --seed 7 and 8 give %s output' % (c.name, 'different' if a != o else 'the same'))


def check_times(c, work):
    header, rows = read_csv(c.inp)
    cols = [t for t in c.times if t in header]
    if not cols:
        return
    whole = os.path.join(work, c.name + '.whole.csv')
    write_csv(whole, header, rows)
    _, want, _ = run(c.cmd(whole))
    for form in ('z', 'utc', 'space', 'p2', 'm0530', 'zfrac0'):
        p = os.path.join(work, '%s.time-%s.csv' % (c.name, form))
        write_csv(p, header, retime(header, rows, cols, lambda v, f=form: iso(v, f)))
        rc, got, err = run(c.cmd(p), check=False)
        if rc != 0:
            verdict(c.name, 'times as ISO 8601 (%s)' % form, False, 'exit %d: %s' % (rc, err.strip()[:300]))
            continue
        same(c.name, 'times as ISO 8601 (%s) == epoch' % form, got, want, p)
    # --time-unit ms and us: the same instants as integers where they are
    for unit, mult in (('ms', 1000), ('us', 1000000)) if c.time_unit else ():
        p = os.path.join(work, '%s.time-%s.csv' % (c.name, unit))
        write_csv(p, header, retime(header, rows, cols, lambda v, m=mult: scaled(v, m)))
        rc, got, err = run(c.cmd(p, ['--time-unit', unit]), check=False)
        if rc != 0:
            verdict(c.name, 'times in %s (--time-unit %s)' % (unit, unit), False, 'exit %d: %s' % (rc, err.strip()[:300]))
            continue
        same(c.name, 'times in %s (--time-unit %s) == seconds' % (unit, unit), got, want, p)
    p = os.path.join(work, '%s.time-dot0.csv' % c.name)
    write_csv(p, header, retime(header, rows, cols, lambda v: v if '.' in v else v + '.0'))
    same(c.name, 'epoch times with .0 == epoch', run(c.cmd(p))[1], want, p)
    # a real fraction: the same instants as epoch decimals and as ISO text
    frac = lambda v: str(Decimal(v) + Decimal('0.375'))
    pe = os.path.join(work, '%s.time-frac-epoch.csv' % c.name)
    write_csv(pe, header, retime(header, rows, cols, frac))
    fe = run(c.cmd(pe))[1]
    for form in ('z', 'p2'):
        pi = os.path.join(work, '%s.time-frac-%s.csv' % (c.name, form))
        write_csv(pi, header, retime(header, rows, cols, lambda v, f=form: iso(frac(v), f)))
        rc, got, err = run(c.cmd(pi), check=False)
        if rc != 0:
            verdict(c.name, 'fractional times as ISO 8601 (%s)' % form, False, 'exit %d: %s' % (rc, err.strip()[:300]))
            continue
        same(c.name, 'fractional times: ISO 8601 (%s) == epoch decimals' % form, got, fe, pi)


def check_format(c, work):
    header, rows = read_csv(c.inp)
    whole = os.path.join(work, c.name + '.whole.csv')
    write_csv(whole, header, rows)
    _, want, _ = run(c.cmd(whole))
    want_rows = list(csv.reader(io.StringIO(want.decode())))
    for name, delim, opt in (('tsv', '\t', ['--tsv']), ('semicolon', ';', ['-d', ';'])):
        p = os.path.join(work, '%s.%s' % (c.name, name))
        write_csv(p, header, rows, delim)
        # the delimiter is every CSV input's (the --plan file is always CSV)
        side = {}
        for i, a in enumerate(c.argv):
            if a.endswith('.csv') and os.path.isfile(a) and c.argv[i - 1] != '--plan':
                side[a] = os.path.join(work, '%s.side%d.%s' % (c.name, i, name))
                write_csv(side[a], *read_csv(a), delim)
        rc, got, err = run([side.get(a, a) for a in c.cmd(p, opt)], check=False)
        if rc != 0:
            verdict(c.name, name, False, 'exit %d: %s' % (rc, err.strip()[:300]))
            continue
        got_rows = list(csv.reader(io.StringIO(got.decode()), delimiter=delim))
        verdict(c.name, '%s input and output == CSV' % name, got_rows == want_rows,
                next(('row %d: %r vs %r' % (i + 1, a, b) for i, (a, b) in enumerate(zip(got_rows, want_rows)) if a != b),
                     '%d vs %d rows' % (len(got_rows), len(want_rows))))
    raw = open(whole, 'rb').read()
    zs = {'gzip': gzip.compress(raw)}
    if shutil.which('zstd'):
        zs['zstd'] = run(['zstd', '-q', '-c', whole])[1]
    for kind, data in zs.items():
        p = os.path.join(work, '%s.csv.%s' % (c.name, kind))
        with open(p, 'wb') as f:
            f.write(data)
        same(c.name, '%s file == plain' % kind, run(c.cmd(p))[1], want)
        if c.on_stdin():
            same(c.name, '%s on standard input == plain' % kind, run(c.on_stdin(), stdin=data)[1], want)


# ---- inputs ----------------------------------------------------------------

def rng_for(name):
    return random.Random(sum(name.encode()))


def spoil(src, col, dst, rng):
    """src with column col of about one row in a hundred made unreadable."""
    header, rows = read_csv(src)
    ci = header.index(col)
    for r in rows:
        if rng.random() < 0.01:
            r[ci] = 'bad'
    write_csv(dst, header, rows)


SPECIAL = ['a,b', 'say "hi"', ' lead', 'x\ny', '\u00e9\u4e2d', '"', 'B', 'b', 'a', 'ab', 'a b', 'a\tb', 'a;b']


def rename_keys(src, key, dst):
    """src with its keys renamed to SPECIAL (numbered past the list)."""
    header, rows = read_csv(src)
    ki, names = header.index(key), {}
    for r in rows:
        if r[ki] not in names:
            n = len(names)
            names[r[ki]] = SPECIAL[n % len(SPECIAL)] + (str(n // len(SPECIAL)) if n >= len(SPECIAL) else '')
        r[ki] = names[r[ki]]
    write_csv(dst, header, rows)


def inputs(work, data, small):
    """Generate (and convert) the inputs; return the cases."""
    g = lambda *a: run(['tracegen', '-q'] + list(a))
    n = (lambda s, b: s) if small else (lambda s, b: b)
    f = lambda name: os.path.join(work, name)
    g('runs', '--count', n('12', '40'), '--days', n('6', '14'), '-o', f('runs.csv'))
    g('events', '--count', n('12', '40'), '--days', n('6', '14'), '-o', f('events.csv'))
    g('usage', '--count', n('8', '20'), '--days', n('2', '3'), '-o', f('usage.csv'))
    g('taskmem', '--count', n('6', '20'), '--set', 'step=' + n('60', '10'), '-o', f('mem.csv'))
    g('tenants', '--count', n('12', '40'), '--days', n('2', '3'), '-o', f('ten.csv'))
    sums = ['jobs', 'runs', 'actionable', 'too_few_runs', 'not_periodic', 'no_consumer', 'too_few_reads', 'high_cv',
            'no_slack', 'no_window', 'natural', 'failed', 'extra']
    cases = [
        Case('sloinfer', ['sloinfer'], f('runs.csv'), 'job', 'any', 'sorted',
             ['submit', 'start', 'end', 'input_avail', 'output_read'], sums, seeded=False),
        Case('sloinfer-events', ['sloinfer', '--events', f('events.csv')], f('runs.csv'), 'job', 'any', 'sorted',
             ['submit', 'start', 'end'], sums, seeded=False, fmt=False),
        Case('skyfit', ['skyfit'], f('usage.csv'), 'job', 'within', 'order', ['t'],
             ['jobs', 'fitted', 'outlier runs'], seeded=False, files=[('--stats', ['solve_ms'])]),
        Case('skyfit-s', ['skyfit', '-s'], f('usage.csv'), 'job', 'any', 'sorted', ['t'], seeded=False,
             files=[('--stats', ['solve_ms'])]),
        # (peakgate's --seed drives the --model trajectories only)
        Case('peakgate', ['peakgate'], f('mem.csv'), 'task', 'grouped', 'order', ['t'],
             ['tasks', 'samples', 'well', 'poorly'], seeded=False),
        Case('peakgate-s', ['peakgate', '-s'], f('mem.csv'), 'task', 'any', 'sorted', ['t'], seeded=False),
        Case('tenantclass-features', ['tenantclass', '--features-only'], f('ten.csv'), 'tenant', 'within', 'order',
             ['t'], seeded=False),
        Case('tenantclass-features-s', ['tenantclass', '--features-only', '-s'], f('ten.csv'), 'tenant', 'any',
             'sorted', ['t'], seeded=False),
        Case('tenantclass', ['tenantclass'], f('ten.csv'), 'tenant', 'within', None, ['t'], seeded=None),
    ]
    # keys that need quoting or sort in surprising ways: a comma, quotes, a
    # line break, a leading space, UTF-8, case
    for src, key, tool in (('runs.csv', 'job', 'sloinfer'), ('usage.csv', 'job', 'skyfit'),
                           ('mem.csv', 'task', 'peakgate'), ('ten.csv', 'tenant', 'tenantclass')):
        rename_keys(f(src), key, f('q-' + src))
    cases += [
        Case('sloinfer-quoted-keys', ['sloinfer'], f('q-runs.csv'), 'job', 'any', 'sorted', seeded=False),
        Case('skyfit-quoted-keys', ['skyfit'], f('q-usage.csv'), 'job', 'within', 'order', seeded=False),
        Case('skyfit-s-quoted-keys', ['skyfit', '-s'], f('q-usage.csv'), 'job', 'any', 'sorted', seeded=False),
        Case('peakgate-quoted-keys', ['peakgate'], f('q-mem.csv'), 'task', 'grouped', 'order'),
        Case('peakgate-s-quoted-keys', ['peakgate', '-s'], f('q-mem.csv'), 'task', 'any', 'sorted'),
        Case('tenantclass-features-quoted-keys', ['tenantclass', '--features-only'], f('q-ten.csv'), 'tenant',
             'within', 'order'),
        Case('tenantclass-features-s-quoted-keys', ['tenantclass', '--features-only', '-s'], f('q-ten.csv'),
             'tenant', 'any', 'sorted'),
    ]
    # --on-error skip: bad rows (one in a hundred) skipped in each shard as in
    # one process, and the skipped rows counted in the summaries add up
    for src, col in (('runs.csv', 'start'), ('usage.csv', 't'), ('mem.csv', 't'), ('ten.csv', 'util')):
        spoil(f(src), col, f('bad-' + src), rng_for(src))
    skip = ['--on-error', 'skip']
    cases += [
        Case('sloinfer-skip', ['sloinfer'] + skip, f('bad-runs.csv'), 'job', 'any', 'sorted', adds=sums + ['bad'],
             props=['shard', 'order']),
        Case('skyfit-skip', ['skyfit'] + skip, f('bad-usage.csv'), 'job', 'within', 'order',
             adds=['jobs', 'fitted', 'outlier runs', 'bad'], props=['shard', 'order']),
        Case('peakgate-skip', ['peakgate'] + skip, f('bad-mem.csv'), 'task', 'grouped', 'order',
             adds=['tasks', 'samples', 'well', 'poorly', 'bad'], props=['shard']),
        Case('tenantclass-features-skip', ['tenantclass', '--features-only'] + skip, f('bad-ten.csv'), 'tenant',
             'within', 'order', adds=['tenants', 'bad'], props=['shard', 'order']),
    ]
    if data and os.path.isdir(os.path.join(data, 'google-2011')):
        gd = os.path.join(data, 'google-2011')
        jobs = sorted(os.path.join(gd, x) for x in os.listdir(gd) if x.startswith('job_events'))
        tasks = sorted(os.path.join(gd, x) for x in os.listdir(gd) if x.startswith('task_events'))
        if small:
            jobs = jobs[:2]
        run(['traceconv', '-q', 'google-runs'] + jobs + ['-o', f('g_runs.csv')])
        run(['traceconv', '-q', 'google-usage'] + jobs + tasks + ['-o', f('g_usage.csv')])
        cases += [
            Case('google-sloinfer', ['sloinfer'], f('g_runs.csv'), 'job', 'any', 'sorted',
                 ['submit', 'start', 'end'], sums, seeded=False),
            Case('google-skyfit', ['skyfit'], f('g_usage.csv'), 'job', 'within', 'order', ['t'],
                 ['jobs', 'fitted', 'outlier runs'], seeded=False, files=[('--stats', ['solve_ms'])]),
            Case('google-skyfit-runs', ['skyfit', '--runs', f('g_runs.csv')], f('g_usage.csv'), 'job', 'within',
                 'order', adds=['jobs', 'fitted', 'outlier runs'], seeded=False, files=[('--stats', ['solve_ms'])],
                 fmt=False, props=['shard', 'order', 'seed']),
            Case('google-skyfit-s', ['skyfit', '-s'], f('g_usage.csv'), 'job', 'any', 'sorted', ['t'], seeded=False),
        ]
    pl = os.path.join(data or '', 'planetlab', '20110303.csv')
    if data and os.path.exists(pl) and not small:
        h, rows = read_csv(pl)
        vms = sorted({r[0] for r in rows})[:150]
        keep = set(vms)
        write_csv(f('pl.csv'), h, [r for r in rows if r[0] in keep])
        pa = ['--col', 'tenant=vm', '--col', 'util=cpu', '--step', '5m', '--scale', 'percent']
        cases += [
            Case('planetlab-features', ['tenantclass', '--features-only'] + pa, f('pl.csv'), 'vm', 'within',
                 'order', ['t']),
            Case('planetlab-tenantclass', ['tenantclass'] + pa, f('pl.csv'), 'vm', 'within', None, ['t']),
        ]
    cases += others(work, data, small)
    for c in cases:
        if c.name.startswith('planetlab-features'):
            c.key_out = 'tenant'
    return cases


def others(work, data, small):
    """The tools that are not per key: determinism, --seed, time forms and
    formats only."""
    g = lambda *a: run(['tracegen', '-q'] + list(a))
    f = lambda name: os.path.join(work, name)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')
    cases = [Case('tracegen-' + k, ['tracegen', k, '--count', '5', '--days', '2'], None, seeded=True)
             for k in ('runs', 'usage', 'events', 'tenants', 'taskmem', 'jobruns', 'storage', 'vcjobs', 'requests')]
    # (the paper scenario's VCs are fixed; the mixed scenario draws them)
    cases.append(Case('tracegen-vcs', ['tracegen', 'vcs', '--set', 'scenario=mixed', '--count', '5'], None, seeded=True))
    g('vcs', '--days', '3', '-o', f('vcs.csv'))
    g('vcjobs', '--days', '3', '-o', f('vcjobs.csv'))
    cases.append(Case('stretch', ['stretch', f('vcs.csv')], f('vcjobs.csv'), times=['submit'], seeded=False))
    cases.append(Case('stretch-balanced', ['stretch', '-s', 'balanced', f('vcs.csv')], f('vcjobs.csv'),
                      times=['submit'], seeded=False))
    # peakgate's simulation of the series (random peaks order? its --seed)
    cases.append(Case('peakgate-simulate', ['peakgate', '--simulate', '--node-mb', '20000'], f('mem.csv'),
                      times=['t'], seeded=False))
    cases.append(Case('peakgate-model', ['peakgate', '--simulate', '--model', '--duration', '10m'], None, seeded=True))
    # replay and lcmpack on the tracegen workload (times: usage t)
    g('runs', '--count', '8', '--days', '3', '-o', f('r_runs.csv'))
    g('usage', '--count', '8', '--days', '3', '--truth', f('r_truth.csv'), '-o', f('r_usage.csv'))
    run(['sloinfer', '-q', '--min-runs', '2', f('r_runs.csv'), '-o', f('r_slo.csv')])
    run(['skyfit', '-q', '--last', '5', '--round', f('r_usage.csv'), '-o', f('r_sky.csv')])
    cases.append(Case('lcmpack', ['lcmpack', '--slo', f('r_slo.csv'), '--capacity', 'cores=300,mem=1e9'],
                      f('r_sky.csv'), seeded=False, fmt=False))
    run(['lcmpack', '-q', '--slo', f('r_slo.csv'), '--capacity', 'cores=300,mem=1e9', f('r_sky.csv'),
         '-o', f('r_plan.csv')])
    cases.append(Case('replay', ['replay', '--regime', 'static,plan,plan+dra', '--slo', f('r_slo.csv'), '--plan',
                                 f('r_plan.csv'), '--provisioned', f('r_truth.csv'), '--capacity',
                                 'cores=150,mem=1e9'], f('r_usage.csv'), times=['t'], seeded=False))
    # reprov: a live stream (times t), DRA on a plan and the Jockey loop
    if os.path.isdir(os.path.join(root, 'reprov')):
        d = os.path.join(root, 'reprov')
        cases.append(Case('reprov-dra', ['reprov', '--policy', 'dra', '--plan', os.path.join(d, 'plan.csv'),
                                         '--capacity', 'cores=2000,mem=8192000'],
                          os.path.join(d, 'full_stream.csv'), times=['t'], seeded=False, fmt=False))
        cases.append(Case('reprov-jockey', ['reprov', '--policy', 'jockey', '--table', os.path.join(d, 'slides.csv'),
                                            '--deadline', '60m', '--slack', '1.2'],
                          os.path.join(d, 'slides_stream.csv'), times=['t'], seeded=None))
    g('jobruns', '--count', '6', '-o', f('jobruns.csv'))
    cases.append(Case('reprov-compare', ['reprov', '--compare-models'], f('jobruns.csv'), times=['start', 'end'],
                      seeded=None))
    # replplace: storage tenants, placements drawn at random
    g('storage', '--count', '60', '-o', f('storage.csv'))
    cases.append(Case('replplace-simulate', ['replplace', '--simulate', '--blocks', '2000'], f('storage.csv'),
                      seeded=True, stdin=False))
    # classpick: classes from tenantclass, picks drawn at random; the simulation
    # replays the series (times t)
    if os.path.isdir(os.path.join(root, 'classpick')):
        d = os.path.join(root, 'classpick')
        run(['tenantclass', '-q', '--servers', os.path.join(d, 'simservers.csv'), '--classes', f('simc.csv'),
             '-o', f('simo.csv'), os.path.join(d, 'simseries.csv')])
        cases.append(Case('classpick', ['classpick', '--no-book', '--classes', os.path.join(d, 'classes.csv')],
                          os.path.join(d, 'many.csv'), seeded=True))
        cases.append(Case('classpick-simulate', ['classpick', '--simulate', '--sample', 'in', '--classes', f('simc.csv'),
                                                 '--tenants', f('simo.csv'), '--series', '{}', '--servers',
                                                 os.path.join(d, 'simservers.csv'), '--tasks', '20'],
                          os.path.join(d, 'simseries.csv'), times=['t'], seeded=None, fmt=False, time_unit=False))
    if data and os.path.isdir(os.path.join(data, 'swim')):
        run(['traceconv', '-q', 'swim', os.path.join(data, 'swim', 'FB-2009_samples_24_times_1hr_0.tsv'),
             '--capacities', f('swim_vcs.csv'), '-o', f('swim_jobs.csv')])
        cases.append(Case('swim-stretch', ['stretch', '-s', 'drr', '--horizon', '86400s', f('swim_vcs.csv')],
                          f('swim_jobs.csv'), times=['submit'], seeded=False))
    if data and os.path.isdir(os.path.join(data, 'alibaba-gpu-2023')) and not small:
        a = os.path.join(data, 'alibaba-gpu-2023')
        run(['traceconv', '-q', 'alibaba-gpu', os.path.join(a, 'openb_pod_list_gpushare40.csv'), '--nodes',
             os.path.join(a, 'openb_node_list_all_node.csv'), '--capacities', f('ali_vcs.csv'), '-o', f('ali_jobs.csv')])
        cases.append(Case('alibaba-stretch', ['stretch', f('ali_vcs.csv')], f('ali_jobs.csv'), times=['submit'],
                          seeded=False))
    return cases


def check_features_merge(c, work, rng, ks):
    """tenantclass: features of shards (tenantclass --features-only on each),
    then --from-features on all of them in a random order == one process."""
    header, rows = read_csv(c.inp)
    ki = header.index(c.key)
    whole = os.path.join(work, c.name + '.whole.csv')
    write_csv(whole, header, rows)
    _, want, _ = run(c.cmd(whole))
    distinct = list(dict.fromkeys(r[ki] for r in rows))
    for k in ks:
        shard_of = {key: rng.randrange(k) for key in distinct}
        feats = []
        for s in range(k):
            p = os.path.join(work, '%s.k%d-%d.csv' % (c.name, k, s))
            write_csv(p, header, shuffle_rows([r for r in rows if shard_of[r[ki]] == s], ki, 'within', rng))
            fo = p + '.feat'
            run(c.argv + ['--features-only', p, '-o', fo])
            feats.append(fo)
        rng.shuffle(feats)
        # (the feature tables name the tenant column 'tenant': no --col)
        argv = [a for i, a in enumerate(c.argv) if a != '--col' and (i == 0 or c.argv[i - 1] != '--col')]
        got = run(argv + ['--from-features'] + feats)[1]
        same(c.name, 'features of %d shards, --from-features == one process' % k, got, want)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--small', action='store_true', help='a small configuration (the test suite)')
    ap.add_argument('--work', help='work directory (default: a temporary one, removed when all passed)')
    ap.add_argument('--data', help='the public traces (shared/data)')
    ap.add_argument('--only', help='cases whose name contains this')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--props', default='shard,order,seed,time,format,features')
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix='stream_props.')
    os.makedirs(work, exist_ok=True)
    rng = random.Random(a.seed)
    ks = [2, 3] if a.small else [2, 3, 4, 5]
    for c in inputs(work, a.data, a.small):
        if a.only and a.only not in c.name:
            continue
        try:
            props = c.props or a.props.split(',')
            if c.inp is None:
                if 'seed' in props:
                    check_seed(c, work)
                continue
            if 'shard' in props and c.merge:
                check_shards(c, work, rng, ks)
            if 'features' in props and c.merge is None and c.argv[0] == 'tenantclass':
                check_features_merge(c, work, rng, ks)
            if 'order' in props:
                check_order(c, work, rng)
            if 'seed' in props:
                check_seed(c, work)
            if 'time' in props:
                check_times(c, work)
            if 'format' in props and c.fmt:
                check_format(c, work)
        except RuntimeError as e:
            verdict(c.name, 'run', False, str(e))
    for n in NOTES:
        print('note: ' + n)
    print('stream_props: %d checks passed, %d failed' % (PASSES[0], len(FAILS)))
    if not FAILS and not a.work:
        shutil.rmtree(work)
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
