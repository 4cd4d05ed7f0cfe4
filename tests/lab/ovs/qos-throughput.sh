# R2544-THRPT end to end (bmctl -> bmd -> bmgen.ko) through Open vSwitch,
# the bottleneck one of OVS's QoS queues: br0's flow from d1 is
# "set_queue:1,output:d2", and d2 has QoS type linux-htb with queue 1 of
# min-rate = max-rate = Y bit/s, drawn on every run (lab_draw, seed
# printed) from 2 to 3.6 Mbit/s (the QoS's own max-rate 10 Mbit/s).
#
# What OVS configures (printed): an htb root 1: on d2, its class 1:fffe
# at the QoS's max-rate, and queue k as class 1:(k+1) with rate = ceil =
# Y, burst = cburst 1563 bytes, no overhead, and the default pfifo under
# it, whose limit is d2's txqueuelen when OVS makes it (set to 16 frames
# before, here).  htb charges skb->len = F - 4 bytes at egress, so it
# forwards C = Y / 8 / (F - 4) fps.  As in rfc2544/throughput, a trial of
# d seconds loses nothing iff r <= C + (Q + b/A)/d, so with d = 3 s and a
# 1 % resolution the result lies within C - 1 % .. C + 6.4 fps (+1.3 %
# at the lowest Y); the check is the 2 % R2544-THRPT asks.  Every frame
# a trial lost is one the htb dropped (its root counts its classes'),
# exactly, and one the OpenFlow port counters miss: d1's rx less d2's tx.
bm_load
topo_ovs 2
$IP -n dut link set d2 txqueuelen 16 || fail "txqueuelen d2"
Y=$(lab_draw ovs_queue_kbit 2000 3600 50)
ovs_htb_queue d2 $Y
ovs-ofctl add-flow br0 "in_port=d1,actions=set_queue:1,output:d2" || fail "flow d1"
ovs-ofctl add-flow br0 "in_port=d2,actions=output:d1" || fail "flow d2"
$TC -n dut qdisc show dev d2 | sed 's/^/note: d2: /'
note "seed $LAB_SEED: queue 1 min-rate = max-rate $Y kbit/s: C = $(awk -v y=$Y 'BEGIN { printf "%.2f", y * 1000 / 8 / 508 }') fps at 512 B"
ovs_bmd_start

measure() {
	drops0=$(qdisc_drops d2)
	rx0=$(ovs_port_pkts d1 rx)
	tx0=$(ovs_port_pkts d2 tx)
	ovs_job thr rfc2544 throughput --port t1 --port t2 --line-rate 10M $R2544_FAST \
		--frame-sizes 512 \
		--param trial_duration_s=3 --param search_trial_duration_s=3 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=1 --param r_min_pct=5
	$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
	sed -n '/^  "trials"/,/^  "results"/p' /tmp/thr.json > /tmp/thr.trials
	lost=$(jvals lost /tmp/thr.trials | awk '{ s += $1 } END { print s + 0 }')
	gl=$(jvals generator_limited /tmp/thr.trials | grep -c true)
	note "trials: $(jvals lost /tmp/thr.trials | wc -l), generator_limited $gl"
	drops=$(($(qdisc_drops d2) - drops0))
	ofdrop=$(( ($(ovs_port_pkts d1 rx) - rx0) - ($(ovs_port_pkts d2 tx) - tx0) ))
	note "lost $lost; htb dropped $drops; d1 rx - d2 tx $ofdrop"
	check_eq "frames lost over all trials = htb drops" "$lost" "$drops"
	check_eq "OpenFlow port counters: d1 rx - d2 tx = htb drops" "$ofdrop" "$drops"
	g=$(jvals throughput_fps /tmp/thr.json)
	truth=$(awk -v y=$Y 'BEGIN { printf "%.2f", y * 1000 / 8 / 508 }')
	note "512 B: throughput $g fps, truth $truth fps ($(awk -v g=$g -v t=$truth 'BEGIN { printf "%+.2f", (g / t - 1) * 100 }') %)"
	check_range "512 B throughput (fps)" "$g" \
		"$(awk -v t=$truth 'BEGIN { printf "%.2f", t * 0.98 }')" \
		"$(awk -v t=$truth 'BEGIN { printf "%.2f", t * 1.02 }')"
}
# the queue absorbs 16 frames at Y (what a late generator may send back
# to back without a loss the model leaves out)
remeasure "$(awk -v y=$Y 'BEGIN { printf "%.4f", 16 * 508 * 8 / (y * 1000) }')" \
	/tmp/thr.json measure
