# RFC 2544 throughput across two tester hosts (Documentation/multi-host.md):
# this guest's t1 sends, the second guest's t2 (host "lab2", its own module
# and bmd; tools/lab-run --pair) receives, through this guest's DUT-TBF,
# whose egress d2 is the QEMU cable to lab2.  Every trial's sending half
# runs on this module, its receiving half on lab2's as a bmgen.part job,
# both from one CLOCK_TAI instant, the hosts' clocks joined by ptp4l
# (software stamps) over the hosts' own network ctl0.
#
# Truth: as rfc2544/throughput (DUT-TBF drawn, 2 % of C = R / 8 / (F + 20),
# every frame lost one the tbf dropped: the merge takes each stream's sent
# count from this host and its received count from lab2); lab2's part of
# every trial a done bmgen.part job there; lab2's clock within 5 ms of
# this one's by ptp4l's own account (pmc) before the job.
bm_load
pair_nic 52:54:00:aa:00:01 d2
pair_nic 52:54:00:aa:00:02 ctl0
$IP link set ctl0 up
$IP addr add 10.99.0.1/24 dev ctl0
# the DUT: a bridge of t1's cable d1 and d2, the cable to lab2
$IP netns add dut || fail "netns add dut"
quiet_bridge br0 dut
veth_port t1 d1
$IP -n dut link set d1 master br0 || fail "d1 into br0"
$IP link set d2 netns dut || fail "d2 into dut"
$IP -n dut link set d2 master br0 || fail "d2 into br0"
$IP -n dut link set d2 up
$IP -n dut link set br0 up
dut_tbf_drawn

# this host's clock is the pool's grandmaster
cat > /etc/ptp4l.conf <<'PTP'
[global]
priority1 10
logSyncInterval -2
sanity_freq_limit 0
PTP
ptp4l -S -4 -i ctl0 -f /etc/ptp4l.conf > /tmp/ptp4l.log 2>&1 &
# bmd reaches lab2's bmd as over ssh: the stand-in connects to lab2's
# port 7000, where busybox nc runs `bmctl bridge` (tests/lab/pair-peer.sh)
cat > /tmp/nc-ssh <<'SSH'
#!/bin/sh
exec busybox nc 10.99.0.2 7000
SSH
chmod +x /tmp/nc-ssh
export BMGEN_SSH=/tmp/nc-ssh
i=0
until bmctl -H lab2 status > /tmp/lab2.status 2>&1; do
	i=$((i + 1))
	[ $i -lt 120 ] || { cat /tmp/lab2.status; fail "lab2's bmd not reachable"; }
	sleep 0.5
done
# ptp4l's own account of lab2's offset from this clock (ns): the
# TIME_STATUS_NP of lab2's port (its clock identity from its MAC
# 52:54:00:bb:00:02) among the answers of every clock a hop away, when
# it follows this clock (gmIdentity ...aa0002); "" when it does not
lab2_offset() {
	pmc -u -b 1 -i ctl0 'GET TIME_STATUS_NP' 2>/dev/null |
		awk '/RESPONSE MANAGEMENT/ { mine = /525400\.fffe\.bb0002/ }
		     mine && /master_offset/ { o = $2 }
		     mine && /gmIdentity/ { gm = ($2 == "525400.fffe.aa0002") }
		     END { if (gm) print o }'
}
# three answers in a row within 5 ms
i=0 good=0
while [ $good -lt 3 ]; do
	off=$(lab2_offset)
	if [ -n "$off" ] && [ "${off#-}" -lt 5000000 ] 2>/dev/null; then
		good=$((good + 1))
	else
		good=0
	fi
	i=$((i + 1))
	[ $i -lt 120 ] || { tail -n 20 /tmp/ptp4l.log; fail "lab2 not in sync after 120 s (offset '$off' ns)"; }
	sleep 1
done
note "lab2's clock offset by ptp4l before the job: $off ns"
check_range "lab2's clock offset (|ns|) before the job" "${off#-}" 0 5000000
bmd_start

measure() {
	drops0=$(qdisc_drops d2)
	bm_job thr rfc2544 throughput --port t1 --port lab2:t2 \
		--line-rate 10M $R2544_FAST --frame-sizes 512 \
		--param trial_duration_s=3 --param search_trial_duration_s=3 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=1 --param r_min_pct=5
	$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
	lost=$(jvals lost /tmp/thr.json | awk '{ s += $1 } END { print s }')
	drops=$(($(qdisc_drops d2) - drops0))
	check_eq "frames lost over all trials = tbf drops" "$lost" "$drops"
	check_tbf_throughput /tmp/thr.json ${R}000 2 512
}
remeasure $ABSORB /tmp/thr.json measure
bmctl -H lab2 jobs > /tmp/lab2.jobs || fail "lab2: bmctl jobs"
cat /tmp/lab2.jobs
parts=$(grep -c 'bmgen.part' /tmp/lab2.jobs)
check_eq "lab2's bmgen.part jobs all done" \
	"$(grep 'bmgen.part' /tmp/lab2.jobs | grep -c done)" "$parts"
note "lab2's clock offset by ptp4l after the job: $(lab2_offset) ns"
sed 's/^/note: ptp4l here: /' /tmp/ptp4l.log | tail -n 5
