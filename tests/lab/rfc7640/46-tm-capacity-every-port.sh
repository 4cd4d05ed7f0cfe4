# RFC 7640 queue and shaper capacity on every egress port at once
# (TM-QS-CAP-4, TM-SHP-CAP-1, TM-SHP-CAP-3; lab 44 has one egress):
# bmctl -> bmd -> bmgen.ko, t1 and t2 -> a bridge -> t3 and t4, every
# ingress port sending each class to each egress port, 1518 B frames,
# notional 1 Gbit/s ports; every DUT rate counts A = F (overhead 4), the
# accounting `l2`.  The models and windows are lab 44's, per egress; the
# two egresses share nothing in the DUT but the guest's CPUs, which now
# forward twice lab 44's load (28 Mbit/s offered, about 2,300 frames/s).
#
# Part 1, SP + WFQ on both egresses (queue-capacity, QS-CAP-4): d3 and d4
# each = tbf 10 Mbit/s (burst 15,180) over ets bands 3 strict 1 quanta
# 3000 1500 (EF 46 strict, AF11 10 quantum 3000, the rest 1500, pfifo 50
# on the WFQ bands); each ingress port offers EF 1, AF11 3, AF21 3
# Mbit/s to each egress.  Truth per egress: EF 2.0 Mbit/s +- 2 % with LP
# 0, WFQ shares 66.7 / 33.3 % +- 5 % of themselves, the queues together
# 10 Mbit/s +- 3 %.
#
# Part 2, a shaper on every egress, queues not shaped (shaper-capacity,
# SHP-CAP-1): d3 = tbf 10 Mbit/s, d4 = tbf 5 Mbit/s (burst 15,180,
# pfifo 100), each ingress offering 4 Mbit/s to each egress (8 into each):
# d3's shaper is above the offer, d4's below it.  Truth: d3's SR 8.0
# Mbit/s +- 2 % with LP 0 (the control: nothing shaped below its offer),
# d4's SR 5.0 Mbit/s +- 2 % (the tbf's bucket over Td is 0.6 %), and its
# two ingress streams together that SR +- 2 % (how a tail-drop FIFO
# shares between two CBR streams depends on their phases: 2.70 / 2.32
# Mbit/s was seen, so their shares are printed, not checked).
#
# Part 3, the HTB tree of lab 44 on both egresses (shaper-capacity,
# SHP-CAP-3): root 10 Mbit/s, EF rate = ceil 3 (prio 0), BE 5 (prio 1),
# burst 10 frames each, pfifo 50; offered EF 4, BE 6 to each egress (2
# and 3 from each ingress).  Truth per egress: EF 3.0, BE 5.0 Mbit/s, each
# +- 2 %.
#
# Throughput is each flow's delivered rate (bytes over its first to last
# arrival).  In every part, bmgen's LP over all queues of an egress = its
# root qdisc's drops, exactly.  Re-measured when the generator was over
# 30 ms late (the buckets' 24 ms at 5 Mbit/s plus slack, as lab 44).
bm_load
topo_bridge 4
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
dut_ets d3
dut_ets d4
qcap() {
	d3=$(qdisc_drops d3)
	d4=$(qdisc_drops d4)
	bm_job qcap rfc7640 queue-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 $LEARN_FAST --param scheduler=sp_wfq \
		--param 'egress_ports=[3,4]' \
		--param 'class_dscps=[46,10,18]' --param 'class_rates_bps=[1e6,3e6,3e6]' \
		--param 'class_weights=[0,3000,1500]' --param ql=30000 \
		--param bb_bps=10e6 --param bursts=false --param td_s=4 \
		--param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/qcap.json || fail "bmctl result"
	tm_queue_rows /tmp/qcap.json > /tmp/qcap.rows
	note "SP + WFQ (egress:queue throughput lp wfq_share): $(tr '\n' ';' < /tmp/qcap.rows)"
	check_eq "SP + WFQ: queue rows (2 egresses x 3)" "$(wc -l < /tmp/qcap.rows)" 6
	lp_is_drops /tmp/qcap.rows t3 "$d3" "SP + WFQ"
	lp_is_drops /tmp/qcap.rows t4 "$d4" "SP + WFQ"
	for e in t3 t4; do
		check_eq "$e: EF LP" "$(col /tmp/qcap.rows $e:1 3)" 0
		check_range "$e: EF (bit/s), 2.0 Mbit/s +- 2 %" \
			"$(col /tmp/qcap.rows $e:1 2)" 1960000 2040000
		check_range "$e: AF11's WFQ share (%), 66.7 +- 5 %" \
			"$(col /tmp/qcap.rows $e:2 4)" 63.33 70.0
		check_range "$e: AF21's WFQ share (%), 33.3 +- 5 %" \
			"$(col /tmp/qcap.rows $e:3 4)" 31.67 35.0
		check_range "$e: the queues together (bit/s), 10 Mbit/s +- 3 %" \
			"$(awk -v e=$e 'index($1, e ":") == 1 { s += $2 } END { print s }' /tmp/qcap.rows)" \
			9700000 10300000
	done
}
remeasure 0.030 /tmp/qcap.json qcap

# --- part 2: a shaper on every egress, queues not shaped
$TC -n dut qdisc del dev d3 root || fail "d3 root away"
$TC -n dut qdisc del dev d4 root || fail "d4 root away"
$TC -n dut qdisc add dev d3 root handle 1: tbf rate 10mbit burst 15180 \
	limit 1000000 overhead 4 || fail "tbf d3"
$TC -n dut qdisc add dev d4 root handle 1: tbf rate 5mbit burst 15180 \
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
		--param 'class_dscps=[0]' --param 'class_rates_bps=[4e6]' \
		--param 'port_sr_bps=[10e6,5e6]' --param td_s=4 --param tr=1 \
		--param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap1.json || fail "bmctl result"
	tm_queue_rows /tmp/scap1.json > /tmp/scap1.rows
	note "shaper per egress (egress:queue throughput lp): $(tr '\n' ';' < /tmp/scap1.rows); SR t3 $(egress /tmp/scap1.json t3 sr_bps), t4 $(egress /tmp/scap1.json t4 sr_bps)"
	lp_is_drops /tmp/scap1.rows t3 "$d3" "shaper per egress"
	lp_is_drops /tmp/scap1.rows t4 "$d4" "shaper per egress"
	check_eq "t3 (10 Mbit/s, offered 8): LP" "$(col /tmp/scap1.rows t3:1 3)" 0
	check_range "t3: SR (bit/s), its offer 8.0 Mbit/s +- 2 %" \
		"$(egress /tmp/scap1.json t3 sr_bps)" 7840000 8160000
	check_range "t4: SR (bit/s), its shaper's 5.0 Mbit/s +- 2 %" \
		"$(egress /tmp/scap1.json t4 sr_bps)" 4900000 5100000
	streams /tmp/scap1.json t4 > /tmp/scap1.t4
	note "t4: per ingress stream (bit/s): $(tr '\n' ';' < /tmp/scap1.t4)"
	check_eq "t4: ingress streams" "$(wc -l < /tmp/scap1.t4)" 2
	check_range "t4: both ingress streams together / SR" \
		"$(awk -v sr="$(egress /tmp/scap1.json t4 sr_bps)" '{ s += $2 } END { printf "%.4f", s / sr }' /tmp/scap1.t4)" \
		0.98 1.02
}
remeasure 0.030 /tmp/scap1.json scap1

# --- part 3: lab 44's HTB tree on both egresses
for d in d3 d4; do
	$TC -n dut qdisc del dev $d root || fail "$d root away"
	dut_htb $d
done
scap3() {
	d3=$(qdisc_drops d3)
	d4=$(qdisc_drops d4)
	bm_job scap3 rfc7640 shaper-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 $LEARN_FAST --param 'egress_ports=[3,4]' \
		--param 'class_dscps=[46,0]' --param 'class_rates_bps=[2e6,3e6]' \
		--param 'queue_sr_bps=[3e6,5e6]' --param 'port_sr_bps=[10e6]' \
		--param td_s=4 --param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap3.json || fail "bmctl result"
	tm_queue_rows /tmp/scap3.json > /tmp/scap3.rows
	note "shaped queues on both egresses (egress:queue throughput lp): $(tr '\n' ';' < /tmp/scap3.rows)"
	check_eq "the report's test" "$(jvals ref /tmp/scap3.json | head -n1)" '"TM-SHP-CAP-3"'
	for e in t3 t4; do
		lp_is_drops /tmp/scap3.rows $e "$(eval echo \$d${e#t})" "shaped queues"
		check_range "$e: EF (bit/s), 3.0 Mbit/s +- 2 %" \
			"$(col /tmp/scap3.rows $e:1 2)" 2940000 3060000
		check_range "$e: BE (bit/s), 5.0 Mbit/s +- 2 %" \
			"$(col /tmp/scap3.rows $e:2 2)" 4900000 5100000
	done
}
remeasure 0.030 /tmp/scap3.json scap3
