# RFC 7640 shaper (TM-SHP-1) and queue/scheduler (TM-QS-1) end to end:
# bmctl -> bmd -> bmgen.ko, 1518 B frames, notional 1 Gbit/s, the draft's
# rates scaled by 1/5 and 1/10 to what the TCG guest forwards.
#
# Shaper: t1 -> DUT-TBFB on d2 (tbf 5 Mbit/s, burst 15,180 = 10 frames,
# overhead 4, bfifo 200,000 B) -> t2; IQ = 128,000 B bursts (84 x 1518 +
# 488) every Ti = IQ x 8 / SR = 204.8 ms for Td = 10 Ti.  Model
# (MODEL-TBF): the bfifo holds a burst, so LP = 0 = the tbf's drops; SR
# over Td (egress bytes / Td) = 5 Mbit/s within 1 % plus what the DUT's
# timer lateness moves the last departure (late_max / Td, the generator's
# lateness as the proxy: both are the guest's timers); SBI median = 1518
# x 8 / SR = 2.4288 ms (+-5 %, SPEC TM-SHP-1: one frame per token
# interval); SBB median 1518 B (one frame per train); the first train is
# the bucket's, 15,180 B = 10 frames, plus what refills while the guest
# forwards them (50-200 us a frame: up to 2.4 ms, one more frame at
# 5 Mbit/s; MODEL-TBF's floor((b + rho T) / A)), +-1 frame: 9 to 12
# frames (11 in most runs).  The check takes the largest train, which is
# that one (the bursts keep the shaper busy, so its bucket never fills
# again, and a stalled tbf releases at most a bucket): one run of 20 saw
# the first train split after its first frame by a guest stall longer
# than the 0.5 ms accuracy, a single-sample metric that software stamps
# cannot hold (TM-MET-SBB is low-confidence there); its first train is
# printed.  Trains are frames closer
# than 1.1 wire times plus the timestamps' accuracy (AMB-39); software
# stamps in the TCG guest are worth tenths of milliseconds, far more than
# a notional 1 GbE wire time (12 us), so the test passes an accuracy of
# 0.5 ms as cal_pdv_ns: the guest forwards back-to-back frames 50-200 us
# apart, and the shaper's frames come 2.43 ms apart.  (rfc8238.calibrate
# on a veth loopback measured p99 - min of 0.42, 0.83 and 1.6 ms in three
# runs here: the TCG guest's stalls, too unsteady to draw the line with.)
# The bucket holds whole frames so that
# the frame after the first train waits a whole token interval (2.43 ms),
# well apart from it (with a 16,000 B bucket at 10 Mbit/s the 11th frame
# came 1.1 ms after the 10th and a 12-frame first train was seen).  The
# procedure still marks SBB/SBI low-confidence.
#
# Queue: three ports, DUT-SP on d3 (tbf 10 Mbit/s, burst 30,000, overhead
# 4, prio with EF (DSCP 46) in band 1, the rest in band 3; the bucket is
# 24 ms deep, not SPEC's 3200 B, because a tbf whose timer fires later
# than its bucket's time loses that service for good, and the guest's
# timers do, by up to 15 ms with the host busy: BE then read 3.6-3.8
# Mbit/s; lab 33 made the same change): (a) bursts of
# QL = 32,000 B every QL x 8 / BB x 1.15 from t1: every burst fits the
# band queue (21 frames of 1000), LP = 0 = the DUT's drops; (b) classes:
# EF 6 Mbit/s from t1 and BE 6 Mbit/s from t2 (together 12 > BB = 10)
# for 2 s, the BE band a pfifo of 50 frames: EF loses nothing; BE gets
# what is left, 4 Mbit/s, plus the bucket it started with (30,000 B) and
# what its queue still held at the end (the procedure counts frames
# received up to the loss wait over Td): 4.0 to 4.0 + (30,000 + 50 x
# 1518) x 8 / 2 s = 4.42 Mbit/s, each -0.5 % for the tbf's own rate
# (CAL-ACC); and LP over the bursts and both classes = the DUT's drops,
# exactly.  Re-measured when the generator was later than the bucket's
# 24 ms.
bm_load
topo_bridge 3
bmd_start

# --- shaper
$TC -n dut qdisc add dev d2 root handle 1: tbf rate 5mbit burst 15180 \
	limit 1000000 overhead 4 || fail "tbf d2"
$TC -n dut qdisc add dev d2 parent 1:1 handle 10: bfifo limit 200000 || fail "bfifo d2"
shaper() {
	d0=$(qdisc_drops d2)
	bm_job shp rfc7640 shaper --line-rate 1G --port t1 --port t2 $LEARN_FAST \
		--param iq=128000 --param sr_bps=5e6 --param bc=15180 --param be=15180 \
		--param td_s=2.048 --param tr=1 --param drain_s=0.5 \
		--param cal_pdv_ns=500000
	$BMCTL -j result "$job" > /tmp/shp.json || fail "bmctl result"
	drops=$(($(qdisc_drops d2) - d0))
	late=$(jvals tx_late_max_s /tmp/shp.json | sort -g | tail -n1)
	check_eq "shaper: LP = the tbf's drops" "$(jvals lp /tmp/shp.json | head -n1)" "$drops"
	check_eq "shaper: LP" "$drops" 0
	tol=$(awk -v l=$late 'BEGIN { printf "%.4f", 0.01 + l / 2.048 }')
	note "shaper: SR_busy $(jvals sr_busy_bps /tmp/shp.json | head -n1) bit/s, SBI p1/p99 $(jvals sbi_p1_s /tmp/shp.json | head -n1) / $(jvals sbi_p99_s /tmp/shp.json | head -n1) s, trains $(jvals trains /tmp/shp.json | head -n1)"
	check_range "shaper: SR (bit/s), 5 Mbit/s +- (1 % + late $late s / Td)" \
		"$(jvals sr_bps /tmp/shp.json | head -n1)" \
		"$(awk -v t=$tol 'BEGIN { print 5e6 * (1 - t) }')" "$(awk -v t=$tol 'BEGIN { print 5e6 * (1 + t) }')"
	check_range "shaper: SBI median (s), 2.4288 ms +- 5 %" \
		"$(jvals sbi_median_s /tmp/shp.json | head -n1)" 0.0023074 0.0025502
	check_range "shaper: SBB median (B), one frame" \
		"$(jvals sbb_median_bytes /tmp/shp.json | head -n1)" 1518 1518
	note "shaper: first SBB $(jvals sbb_first_bytes /tmp/shp.json | head -n1) B"
	check_range "shaper: largest SBB (B), the bucket's 10 frames + 1 refilled, +- 1 frame" \
		"$(jvals sbb_max_bytes /tmp/shp.json | head -n1)" 13662 18216
	check_eq "shaper: software stamps are low confidence" \
		"$(jvals low_confidence /tmp/shp.json | head -n1)" true
}
remeasure 0.0243 /tmp/shp.json shaper

# --- queue and scheduler
dut_sp d3 30000
queue() {
	d0=$(qdisc_drops d3)
	bm_job qs rfc7640 queue --line-rate 1G --port t1 --port t2 --port t3 $LEARN_FAST \
		--param ql=32000 --param bb_bps=10e6 --param ti_margin_pct=15 \
		--param high_bps=6e6 --param low_bps=6e6 --param td_s=2 --param tr=1 \
		--param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/qs.json || fail "bmctl result"
	drops=$(($(qdisc_drops d3) - d0))
	# per entry of "bursts" and "classes": "NAME LP THROUGHPUT"
	sed -n '/^    "bursts": \[/,/^    "statistics"/p' /tmp/qs.json | tr -d '",' | awk '
		$1 == "bursts:" && $2 == "[" { name = "bursts" }
		$1 == "class:" { name = $2 }
		$1 == "lp:" { lp[name] = $2 }
		$1 == "throughput_bps:" { tp[name] = $2 }
		END { for (k in lp) print k, lp[k], tp[k] + 0 }' > /tmp/qs.rows
	cat /tmp/qs.rows
	sum=$(awk '{ s += $2 } END { print s + 0 }' /tmp/qs.rows)
	check_eq "queue: LP over the bursts and both classes = the DUT's drops" "$sum" "$drops"
	check_eq "queue: bursts of QL, LP" "$(awk '$1 == "bursts" { print $2 }' /tmp/qs.rows)" 0
	check_eq "queue: EF class, LP" "$(awk '$1 == "high" { print $2 }' /tmp/qs.rows)" 0
	check_range "queue: BE class throughput (bit/s)" \
		"$(awk '$1 == "low" { print $3 }' /tmp/qs.rows)" 3980000 4450000
}
remeasure 0.024 /tmp/qs.json queue
