#!/usr/bin/env python3
"""tests/fuzz/queue-check.py NAME [MAX]: replay up to MAX (default 400, a
seeded sample) of the AFL++ queue entries of target NAME
(build-afl/out/NAME/default/queue) through the -O2 tools in build/bin;
for exit-0 runs print what looks wrong in the output: nan/inf, a negative
number, a row with another field count than the header, a control
character; in stdout
and the side files (--capacities, --report, keyshard shards).  Exit 70, a
signal or a 30 s timeout is printed as such.  One line per kind of
finding: count, finding, first input.  Negative numbers are legitimate in
some columns (a penalty, a utility): read them before calling one a
defect."""
import csv, io, os, re, subprocess, sys, glob, random
root=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))); name=sys.argv[1]; mx=int(sys.argv[2]) if len(sys.argv)>2 else 400
F=root+'/tests/fuzz/fixed'
line=[l for l in open(root+'/tests/fuzz/afl.targets') if l.startswith(name+'|')][0].strip()
cmd=line.split('|',1)[1].replace('$F',F).split()
side=[]
for i,a in enumerate(cmd):
    if a=='/dev/null' and i>0 and cmd[i-1] in('--capacities','--report','-o'):
        cmd[i]='/tmp/slokit-queue-check-%d.csv'%i; side.append(cmd[i])
if name=='keyshard':
    side=['/tmp/slokit-fuzz-ks-%04d.csv'%i for i in range(3)]+['/tmp/slokit-fuzz-ks-order.csv']
q=sorted(glob.glob(root+'/build-afl/out/%s/default/queue/id:*'%name))
random.seed(1)
if len(q)>mx: q=random.sample(q,mx)
num=re.compile(r'^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$')
env=dict(os.environ, PATH=F+':'+os.environ['PATH'])
def check(text, where):
    bad=[]
    if not text.strip(): return bad
    rows=list(csv.reader(io.StringIO(text)))
    if not rows: return bad
    n=len(rows[0])
    for k,r in enumerate(rows):
        if len(r)!=n: bad.append('%s row %d: %d fields, header %d'%(where,k+1,len(r),n)); break
        for j,v in enumerate(r):
            lv=v.strip().lower()
            if k>0 and re.fullmatch(r'[-+]?(nan|inf|infinity)', lv): bad.append('%s row %d col %s: %r'%(where,k+1,rows[0][j] if j<n else j,v))
            if k>0 and num.match(v) and v.startswith('-') and rows[0][j] not in ('reason',): bad.append('%s row %d col %s negative %r'%(where,k+1,rows[0][j] if j<n else j,v))
            if any(ord(c)<32 and c not in '\t\n\r' for c in v) : bad.append('%s row %d col %d control char'%(where,k+1,j))
    return bad
seen={}
for f in q:
    for s in side:
        try: os.unlink(s)
        except OSError: pass
    argv=[root+'/build/bin/'+cmd[0]]+[f if a=='@@' else a for a in cmd[1:]]
    try:
        p=subprocess.run(argv,stdin=subprocess.DEVNULL,capture_output=True,timeout=30,env=env)
    except subprocess.TimeoutExpired:
        print('TIMEOUT',f); continue
    if p.returncode not in (0,1,65,66,74):
        print('EXIT',p.returncode,f,p.stderr[:200]); continue
    if p.returncode!=0: continue
    out=p.stdout.decode('utf-8','replace')
    bad=check(out,'stdout')
    for s in side:
        if os.path.exists(s): bad+=check(open(s,errors='replace').read(), os.path.basename(s))
    for b in bad[:3]:
        key=re.sub(r'row \d+','row N',b)
        seen.setdefault(key,[]).append(f)
for k,v in seen.items(): print(len(v),k,v[0])
print('scanned',len(q))
