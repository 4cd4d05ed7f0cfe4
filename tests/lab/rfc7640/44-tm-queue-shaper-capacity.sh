# RFC 7640 queue and shaper capacity (TM-QS-CAP-2, TM-SHP-CAP-2, SPEC
# acceptance shapes at a tenth of the rate): bmctl -> bmd -> bmgen.ko,
# t1 and t2 -> a bridge -> t3, 1518 B frames, notional 1 Gbit/s ports;
# every DUT rate counts A = F (overhead 4), the accounting `l2`.
#
# Part 1, SP + WFQ on one egress (queue-capacity, DUT-ETS): d3 = tbf 10
# Mbit/s (burst 15,180) over ets bands 3 strict 1 quanta 3000 1500, EF
# (DSCP 46) to the strict band, AF11 (10) to quantum 3000, the rest
# (AF21, 18) to 1500, pfifo 50 on each WFQ band.  Each ingress port
# offers EF 1, AF11 3, AF21 3 Mbit/s.  Truth: EF is served first, 2.0
# Mbit/s with LP 0; the 8 Mbit/s left are shared by deficit round robin
# in proportion to the quanta, AF11 2/3 (5.33) and AF21 1/3 (2.67), both
# backlogged all along (offered 6 each).  Windows: EF 2.0 +- 2 %; the WFQ
# shares 66.7 / 33.3 % +- 5 % of themselves (SPEC TM-QS-CAP-4's, the
# phases of the streams against the quanta); the queues together 10
# Mbit/s +- 3 % (the tbf's bucket, 15,180 B over Td, is 0.3 %).
#
# Part 2, all queues shaped on one egress (shaper-capacity, an HTB tree):
# d3 = htb root 10 Mbit/s, class EF rate = ceil 3 Mbit/s prio 0, class
# BE rate = ceil 5 Mbit/s prio 1, pfifo 50 each, every class with a
# burst of 10 frames: with tc's default (about 1.5 frames) a timer the
# TCG guest fires late loses service for good, BE read 4.86 Mbit/s; the
# bucket's one burst adds 15,180 B over Td, 0.6 % of BE's rate.  Offered EF 4, BE 6
# (2 and 3 from each ingress): EF 3.0, BE 5.0 Mbit/s, each +- 2 % (SPEC).
# Then the EF class raised to 7 Mbit/s: EF gets what it offers, 4.0 with
# LP 0, BE still 5.0 (90 of 100 % of the root).
#
# Throughput is each flow's delivered rate (bytes over its first to last
# arrival), so a queue's backlog after Td does not count.  In every
# part, bmgen's LP over all queues = the root qdisc's drops (it counts
# its children's), exactly.
bm_load
topo_bridge 3
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

dut_ets d3
qcap() {
	d0=$(qdisc_drops d3)
	bm_job qcap rfc7640 queue-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 $LEARN_FAST --param scheduler=sp_wfq \
		--param 'class_dscps=[46,10,18]' --param 'class_rates_bps=[1e6,3e6,3e6]' \
		--param 'class_weights=[0,3000,1500]' --param ql=30000 \
		--param bb_bps=10e6 --param bursts=false --param td_s=4 \
		--param tr=1 --param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/qcap.json || fail "bmctl result"
	tm_queue_rows /tmp/qcap.json > /tmp/qcap.rows
	note "SP + WFQ (queue throughput lp wfq_share): $(tr '\n' ';' < /tmp/qcap.rows)"
	lp_is_drops /tmp/qcap.rows "$d0" "SP + WFQ"
	check_eq "EF LP" "$(col /tmp/qcap.rows 1 3)" 0
	check_range "EF (bit/s), 2.0 Mbit/s +- 2 %" "$(col /tmp/qcap.rows 1 2)" \
		1960000 2040000
	check_range "AF11's WFQ share (%), 66.7 +- 5 %" "$(col /tmp/qcap.rows 2 4)" \
		63.33 70.0
	check_range "AF21's WFQ share (%), 33.3 +- 5 %" "$(col /tmp/qcap.rows 3 4)" \
		31.67 35.0
	check_range "the queues together (bit/s), 10 Mbit/s +- 3 %" \
		"$(awk '{ s += $2 } END { print s }' /tmp/qcap.rows)" 9700000 10300000
}
remeasure 0.030 /tmp/qcap.json qcap

$TC -n dut qdisc del dev d3 root || fail "d3 root away"
dut_htb d3
# scap EF_SR EF_WANT EF_LP0: the job with the EF class at EF_SR bit/s
scap() {
	d0=$(qdisc_drops d3)
	bm_job scap rfc7640 shaper-capacity --line-rate 1G --port t1 --port t2 \
		--port t3 $LEARN_FAST --param 'class_dscps=[46,0]' \
		--param 'class_rates_bps=[2e6,3e6]' --param "queue_sr_bps=[$1,5e6]" \
		--param 'port_sr_bps=[10e6]' --param td_s=4 --param tr=1 \
		--param drain_s=0.5
	$BMCTL -j result "$job" > /tmp/scap.json || fail "bmctl result"
	tm_queue_rows /tmp/scap.json > /tmp/scap.rows
	note "shaped queues, EF at $1 (queue throughput lp): $(tr '\n' ';' < /tmp/scap.rows)"
	lp_is_drops /tmp/scap.rows "$d0" "shaped queues, EF at $1"
	check_range "EF (bit/s), $2 +- 2 %" "$(col /tmp/scap.rows 1 2)" \
		$(awk -v w="$2" 'BEGIN { print w * 0.98, w * 1.02 }')
	[ "$3" = lp0 ] && check_eq "EF LP" "$(col /tmp/scap.rows 1 3)" 0
	check_range "BE (bit/s), 5.0 Mbit/s +- 2 %" "$(col /tmp/scap.rows 2 2)" \
		4900000 5100000
}
remeasure 0.030 /tmp/scap.json scap 3e6 3000000 any
$TC -n dut class change dev d3 parent 1:1 classid 1:10 htb rate 7mbit \
	ceil 7mbit burst 15180 cburst 15180 prio 0 overhead 4 ||
	fail "htb EF class to 7 Mbit/s"
remeasure 0.030 /tmp/scap.json scap 7e6 4000000 lp0
