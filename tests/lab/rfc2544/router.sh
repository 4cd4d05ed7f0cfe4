# R2544-THRPT through a router DUT (RFC 2544 Appendix C):
# bmctl run ... --router -> bmd -> bmgen.ko against a namespace router with
# a token bucket of known rate on its egress d2.
#
# Router mode: the tester ports carry 198.18.1.2/24 (t1) and 198.19.1.2/24
# (t2); test frames go from 198.18.1.2 to 198.19.1.2 and to the DUT's MAC
# on t1, which the tester's kernel learnt by ARP (bmgen.ko passes non-test
# frames up the stack); the DUT in turn resolves 198.19.1.2 on d2, and t2's
# kernel answers it.  Each trial refreshes both neighbours before it starts.
#
# DUT: d1 198.18.1.1/24, d2 198.19.1.1/24, ip_forward on.  On d2 a prio
# qdisc puts ARP in an unshaped band 1:1 and everything else through the
# tbf 20: of rfc2544/throughput (3 Mbit/s, burst 3200, limit 8000, overhead
# 24), so that the shaper's drop counter counts test frames only: an ARP probe
# of the DUT's that the full tbf dropped would make drops = lost + 1, and its
# loss would stop the DUT forwarding (a real router's ARP is not behind
# its data queues either).
# Model and window: those of rfc2544/throughput (the router adds no queue of
# its own at 3 Mbit/s): C = R / 8 / (F + 20), 704.89 fps at 512 B; the result
# lies in [C - 0.5 %, C + 0.99 %]; checked to 2 %
# (the margin as in rfc2544/throughput: TCG generator bursts).  Frames lost
# over all trials = the tbf's drops.
# CI failed this test at 468.09 fps (trials at 469.92 fps lost
# frames); a vCPU held 60 ms in every 500 ms here does the same (363 and
# 675 fps, the generator 60-69 ms late, each loss within its catch-up
# burst).  As in rfc2544/throughput, the job is measured again when it fails
# with the generator later than bucket and queue absorb (29.9 ms).
# One frame size: what this test adds to rfc2544/throughput is the
# router's addressing and ARP, the same for every size;
# rfc2544/throughput searches 1518 B
# (its second size cost make check 35 s here, the stateful TCP tests took it).
bm_load
dut_router_tbf
bmd_start

# measure: one job and its checks (remeasure runs it again if it fails
# with the generator held up longer than the DUT's bucket and queue
# absorb: (3200 + 8000) B at 3 Mbit/s = 29.9 ms, as in rfc2544/throughput)
measure() {
	drops0=$(tbf20 dropped)
	sent0=$(tbf20 Sent)
	bm_job thr rfc2544 throughput --port t1 --port t2 --router --line-rate 10M \
		--param restabilise_s=0 \
		--frame-sizes 512 \
		--param trial_duration_s=3 --param search_trial_duration_s=3 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=0.5 --param r_min_pct=5
	$BMCTL -j result "$job" > /tmp/rthr.json || fail "bmctl result --json"

	# the premises: addresses, both neighbour tables, the forwarding path
	$IP -4 addr show dev t1 | grep -q 'inet 198.18.1.2/24' || fail "t1 has no 198.18.1.2/24"
	$IP -4 addr show dev t2 | grep -q 'inet 198.19.1.2/24' || fail "t2 has no 198.19.1.2/24"
	check_eq "tester's neighbour 198.18.1.1 on t1 = d1's MAC" \
		"$($IP neigh show 198.18.1.1 dev t1 | sed -n 's/.*lladdr \([0-9a-f:]*\).*/\1/p')" \
		"$($IP netns exec dut cat /sys/class/net/d1/address)"
	check_eq "DUT's neighbour 198.19.1.2 on d2 = t2's MAC (t2 answered ARP)" \
		"$($IP -n dut neigh show 198.19.1.2 dev d2 | sed -n 's/.*lladdr \([0-9a-f:]*\).*/\1/p')" \
		"$(mac t2)"
	check_eq "the result's DUT mode" "$(jvals dut_mode /tmp/rthr.json)" '"router"'

	lost=$(jvals lost /tmp/rthr.json | awk '{ s += $1 } END { print s }')
	drops=$(($(tbf20 dropped) - drops0))
	sent=$(($(tbf20 Sent) - sent0))
	note "tbf 20: sent $sent packets, dropped $drops in this job"
	check_range "the router forwarded test frames through the tbf" "$sent" 1000 100000000
	check_eq "frames lost over all trials = tbf drops" "$lost" "$drops"

	check_tbf_throughput /tmp/rthr.json 3e6 2 512
}

remeasure 0.0299 /tmp/rthr.json measure

# (2) TCP through the router (TCP must really cross the DUT,
# a router too): rfc8238.goodput --router, one bulk connection t1 -> t2
# for 3 s.  The engine gives each port a VRF with its App C address
# (198.18.1.2, 198.19.1.2) and a default route via the DUT's .1 there,
# so the segments are routed by the DUT.  Truth from the DUT's record:
# every segment the client sent (tcpi_segs_out: data, retransmissions,
# SYN, FIN) went into d2's band 2, the tbf 20: its sent + dropped, up to
# 20 packets more (the hosts' own chatter: the engine's ports are not
# quiet); the ACKs come back through d1 unshaped.  Goodput in [0.5 x,
# 1.01 x (1 x + the bucket / window)] of F-9's 3 x 1448/1538 Mbit/s
# (tbf overhead 24: a full segment costs 1538 B); the lower bound is
# loose: the tbf's bucket is 8.5 ms of tokens, which a late TCG watchdog
# loses (dataplane/tcp-engine saw 83.7 % with such a bucket), and this part's
# point is the path.  Afterwards the ports are out of their VRFs.
no_gso t1 t2
d0=$(tbf20 dropped) s0=$(tbf20 Sent)
bm_job gp rfc8238 goodput --router --line-rate 10M --param repeat=1 \
	--param warmup_s=1 --param duration_s=3 --port t1 --port t2
$BMCTL -j result "$job" > /tmp/rgp.json || fail "bmctl result"
through=$(($(tbf20 Sent) - s0 + $(tbf20 dropped) - d0))
segs=$(jvals client_segs_out /tmp/rgp.json | head -n1)
note "(2) TCP through the router: client segs_out $segs, tbf 20 sent + dropped $through"
check_range "(2) the router's tbf saw every client segment" "$through" "$segs" $((segs + 20))
w=$(jvals window_s /tmp/rgp.json | head -n1)
hi=$(awk -v w="$w" 'BEGIN { printf "%.0f", 1.01 * (3e6 * 1448 / 1538 + 3200 * 8 / w) }')
check_range "(2) goodput (bit/s)" "$(jvals goodput_bps /tmp/rgp.json | head -n1)" 1412224 "$hi"
check_eq "(2) routing domains" "$(jvals routing_domains /tmp/rgp.json)" '"vrf"'
for t in t1 t2; do
	$IP link show dev $t | grep -q "master bmv" && fail "(2) $t still in a VRF"
done
$IP link show type vrf | grep -q bmv && fail "(2) a VRF was left"
echo "ok: (2) the ports are out of their VRFs, none left"
