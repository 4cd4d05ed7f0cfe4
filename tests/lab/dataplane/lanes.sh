# Lanes: one stream on two transmit kthreads (bm_lanes.h, bmgen-traffic
# --tx-kthreads 2), merged back into the one stream.
#
# Model.  t1 -> t2 is a veth pair, no DUT: nothing drops a frame while the
# guest keeps up, and at 10 % of a notional 100 Mbit/s line (14,881 fps
# of 64 B frames, 7,440 a lane) it does (the lab carries some 70 kfps on
# one CPU, dataplane/rate).  The stream is split into lane 0 (frames 0,
# 2, 4 ...) on CPU 0 and lane 1 (1, 3, 5 ...) on CPU 1, each paced at half the
# rate, lane 1 one interval after lane 0, each its own sequence space and
# UDP source port.  veth delivers in the sender's softirq, so each lane is
# received and analysed on its own CPU.  Truth:
#   - sent = intended = received, 0 lost, 0 duplicated, 0 reordered (a
#     lane's frames leave and arrive on one CPU, in order);
#   - the record says 2 kthreads, and both kthreads bmgen/0 and bmgen/1
#     ran during the trial (their run time in /proc/PID/schedstat rose
#     by at least 20 ms each: one lane alone would leave one idle);
#   - the merged stream's first-to-last departure span is the schedule's,
#     (N - 1) / rate, give or take what the module says its generator was
#     late (tx_late_max_s) and one interval: a TCG vCPU held up by the
#     host makes a lane late, which the module reports; lanes that did not
#     interleave (both at the full rate) or not at half the rate each
#     would be off by a second with no lateness to explain it;
#   - the same trial asked for 1 kthread says 1 (lanes only where asked).
bm_load
$IP link add t1 type veth peer name t2 || fail "veth"
ns_quiet t1
ns_quiet t2
$IP link set t1 up
$IP link set t2 up

runtime() {	# the run time in ns of kthread bmgen/CPU
	pid=$(for p in /proc/[0-9]*; do
		[ "$(cat $p/comm 2>/dev/null)" = "bmgen/$1" ] && echo ${p#/proc/}
	done | head -n1)
	[ -n "$pid" ] || fail "no kthread bmgen/$1"
	cut -d' ' -f1 /proc/$pid/schedstat
}

r0=$(runtime 0) r1=$(runtime 1)
bmgen-traffic --ports t1,t2 --topology pair --size 64 --line-rate 100e6 \
	--load 10 --duration 2 --drain 0.5 --tx-kthreads 2 > /tmp/lanes ||
	{ cat /tmp/lanes; fail "bmgen-traffic --tx-kthreads 2"; }
d0=$(( $(runtime 0) - r0 )) d1=$(( $(runtime 1) - r1 ))
cat /tmp/lanes
tot=$(grep '^total ' /tmp/lanes)
st=$(grep '^stream=0 ' /tmp/lanes)
val() {	# KEY LINE
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
N=$(val intended "$st")
check_eq "intended (10 % of 148,810 fps for 2 s)" "$N" 29762
check_eq "kthreads in the record" "$(val tx_kthreads "$tot")" 2
check_eq "sent" "$(val sent "$st")" "$N"
check_eq "received" "$(val received "$st")" "$N"
check_eq "lost" "$(val lost "$st")" 0
check_eq "duplicated" "$(val duplicated "$st")" 0
check_eq "reordered" "$(val reordered "$st")" 0
note "kthread run time during the trial: bmgen/0 $((d0 / 1000000)) ms, bmgen/1 $((d1 / 1000000)) ms"
check_range "bmgen/0 ran (ns)" "$d0" 20000000 100000000000
check_range "bmgen/1 ran (ns)" "$d1" 20000000 100000000000
R=14880.952
span=$(awk -v a="$(val first_tx_s "$st")" -v b="$(val last_tx_s "$st")" \
	'BEGIN { printf "%.6f", b - a }')
late=$(val tx_late_max_s "$st")
want=$(awk -v n="$N" -v r=$R 'BEGIN { printf "%.6f", (n - 1) / r }')
slack=$(awk -v l="$late" -v r=$R 'BEGIN { printf "%.6f", l + 1 / r }')
note "merged departures: span $span s for a schedule of $want s ($(awk -v n="$N" -v s="$span" 'BEGIN { printf "%.1f", (n - 1) / s }') fps), generator late up to $late s"
check_range "merged departure span (s)" "$span" \
	"$(awk -v w="$want" -v x="$slack" 'BEGIN { printf "%.6f", w - x }')" \
	"$(awk -v w="$want" -v x="$slack" 'BEGIN { printf "%.6f", w + x }')"

bmgen-traffic --ports t1,t2 --topology pair --size 64 --line-rate 100e6 \
	--load 10 --duration 1 --drain 0.5 > /tmp/one ||
	{ cat /tmp/one; fail "bmgen-traffic, one kthread"; }
check_eq "one kthread asked: kthreads in the record" \
	"$(val tx_kthreads "$(grep '^total ' /tmp/one)")" 1
check_eq "one kthread: lost" "$(val lost "$(grep '^stream=0 ' /tmp/one)")" 0
