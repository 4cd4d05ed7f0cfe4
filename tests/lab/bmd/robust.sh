# bmd and bmctl robustness end to end (bmctl -> bmd -> bmgen.ko), bmd(8)
# and bmctl(8):
#  1. a bmctl that follows a job is killed (SIGKILL): the job goes on, and
#     "bmctl wait JOB" from a new client prints the complete result, byte
#     for byte the result file in the results directory;
#  2. a job cancelled, and bmd stopped with SIGTERM, in the middle of a
#     4 s trial: the trial ends at once (under 2 s), unrecorded, the
#     partial result is kept and the job is cancelled or interrupted;
#  3. bmd killed with SIGKILL mid-trial and restarted: the job is
#     interrupted, its result rebuilt from its events file with every
#     trial that finished (bmd(8)), the result that finished before is listed
#     and intact, and a new job submitted at once runs to the end on the
#     same ports although the dead bmd's trial still runs in the module;
#  4. two jobs on disjoint ports at once both end done (the module runs one
#     trial at a time and has one stream table: the jobs take turns);
#  5. bad arguments: one "bmctl: ..." line on stderr, exit 2 for usage
#     errors and 1 for refusals, and bmd keeps running.
# The DUT is the demo's tbf (30 % of the notional 10 Mbit/s line at 512 B),
# so the throughput search needs several trials and there is a "mid-job".
JOB="rfc2544 throughput --port t1 --port t2 --line-rate 10M $R2544_FAST --frame-sizes 512
	--param trial_duration_s=1 --param search_trial_duration_s=1
	--param drain_s=0.3 --param resolution_pct=5 --param r_min_pct=5"
RES=/tmp/results

# state JOB / trials JOB: columns of "bmctl jobs"
state() {
	$BMCTL jobs | awk -v j="$1" '$1 == j { print $2 }'
}
trials() {
	$BMCTL jobs | awk -v j="$1" '$1 == j { print $6 }'
}
# wait_trials JOB N: until JOB has logged N trials (20 s at most)
wait_trials() {
	i=0
	until [ "$(trials "$1")" -ge "$2" ] 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] || fail "job $1: no $2 trials after 20 s"
		sleep 0.1
	done
}
bm_load
topo_bridge 4
$TC -n dut qdisc add dev d2 root tbf rate 3mbit burst 3200 limit 60000 \
	overhead 24 || fail "tbf"
bmd_start

# 1. the client dies, the job does not.  The file is emptied first: a
# repeated run (lab-run --repeat, one boot) finds the last run's output
# there, and the background shell may truncate it only after the loop
# below has matched the old "trial 1," (stressed 27 run 3 at a64c1a3:
# "no job id" 3.3 s into the run, before any trial could have ended)
: > /tmp/c1.out
$BMCTL run $JOB > /tmp/c1.out 2>&1 &
cpid=$!
i=0
until grep -q "trial 1," /tmp/c1.out; do
	i=$((i + 1))
	[ $i -lt 200 ] || { cat /tmp/c1.out; fail "no first trial"; }
	sleep 0.1
done
a=$(sed -n 's/^job \([0-9]*\) submitted$/\1/p' /tmp/c1.out)
[ -n "$a" ] || fail "no job id in the bmctl output"
kill -KILL $cpid
wait $cpid
check_eq "killed client's exit" $? 137
check_eq "job $a after its client died" "$(state "$a")" running
$BMCTL -j wait "$a" > /tmp/wait.json || { cat /tmp/bmd.log; fail "bmctl wait $a"; }
check_eq "job $a" "$(state "$a")" done
cmp /tmp/wait.json $RES/$a.json || fail "bmctl wait $a differs from $RES/$a.json"
echo "ok: bmctl wait $a = $RES/$a.json ($(wc -c < $RES/$a.json) bytes)"
n=$(grep -c '"index":' $RES/$a.json)
check_eq "trials in the result" "$n" "$(trials "$a")"
grep -q '"throughput_fps"' $RES/$a.json || fail "no throughput in job $a"
sum_a=$(md5sum < $RES/$a.json)

# 2. a cancel, then SIGTERM, in the middle of a 4 s trial: the trial ends
# at once (bmd(8): within 0.1 s; 2 s allowed for the guest), unrecorded,
# and the partial result is kept
uptime_s() { cut -d' ' -f1 /proc/uptime; }
JOB4="$JOB --param trial_duration_s=4 --param search_trial_duration_s=4"
b=$($BMCTL run $JOB4 --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
[ -n "$b" ] || fail "no job id from --detach"
wait_trials "$b" 1
sleep 0.5
t0=$(uptime_s)
$BMCTL cancel "$b" > /dev/null || fail "cancel $b"
$BMCTL wait "$b" > /dev/null 2>&1
check_range "cancel to the job's end (s)" "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }')" 0 2
check_eq "job $b after cancel" "$(state "$b")" cancelled
check_eq "job $b: trials (the cut one not recorded)" "$(trials "$b")" 1
b=$($BMCTL run $JOB4 --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
[ -n "$b" ] || fail "no job id from --detach"
wait_trials "$b" 1
sleep 0.5
t0=$(uptime_s)
kill -TERM "$BMD_PID"
wait "$BMD_PID"
check_eq "bmd exit after SIGTERM" $? 0
check_range "SIGTERM to bmd's exit (s)" "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { print b - a }')" 0 2
BMD_PID=
bmd_start
check_eq "job $b after SIGTERM" "$(state "$b")" interrupted
check_eq "job $b: trials (the cut one not recorded)" "$(trials "$b")" 1
$BMCTL -j result "$b" > /tmp/b.json || fail "no partial result of job $b"
cmp /tmp/b.json $RES/$b.json || fail "bmctl result $b differs from the file"
one_line 1 $BMCTL wait "$b"

# 3. SIGKILL and restart, in the middle of a 4 s trial
c=$($BMCTL run $JOB --param trial_duration_s=4 --param search_trial_duration_s=4 \
	--detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
[ -n "$c" ] || fail "no job id from --detach"
wait_trials "$c" 1
sleep 1.5
kill -KILL "$BMD_PID"
wait "$BMD_PID"
BMD_PID=
bmd_start
check_eq "job $c after SIGKILL" "$(state "$c")" interrupted
# the dead bmd's trial still runs in the module (~2.5 s more): a new job
# must cope with it
$BMCTL run rfc2544 frame-loss --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 512 --param trial_duration_s=1 --param drain_s=0.3 \
	--param max_rate_pct=20 > /tmp/d.out 2>&1 ||
	{ cat /tmp/d.out /tmp/bmd.log; fail "a job right after the restart"; }
echo "ok: a new job ran to the end right after the restart"
$BMCTL jobs | grep -q "^ *$c .*bmd stopped while the job was running" ||
	{ $BMCTL jobs; fail "job $c: no reason"; }
one_line 1 $BMCTL wait "$c"
# no finished trial lost: the result is rebuilt from the events file, one
# trial for each progress event with a trial in it
n=$(grep -c '"event": *"progress".*"trial": *{' $RES/jobs/$c.events)
check_range "job $c: trials in its events file" "$n" 1 100
check_eq "job $c: trials kept" "$(trials "$c")" "$n"
$BMCTL -j result "$c" > /tmp/c.json || fail "bmctl result $c"
grep -q "rebuilt from the $n trial(s) of its events file" /tmp/c.json ||
	{ head -c 2000 /tmp/c.json; fail "job $c: the result does not say it was rebuilt from $n trials"; }
# the same trials: each one's index, rate and frames sent and received
tr_of() {
	grep -o '"\(index\|rate_fps\|attempted\|received\)": *[0-9.e+-]*' "$1" |
		tr -d ' ' | tr '\n' ' '
}
check_eq "job $c: trials (index, rate, attempted, received) in the result" \
	"$(tr_of /tmp/c.json)" "$(tr_of $RES/jobs/$c.events)"
check_eq "job $c: attempted counts in the result" \
	"$(tr_of /tmp/c.json | grep -o attempted | wc -l)" "$n"
check_eq "job $a after the restarts" "$(state "$a")" done
check_eq "result file of job $a" "$(md5sum < $RES/$a.json)" "$sum_a"
$BMCTL -j result "$a" > /tmp/a2.json || fail "bmctl result $a"
cmp /tmp/a2.json $RES/$a.json || fail "bmctl result $a differs from the file"

# 4. two jobs on disjoint ports run at the same time (bmd(8)); the module
# runs one trial at a time, so both must still end done and correct
e=$($BMCTL run $JOB --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
f=$($BMCTL run rfc2544 frame-loss --port t3 --port t4 --line-rate 10M $R2544_FAST \
	--frame-sizes 512 --param trial_duration_s=1 --param drain_s=0.3 \
	--param max_rate_pct=20 --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
[ -n "$e" ] && [ -n "$f" ] || fail "no job ids from --detach"
$BMCTL wait "$f" > /tmp/f.out 2>&1 || { cat /tmp/f.out /tmp/bmd.log; fail "job $f (t3>t4)"; }
$BMCTL wait "$e" > /tmp/e.out 2>&1 || { cat /tmp/e.out /tmp/bmd.log; fail "job $e (t1>t2)"; }
$BMCTL jobs
echo "ok: concurrent jobs $e and $f done"

# 5. bad arguments
one_line 2 $BMCTL run rfc2544 throughput --port t1
one_line 2 $BMCTL run rfc2544 throughput --port t1 --port t2 --line-rate fast
one_line 2 $BMCTL wait abc
one_line 2 $BMCTL --frobnicate status
# what bmd finds wrong with the request is a usage error too (exit 2); a
# job that is not there is no usage error (exit 1)
one_line 2 $BMCTL run rfc2544 nosuch --port t1 --port t2 --line-rate 10M
one_line 2 $BMCTL run rfc2544 throughput --port nosuch0 --port t2 --line-rate 10M
one_line 2 $BMCTL run rfc2544 throughput --port t1 --port t2 --line-rate 10M \
	--param trial_duration_s=-1
grep -q trial_duration_s /tmp/one.err || fail "the refusal does not name the key"
one_line 2 $BMCTL run rfc2544 throughput --port t1 --port t2 --line-rate 10M \
	--param bogus_key=1
grep -q bogus_key /tmp/one.err || fail "the refusal does not name the key"
one_line 1 $BMCTL result 99999
one_line 1 $BMCTL wait 99999
kill -0 "$BMD_PID" || fail "bmd died"
$BMCTL status > /dev/null || fail "bmd does not answer"
echo "ok: bmd still running"
