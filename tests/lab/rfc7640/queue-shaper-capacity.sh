# RFC 7640 queue and shaper capacity (TM-QS-CAP-2, TM-SHP-CAP-2, SPEC
# acceptance shapes at a tenth of the rate or less): bmctl -> bmd ->
# bmgen.ko, t1 and t2 -> a bridge -> t3, 1518 B frames, notional 1 Gbit/s
# ports; every DUT rate counts A = F (overhead 4), the accounting `l2`.
# The DUT's rates and quanta are drawn on every run (lib.sh lab_draw,
# seed printed); each range follows the fixed value the test had until
# 2026-12-03, which the figures in the text are.
#
# Part 1, SP + WFQ on one egress (queue-capacity, DUT-ETS): d3 = tbf BB =
# 10 Mbit/s (6..10, step 0.5; burst 15,180) over ets bands 3 strict 1
# quanta q1 = 3000 (3000..6000 step 500) q2 = 1500 (1500..3000 step 500),
# EF (DSCP 46) to the strict band, AF11 (10) to q1, the rest (AF21, 18)
# to q2, pfifo 50 on each WFQ band.  Each ingress port offers EF e = 1
# Mbit/s (5..15 % of BB) and AF11 and AF21 a = 3 Mbit/s each (45 % of
# what EF leaves, BB - 2e, so each WFQ class is offered 90 % of it: at
# least 1.125 times its largest share, 80 %).  Truth: EF is served first,
# 2e = 2.0 Mbit/s with LP 0; the BB - 2e left are shared by deficit round
# robin in proportion to the quanta, AF11 q1 / (q1 + q2) = 2/3 (5.33)
# and AF21 q2 / (q1 + q2) = 1/3 (2.67), both backlogged all along
# (offered 6 each).  Windows: EF 2e +- 2 %; the WFQ shares +- 5 % of
# themselves (SPEC TM-QS-CAP-4's, the phases of the streams against the
# quanta), the larger less and the smaller more by the bands' 50 frames
# each that drain after Td (both the same bytes, over the remainder's
# Td: 3 points at 6 Mbit/s; 21.7 % for 20 measured); the queues together BB +- 3 % (the tbf's bucket, 15,180 B over
# Td, is 0.3 % at 10 Mbit/s, 0.5 % at 6).
#
# Part 2, all queues shaped on one egress (shaper-capacity, an HTB tree):
# d3 = htb root R = 10 Mbit/s (8..10, step 0.5), class EF rate = ceil E =
# 3 Mbit/s (20..30 % of R, step 2.5) prio 0, class BE rate = ceil B = 5
# Mbit/s (40..50 % of R, step 2.5) prio 1, pfifo 50 each, every class with a
# burst of 10 frames: with tc's default (about 1.5 frames) a timer the
# TCG guest fires late loses service for good, BE read 4.86 Mbit/s; the
# bucket's one burst adds 15,180 B over Td, 0.6 % of BE's rate (1 % at
# the smallest B, 3.2 Mbit/s).  Offered EF 4/3 E = 4, BE 1.2 B = 6
# (half from each ingress): EF E = 3.0, BE B = 5.0 Mbit/s, each +- 2 % (SPEC).
# Then the EF class raised to 70 % of R = 7 Mbit/s: EF gets what it offers,
# 4/3 E = 4.0 with LP 0, BE still B = 5.0 (4/3 E + B = 90 of 100 % of the
# root; at most 40 + 50 = 90 % drawn).
#
# Throughput is each flow's delivered rate, timed from the egress's first
# arrival to the flow's own last (Documentation/procedures-rfc7640.md):
# EF, delivered within Td, over Td.  In every
# part, bmgen's LP over all queues = the root qdisc's drops (it counts
# its children's), exactly.
bm_load
topo_bridge 3
# The DUT of this run (rates in bit/s; percentages of BB and R in tenths)
BB=$(( $(lab_draw qc_bb_kbps 6000 10000 500) * 1000 ))
Q1=$(lab_draw qc_quantum1 3000 6000 500)
Q2=$(lab_draw qc_quantum2 1500 3000 500)
EFI=$(( $(lab_draw qc_ef_pct 5 15) * BB / 100 ))
AFI=$(( (BB - 2 * EFI) * 45 / 100 ))
R=$(( $(lab_draw sc_root_kbps 8000 10000 500) * 1000 ))
E=$(( $(lab_draw sc_ef_pmil 200 300 25) * R / 1000 ))
B=$(( $(lab_draw sc_be_pmil 400 500 25) * R / 1000 ))
EFO=$((E * 4 / 3)) BEO=$((B * 12 / 10)) E2=$((R * 7 / 10))
S1=$(awk -v a=$Q1 -v b=$Q2 'BEGIN { printf "%.2f", 100 * a / (a + b) }')
S2=$(awk -v a=$Q1 -v b=$Q2 'BEGIN { printf "%.2f", 100 * b / (a + b) }')
note "seed $LAB_SEED: SP + WFQ: tbf $BB bit/s, quanta $Q1 / $Q2 (shares $S1 / $S2 %), each ingress EF $EFI, AF11 and AF21 $AFI bit/s; HTB: root $R, EF $E (offered $EFO, then ceil $E2), BE $B (offered $BEO) bit/s"
bmd_start

# col FILE QUEUE N: column N of d3's (t3's) queue row (tm_queue_rows)
col() {
	awk -v q="t3:$2" -v n="$3" '$1 == q { print $n }' "$1"
}
# lp_is_drops FILE D0 WHAT: LP over the queues = the root's drops since D0
lp_is_drops() {
	check_eq "$3: LP over the queues = the root qdisc's drops" \
		"$(awk '{ s += $3 } END { print s + 0 }' "$1")" \
		$(($(qdisc_drops d3) - $2))
}

# lib.sh's dut_ets with the drawn rate and quanta
$TC -n dut qdisc add dev d3 root handle 1: tbf rate ${BB}bit burst 15180 \
	limit 1000000 overhead 4 || fail "tbf d3"
$TC -n dut qdisc add dev d3 parent 1:1 handle 10: ets bands 3 strict 1 \
	quanta $Q1 $Q2 priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 || fail "ets d3"
$TC -n dut filter add dev d3 parent 10: protocol ip u32 \
	match ip dsfield 0xb8 0xfc flowid 10:1 || fail "EF filter d3"
$TC -n dut filter add dev d3 parent 10: protocol ip u32 \
	match ip dsfield 0x28 0xfc flowid 10:2 || fail "AF11 filter d3"
$TC -n dut qdisc add dev d3 parent 10:2 pfifo limit 50 || fail "pfifo d3 10:2"
$TC -n dut qdisc add dev d3 parent 10:3 pfifo limit 50 || fail "pfifo d3 10:3"
qcap() {
	d0=$(qdisc_drops d3)
	bm_job qcap rfc7640 queue-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 $LEARN_FAST --param scheduler=sp_wfq \
		--param 'class_dscps=[46,10,18]' --param "class_rates_bps=[$EFI,$AFI,$AFI]" \
		--param "class_weights=[0,$Q1,$Q2]" --param ql=30000 \
		--param bb_bps=$BB --param bursts=false --param td_s=4 \
		--param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/qcap.json || fail "bmctl result"
	tm_queue_rows /tmp/qcap.json > /tmp/qcap.rows
	note "SP + WFQ (queue throughput lp wfq_share): $(tr '\n' ';' < /tmp/qcap.rows)"
	lp_is_drops /tmp/qcap.rows "$d0" "SP + WFQ"
	check_eq "EF LP" "$(col /tmp/qcap.rows 1 3)" 0
	check_range "EF (bit/s), $((2 * EFI)) +- 2 %" "$(col /tmp/qcap.rows 1 2)" \
		$(awk -v w=$((2 * EFI)) 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
	# each WFQ band still held its 50 frames at Td's end: drained
	# after it, they add the same bytes to both, moving the shares
	# towards each other by up to DR points
	DR=$(awk -v r=$((BB - 2 * EFI)) 'BEGIN { printf "%.2f", 100 * 50 * 1518 * 8 / (r * 4) }')
	check_range "AF11's WFQ share (%), $S1 +- 5 % - $DR" "$(col /tmp/qcap.rows 2 4)" \
		$(awk -v s=$S1 -v d=$DR 'BEGIN { printf "%.2f %.2f", s * 0.95 - d, s * 1.05 }')
	check_range "AF21's WFQ share (%), $S2 +- 5 % + $DR" "$(col /tmp/qcap.rows 3 4)" \
		$(awk -v s=$S2 -v d=$DR 'BEGIN { printf "%.2f %.2f", s * 0.95, s * 1.05 + d }')
	check_range "the queues together (bit/s), $BB +- 3 %" \
		"$(awk '{ s += $2 } END { print s }' /tmp/qcap.rows)" \
		$(awk -v w=$BB 'BEGIN { printf "%.0f %.0f", w * 0.97, w * 1.03 }')
}
remeasure 0.030 /tmp/qcap.json qcap

$TC -n dut qdisc del dev d3 root || fail "d3 root away"
# lib.sh's dut_htb with the drawn rates
$TC -n dut qdisc add dev d3 root handle 1: htb default 20 || fail "htb d3"
$TC -n dut class add dev d3 parent 1: classid 1:1 htb rate ${R}bit \
	ceil ${R}bit overhead 4 || fail "htb root class d3"
$TC -n dut class add dev d3 parent 1:1 classid 1:10 htb rate ${E}bit \
	ceil ${E}bit burst 15180 cburst 15180 prio 0 overhead 4 || fail "htb EF class d3"
$TC -n dut class add dev d3 parent 1:1 classid 1:20 htb rate ${B}bit \
	ceil ${B}bit burst 15180 cburst 15180 prio 1 overhead 4 || fail "htb BE class d3"
$TC -n dut qdisc add dev d3 parent 1:10 pfifo limit 50 || fail "pfifo d3 1:10"
$TC -n dut qdisc add dev d3 parent 1:20 pfifo limit 50 || fail "pfifo d3 1:20"
$TC -n dut filter add dev d3 parent 1: protocol ip u32 \
	match ip dsfield 0xb8 0xfc flowid 1:10 || fail "EF filter d3"
# scap EF_SR EF_WANT EF_LP0: the job with the EF class at EF_SR bit/s
scap() {
	d0=$(qdisc_drops d3)
	bm_job scap rfc7640 shaper-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 $LEARN_FAST --param 'class_dscps=[46,0]' \
		--param "class_rates_bps=[$((EFO / 2)),$((BEO / 2))]" --param "queue_sr_bps=[$1,$B]" \
		--param "port_sr_bps=[$R]" --param td_s=4 --param tr=1 \
		--param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap.json || fail "bmctl result"
	tm_queue_rows /tmp/scap.json > /tmp/scap.rows
	note "shaped queues, EF at $1 (queue throughput lp): $(tr '\n' ';' < /tmp/scap.rows)"
	lp_is_drops /tmp/scap.rows "$d0" "shaped queues, EF at $1"
	check_range "EF (bit/s), $2 +- 2 %" "$(col /tmp/scap.rows 1 2)" \
		$(awk -v w="$2" 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
	[ "$3" = lp0 ] && check_eq "EF LP" "$(col /tmp/scap.rows 1 3)" 0
	check_range "BE (bit/s), $B +- 2 %" "$(col /tmp/scap.rows 2 2)" \
		$(awk -v w=$B 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
}
remeasure 0.030 /tmp/scap.json scap $E $E any
$TC -n dut class change dev d3 parent 1:1 classid 1:10 htb rate ${E2}bit \
	ceil ${E2}bit burst 15180 cburst 15180 prio 0 overhead 4 ||
	fail "htb EF class to $E2 bit/s"
remeasure 0.030 /tmp/scap.json scap $E2 $((EFO / 2 * 2)) lp0
