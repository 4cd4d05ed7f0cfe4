# Netem loss/duplicate/reorder/delay on the DUT's egress port;
# bmgen's counts must match the DUT's own counters (loss exactly) and the
# configured delay (latency).
#
# Model of the loss step: netem on d2 sees exactly the N test frames (the
# quiet bridge sends none of its own: lib.sh quiet_bridge), drops D of
# them and passes N - D, all on the sending kthread's CPU, so they arrive
# in order on one receive CPU.  Truth: lost = D exactly, reordered = 0.
# Premises checked, so a broken premise fails with its own reason rather
# than as a miscount: netem's sent + dropped = N (nothing foreign crossed
# the DUT) and the stream was received on one CPU (rx_cpu_split = 0; a
# DUT that delivers on two CPUs really does reorder, lab.md "A quiet DUT").
bm_load
topo_bridge 2
# netem_counts: "SENT_PKTS DROPPED" of d2's root qdisc
netem_counts() {
	$TC -n dut -s qdisc show dev d2 |
		sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt (dropped \([0-9]*\).*/\1 \2/p' |
		head -n1
}
# loss: every frame netem drops is one bmgen counts lost, no more, no less
# the DUT's numbers are drawn on every run (lib.sh lab_draw, seed
# printed): loss 5..20 %, duplicates 2..8 %, delay 5..40 ms; each range
# check is the binomial mean +- 5 sigma
LOSS=$(lab_draw netem_loss_pct 5 20)
DUP=$(lab_draw netem_dup_pct 2 8)
DLY=$(lab_draw netem_delay_ms 5 40)
note "seed $LAB_SEED: netem loss $LOSS %, duplicates $DUP %, delay $DLY ms"
# binom N P: "lo hi", N P/100 +- 5 sigma
binom() {
	# the guest's busybox awk has no sqrt: Newton's steps
	awk -v n=$1 -v p=$2 'BEGIN { m = n * p / 100; v = m * (1 - p / 100)
		s = v; for (i = 0; i < 40; i++) s = (s + v / s) / 2
		printf "%d %d\n", m - 5 * s, m + 5 * s + 1 }'
}
$TC -n dut qdisc add dev d2 root netem loss ${LOSS}% limit 100000 || fail "netem loss"
$BMT --tx t1 --rx t2 --size 64 --rate 5000 --count 10000 > /tmp/loss || fail "loss trial"
set -- $(netem_counts)
sent=$1 dropped=$2
check_eq "frames netem saw (sent + dropped)" $((sent + dropped)) 10000
check_eq "stream received on one CPU (rx_cpu_split)" "$(kv rx_cpu_split /tmp/loss)" 0
check_eq "lost = netem drops" "$(kv lost /tmp/loss)" "$dropped"
check_eq "received = netem sent" "$(kv rx_unique /tmp/loss)" "$sent"
check_range "loss ($LOSS % of 10000)" "$(kv lost /tmp/loss)" $(binom 10000 $LOSS)
check_eq "no reordering under pure loss" "$(kv rx_reordered /tmp/loss)" 0
# duplicates: counted as such, never as extra received frames
$TC -n dut qdisc change dev d2 root netem duplicate ${DUP}% limit 100000
$BMT --tx t1 --rx t2 --size 64 --rate 5000 --count 10000 > /tmp/dup || fail "dup trial"
check_eq "unique with duplicates" "$(kv rx_unique /tmp/dup)" 10000
check_range "duplicates ($DUP % of 10000)" "$(kv rx_dup /tmp/dup)" $(binom 10000 $DUP)
check_eq "frames = unique + dup" "$(kv rx_frames /tmp/dup)" $(( 10000 + $(kv rx_dup /tmp/dup) ))
# reordering: nothing lost, some frames counted reordered (RFC 4737)
$TC -n dut qdisc change dev d2 root netem delay 10ms reorder 25% 50% limit 100000
$BMT --tx t1 --rx t2 --size 64 --rate 2000 --count 4000 > /tmp/reord || fail "reorder trial"
check_eq "unique with reordering" "$(kv rx_unique /tmp/reord)" 4000
check_eq "lost with reordering" "$(kv lost /tmp/reord)" 0
check_range "reordered" "$(kv rx_reordered /tmp/reord)" 100 3999
# delay D: min >= D, mean within 2 ms of D (software timestamps under
# TCG: scheduling adds up to a few hundred us)
$TC -n dut qdisc change dev d2 root netem delay ${DLY}ms limit 100000
$BMT --tx t1 --rx t2 --size 128 --rate 1000 --count 2000 > /tmp/delay || fail "delay trial"
D=$((DLY * 1000000))
check_range "latency min (ns)" "$(kv lat_min_ns /tmp/delay)" $D $((D + 1000000))
check_range "latency mean (ns)" "$(kv lat_mean_ns /tmp/delay)" $D $((D + 2000000))
# p50 from the latency histogram: its bucket's lower edge, up to 1/128
# below the value (REQ-STAT-2; 30.998528 ms for a 31 ms delay)
check_range "latency p50 (ns)" "$(kv lat_p50_ns /tmp/delay)" $((D - D / 128)) $((D + 2000000))
check_eq "delay lost" "$(kv lost /tmp/delay)" 0
# late frames (SPEC REQ-RX-3): netem holds every frame 300 ms and the drain
# is 0.1 s, so the frames sent in the trial's last ~0.2 s arrive after the
# threshold (RX_CLOSE): they are lost, and each is counted late within the
# 0.5 s watch, which ends 0.3 s after the last of them arrived.  Truth at
# 1000 fps: lost = 200 less the frames of the time the done event and the
# wakeup took past the last departure (a few ms; under TCG up to ~60 ms),
# so 140..205; late = lost exactly, and received + late = sent.
# Before RX_CLOSE the module counted those frames received (lost ~0).
$TC -n dut qdisc change dev d2 root netem delay 300ms limit 100000
$BMT --tx t1 --rx t2 --size 128 --rate 1000 --count 2000 --drain 0.1 \
	--late-watch 0.5 > /tmp/late || fail "late trial"
check_range "frames lost past the drain" "$(kv lost /tmp/late)" 140 205
check_eq "late = lost" "$(kv rx_late /tmp/late)" "$(kv lost /tmp/late)"
check_eq "received + late = sent" \
	$(( $(kv rx_unique /tmp/late) + $(kv rx_late /tmp/late) )) 2000
