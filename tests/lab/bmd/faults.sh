# Faults in the middle of a job, for every procedure family: RFC 2544
# (throughput), MLRsearch, RFC 8239 (microburst, 3 ports) and RFC 7640
# (policer), each hit by each of
#   gone   the tester port's device deleted (ip link del t1);
#   flap   the DUT side of t2 down for 1 s (t2 loses its carrier, as with
#          a pulled cable or a DUT port reset);
#   rmmod  bmgen.ko unloaded (then loaded again);
#   kill   bmd killed with SIGKILL and started again;
#   client the bmctl that follows the job killed with SIGKILL.
# The fault comes 1 s after the job started running: in its first trial,
# or for microburst (bursts of milliseconds, then a 0.6 s drain) in a
# trial, its drain or the next trial's start; the 1 s flap is longer than
# any gap between trials, so a trial always sees it.
# Truth, what the job must end as (bmctl jobs):
#   gone   failed, and the reason names the missing device;
#   flap   failed, "port t2 lost its link" (a loss to the link is no loss
#          of the DUT: bm_run_trial refuses such a trial);
#   rmmod  failed, the reason names the module's trial failure or absence;
#   kill   interrupted, "bmd stopped while the job was running";
#   client still running after its client died, one trial later more
#          trials, then cancelled on request: "cancelled by request".
# After every case bmd answers; a partial result the job stored is valid
# against the schema (the runner checks every result of the test); and
# the result of a job done before all of them is byte-identical at the
# end.  No timing tolerance: the verdicts are states and reasons.
RES=/tmp/results

bm_load
topo_bridge 3
# a tbf on d2, so that RFC 2544 and MLRsearch search over several trials
$TC -n dut qdisc add dev d2 root tbf rate 3mbit burst 3200 limit 60000 \
	overhead 24 || fail "tbf"
bmd_start

R2544="rfc2544 throughput --port t1 --port t2 --line-rate 10M $R2544_FAST
	--frame-sizes 512 --param trial_duration_s=2
	--param search_trial_duration_s=2 --param drain_s=0.3
	--param resolution_pct=5 --param r_min_pct=5"
MLR="mlrsearch --port t1 --port t2 --line-rate 10M $LEARN_FAST
	--param frame_size=512 --param max_rate_fps=939.85
	--param min_rate_fps=47 --param final_trial_duration_s=2
	--param initial_trial_duration_s=2 --param final_relative_width=0.05
	--param number_of_intermediate_phases=0"
MB="rfc8239 microburst --port t1 --port t2 --port t3 --line-rate 100M
	$LEARN_FAST --frame-sizes 512 --param drain_s=0.6
	--param burst_max=1024 --param repeat=3"
POL="rfc7640 policer --line-rate 1G --port t1 --port t2 $LEARN_FAST
	--param cir_bps=10e6 --param cbs=64KB --param ti_margin_pct=15
	--param excess=16KB --param td_s=2 --param tr=2 --param drain_s=0.5"

# row JOB: the job's line of "bmctl jobs"
row() {
	$BMCTL jobs | awk -v j="$1" '$1 == j'
}
state() {
	row "$1" | awk '{ print $2 }'
}
trials() {
	row "$1" | awk '{ print $6 }'
}
# until_state JOB STATE...: wait (30 s at most) until JOB is in one of them
until_state() {
	j=$1
	shift
	i=0
	while :; do
		s=$(state "$j")
		for w in "$@"; do
			[ "$s" = "$w" ] && return 0
		done
		i=$((i + 1))
		[ $i -lt 300 ] || { row "$j"; tail -20 /tmp/bmd.log; fail "job $j: $s, not $* after 30 s"; }
		sleep 0.1
	done
}
# submit NAME ARGS...: `bmctl run ARGS --detach`; $job is its id
submit() {
	name=$1
	shift
	job=$($BMCTL run "$@" --detach 2> /tmp/$name.err | sed -n 's/^job *\([0-9]*\)$/\1/p')
	[ -n "$job" ] || { cat /tmp/$name.err; fail "$name: no job id"; }
}
# restore: the three ports cabled to br0, bmgen.ko loaded, bmd up
restore() {
	if ! $IP link show t1 > /dev/null 2>&1; then
		bridge_ports 1 1
	fi
	$IP -n dut link set d2 up
	bm_load
	kill -0 "$BMD_PID" 2> /dev/null || bmd_start
	$BMCTL status > /dev/null || fail "bmd does not answer"
}
# expect JOB STATE PATTERN: JOB ended in STATE with PATTERN in its line
expect() {
	until_state "$1" done failed cancelled interrupted
	r=$(row "$1")
	[ "$(state "$1")" = "$2" ] && echo "$r" | grep -q -- "$3" ||
		{ echo "$r"; tail -20 /tmp/bmd.log; fail "job $1 ($case): want $2 with '$3'"; }
	echo "ok: $case -> $r (guest uptime $(cut -d' ' -f1 /proc/uptime) s)" | tr -s ' '
}

# a result from before every fault, kept to the byte
bm_job before rfc2544 frame-loss --port t1 --port t2 --line-rate 10M \
	$R2544_FAST --frame-sizes 512 --param trial_duration_s=1 \
	--param drain_s=0.3 --param max_rate_pct=20
first=$job
sum=$(md5sum < $RES/$first.json)

for fam in R2544 MLR MB POL; do
	eval "args=\$$fam"
	for fault in gone flap rmmod kill client; do
		case="$fam/$fault"
		if [ $fault = client ]; then
			# emptied first: the last family's (or run's) job id
			# is there until the background shell truncates it
			: > /tmp/client.out
			# shellcheck disable=SC2086
			$BMCTL run $args > /tmp/client.out 2>&1 &
			cpid=$!
			i=0
			until job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/client.out) &&
			      [ -n "$job" ]; do
				i=$((i + 1))
				[ $i -lt 100 ] || fail "$case: no job id"
				sleep 0.1
			done
		else
			# shellcheck disable=SC2086
			submit "$fam" $args
		fi
		until_state "$job" running
		sleep 1
		case $fault in
		gone)	$IP link del t1 ;;
		flap)	$IP -n dut link set d2 down; sleep 1; $IP -n dut link set d2 up ;;
		rmmod)	rmmod bmgen || fail "$case: rmmod during the job" ;;
		kill)	kill -KILL "$BMD_PID"; wait "$BMD_PID" 2> /dev/null; BMD_PID=
			bmd_start ;;
		client)	n=$(trials "$job")
			kill -KILL $cpid; wait $cpid 2> /dev/null
			check_eq "$case: job after its client died" "$(state "$job")" running
			i=0
			while [ "$(state "$job")" = running ] &&
			      [ "$(trials "$job")" -le "$n" ]; do
				i=$((i + 1))
				[ $i -lt 300 ] || fail "$case: no trial after the client died"
				sleep 0.1
			done
			$BMCTL cancel "$job" > /dev/null ||
				{ [ "$(state "$job")" = done ] || fail "$case: cancel"; } ;;
		esac
		case $fault in
		gone)	expect "$job" failed "device was removed\|t1" ;;
		flap)	expect "$job" failed "port t2 lost its link" ;;
		rmmod)	expect "$job" failed "bmgen.ko was unloaded\|trial failed in the module" ;;
		kill)	expect "$job" interrupted "bmd stopped while the job was running" ;;
		client)	until_state "$job" cancelled done
			echo "ok: $case -> $(row "$job" | tr -s ' ') (guest uptime $(cut -d' ' -f1 /proc/uptime) s)" ;;
		esac
		restore
	done
done

check_eq "job $first after every fault" "$(state "$first")" done
check_eq "result of job $first" "$(md5sum < $RES/$first.json)" "$sum"
$BMCTL -j result "$first" | cmp - $RES/$first.json ||
	fail "bmctl result $first differs from the file"
grep -c 'LABWARN\|WARNING' /tmp/bmd.log > /dev/null && note "bmd log: $(grep -c . /tmp/bmd.log) lines"
echo "ok: 20 faults, every job ended clearly; job $first intact"
