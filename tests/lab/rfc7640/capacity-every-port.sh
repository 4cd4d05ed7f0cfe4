# RFC 7640 queue and shaper capacity on every egress port at once
# (TM-QS-CAP-4, TM-SHP-CAP-1, TM-SHP-CAP-3; rfc7640/queue-shaper-capacity
# has one egress): bmctl -> bmd -> bmgen.ko, t1 and t2 -> a bridge -> t3 and
# t4, every ingress port sending each class to each egress port, 1518 B
# frames, notional 1 Gbit/s ports; every DUT rate counts A = F (overhead 4),
# the accounting `l2`.  The models and windows are
# rfc7640/queue-shaper-capacity's, per egress; the two egresses share
# nothing in the DUT but the guest's CPUs, which now forward twice
# rfc7640/queue-shaper-capacity's load (28 Mbit/s offered, about 2,300
# frames/s).  The DUT's rates and quanta are drawn on every run (lib.sh
# lab_draw, seed printed); each range follows the fixed value the test had
# until 2026-12-03, which the figures in the text are.
#
# Part 1, SP + WFQ on both egresses (queue-capacity, QS-CAP-4): d3 and d4
# each = tbf BB_k = 10 Mbit/s (6..10 each, step 0.5; burst 15,180) over
# ets bands 3 strict 1 quanta q1 = 3000 (3000..6000 step 500) q2 = 1500
# (1500..3000 step 500), the same on both (the procedure reports one list
# of weights) (EF 46 strict, AF11 10 quantum q1, the rest q2, pfifo 50
# on the WFQ bands); each ingress port offers EF e = 1 (5..15 % of the
# smaller BB_k), AF11 and AF21 a = 3 Mbit/s each (45 % of what EF leaves
# of the larger BB_k: each WFQ class is offered at least 1.125 times its
# largest share, 80 %, at either egress) to each egress.  Truth per
# egress: EF 2e = 2.0 Mbit/s +- 2 % with LP 0, WFQ shares q1 / (q1 + q2)
# = 66.7 and q2 / (q1 + q2) = 33.3 % +- 5 % of themselves, the queues
# together BB_k = 10 Mbit/s +- 3 %.
#
# Part 2, a shaper on every egress, queues not shaped (shaper-capacity,
# SHP-CAP-1): d3 = tbf 10 Mbit/s (125..150 % of the offer into it, step
# 5), d4 = tbf 5 Mbit/s (60..75 % of the offer, step 2.5; 3.6..6
# Mbit/s) (burst 15,180, pfifo 100), each ingress offering o = 4 Mbit/s
# (3..4, step 0.25) to each egress (2o = 8 into each):
# d3's shaper is above the offer, d4's below it.  Truth: d3's SR 2o = 8.0
# Mbit/s +- 2 % with LP 0 (the control: nothing shaped below its offer),
# d4's SR = its rate, 5.0 Mbit/s +- 2 % (the tbf's bucket over Td is 0.6
# %, 0.84 % at 3.6 Mbit/s), and its
# two ingress streams together that SR +- 2 % (how a tail-drop FIFO
# shares between two CBR streams depends on their phases: 2.70 / 2.32
# Mbit/s was seen, so their shares are printed, not checked).
#
# Part 3, the HTB tree of rfc7640/queue-shaper-capacity on both egresses
# (shaper-capacity, SHP-CAP-3): root R = 10 Mbit/s (8..10, step 0.5), EF rate
# = ceil E = 3 (20..30 % of R, step 2.5) (prio 0), BE B = 5 (40..50 % of R)
# (prio 1), the same tree on both (the procedure takes one list of queue
# rates), burst 10 frames each, pfifo 50; offered EF 4/3 E = 4, BE 1.2 B = 6
# to each egress (half from each ingress).  Truth per egress: EF E = 3.0, BE
# B = 5.0 Mbit/s, each +- 2 %.
#
# Throughput is each flow's delivered rate, timed from its egress's first
# arrival to its own last (as rfc7640/queue-shaper-capacity).  In every
# part, bmgen's LP over all queues of an egress = its root qdisc's drops,
# exactly.  Re-measured when the generator was over 30 ms late (the
# buckets' 24 ms at 5 Mbit/s plus slack, as rfc7640/queue-shaper-capacity).
bm_load
topo_bridge 4
# The DUT of this run (rates in bit/s)
BB3=$(( $(lab_draw ce_bb3_kbps 6000 10000 500) * 1000 ))
BB4=$(( $(lab_draw ce_bb4_kbps 6000 10000 500) * 1000 ))
Q1=$(lab_draw ce_quantum1 3000 6000 500)
Q2=$(lab_draw ce_quantum2 1500 3000 500)
BBLO=$BB3 BBHI=$BB4
[ $BB3 -le $BB4 ] || { BBLO=$BB4; BBHI=$BB3; }
EFI=$(( $(lab_draw ce_ef_pct 5 15) * BBLO / 100 ))
AFI=$(( (BBHI - 2 * EFI) * 45 / 100 ))
S1=$(awk -v a=$Q1 -v b=$Q2 'BEGIN { printf "%.2f", 100 * a / (a + b) }')
S2=$(awk -v a=$Q1 -v b=$Q2 'BEGIN { printf "%.2f", 100 * b / (a + b) }')
OFF=$(( $(lab_draw ce_offer_kbps 3000 4000 250) * 1000 ))
SR3=$(( $(lab_draw ce_sr3_pct 125 150 5) * 2 * OFF / 100 ))
SR4=$(( $(lab_draw ce_sr4_pmil 600 750 25) * 2 * OFF / 1000 ))
R=$(( $(lab_draw ce_root_kbps 8000 10000 500) * 1000 ))
E=$(( $(lab_draw ce_ef_pmil 200 300 25) * R / 1000 ))
B=$(( $(lab_draw ce_be_pmil 400 500 25) * R / 1000 ))
EFO=$((E * 4 / 3 / 2 * 2)) BEO=$((B * 12 / 10 / 2 * 2))
note "seed $LAB_SEED: part 1: tbf d3 $BB3, d4 $BB4, quanta $Q1 / $Q2 (shares $S1 / $S2 %), each ingress to each egress EF $EFI, AF11 and AF21 $AFI; part 2: offer $OFF from each ingress, tbf d3 $SR3, d4 $SR4; part 3: HTB root $R, EF $E (offered $EFO), BE $B (offered $BEO) (bit/s)"
bmd_start

# col FILE KEY N: column N of the row KEY (egress:queue)
col() {
	awk -v q="$2" -v n="$3" '$1 == q { print $n }' "$1"
}
# lp_is_drops FILE EGRESS D0 WHAT: LP over EGRESS's queues = the root's
# drops on its DUT port since D0
lp_is_drops() {
	check_eq "$4: $2's LP over its queues = the root qdisc's drops" \
		"$(awk -v e="$2" 'index($1, e ":") == 1 { s += $3 } END { print s + 0 }' "$1")" \
		$(($(qdisc_drops d${2#t}) - $3))
}

# --- part 1: SP + WFQ on d3 and d4
# lib.sh's dut_ets with the drawn rates and quanta
for d in d3 d4; do
	eval bb=\$BB${d#d}
	$TC -n dut qdisc add dev $d root handle 1: tbf rate ${bb}bit burst 15180 \
		limit 1000000 overhead 4 || fail "tbf $d"
	$TC -n dut qdisc add dev $d parent 1:1 handle 10: ets bands 3 strict 1 \
		quanta $Q1 $Q2 priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 || fail "ets $d"
	$TC -n dut filter add dev $d parent 10: protocol ip u32 \
		match ip dsfield 0xb8 0xfc flowid 10:1 || fail "EF filter $d"
	$TC -n dut filter add dev $d parent 10: protocol ip u32 \
		match ip dsfield 0x28 0xfc flowid 10:2 || fail "AF11 filter $d"
	$TC -n dut qdisc add dev $d parent 10:2 pfifo limit 50 || fail "pfifo $d 10:2"
	$TC -n dut qdisc add dev $d parent 10:3 pfifo limit 50 || fail "pfifo $d 10:3"
done
qcap() {
	d3=$(qdisc_drops d3)
	d4=$(qdisc_drops d4)
	bm_job qcap rfc7640 queue-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 $LEARN_FAST --param scheduler=sp_wfq \
		--param 'egress_ports=[3,4]' \
		--param 'class_dscps=[46,10,18]' --param "class_rates_bps=[$EFI,$AFI,$AFI]" \
		--param "class_weights=[0,$Q1,$Q2]" --param ql=30000 \
		--param bb_bps=$BBHI --param bursts=false --param td_s=4 \
		--param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/qcap.json || fail "bmctl result"
	tm_queue_rows /tmp/qcap.json > /tmp/qcap.rows
	note "SP + WFQ (egress:queue throughput lp wfq_share): $(tr '\n' ';' < /tmp/qcap.rows)"
	check_eq "SP + WFQ: queue rows (2 egresses x 3)" "$(wc -l < /tmp/qcap.rows)" 6
	lp_is_drops /tmp/qcap.rows t3 "$d3" "SP + WFQ"
	lp_is_drops /tmp/qcap.rows t4 "$d4" "SP + WFQ"
	for e in t3 t4; do
		eval bb=\$BB${e#t}
		check_eq "$e: EF LP" "$(col /tmp/qcap.rows $e:1 3)" 0
		check_range "$e: EF (bit/s), $((2 * EFI)) +- 2 %" \
			"$(col /tmp/qcap.rows $e:1 2)" \
			$(awk -v w=$((2 * EFI)) 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
		# the bands' 50 frames each drained after Td
		# (rfc7640/queue-shaper-capacity)
		dr=$(awk -v r=$((bb - 2 * EFI)) 'BEGIN { printf "%.2f", 100 * 50 * 1518 * 8 / (r * 4) }')
		check_range "$e: AF11's WFQ share (%), $S1 +- 5 % - $dr" \
			"$(col /tmp/qcap.rows $e:2 4)" \
			$(awk -v s=$S1 -v d=$dr 'BEGIN { printf "%.2f %.2f", s * 0.95 - d, s * 1.05 }')
		check_range "$e: AF21's WFQ share (%), $S2 +- 5 % + $dr" \
			"$(col /tmp/qcap.rows $e:3 4)" \
			$(awk -v s=$S2 -v d=$dr 'BEGIN { printf "%.2f %.2f", s * 0.95, s * 1.05 + d }')
		check_range "$e: the queues together (bit/s), $bb +- 3 %" \
			"$(awk -v e=$e 'index($1, e ":") == 1 { s += $2 } END { print s }' /tmp/qcap.rows)" \
			$(awk -v w=$bb 'BEGIN { printf "%.0f %.0f", w * 0.97, w * 1.03 }')
	done
}
remeasure 0.030 /tmp/qcap.json qcap

# --- part 2: a shaper on every egress, queues not shaped
$TC -n dut qdisc del dev d3 root || fail "d3 root away"
$TC -n dut qdisc del dev d4 root || fail "d4 root away"
$TC -n dut qdisc add dev d3 root handle 1: tbf rate ${SR3}bit burst 15180 \
	limit 1000000 overhead 4 || fail "tbf d3"
$TC -n dut qdisc add dev d4 root handle 1: tbf rate ${SR4}bit burst 15180 \
	limit 1000000 overhead 4 || fail "tbf d4"
for d in d3 d4; do
	$TC -n dut qdisc add dev $d parent 1:1 pfifo limit 100 || fail "pfifo $d"
done
# streams FILE EGRESS: "ingress throughput_bps" per stream row into EGRESS
streams() {
	sed -n '/^    "streams": \[/,/^    \]/p' "$1" | tr -d '",' | awk -v e="$2" '
		$1 == "egress:" { on = ($2 == e) }
		on && $1 == "ingress:" { i = $2 }
		on && $1 == "throughput_bps:" { print i, $2 }'
}
# egress FILE EGRESS KEY: KEY of the egress's row in "egresses"
egress() {
	sed -n '/^    "egresses": \[/,/^    \]/p' "$1" | tr -d '",' | awk -v e="$2" -v k="$3:" '
		$1 == "egress:" { on = ($2 == e) }
		on && $1 == k { print $2; exit }'
}
scap1() {
	d3=$(qdisc_drops d3)
	d4=$(qdisc_drops d4)
	bm_job scap1 rfc7640 shaper-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 $LEARN_FAST --param 'egress_ports=[3,4]' \
		--param 'class_dscps=[0]' --param "class_rates_bps=[$OFF]" \
		--param "port_sr_bps=[$SR3,$SR4]" --param td_s=4 --param tr=1 \
		--param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap1.json || fail "bmctl result"
	tm_queue_rows /tmp/scap1.json > /tmp/scap1.rows
	note "shaper per egress (egress:queue throughput lp): $(tr '\n' ';' < /tmp/scap1.rows); SR t3 $(egress /tmp/scap1.json t3 sr_bps), t4 $(egress /tmp/scap1.json t4 sr_bps)"
	lp_is_drops /tmp/scap1.rows t3 "$d3" "shaper per egress"
	lp_is_drops /tmp/scap1.rows t4 "$d4" "shaper per egress"
	check_eq "t3 ($SR3 bit/s, offered $((2 * OFF))): LP" "$(col /tmp/scap1.rows t3:1 3)" 0
	check_range "t3: SR (bit/s), its offer $((2 * OFF)) +- 2 %" \
		"$(egress /tmp/scap1.json t3 sr_bps)" \
		$(awk -v w=$((2 * OFF)) 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
	check_range "t4: SR (bit/s), its shaper's $SR4 +- 2 %" \
		"$(egress /tmp/scap1.json t4 sr_bps)" \
		$(awk -v w=$SR4 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
	streams /tmp/scap1.json t4 > /tmp/scap1.t4
	note "t4: per ingress stream (bit/s): $(tr '\n' ';' < /tmp/scap1.t4)"
	check_eq "t4: ingress streams" "$(wc -l < /tmp/scap1.t4)" 2
	check_range "t4: both ingress streams together / SR" \
		"$(awk -v sr="$(egress /tmp/scap1.json t4 sr_bps)" '{ s += $2 } END { printf "%.4f", s / sr }' /tmp/scap1.t4)" \
		0.98 1.02
}
remeasure 0.030 /tmp/scap1.json scap1

# --- part 3: rfc7640/queue-shaper-capacity's HTB tree on both egresses
for d in d3 d4; do
	$TC -n dut qdisc del dev $d root || fail "$d root away"
	# lib.sh's dut_htb with the drawn rates
	$TC -n dut qdisc add dev $d root handle 1: htb default 20 || fail "htb $d"
	$TC -n dut class add dev $d parent 1: classid 1:1 htb rate ${R}bit \
		ceil ${R}bit overhead 4 || fail "htb root class $d"
	$TC -n dut class add dev $d parent 1:1 classid 1:10 htb rate ${E}bit \
		ceil ${E}bit burst 15180 cburst 15180 prio 0 overhead 4 || fail "htb EF class $d"
	$TC -n dut class add dev $d parent 1:1 classid 1:20 htb rate ${B}bit \
		ceil ${B}bit burst 15180 cburst 15180 prio 1 overhead 4 || fail "htb BE class $d"
	$TC -n dut qdisc add dev $d parent 1:10 pfifo limit 50 || fail "pfifo $d 1:10"
	$TC -n dut qdisc add dev $d parent 1:20 pfifo limit 50 || fail "pfifo $d 1:20"
	$TC -n dut filter add dev $d parent 1: protocol ip u32 \
		match ip dsfield 0xb8 0xfc flowid 1:10 || fail "EF filter $d"
done
scap3() {
	d3=$(qdisc_drops d3)
	d4=$(qdisc_drops d4)
	bm_job scap3 rfc7640 shaper-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 $LEARN_FAST --param 'egress_ports=[3,4]' \
		--param 'class_dscps=[46,0]' --param "class_rates_bps=[$((EFO / 2)),$((BEO / 2))]" \
		--param "queue_sr_bps=[$E,$B]" --param "port_sr_bps=[$R]" \
		--param td_s=4 --param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap3.json || fail "bmctl result"
	tm_queue_rows /tmp/scap3.json > /tmp/scap3.rows
	note "shaped queues on both egresses (egress:queue throughput lp): $(tr '\n' ';' < /tmp/scap3.rows)"
	check_eq "the report's test" "$(jvals ref /tmp/scap3.json | head -n1)" '"TM-SHP-CAP-3"'
	for e in t3 t4; do
		lp_is_drops /tmp/scap3.rows $e "$(eval echo \$d${e#t})" "shaped queues"
		check_range "$e: EF (bit/s), $E +- 2 %" \
			"$(col /tmp/scap3.rows $e:1 2)" \
			$(awk -v w=$E 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
		check_range "$e: BE (bit/s), $B +- 2 %" \
			"$(col /tmp/scap3.rows $e:2 2)" \
			$(awk -v w=$B 'BEGIN { printf "%.0f %.0f", w * 0.98, w * 1.02 }')
	done
}
remeasure 0.030 /tmp/scap3.json scap3
