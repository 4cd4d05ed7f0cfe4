# R8238-CAL (RFC 8238 §4) end to end: the tester's two ports t1 and t2
# cabled back to back (one veth pair, no DUT), rfc8238.calibrate twice,
# 2000 frames of 512 B at 10 % of a notional 100 Mbit/s each.
#
# Truth (SPEC R8238-CAL acceptance): the loopback calibration is stable:
# the two constants C = mean FF differ by less than 3 x the accuracy
# (p99 - min of FF; the larger of the two runs'), nothing is lost, and C
# and the accuracy are positive (software stamps on the tx kthread and in
# the rx handler: microseconds in the TCG guest).  The cable descriptors
# come back in the result.
bm_load
$IP link add t1 type veth peer name t2 || fail "veth t1-t2"
ns_quiet t1
ns_quiet t2
$IP link set t1 up
$IP link set t2 up
bmd_start
CAL="rfc8238 calibrate --port t1 --port t2 --line-rate 100M --frame-sizes 512 \
	--param frames=2000 --param drain_s=0.2 --param cable_type=veth \
	--param cable_length_m=0"
bm_job cal1 $CAL
$BMCTL -j result "$job" > /tmp/cal1.json || fail "bmctl result"
bm_job cal2 $CAL
$BMCTL -j result "$job" > /tmp/cal2.json || fail "bmctl result"
c1=$(jvals cal_constant_ns /tmp/cal1.json)
c2=$(jvals cal_constant_ns /tmp/cal2.json)
a1=$(jvals accuracy_ns /tmp/cal1.json)
a2=$(jvals accuracy_ns /tmp/cal2.json)
note "C = $c1 ns and $c2 ns, accuracy $a1 ns and $a2 ns"
check_eq "frames lost" "$(jvals lost /tmp/cal1.json | head -n1)$(jvals lost /tmp/cal2.json | head -n1)" 00
check_range "C of run 1 (ns)" "$c1" 1 1e9
check_range "accuracy of run 1 (ns)" "$a1" 0.001 1e9
d=$(awk -v a="$c1" -v b="$c2" 'BEGIN { d = a - b; print d < 0 ? -d : d }')
m=$(awk -v a="$a1" -v b="$a2" 'BEGIN { print 3 * (a > b ? a : b) }')
check_range "|C1 - C2| (ns), below 3 x accuracy" "$d" 0 "$m"
grep -q '"type": "veth"' /tmp/cal1.json || fail "no cable descriptor"
