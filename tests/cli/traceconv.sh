# traceconv: public traces into slokit inputs.  Hand-made logs are checked
# against hand-worked outputs (the arithmetic is in the comments); the real
# files of ../shared/data against an independent Python reading of the raw
# trace (tests/check/google_trace.py) or awk sums over the raw files.
D="$ROOT/tests/data/traceconv"
PY=/usr/bin/python3
G="$DATA/google-2011"
A="$DATA/alibaba-gpu-2023"
S="$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv"

# ---- Google 2011, by hand (tests/data/traceconv/job_events.csv) ----
# job 10: SUBMIT 1 s, SCHEDULE 1.5 s, FINISH 61.500001 s; job 11: SUBMIT 2,
# SCHEDULE 2.000007, FAIL 3, SUBMIT 3.1, SCHEDULE 3.2, FINISH 64: one run from
# its first SUBMIT and SCHEDULE to its last end.  Skipped: job 12 (SUBMIT at
# 0 = before the window), 13 (never ends), 14 (killed while pending).
t "google runs by hand" 0 '' "job,instance,submit,start,end,status
L1,10,1,1.5,61.500001,finished
L1,11,2,2.000007,64,finished" "2 runs written; skipped 1 submitted before the window, 1 never scheduled, 1 not ended" \
    traceconv google-runs "$D/job_events.csv"
t "google runs --epoch adds whole seconds exactly" 0 '' "job,instance,submit,start,end,status
L1,10,1700000001,1700000001.5,1700000061.500001,finished
L1,11,1700000002,1700000002.000007,1700000064,finished" '' \
    traceconv -q google-runs --epoch 2023-11-14T22:13:20Z "$D/job_events.csv"
# An --epoch before 1970 gives negative times, written exactly: the sign is
# the whole number's.  The seconds and the fraction were written apart, so
# -7200 + 6000.5 came out as -1200 and .5, "-1200.5" for -1199.5.  By hand:
# -7200 + 6000.5 = -1199.5, + 6000.6 = -1199.4, + 6000.7 = -1199.3;
# -6500 + 6000.000001 = -499.999999, + 6500.000001 = 0.000001,
# + 7000.000001 = 500.000001; -1 + 0.5 = -0.5 (no whole second to carry
# the sign), -1 + 1 = 0.
t "google runs before 1970: exact negative times" 0 '6000500000,,1,0,u,0,n,L
6000600000,,1,1,u,0,n,L
6000700000,,1,4,u,0,n,L
' "job,instance,submit,start,end,status
L,1,-1199.5,-1199.4,-1199.3,finished" '' traceconv -q google-runs --epoch 1969-12-31T22:00:00Z -
t "google runs across 1970: exact on both sides" 0 '6000000001,,1,0,u,0,n,L
6500000001,,1,1,u,0,n,L
7000000001,,1,4,u,0,n,L
' "job,instance,submit,start,end,status
L,1,-499.999999,0.000001,500.000001,finished" '' traceconv -q google-runs --epoch -6500 -
t "google runs: -0.5 keeps its sign" 0 '500000,,1,0,u,0,n,L
600000,,1,1,u,0,n,L
1000000,,1,4,u,0,n,L
' "job,instance,submit,start,end,status
L,1,-0.5,-0.4,0,finished" '' traceconv -q google-runs --epoch -1 -
# usage: job 10's tasks run [1.5, 61.5) and [31.5, 121.5): span 120 s = two
# 60 s steps; step 1 holds 60 + 30 task-seconds -> 1.5 containers, step 2 60
# -> 1.  Requests (x cores=8, mem=1000), one size for the run, its tasks'
# task-seconds-weighted mean: cpu (60x0.5 + 90x0.25)/150 x 8 = 2.8, mem
# (60x0.25 + 90x0.125)/150 x 1000 = 175 (each step's own mean, 3.33 and 2
# cores, was not one size: replay refused such a run).  Job 11's only task
# ends with no SCHEDULE in the file: its run is incomplete and skipped.
t "google usage by hand" 0 '' "job,run,t,containers,cores,mem_mb
L1,10,1.5,1.5,2.8,175
L1,10,61.5,1,2.8,175" "1 job runs written (2 rows); skipped 1 with a task outside the files" \
    traceconv google-usage --machine cores=8,mem=1000 "$D/job_events.csv" "$D/task_events.csv"
# Requests of 0 CPU (many 2011 tasks ask for memory only): with --machine a
# run that asks for memory but no CPU was dropped ("with no requests": 109 of
# 899 runs of the real shards, every one with CPU 0 and memory > 0); adding
# columns must not change which runs exist.  Kept, its container is 0 cores;
# only a run that requests neither is dropped.  By hand (x cores=8,
# mem=1000): job 10 (L) runs task 0 [1, 61) with CPU 0, memory 0.25, then
# task 1 [61, 121) with CPU 0.5, memory 0.125: one size for the run, its
# tasks' mean over 120 task-seconds, 2 cores x 187.5 MB; job 11 (M) requests
# neither: skipped; job 12 (N) [2, 32) CPU 0, memory 0.5: 0.5 containers of
# 0 cores x 500 MB.
printf '1000000,,10,0,u,0,n,L\n1000000,,11,0,u,0,n,M\n1000000,,12,0,u,0,n,N\n' >"$TMP/je3.csv"
cat >"$TMP/te3.csv" <<'EOF3'
1000000,,10,0,m,1,u,0,0,0,0.25,0,0
1000000,,11,0,m,1,u,0,0,0,0,0,0
2000000,,12,0,m,1,u,0,0,,0.5,0,0
32000000,,12,0,m,4,u,0,0,,,,
61000000,,10,0,m,4,u,0,0,,,,
61000000,,10,1,m,1,u,0,0,0.5,0.125,0,0
61000000,,11,0,m,4,u,0,0,,,,
121000000,,10,1,m,4,u,0,0,,,,
EOF3
t "google usage: a run of 0 CPU and some memory is kept (0 cores)" 0 '' "job,run,t,containers,cores,mem_mb
L,10,1,1,2,187.5
L,10,61,1,2,187.5
N,12,2,0.5,0,500" "2 job runs written (3 rows); skipped 0 with a task outside the files, 0 not in the job events, 1 requesting neither CPU nor memory" \
    traceconv google-usage --machine cores=8,mem=1000 "$TMP/je3.csv" "$TMP/te3.csv"
t "google usage: the same runs without --machine" 0 '' "job,run,t,containers
L,10,1,1
L,10,61,1
M,11,1,1
N,12,2,0.5" "3 job runs written (4 rows); skipped 0 with a task outside the files, 0 not in the job events" \
    traceconv google-usage "$TMP/je3.csv" "$TMP/te3.csv"
# skyfit takes a 0-core container (lcmpack and replay did): N's 0 cores x
# 500 MB, and L's one size, 2 cores x 187.5 MB
t "google usage with 0 cores feeds skyfit" 0 '' "job,step,offset,alloc,cores,mem_mb
L,60,0,1,2,187.5
L,60,60,1,2,187.5
N,60,0,0.5,0,500" '' sh -c 'traceconv -q google-usage --machine cores=8,mem=1000 "$1" "$2" | skyfit -q --min-runs 1' _ "$TMP/je3.csv" "$TMP/te3.csv"
# the usage times too: "google usage by hand" 100 s earlier (1.5 - 100,
# 61.5 - 100), where -99.5 and -39.5 were written
t "google usage before 1970: exact negative t" 0 '' "job,run,t,containers
L1,10,-98.5,1.5
L1,10,-38.5,1" '' traceconv -q google-usage --epoch -100 "$D/job_events.csv" "$D/task_events.csv"
t "google usage step 120s" 0 '' "job,run,t,containers
L1,10,1.5,1.25" '' traceconv -q google-usage --step 2m "$D/job_events.csv" "$D/task_events.csv"
# the step is counted in microseconds: 1e13 s overflowed it and hung; the
# bound is 1e9 s, where the same 150 task-seconds make 1.5e-7 containers
t "google usage step 1e9 s: one step" 0 '' "job,run,t,containers
L1,10,1.5,1.5e-07" '' traceconv -q google-usage --step 1e9 "$D/job_events.csv" "$D/task_events.csv"
t "google usage step 1e13 s refused" 64 '' '' "invalid value for --step: '1e13' (out of range: at most 1e+09 s)" \
    timeout 20 traceconv google-usage --step 1e13 "$D/job_events.csv" "$D/task_events.csv"
t "google usage wants job files first" 65 '' '' \
    "job_events.csv:1: a job_events file after task_events: give the job files first" \
    traceconv google-usage "$D/task_events.csv" "$D/job_events.csv"
# both kinds are needed: a glob that matched nothing was an empty table, exit 0
t "google usage without task files" 65 '' '' \
    "traceconv: google-usage read no task_events (13 fields): give the job_events files, then the task_events files" \
    traceconv google-usage -o "$TMP/nothing.csv" "$D/job_events.csv"
t "google usage without job files" 65 '' '' \
    "traceconv: google-usage read no job_events (8 fields): give the job_events files, then the task_events files" \
    traceconv google-usage -o "$TMP/nothing.csv" "$D/task_events.csv"
tcheck "google usage without one kind: no table written" test ! -e "$TMP/nothing.csv"
t "google runs refuses task events" 65 '' '' "task_events.csv:1: a task_events file: google-runs reads job_events only" \
    traceconv google-runs "$D/task_events.csv"
t "google bad event type" 65 '1,,10,9,u,0,n,L
' '' '<stdin>:1: field 4 (event type): not 0-8 '"'9'" traceconv google-runs -
t "google wrong field count" 65 '1,,10,0,u,0,n,L
2,,10,1,u,0,n
' '' '<stdin>:2: expected 8 job_events fields, found 7' traceconv google-runs -
# a line of 17 fields: "more than 13", not the 14 the reader stops counting at
t "google too many fields in a job_events file" 65 $'1,,10,0,u,0,n,L\n2,,10,1,u,0,n,L,a,b,c,d,e,f,g,h,i\n' '' \
    '<stdin>:2: expected 8 job_events fields, found more than 13' traceconv google-runs -
t "google too many fields on the first line" 65 $'1,,10,0,u,0,n,L,a,b,c,d,e,f,g,h,i\n' '' \
    '<stdin>:1: not a Google 2011 job_events (8 fields) or task_events (13 fields) line: more than 13 fields' traceconv google-runs -
t "google bad time" 65 '1x,,10,0,u,0,n,L
' '' "<stdin>:1: field 1 (time): invalid integer '1x'" traceconv google-runs -
gzip -c "$D/job_events.csv" >"$TMP/je.csv.gz"
head -c 60 "$TMP/je.csv.gz" >"$TMP/je-cut.csv.gz"
t "google truncated gzip" 65 '' '' "je-cut.csv.gz:$(zline "$TMP/je-cut.csv.gz"): truncated gzip input" traceconv google-runs "$TMP/je-cut.csv.gz"
# A gzip cut in the middle of its stream, and of a line, many lines in: the
# truncation at the line where it is, as keyshard and the CSV tools say it.
# (A complete gzip of text that ends inside a line is not truncated: that
# line is short, "expected 8 job_events fields, found 7", as sloinfer says
# "expected N fields".)
if [ -r "$G/job_events-part-00001-of-00500.csv.gz" ]; then
    head -c 20000 "$G/job_events-part-00001-of-00500.csv.gz" >"$TMP/je-cut-mid.csv.gz"
    t "google gzip cut mid-line: truncated, at its line" 65 '' '' \
        "je-cut-mid.csv.gz:$(zline "$TMP/je-cut-mid.csv.gz"): truncated gzip input" traceconv google-runs "$TMP/je-cut-mid.csv.gz"
    t "google gzip cut mid-line: keyshard says the same" 65 '' '' \
        "je-cut-mid.csv.gz:$(zline "$TMP/je-cut-mid.csv.gz"): truncated gzip input" keyshard --check -H -k c3 "$TMP/je-cut-mid.csv.gz"
    zcat "$G/job_events-part-00001-of-00500.csv.gz" | head -c 50000 | gzip -c >"$TMP/je-text-cut.csv.gz"
    t "google intact gzip, text cut mid-line: the short line" 65 '' '' \
        "je-text-cut.csv.gz:$(($(zcat "$TMP/je-text-cut.csv.gz" | wc -l) + 1)): expected 8 job_events fields, found" \
        traceconv google-runs "$TMP/je-text-cut.csv.gz"
else
    tskip "google gzip cut mid-line" "no $G (the public traces beside the repository)"
fi
t "google absurd time" 65 '200000000000000000,,10,0,u,0,n,L
' '' "<stdin>:1: field 1 (time): out of range '200000000000000000'" traceconv google-runs -
t "google gzip input" 0 '' "job,instance,submit,start,end,status
L1,10,1,1.5,61.500001,finished
L1,11,2,2.000007,64,finished" '' traceconv -q google-runs "$TMP/je.csv.gz"
zstd -q -c "$D/job_events.csv" >"$TMP/je.csv.zst"
t "google zstd input = plain" 0 '' '*' '' sh -c 'traceconv -q google-runs "$1" > "$3" && traceconv -q google-runs "$2" | cmp - "$3"' _ "$TMP/je.csv.zst" "$D/job_events.csv" "$TMP/je-zst.out"
head -c 30 "$TMP/je.csv.zst" >"$TMP/je-cut.csv.zst"
t "google truncated zstd" 65 '' '' "je-cut.csv.zst:$(zline "$TMP/je-cut.csv.zst"): truncated zstd input" traceconv google-runs "$TMP/je-cut.csv.zst"
printf 'x\0y,,10,0,u,0,n,L\n' >"$TMP/nul.csv"
t "google NUL byte" 65 '' '' "nul.csv:1: NUL byte in line" traceconv google-runs "$TMP/nul.csv"
# fuzz9 findings.  A job event earlier than the job's previous one: the run
# would end (2 s) before it starts (9 s), a row sloinfer refuses.
t "google job event out of time order" 65 '5000000,,10,0,u,0,n,L
9000000,,10,1,u,0,n,L
2000000,,10,4,u,0,n,L
' '' "<stdin>:3: field 1 (time): '2000000' before job 10's previous event at 9000000 us" traceconv google-runs -
printf '1,,10,0,u,0,n,L\n' >"$TMP/je1.csv"
# A task that ends (1 us) before its SCHEDULE (10^11 us): its run's step count
# went negative, read as 2^64 - n steps, and traceconv died "out of memory"
# (exit 70).
t "google task ends before its SCHEDULE" 65 '100000000000,,10,0,m,1,u,0,0,0.5,0.25,0,0
1,,10,0,m,4,u,0,0,,,,
' '' "<stdin>:2: field 1 (time): task 0 of job 10 ends at '1', before its SCHEDULE at 100000000000 us" \
    traceconv google-usage "$TMP/je1.csv" -
# A task from 1 s to 10^11 s (a valid time): 1.7e9 steps of 60 s, 40 GB of
# step sums; more than 10^7 steps is refused at the row that makes it so.
t "google run of 1.7e9 steps" 65 '1000000,,10,0,m,1,u,0,0,0.5,0.25,0,0
100000000000000000,,10,0,m,4,u,0,0,,,,
' '' "<stdin>:2: field 1 (time): job 10's tasks span 1000000 to 100000000000000000 us, more than 10000000 steps of 60 s" \
    traceconv google-usage --machine cores=8,mem=1000 "$TMP/je1.csv" -
# The bound: 10^7 steps of 60 s and one microsecond more are refused.
t "google run of 10^7 steps and 1 us" 65 '1000000,,10,0,m,1,u,0,0,0.5,0.25,0,0
600000001000001,,10,0,m,4,u,0,0,,,,
' '' "<stdin>:2: field 1 (time): job 10's tasks span 1000000 to 600000001000001 us, more than 10000000 steps of 60 s" \
    traceconv google-usage "$TMP/je1.csv" -

# fuzz9: times the next tool refuses.  Every reader of a slokit file takes
# |t| <= 1e11 s; traceconv wrote the trace time plus --epoch or the SWF
# UnixStartTime beyond it (stretch: "time '500000000000' out of range").
# 10^17 us = 10^11 s plus --epoch 1,700,000,000 s = 101,700,000,000 s.
t "google time plus --epoch beyond 1e11 s" 65 '100000000000000000,,10,0,u,0,n,L
' '' "<stdin>:1: field 1 (time): '100000000000000000' is at 101700000000 s, beyond 1e11 s of 1970" \
    traceconv google-runs --epoch 1700000000 -
t "google time of 1e11 s exactly: kept" 0 '100000000000000000,,10,0,u,0,n,L
100000000000000000,,10,1,u,0,n,L
100000000000000000,,10,4,u,0,n,L
' 'job,instance,submit,start,end,status
L,10,100000000000,100000000000,100000000000,finished' '' traceconv -q google-runs -
t "swf UnixStartTime + submit beyond 1e11 s" 65 '; UnixStartTime: 99999999995
; MaxProcs: 4
1 6 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:3: field 2 (submit time): '6' is at 100000000001 s, beyond 1e11 s of 1970" \
    traceconv swf - --capacities "$TMP/x.csv"
t "swim --epoch + submit beyond 1e11 s" 65 "$(printf 'job0\t200000000000\t0\t1\t1\t1')" '' \
    "<stdin>:1: field 2 (submit): '200000000000' is at 200000000000 s, beyond 1e11 s of 1970" \
    traceconv swim - --capacities "$TMP/x.csv"
printf 'sn,cpu_milli,memory_mib,gpu,model\nn1,1000,1,2,\n' >"$TMP/n1.csv"
t "alibaba-gpu creation_time beyond 1e11 s" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p,1000,1,1,1000,,LS,Running,99999000001,99999000100,99999000001
' '' "<stdin>:2: column 'creation_time': '99999000001' is at 100000000001 s, beyond 1e11 s of 1970" \
    traceconv alibaba-gpu - --epoch 1000000 --nodes "$TMP/n1.csv" --capacities "$TMP/x.csv"
# A list without several of its columns: one line names them all (stderr
# through stdout, so the whole of it is compared: exactly that line)
t "alibaba-gpu: pods without their columns, one line" 65 "x
1
" "traceconv: <stdin>:1: missing required columns 'name', 'cpu_milli', 'num_gpu', 'gpu_milli', 'gpu_spec', 'qos', \
'creation_time', 'deletion_time' and 'scheduled_time'" '' sh -c 'exec "$@" 2>&1' _ \
    traceconv alibaba-gpu - --epoch 1000000 --nodes "$TMP/n1.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu: nodes without their columns, one line" 65 "x
1
" "traceconv: <stdin>:1: missing required columns 'cpu_milli' and 'gpu'" '' sh -c 'exec "$@" 2>&1' _ \
    traceconv alibaba-gpu "$TMP/n1.csv" --epoch 1000000 --nodes - --capacities "$TMP/x.csv"
# The pod and node lists are CSV, read as CSV: fields quoted as pandas
# writes them (QUOTE_ALL), a comma inside quotes, CRLF.  The lists were split
# at every comma: a quoted name came out as """pod-1""", a fully quoted
# header had no column 'name', a comma in gpu_spec made 12 fields of 11.
# By hand: pod-1 1 GPU x 1000 milli = 1 GPU for 3710 - 110 s = 1 server-hour;
# "pod,2" 2 x 500 milli = 1 GPU for 7400 - 200 s = 2; capacities of the 8
# GPUs by work (1 : 2): each VC 1, then floor(6/3) = 2 and floor(12/3) = 4.
printf '"sn","cpu_milli","memory_mib","gpu","model"\r\n"n1","32000","262144","8","V100"\r\n' >"$TMP/qnodes.csv"
printf '"name","cpu_milli","memory_mib","num_gpu","gpu_milli","gpu_spec","qos","pod_phase","creation_time","deletion_time","scheduled_time"\r\n"pod-1","4000","15258","1","1000","V100,A10","BE","Running","100","3710","110"\r\n"pod,2","4000","15258","2","500","","LS","Running","200","7400","200"\r\n' >"$TMP/qpods.csv"
t "alibaba-gpu reads quoted CSV" 0 '' 'job,vc,submit,size_server_hours,max_parallelism
pod-1,"V100,A10",100,1,1
"pod,2",any,200,2,1
vc,capacity
"V100,A10",3
any,5' '' sh -c 'traceconv -q alibaba-gpu --vc-by gpu_spec "$1" --nodes "$2" --capacities "$3" && cat "$3"' _ \
    "$TMP/qpods.csv" "$TMP/qnodes.csv" "$TMP/qvcs.csv"
t "alibaba-gpu: the brief's quoted name" 0 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
"pod-1",4000,15258,1,320,,BE,Running,100,4000,110
' 'job,vc,submit,size_server_hours,max_parallelism
pod-1,BE,100,0.34577777777777774,0.32' '' traceconv -q alibaba-gpu - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu: a pod with no name" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
"",4000,15258,1,320,,BE,Running,100,4000,110
' '' "<stdin>:2: column 'name': missing value" traceconv -q alibaba-gpu - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
# A pod deleted before it was scheduled was counted "deleted when
# scheduled" (exit 0); a pod the unit drops (no GPU with --unit gpu) was
# not checked at all, so a line's validity depended on --unit.
t "alibaba-gpu: a pod deleted before it was scheduled" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
pod-1,4000,15258,1,320,,BE,Running,100,105,110
' '' "<stdin>:2: pod 'pod-1' deleted at 105, before it was scheduled at 110" traceconv -q alibaba-gpu - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu: deleted when scheduled is still skipped" 0 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
pod-1,4000,15258,1,320,,BE,Running,100,110,110
pod-2,4000,15258,1,320,,BE,Running,100,4000,110
' 'job,vc,submit,size_server_hours,max_parallelism
pod-2,BE,100,0.34577777777777774,0.32' '' traceconv -q alibaba-gpu - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
for u in gpu cpu; do
    t "alibaba-gpu --unit $u: a CPU-only pod with no name" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
"",4000,15258,0,0,,BE,Running,100,4000,110
' '' "<stdin>:2: column 'name': missing value" traceconv -q alibaba-gpu --unit $u - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
    t "alibaba-gpu --unit $u: a CPU-only pod scheduled before it was created" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
pod-1,4000,15258,0,0,,BE,Running,100,4000,90
' '' "<stdin>:2: pod 'pod-1' scheduled at 90, before it was created at 100" traceconv -q alibaba-gpu --unit $u - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
done
t "alibaba-gpu: an open quote names its line" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p1,4000,15258,1,320,,BE,Running,100,4000,110
"p2,4000,15258,1,320,,BE,Running,100,4000,110
' '' "<stdin>:3: " traceconv -q alibaba-gpu - --nodes "$TMP/qnodes.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu pod scheduled before it was created" 65 'name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
p,1000,1,1,1000,,LS,Running,500,900,100
' '' "<stdin>:2: pod 'p' scheduled at 100, before it was created at 500" \
    traceconv alibaba-gpu - --nodes "$TMP/n1.csv" --capacities "$TMP/x.csv"
# an empty input is an error at its line 1, as the CSV tools say it (it was
# "<stdin>: empty input", with no line)
t "google-runs: empty input at line 1" 65 '' '' "traceconv: <stdin>:1: empty input" traceconv google-runs -
t "google-usage: empty input at line 1, --on-error skip too" 65 '' '' "traceconv: <stdin>:1: empty input" traceconv google-usage --on-error skip -
t "alibaba-gpu: empty node list at line 1" 65 '' '' "traceconv: <stdin>:1: empty input (no header row)" \
    traceconv alibaba-gpu "$TMP/n1.csv" --nodes - --capacities "$TMP/x.csv"

# ---- Google 2011, the real shards: every row against an independent reading ----
t "google real runs" 0 '' '*' "4742 runs written" traceconv google-runs -o "$TMP/g-runs.csv" "$G"/job_events-part-0000[1-4]-of-00500.csv.gz
tcheck "google real runs match python" $PY "$ROOT/tests/check/google_trace.py" runs "$TMP/g-runs.csv" \
    "$G"/job_events-part-0000[1-4]-of-00500.csv.gz
t "google real usage" 0 '' '*' "899 job runs written" traceconv google-usage -o "$TMP/g-usage.csv" \
    "$G"/job_events-part-0000[1-4]-of-00500.csv.gz "$G/task_events-part-00001-of-00500.csv.gz"
tcheck "google real usage areas match python" $PY "$ROOT/tests/check/google_trace.py" usage "$TMP/g-usage.csv" 60 \
    "$G"/job_events-part-0000[1-4]-of-00500.csv.gz -- "$G/task_events-part-00001-of-00500.csv.gz"
t "google runs feed sloinfer" 0 '' '*' "1861 jobs from 4742 runs" sloinfer -o "$TMP/g-slo.csv" "$TMP/g-runs.csv"
t "google usage feeds skyfit" 0 '' '*' "125 fitted" skyfit -o "$TMP/g-sky.csv" "$TMP/g-usage.csv"
# --machine adds columns, not runs: the same 899 runs (109 of them ask for
# memory and 0 CPU; none for neither), and each run's cores and memory
# (containers x size x step) add up to its tasks' seconds x requests x size
t "google real usage --machine" 0 '' '*' "899 job runs written (3778 rows); skipped 424 with a task outside the files, 0 not in the job events, 0 requesting neither CPU nor memory" \
    traceconv google-usage --machine cores=32,mem=131072 -o "$TMP/g-usage-m.csv" \
    "$G"/job_events-part-0000[1-4]-of-00500.csv.gz "$G/task_events-part-00001-of-00500.csv.gz"
tcheck "google real usage --machine: the runs and containers without it" bash -c 'cmp <(cut -d, -f1-4 "$1") "$2"' _ "$TMP/g-usage-m.csv" "$TMP/g-usage.csv"
tcheck "google real usage --machine: requests match python" $PY "$ROOT/tests/check/google_trace.py" usage "$TMP/g-usage-m.csv" 60,32,131072 \
    "$G"/job_events-part-0000[1-4]-of-00500.csv.gz -- "$G/task_events-part-00001-of-00500.csv.gz"
t "google real usage --machine feeds skyfit" 0 '' '*' "125 fitted" skyfit -o "$TMP/g-sky-m.csv" "$TMP/g-usage-m.csv"
tcheck "google real skylines with and without --machine: the same allocations" bash -c 'cmp <(cut -d, -f1-4 "$1") "$2"' _ "$TMP/g-sky-m.csv" "$TMP/g-sky.csv"
# one container size per run, so replay takes the rows (a per-step mean
# differed in its last bits: "run '6252168998': container size changes
# within the run", exit 65); the plan's jobs from the same shards
t "google real usage --machine feeds replay" 0 '' '*' "replay: 899 runs read (3778 rows); replaying 40 runs of 25 jobs" \
    sh -c 'lcmpack -q --slo "$1" --capacity cores=2000,mem=8192000 -o "$3" "$2" &&
           replay --slo "$1" --plan "$3" --regime plan,plan+dra --capacity cores=2000,mem=8192000 -o "$4" "$5"' \
    sh "$TMP/g-slo.csv" "$TMP/g-sky-m.csv" "$TMP/g-plan-m.csv" "$TMP/g-replay-m.csv" "$TMP/g-usage-m.csv"
# The jobs the plan holds nothing for (20 with no skyline, one refused) run
# on no container without --provisioned: the summary says so (it said only
# "65.00% missed"), its counts those of the replay's rows (Python)
t "google real replay: the runs the plan holds nothing for" 0 '' '*' \
    "replay: the plan holds nothing for 21 jobs (23 runs): 0 runs on their --provisioned containers, 23 on none (no --provisioned row); met: plan 0 of 23, plan+dra 0 of 23" \
    replay --slo "$TMP/g-slo.csv" --plan "$TMP/g-plan-m.csv" --regime plan,plan+dra --capacity cores=2000,mem=8192000 -o /dev/null "$TMP/g-usage-m.csv"
tcheck "google real replay: those counts from the rows" $PY -c '
import csv, sys
plan = {r["job"] for r in csv.DictReader(open(sys.argv[1]))}
for reg in ("plan", "plan+dra"):
    no = [r for r in csv.DictReader(open(sys.argv[2])) if r["regime"] == reg and r["job"] not in plan]
    got = (len({r["job"] for r in no}), len(no), sum(r["met"] == "1" for r in no))
    assert got == (21, 23, 0), (reg, got)' "$TMP/g-plan-m.csv" "$TMP/g-replay-m.csv"

# ---- SWF, by hand (tests/data/traceconv/tiny.swf: MaxProcs 16) ----
# job 1: 4 procs x 100 s = 1/9 h (group 1); job 2: 8 x 50 s = 1/9 h (group 2);
# job 3: cancelled (run time -1), skipped; job 4: allocated -1 -> requested 2
# x 3600 s = 2 h (group 1).  Capacities: one each, the other 14 by work:
# group1 14 x (19/9)/(20/9) = 13.3, group2 0.7 -> 13 + 0, the last processor
# to the larger remainder (group2): group1 1+13 = 14, group2 1+0+1 = 2.
t "swf by hand" 0 '' "job,vc,submit,size_server_hours,max_parallelism
1,group1,1700000000,0.1111111111111111,4
2,group2,1700000010,0.1111111111111111,8
4,group1,1700000030,2,2" "3 jobs, 1 skipped (no run time or processors); 16 processors in 2 VCs" \
    traceconv swf "$D/tiny.swf" --capacities "$TMP/swf-vcs.csv"
t "swf capacities by hand" 0 '' "vc,capacity
group1,14
group2,2" '' cat "$TMP/swf-vcs.csv"
# by queue: queue1 = jobs 1, 2 (2/9 h), queue2 = job 4 (2 h); 14 x 0.1 = 1.4,
# 14 x 0.9 = 12.6 -> 1 + 12, the last to queue2 (0.6 > 0.4): 2 and 14.
t "swf --vc-by queue" 0 '' "vc,capacity
queue1,2
queue2,14" '' sh -c 'traceconv -q swf --vc-by queue "$1" --capacities "$2" >/dev/null && cat "$2"' sh "$D/tiny.swf" "$TMP/q.csv"
t "swf --max-parallelism none" 0 '' "job,vc,submit,size_server_hours,max_parallelism
1,group1,1700000000,0.1111111111111111,
2,group2,1700000010,0.1111111111111111,
4,group1,1700000030,2," '' traceconv -q swf --max-parallelism none "$D/tiny.swf" --capacities "$TMP/n.csv"
# --epoch was silently ignored for swf; now it replaces the header's UnixStartTime (1700000000)
t "swf --epoch replaces UnixStartTime" 0 '' "job,vc,submit,size_server_hours,max_parallelism
1,group1,1800000000,0.1111111111111111,4
2,group2,1800000010,0.1111111111111111,8
4,group1,1800000030,2,2" '' traceconv -q swf --epoch 2027-01-15T08:00:00Z "$D/tiny.swf" --capacities "$TMP/e.csv"
t "--epoch beyond 1e11 s: 64, not wrapped times" 64 '' '' "invalid value for --epoch: '1e300' (epoch seconds beyond 1e+11" \
    traceconv --epoch 1e300 google-runs "$D/job_events.csv"
# a UTF-8 BOM at the start (a file saved by an editor) reads as without it, as every CSV input
tcheck "UTF-8 BOM: google-runs and swf read as without it" bash -c '
    cmp <({ printf "\357\273\277"; cat "$1/job_events.csv"; } | traceconv -q google-runs -) <(traceconv -q google-runs "$1/job_events.csv") &&
    cmp <({ printf "\357\273\277"; cat "$1/tiny.swf"; } | traceconv -q swf - --capacities "$2/b1.csv") <(traceconv -q swf "$1/tiny.swf" --capacities "$2/b2.csv")' _ "$D" "$TMP"
# MaxNodes when there is no MaxProcs: 3 split 2 h / 2 h -> 1 + 1, the last by
# remainder tie to the first VC; group -1 reads "none".
t "swf MaxNodes and missing group" 0 '' "vc,capacity
group1,2
none,1" '' sh -c 'traceconv -q swf "$1" --capacities "$2" >/dev/null && cat "$2"' sh "$D/nodes-only.swf" "$TMP/m.csv"
gzip -c "$D/tiny.swf" >"$TMP/tiny.swf.gz"
t "swf gzip" 0 '' '*' "3 jobs, 1 skipped" traceconv swf "$TMP/tiny.swf.gz" --capacities "$TMP/g.csv"
t "swf 17 fields" 65 '' '' "short.swf:3: expected 18 fields, found 17" traceconv swf "$D/short.swf" --capacities "$TMP/x.csv"
t "swf no size" 65 '' '' "nosize.swf: no MaxProcs or MaxNodes in the header" traceconv swf "$D/nosize.swf" --capacities "$TMP/x.csv"
t "swf bad number" 65 '' '' "badnum.swf:2: field 4 (run time): invalid number '1e2x'" traceconv swf "$D/badnum.swf" --capacities "$TMP/x.csv"
t "swf bad header value" 65 '; MaxProcs: lots
' '' "<stdin>:1: header MaxProcs: invalid value 'lots'" traceconv swf - --capacities "$TMP/x.csv"
t "swf negative submit" 65 '; MaxProcs: 4
1 -1 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:2: field 2 (submit time): negative '-1'" traceconv swf - --capacities "$TMP/x.csv"
t "swf below -1" 65 '; MaxProcs: 4
1 5 0 -7 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:2: field 4 (run time): out of range '-7'" traceconv swf - --capacities "$TMP/x.csv"
t "swf absurd run time" 65 '; MaxProcs: 4
1 5 0 1e300 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:2: field 4 (run time): out of range '1e300'" traceconv swf - --capacities "$TMP/x.csv"
# a job wider than the machine (processors above MaxProcs, else MaxNodes: the
# cluster size the capacities are split from) is a bad row: stretch would see
# max_parallelism above every capacity.  Field 5, else field 8 (requested).
t "swf job above MaxProcs" 65 '; MaxProcs: 16
1 0 0 100 16 -1 -1 16 100 -1 1 1 1 -1 1 -1 -1 -1
2 5 0 100 20 -1 -1 8 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:3: job '2' uses 20 processors, more than the log's MaxProcs 16" traceconv swf - --capacities "$TMP/x.csv"
t "swf job above MaxProcs (requested processors)" 65 '; MaxProcs: 16
2 5 0 100 -1 -1 -1 17 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:2: job '2' uses 17 processors, more than the log's MaxProcs 16" traceconv swf - --capacities "$TMP/x.csv"
t "swf job above MaxNodes when there is no MaxProcs" 65 '; MaxNodes: 3
1 0 0 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1
' '' "<stdin>:2: job '1' uses 4 processors, more than the log's MaxNodes 3" traceconv swf - --capacities "$TMP/x.csv"
# under --on-error skip: listed, counted, and the rest as without the row
# (job 5 uses all 16: kept; job 6 uses 17: skipped)
{ cat "$D/tiny.swf"; echo '    5    40    0   60   16 -1 -1   16   60 -1 1 1 1 -1 1 -1 -1 -1'; } > "$TMP/wide-good.swf"
{ cat "$TMP/wide-good.swf"; echo '    6    50    0   60   17 -1 -1   17   60 -1 1 2 2 -1 1 -1 -1 -1'; } > "$TMP/wide.swf"
t "swf job above MaxProcs skipped (--on-error skip)" 0 '' '*' "1 bad row skipped (--on-error skip)" \
    traceconv swf --on-error skip --rejects "$TMP/wide-rej.csv" -o "$TMP/wide-skip.csv" "$TMP/wide.swf" --capacities "$TMP/wc2.csv"
t "swf job above MaxProcs: the reject names it" 0 "@$TMP/wide-rej.csv" "file,line,reason
$TMP/wide.swf,15,\"job '6' uses 17 processors, more than the log's MaxProcs 16\"" '' cat
tcheck "swf job above MaxProcs skipped: = strict without the row" bash -c 'traceconv -q swf "$1" --capacities "$2/wc1.csv" | cmp - "$2/wide-skip.csv" && cmp "$2/wc1.csv" "$2/wc2.csv"' _ "$TMP/wide-good.swf" "$TMP"
t "swf error leaves the old capacities" 65 '' '' "short.swf:3:" traceconv swf "$D/short.swf" --capacities "$TMP/m.csv" -o "$TMP/m-jobs.csv"
t "swf old capacities kept on error" 0 '' "vc,capacity
group1,2
none,1" '' cat "$TMP/m.csv"
t "swf result feeds stretch" 0 '' '*' "3 jobs" sh -c 'traceconv -q swf "$1" --capacities "$2" >"$3" && stretch "$2" "$3" >/dev/null' \
    sh "$D/tiny.swf" "$TMP/s-vcs.csv" "$TMP/s-jobs.csv"

# ---- Alibaba GPU 2023, the real files: counts and sums against awk over the raw CSV ----
traceconv -q alibaba-gpu "$A/openb_pod_list_gpushare40.csv" --nodes "$A/openb_node_list_all_node.csv" --capacities "$TMP/once-vcs.csv" -o "$TMP/gpu-once.csv"
t "alibaba-gpu real" 0 '' '*' "8152 pods: 6119 jobs; skipped 981 never scheduled, 1052 with no gpu, 0 deleted when scheduled; 6212 gpus in 4 VCs" \
    traceconv alibaba-gpu "$A/openb_pod_list_gpushare40.csv" --nodes "$A/openb_node_list_all_node.csv" \
    --capacities "$TMP/a-vcs.csv" -o "$TMP/a-jobs.csv"
tcheck "alibaba-gpu capacities add up to the node list's GPUs" sh -c '
    want=$(awk -F, "NR > 1 { s += \$4 } END { print s }" "$1")
    got=$(awk -F, "NR > 1 { s += \$2 } END { print s }" "$2")
    [ "$want" = "$got" ] && [ "$got" = 6212 ]' sh "$A/openb_node_list_all_node.csv" "$TMP/a-vcs.csv"
tcheck "alibaba-gpu work per qos matches awk" sh -c '
    awk -F, "NR > 1 && \$11 != \"\" && \$4 * \$5 > 0 && \$10 > \$11 { w[\$7] += \$4 * \$5 / 1000 * (\$10 - \$11) / 3600 }
             END { for (q in w) printf \"%s %.6f\n\", q, w[q] }" "$1" | sort >"$3.want"
    awk -F, "NR > 1 { w[\$2] += \$4 } END { for (q in w) printf \"%s %.6f\n\", q, w[q] }" "$2" | sort >"$3.got"
    cmp "$3.want" "$3.got"' sh "$A/openb_pod_list_gpushare40.csv" "$TMP/a-jobs.csv" "$TMP/a-work"
# a job given twice: stretch refuses duplicate jobs, so the converter names the trace's line
t "swf duplicate job: 65 at the trace's line" 65 '' '' "traceconv: <stdin>:14: duplicate job '1' (first at line 10)" \
    sh -c '{ cat "$1"; sed -n 10p "$1"; } | traceconv swf - --capacities "$2"' _ "$D/tiny.swf" "$TMP/x.csv"
t "alibaba-gpu duplicate pod: skipped with --on-error skip" 0 '' '*' "duplicate pod 'openb-pod-8151' (first at line 8153)" \
    sh -c '{ cat "$1"; tail -1 "$1"; } | traceconv --on-error skip alibaba-gpu - --nodes "$2" --capacities "$3" | cmp - "$4"' \
    _ "$A/openb_pod_list_gpushare40.csv" "$A/openb_node_list_all_node.csv" "$TMP/dup-vcs.csv" "$TMP/gpu-once.csv"
t "alibaba-gpu needs --nodes" 64 '' '' "--nodes FILE is required with alibaba-gpu" \
    traceconv alibaba-gpu "$A/openb_pod_list_gpushare40.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu missing column" 65 'name,cpu_milli
' '' "<stdin>:1: missing required columns 'num_gpu', 'gpu_milli', 'gpu_spec', 'qos', 'creation_time', 'deletion_time' and 'scheduled_time'" traceconv alibaba-gpu - --nodes "$A/openb_node_list_all_node.csv" --capacities "$TMP/x.csv"
t "alibaba-gpu --unit cpu" 0 '' '' '' traceconv alibaba-gpu --unit cpu "$A/openb_pod_list_gpushare40.csv" \
    --nodes "$A/openb_node_list_all_node.csv" --capacities "$TMP/c-vcs.csv" -o "$TMP/c-jobs.csv" -q
tcheck "alibaba-gpu cpu capacities add up to the node list's cores" sh -c '
    want=$(awk -F, "NR > 1 { s += \$2 } END { printf \"%d\", s / 1000 }" "$1")
    got=$(awk -F, "NR > 1 { s += \$2 } END { print s }" "$2")
    [ "$want" = "$got" ]' sh "$A/openb_node_list_all_node.csv" "$TMP/c-vcs.csv"

# ---- SWIM, the real file: sizes and capacities against awk ----
# size = (1 + bytes / 5e6) / 3600; VC fb(N mod 4); capacity = work / (0.8 x
# horizon), rounded, horizon = the submit span rounded up to whole hours.
# One job by hand: 268435457 input bytes = 2 x 128 MiB + 1 -> 3 map tasks;
# (1 + 268435457 / 5e6) / 3600 = 54.6870914 / 3600 = 0.0151908587...
t "swim real" 0 '' '*' "5894 jobs in 4 VCs" traceconv swim "$S" --capacities "$TMP/w-vcs.csv" -o "$TMP/w-jobs.csv"
tcheck "swim matches awk" bash -c '
    awk -F"\t" "{ n = \$1; sub(/^job/, \"\", n); w[\"fb\" (n % 4)] += 1 + (\$4 + \$5 + \$6) / 5e6
                  if (NR == 1 || \$2 < a) a = \$2; if (NR == 1 || \$2 > b) b = \$2 }
        END { h = int((b - a) / 3600); if (h * 3600 < b - a) h++; for (v in w) printf \"%s,%d\n\", v, int(w[v] / (0.8 * h * 3600) + 0.5) }" "$1" | sort >"$3.want"
    tail -n +2 "$2" | sort >"$3.got"
    cmp "$3.want" "$3.got" || exit 1
    paste -d, <(cut -f1,2,4,5,6 "$1" | tr "\t" ,) <(tail -n +2 "$4") | awk -F, "{ s = (1 + (\$3 + \$4 + \$5) / 5e6) / 3600
        if (\$1 != \$6 || \$2 != \$8 || (s - \$9) > 1e-12 * s || (\$9 - s) > 1e-12 * s || \$10 != \"\") { print; bad = 1 } } END { exit bad }"' \
    bash "$S" "$TMP/w-vcs.csv" "$TMP/w-caps" "$TMP/w-jobs.csv"
t "swim --servers splits a given size" 0 '' '*' '' sh -c 'traceconv -q swim "$1" --servers 100 --capacities "$2" -o /dev/null &&
    awk -F, "NR > 1 { s += \$2 } END { exit s != 100 }" "$2"' sh "$S" "$TMP/w100.csv"
t "swim --max-parallelism trace: map tasks" 0 'job7	10	0	268435457	0	0
' "job,vc,submit,size_server_hours,max_parallelism
job7,fb3,10,0.015190858722222223,3" '' traceconv -q swim - --max-parallelism trace --capacities "$TMP/x.csv"
# jobs come out sorted by submit, ties in input order (stretch reads them
# in submit order; the audit of 2026-12-04 found the GPU pod list in pod
# order, one pod 6,091 rows from its place, refused by stretch --reorder 5000)
t "swim: jobs sorted by submit, ties in input order" 0 'job7	10	0	1	0	0
job8	1.5	0	1	0	0
job9	10	0	1	0	0
job6	3	0	1	0	0
' "job,vc,submit,size_server_hours,max_parallelism
job8,fb0,1.5,0.0002777778333333333,
job6,fb2,3,0.0002777778333333333,
job7,fb3,10,0.0002777778333333333,
job9,fb1,10,0.0002777778333333333," '' traceconv -q swim - --capacities "$TMP/x.csv"
tcheck "alibaba-gpu: the real pod list comes out sorted by submit" bash -c '
    traceconv -q alibaba-gpu "$1/openb_pod_list_gpushare40.csv" --nodes "$1/openb_node_list_all_node.csv" --capacities "$2.vcs" -o "$2" &&
    tail -n +2 "$2" | sort -s -t, -k3,3g -c && [ "$(wc -l <"$2")" -eq 6120 ]' _ "$A" "$TMP/gpu-sorted.csv"
t "swim not jobN" 65 'j7	10	0	1	0	0
' '' "<stdin>:1: field 1 (job): not jobN: 'j7'" traceconv swim - --capacities "$TMP/x.csv"
t "swim 5 fields" 65 'job7	10	0	1	0
' '' "<stdin>:1: expected 6 tab-separated fields, found 5" traceconv swim - --capacities "$TMP/x.csv"

# ---- usage errors ----
t "no format" 64 '' '' "which FORMAT?" traceconv
t "unknown format: named as the argument it is, not as an option" 64 '' '' "invalid FORMAT: 'sfw'" traceconv sfw x
t "no files" 64 '' '' "no input files" traceconv swf --capacities "$TMP/x.csv"
t "capacities required" 64 '' '' "--capacities FILE is required" traceconv swf "$D/tiny.swf"
# An option of another format did nothing, exit 0 (swim --vc-by, --unit,
# --step; google-runs --step, --vcs, --load, --rate, --servers), while four
# others were refused: now every one is refused, the formats that take it
# named.  The table: option, a valid value, the formats that take it.
while IFS='|' read -r o v fmts; do
    for f in google-runs google-usage swf alibaba-gpu swim; do
        case " ${fmts//,/} " in *" $f "*) continue ;; esac
        case $f in  # the options the format requires
            google-*) need=() ;;
            alibaba-gpu) need=(--nodes "$TMP/n1.csv" --capacities "$TMP/x.csv") ;;
            *) need=(--capacities "$TMP/x.csv") ;;
        esac
        t "--$o is refused by $f" 64 '' '' "traceconv: --$o is an option of $fmts, not of $f (traceconv --help)" \
            traceconv "$f" "--$o" "$v" "${need[@]}" "$D/job_events.csv"
    done
done <<'EOF3'
capacities|x.csv|swf, alibaba-gpu and swim
step|5s|google-usage
machine|cores=8,mem=1000|google-usage
vc-by|user|swf and alibaba-gpu
nodes|n.csv|alibaba-gpu
unit|cpu|alibaba-gpu
max-parallelism|none|swf, alibaba-gpu and swim
servers|3|swim
vcs|9|swim
load|0.5|swim
rate|7|swim
EOF3
t "swim with options of other formats: 64, not ignored" 64 '' '' "--vc-by is an option of swf and alibaba-gpu, not of swim" \
    traceconv -q swim --vc-by user --unit cpu "$S" --capacities "$TMP/c2.csv"
t "google-runs with options of swim: 64, not ignored" 64 '' '' "--servers is an option of swim, not of google-runs" \
    traceconv -q google-runs --vcs 9 --load 0.5 --rate 7 --servers 3 "$G"/job_events-part-0000[1-4]-of-00500.csv.gz
t "--epoch is an option of every format" 0 '' '*' '' traceconv -q google-usage --epoch 1 "$D/job_events.csv" "$D/task_events.csv"
# The CSV reader's options did nothing (each trace has its published layout,
# and its own time unit): refused, and not in --help
t "-H does not apply" 64 '' '' "-H/--no-header does not apply to traceconv: each trace format has its published layout" \
    traceconv google-runs -H "$D/job_events.csv"
t "--names does not apply" 64 '' '' "--names does not apply to traceconv" traceconv google-runs --names a,b "$D/job_events.csv"
t "--col does not apply" 64 '' '' "--col does not apply to traceconv" traceconv swf --col job=id "$D/tiny.swf" --capacities "$TMP/x.csv"
t "--time-unit does not apply" 64 '' '' "--time-unit does not apply to traceconv: the formats fix their time units" \
    traceconv google-runs --time-unit ms "$D/job_events.csv"
tcheck "--help lists no option that does nothing" bash -c '! traceconv --help | grep -E -- "--(no-header|names|col|time-unit)\b"'
t "capacities and -o the same" 64 '' '' "x.csv: named by two outputs of this run, and each would replace the other" \
    traceconv swf "$D/tiny.swf" --capacities "$TMP/x.csv" -o "$TMP/x.csv"
# --vc-by user on a trace of 300,000 users (each VC name was looked up by a scan: over a minute): one VC
# per user, each job in its own user's VC, every VC in the capacity table.
tcheck "swf --vc-by user: 300,000 users, one VC each" bash -c '
    awk "BEGIN { print \"; UnixStartTime: 1700000000\"; print \"; MaxProcs: 1000000000\";
                 for (i = 0; i < 300000; i++) printf \"%d %d 0 100 1 -1 -1 1 100 -1 1 %d 1 -1 1 -1 -1 -1\\n\", i + 1, i, i + 1 }" > "$1/users.swf" &&
    timeout 60 traceconv -q swf --vc-by user "$1/users.swf" --capacities "$1/users.caps" > "$1/users.jobs" &&
    [ "$(tail -n +2 "$1/users.caps" | wc -l)" = 300000 ] &&
    awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } { vc[\$c[\"vc\"]]++ } END { for (v in vc) { n++; if (vc[v] != 1) exit 1 } exit n != 300000 }" "$1/users.jobs"' _ "$TMP"
t "bad --vc-by" 64 '' '' "invalid value for --vc-by: 'team'" traceconv swf --vc-by team "$D/tiny.swf" --capacities "$TMP/x.csv"
t "missing file" 66 '' '' "nope.swf: cannot open" traceconv swf "$TMP/nope.swf" --capacities "$TMP/x.csv"

# ---- --on-error skip: a bad row is listed (file,line,reason) and left out;
# the result equals the strict run on the file without that row (cut by sed,
# not by traceconv); the default stays strict ----
zcat "$G/job_events-part-00001-of-00500.csv.gz" | head -2000 >"$TMP/je.csv"
sed -i '5s/^[0-9]*/12x/; 9s/,[^,]*$/,/' "$TMP/je.csv"   # a bad time, an empty job name
sed '5d;9d' "$TMP/je.csv" >"$TMP/je-good.csv"
t "skip: strict stops at the first bad row" 65 '' '' "je.csv:5: field 1 (time): invalid integer '12x'" \
    traceconv google-runs "$TMP/je.csv"
t "skip: google-runs on a corrupted real file" 0 '' '*' "2 bad rows skipped (--on-error skip)" \
    traceconv google-runs --on-error skip --rejects "$TMP/je-rej.csv" -o "$TMP/je-skip.csv" "$TMP/je.csv"
t "skip: rejects name file, line, reason" 0 "@$TMP/je-rej.csv" "file,line,reason
$TMP/je.csv,5,field 1 (time): invalid integer '12x'
$TMP/je.csv,9,field 8 (logical job name): empty" '' cat
tcheck "skip: google-runs = strict without the rows" bash -c 'cmp "$1" <(traceconv -q google-runs "$2")' _ "$TMP/je-skip.csv" "$TMP/je-good.csv"
zcat "$G/task_events-part-00001-of-00500.csv.gz" | head -3000 >"$TMP/te.csv"
# field 10 (CPU request) of the 10th SCHEDULE event: not a number
awk -F, -v OFS=, '$6 == 1 && ++k == 10 { $10 = "x"; print NR >"/dev/stderr" } 1' "$TMP/te.csv" >"$TMP/te-bad.csv" 2>"$TMP/te-line"
sed "$(cat "$TMP/te-line")d" "$TMP/te.csv" >"$TMP/te-good.csv"
mv "$TMP/te-bad.csv" "$TMP/te.csv"
tcheck "skip: google-usage = strict without the row" bash -c 'cmp <(traceconv -q google-usage "$1" "$2") <(traceconv -q google-usage --on-error skip --rejects "$4" "$1" "$3") && [ "$(wc -l <"$4")" = 2 ]' _ "$TMP/je-good.csv" "$TMP/te-good.csv" "$TMP/te.csv" "$TMP/te-rej.csv"
head -1 "$A/openb_pod_list_gpushare40.csv" >"$TMP/pods.csv"
tail -n +2 "$A/openb_pod_list_gpushare40.csv" | head -300 >>"$TMP/pods.csv"
awk -F, -v OFS=, 'NR == 4 { $2 = "-5" } NR == 6 { NF = 3 } 1' "$TMP/pods.csv" >"$TMP/pods-bad.csv"
sed '4d;6d' "$TMP/pods-bad.csv" >"$TMP/pods-good.csv"
tcheck "skip: alibaba-gpu = strict without the rows" bash -c 'cmp <(traceconv -q alibaba-gpu --unit cpu "$1" --nodes "$2" --capacities "$5/c1.csv") <(traceconv -q alibaba-gpu --unit cpu --on-error skip --rejects "$4" "$3" --nodes "$2" --capacities "$5/c2.csv") && cmp "$5/c1.csv" "$5/c2.csv" && [ "$(cut -d, -f2 "$4" | tr "\n" " ")" = "line 4 6 " ]' \
    _ "$TMP/pods-good.csv" "$A/openb_node_list_all_node.csv" "$TMP/pods-bad.csv" "$TMP/pods-rej.csv" "$TMP"
head -50 "$S" >"$TMP/swim.tsv"
sed -i '3s/^job[0-9]*/jobX/' "$TMP/swim.tsv"
sed '3d' "$TMP/swim.tsv" >"$TMP/swim-good.tsv"
tcheck "skip: swim = strict without the row" bash -c 'cmp <(traceconv -q swim "$1" --servers 10 --capacities "$4/s1.csv") <(traceconv -q swim --on-error skip --rejects "$3" "$2" --servers 10 --capacities "$4/s2.csv") && grep -q "swim.tsv,3,field 1 (job): not jobN" "$3"' \
    _ "$TMP/swim-good.tsv" "$TMP/swim.tsv" "$TMP/swim-rej.csv" "$TMP"
sed '11s/  50 / 5x0 /' "$D/tiny.swf" >"$TMP/bad.swf"   # job 2's run time
sed '11d' "$D/tiny.swf" >"$TMP/good.swf"
tcheck "skip: swf = strict without the row" bash -c 'cmp <(traceconv -q swf "$1" --capacities "$4/w1.csv") <(traceconv -q swf --on-error skip --rejects "$3" "$2" --capacities "$4/w2.csv") && [ "$(wc -l <"$3")" = 2 ]' \
    _ "$TMP/good.swf" "$TMP/bad.swf" "$TMP/swf-rej.csv" "$TMP"
t "skip: a bad header still stops" 65 'name,cpu_milli
' '' "missing required columns 'num_gpu', 'gpu_milli'" traceconv alibaba-gpu --on-error skip - --nodes "$A/openb_node_list_all_node.csv" --capacities "$TMP/x.csv"
# a raw line is bounded as a CSV record is (slokit(7): 64 MiB), refused as it is read, even under skip
t "a line longer than 64 MiB: 65, refused as read" 65 '' '' "traceconv: $TMP/long.swf:1: record longer than 67108864 bytes" \
    bash -c 'head -c 70000000 /dev/zero | tr "\0" a > "$1/long.swf"; traceconv swf "$1/long.swf" --on-error skip --capacities "$1/lc.csv" -o "$1/lj.csv"; st=$?; rm -f "$1/long.swf"; exit $st' _ "$TMP"
