# RFC 2544 throughput across two tester hosts (Documentation/multi-host.md):
# this guest's t1 sends, the second guest's t2 (host "lab2", its own module
# and bmd; tools/lab-run --pair) receives, through this guest's DUT, a
# router (RFC 2544 App C, as rfc2544/router) whose egress d2, shaped by a
# drawn tbf, is the QEMU cable to lab2.  Each host's part gives its own
# port its address and the sending host resolves its gateway: t1
# 198.18.1.2 here, lab2's t2 198.19.1.2 there, which the DUT reaches by
# ARP over the cable.  With RFC 2544 §11.2's management queries (as
# rfc2544/management: net-snmp's snmpd in the DUT on d1's 198.18.1.1):
# they go from t1's host, this one, while lab2 receives the test frames.  Every trial's sending half
# runs on this module, its receiving half on lab2's as a bmgen.part job,
# both from one CLOCK_TAI instant, the hosts' clocks joined by ptp4l
# (software stamps) over the hosts' own network ctl0.
#
# Truth: as rfc2544/throughput (tbf drawn, 2 % of C = R / 8 / (F + 20),
# every frame lost one the tbf dropped: the merge takes each stream's sent
# count from this host and its received count from lab2); the DUT's
# neighbour 198.19.1.2 on d2 is lab2's t2; one query each second of every
# trial (3 s trials: 3), each one snmpd logged, answered and verified; lab2's part of
# every trial a done bmgen.part job there; lab2's clock, by ptp4l's own
# account (pmc), within 1 ms of this one's before the job; every trial's
# record states both hosts' clocks, on this guest's grandmaster, within
# the pool's tolerance; a job that allows 1 us has lab2's part refused,
# one looser than bmd's is refused at submit; the
# connection to lab2 lost mid-trial fails the job naming lab2, this
# host's half of that trial kept.
bm_load
pair_setup
pair_router_tbf
dut_snmpd
# lab2's parts start at the trial's instant on lab2's clock: behind this
# one, its receiving halves would start after the first frames arrived
# (counted lost).  ptp4l holds the two within 1 ms (lab.md "Two tester
# hosts": 0.1 to 0.7 ms a summary here)
off=$(pair_sync 1000000)
note "lab2's clock offset by ptp4l before the job: $off ns"
bmd_start
# lab2's last job before this run's
first=$(bmctl -H lab2 jobs | awk '$3 == "bmgen.part" { n = $1 } END { print n + 0 }')

measure() {
	drops0=$(tbf20 dropped)
	seen0=$(grep -c 'Connection from UDP: \[198.18.1.2\]' /tmp/snmpd.log)
	bm_job thr rfc2544 throughput --port t1 --port lab2:t2 --router \
		--param management=true --param mgmt_community=s3cr3t-lab \
		--param mgmt_ifindex=$ifx --line-rate 10M $R2544_FAST --frame-sizes 512 \
		--param trial_duration_s=3 --param search_trial_duration_s=3 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=1 --param r_min_pct=5
	$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
	lost=$(jvals lost /tmp/thr.json | awk '{ s += $1 } END { print s }')
	drops=$(($(tbf20 dropped) - drops0))
	check_eq "frames lost over all trials = tbf drops" "$lost" "$drops"
	check_tbf_throughput /tmp/thr.json ${R}000 2 512
	# §11.2 from t1's host, lab2 receiving
	trials=$(jvals mgmt_sent /tmp/thr.json | wc -l)
	sent=$(jvals mgmt_sent /tmp/thr.json | awk '{ s += $1 } END { print s }')
	seen=$(($(grep -c 'Connection from UDP: \[198.18.1.2\]' /tmp/snmpd.log) - seen0))
	check_eq "management queries = 3 per 3 s trial" "$sent" $((3 * trials))
	check_eq "requests snmpd received = queries sent" "$seen" "$sent"
	check_eq "queries answered" "$(jvals answered /tmp/thr.json)" "$sent"
	check_eq "queries verified" "$(jvals verified /tmp/thr.json)" "$sent"
	# App C across the hosts: the DUT reached lab2's t2 by ARP
	check_eq "the DUT's neighbour 198.19.1.2 on d2" \
		"$($IP -n dut neigh show 198.19.1.2 dev d2 | awk '{ print $3 }')" \
		52:54:00:bb:00:01
}
remeasure $ABSORB /tmp/thr.json measure
# this run's parts: lab2's bmd outlives a run (a repeat's, or the
# refused and cancelled parts below)
bmctl -H lab2 jobs > /tmp/lab2.jobs || fail "lab2: bmctl jobs"
awk -v f="$first" '$1 > f' /tmp/lab2.jobs > /tmp/lab2.new
mv /tmp/lab2.new /tmp/lab2.jobs
cat /tmp/lab2.jobs
parts=$(grep -c 'bmgen.part' /tmp/lab2.jobs)
check_eq "lab2's bmgen.part jobs all done" \
	"$(grep 'bmgen.part' /tmp/lab2.jobs | grep -c done)" "$parts"
note "lab2's clock offset by ptp4l after the job: $(lab2_offset) ns"
# every trial's record: both hosts' clocks read before and after their
# parts on this guest's grandmaster, within the pool's tolerance
# (pair_setup: 10 ms); this guest the grandmaster (offset 0), lab2 off it
# by what ptp4l says (1.93 ms the largest seen)
trials=$(jvals rate_fps /tmp/thr.json | wc -l)
check_eq "trials whose sync is within the pool's tolerance" \
	"$(jvals within /tmp/thr.json | grep -c true)" "$trials"
check_eq "clock readings on grandmaster 525400.fffe.aa0002" \
	"$(jvals grandmaster /tmp/thr.json | grep -c '"525400.fffe.aa0002"')" $((4 * trials))
err=$(jvals error_ns /tmp/thr.json | sort -n | tail -n 1)
skew=$(jvals start_skew_ns /tmp/thr.json | sort -n | tail -n 1)
note "largest sync error $err ns, start skew $skew ns (one sending host)"
check_range "start skew (ns; one sending host)" "${skew%.*}" 0 0
sed 's/^/note: ptp4l here: /' /tmp/ptp4l.log | tail -n 5
# a job that allows 1 us (bmctl run --sync-tolerance, tighter than this
# bmd's 10 ms): lab2's part is refused before it runs (its offset was 70
# us or more in every reading here), the job fails naming the host, its
# offset and the tolerance, and bmd goes on; one looser than bmd's is
# refused at submit, naming bmd's
$BMCTL run rfc2544 throughput --port t1 --port lab2:t2 --router --line-rate 10M \
	--frame-sizes 512 --param trial_duration_s=1 --sync-tolerance 1us \
	> /tmp/tol.out 2>&1 &&
	fail "a job over a host off the grandmaster by more than 1 us ran"
cat /tmp/tol.out
grep -q "host lab2: its clock is .* ms off the PTP grandmaster 525400.fffe.aa0002 by ptp4l (the pool allows 0.001 ms)" /tmp/tol.out ||
	fail "the refusal does not name lab2, its offset and the tolerance"
$BMCTL status > /dev/null || fail "bmd did not survive"
one_line 1 $BMCTL run rfc2544 throughput --port t1 --port lab2:t2 --router \
	--line-rate 10M --frame-sizes 512 --sync-tolerance 20ms
grep -q "ports.sync_tolerance_us: 20000 us is looser than this bmd's 10000 us" /tmp/one.err ||
	fail "the looser tolerance's refusal does not name bmd's"

# a host lost mid-trial: the connection to lab2's bmd (the stand-in for
# ssh, busybox nc) killed while lab2 runs its part, as when the ssh
# between goes away: the job fails naming lab2 and why, and its last
# trial's record keeps this host's half, what t1 sent, with the failure
# (sync.failed) and lab2 marked failed
$BMCTL run rfc2544 throughput --port t1 --port lab2:t2 --router --line-rate 10M \
	$R2544_FAST --frame-sizes 512 --param trial_duration_s=4 \
	--param search_trial_duration_s=4 --param max_rate_pct=20 \
	> /tmp/lost.out 2>&1 &
runpid=$!
i=0 part=
while [ -z "$part" ]; do
	part=$(bmctl -H lab2 jobs 2>/dev/null |
		awk '$3 == "bmgen.part" && $2 == "running" { print $1; exit }')
	i=$((i + 1))
	[ $i -lt 150 ] || fail "lab2 ran no part of the job"
	[ -n "$part" ] || sleep 0.2
done
note "lab2 runs its part job $part: the connection to it killed"
killed=0
for d in /proc/[0-9]*; do
	case "$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null)" in
	*"nc 10.99.0.2 7000"*) kill "${d#/proc/}" && killed=$((killed + 1)) ;;
	esac
done
[ $killed -gt 0 ] || fail "no connection to lab2 to kill"
wait $runpid && fail "a job whose host was lost mid-trial succeeded"
cat /tmp/lost.out
grep -q "host lab2: " /tmp/lost.out || fail "the failure does not name lab2"
lost_job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/lost.out | head -n1)
$BMCTL -j result "$lost_job" > /tmp/lost.json || fail "bmctl result $lost_job"
check_eq "trials kept as failed, naming lab2" \
	"$(grep -c '"failed": "host lab2: ' /tmp/lost.json)" 1
check_eq "hosts marked failed" "$(jvals failed /tmp/lost.json | grep -c '^true$')" 1
# this host's "sent", the one before lab2's (failed) in that trial
sent=$(sed -n '/"failed": true/q; /"sent":/p' /tmp/lost.json | tail -n 2 |
	head -n 1 | sed 's/[^0-9]//g')
note "the failed trial keeps this host's half: t1 sent $sent frames"
check_range "frames t1 sent in the failed trial" "${sent:-0}" 1 100000
$BMCTL status > /dev/null || fail "bmd did not survive"
kill $SNMPD 2>/dev/null
