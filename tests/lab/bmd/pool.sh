# A job over another host's ports through bmd (Documentation/multi-host.md):
# bmctl run ... --port lab2:t1 --port lab2:t2 on this bmd, which runs every
# trial as a bmgen.part job of host lab2's bmd, reached as over OpenSSH
# ($BMGEN_SSH -T lab2 bmctl bridge) and merged back.  Here "lab2" is a
# second bmd in this guest on its own socket and results directory, and
# the stand-in for ssh runs the remote command on this host against that
# socket (as tools/test-install's does): the transport, the versions, the
# part jobs and the merge are the real ones; the halves of a stream across
# two hosts are dataplane/pool-part's (one module runs one trial).
#
# Truth: R2544-THRPT through DUT-TBF as rfc2544/throughput draws it, but
# short (1 s trials, 5 % resolution: this tests the transport, not the
# search): the result in [C - 5 %, C + (Q + b/A) / 1 s], within 6 % of C =
# R / 8 / (F + 20) for every draw; every frame lost one the tbf dropped;
# lab2 ran one bmgen.part job a trial, each done; the coordinating bmd
# ran no trial on the module itself; every trial's sync flagged: lab2
# has no ptp4l.  pair/throughput (tools/lab-run
# --pair) runs the same across two guests, a stream's halves on two
# modules.
bm_load
topo_bridge 2
dut_tbf_drawn

# host lab2: its own bmd
mkdir -p /run/bmd /tmp/results-lab2
bmd -f -s /run/bmd/lab2.sock -r /tmp/results-lab2 >> /tmp/bmd-lab2.log 2>&1 &
LAB2_PID=$!
cat > /tmp/fake-ssh <<'EOF'
#!/bin/sh
# ssh -T [USER@]HOST[.DOMAIN] PROGRAM ARGS...: PROGRAM -s
# /run/bmd/HOST.sock ARGS... here; what it was asked in /tmp/fake-ssh.args
echo "$*" >> /tmp/fake-ssh.args
[ "$1" = -T ] && shift
host=${1#*@} prog=$2
host=${host%%.*}
shift 2
exec "$prog" -s "/run/bmd/$host.sock" "$@"
EOF
chmod +x /tmp/fake-ssh
i=0
until bmctl -s /run/bmd/lab2.sock status > /dev/null 2>&1; do
	i=$((i + 1))
	[ $i -lt 50 ] || { cat /tmp/bmd-lab2.log; fail "lab2's bmd did not come up"; }
	sleep 0.1
done
export BMGEN_SSH=/tmp/fake-ssh
# the hosts this bmd may reach (bmd(8), hosts): lab2 as user bmgen at
# its address (a name the stand-in maps to its socket), lab3 by name
printf 'hosts = lab2=bmgen@lab2.example lab3\n' > /tmp/bmd-pool.conf
BMD_CONF=/tmp/bmd-pool.conf
bmd_start
trap 'bmd_stop; kill $LAB2_PID 2>/dev/null' EXIT

measure() {
	drops0=$(qdisc_drops d2)
	bm_job thr rfc2544 throughput --port lab2:t1 --port lab2:t2 \
		--line-rate 10M $R2544_FAST --frame-sizes 512 \
		--param trial_duration_s=1 --param search_trial_duration_s=1 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=5 --param r_min_pct=5
	$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
	lost=$(jvals lost /tmp/thr.json | awk '{ s += $1 } END { print s }')
	drops=$(($(qdisc_drops d2) - drops0))
	check_eq "frames lost over all trials = tbf drops" "$lost" "$drops"
	check_tbf_throughput /tmp/thr.json ${R}000 6 512
}
remeasure $ABSORB /tmp/thr.json measure

trials=$(jvals rate_fps /tmp/thr.json | wc -l)
bmctl -s /run/bmd/lab2.sock jobs > /tmp/lab2.jobs || fail "lab2: bmctl jobs"
cat /tmp/lab2.jobs
parts=$(grep -c 'bmgen.part' /tmp/lab2.jobs)
done_parts=$(grep 'bmgen.part' /tmp/lab2.jobs | grep -c done)
check_eq "lab2's done bmgen.part jobs = the last job's trials + earlier attempts'" \
	$((parts >= trials)) 1
check_eq "lab2's bmgen.part jobs all done" "$done_parts" "$parts"
check_eq "the result's ports, as given" \
	"$(grep -o '"name": *"lab2:t[12]"' /tmp/thr.json | tr -d ' ' | tr '\n' ' ')" \
	'"name":"lab2:t1" "name":"lab2:t2" '
check_eq "the result's backend" "$(jvals backend /tmp/thr.json)" '"pool"'
# no ptp4l in this guest: every trial's record says its host had no PTP
# time, and so that its sync is not within (flagged, not refused)
check_eq "trials whose sync is flagged: lab2 without PTP time" \
	"$(grep -c '"why": "lab2: no PTP time (ptp4l at /var/run/ptp4l: No such file' /tmp/thr.json)" "$trials"
check_eq "trials whose sync is within" "$(jvals within /tmp/thr.json | grep -c true)" 0

# a host whose bmd cannot be reached: the job fails, naming it
$BMCTL run rfc2544 throughput --port lab3:t1 --port lab3:t2 --line-rate 10M \
	--frame-sizes 512 --param trial_duration_s=1 > /tmp/lab3.out 2>&1 &&
	fail "a job over an unreachable host succeeded"
cat /tmp/lab3.out
grep -q "host lab3" /tmp/lab3.out || fail "the failure does not name host lab3"
$BMCTL status > /dev/null || fail "bmd did not survive"
# bmd reached lab2 at the destination its bmd.conf gives
check_eq "bmd's ssh to lab2 by another destination than bmgen@lab2.example" \
	"$(grep -v -c -e '^-T bmgen@lab2.example ' -e '^-T lab3 ' /tmp/fake-ssh.args)" 0
check_range "bmd's ssh to bmgen@lab2.example" \
	"$(grep -c '^-T bmgen@lab2.example bmctl bridge$' /tmp/fake-ssh.args)" 1 100000
# a host bmd.conf does not name: refused before it is queued, one line
# naming it and the list, and no ssh run for it
one_line 1 $BMCTL run rfc2544 throughput --port lab9:t1 --port lab9:t2 \
	--line-rate 10M --frame-sizes 512
grep -q "port lab9:t1: host lab9 is not one of bmd's tester hosts (hosts = lab2=bmgen@lab2.example lab3 in " /tmp/one.err ||
	fail "the refusal does not name lab9 and bmd's hosts"
check_eq "ssh runs for lab9" "$(grep -c lab9 /tmp/fake-ssh.args)" 0
