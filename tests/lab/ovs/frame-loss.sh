# R2544-FLR end to end (bmctl -> bmd -> bmgen.ko) through Open vSwitch:
# t1 -> d1 -> br0 -> d2 -> t2, br0 an OVS bridge (kernel datapath) with two
# OpenFlow flows crossing d1 and d2, and OVS's own ingress policing on d1
# the bottleneck: ingress_policing_rate R kbps drawn on every run (lib.sh
# lab_draw: the seed is printed) from 2000 to 6000, and
# ingress_policing_burst of 90 to 140 ms of it, on a notional 10 Mbit/s
# line at 512 B (20 to 60 % of it).
#
# What OVS configures (lib.sh ovs_police): a tc police on d1's ingress of
# rate R x 1000 bit/s and burst b = BURST_KB x 128 bytes, charging each
# frame A = F - 18 bytes (skb->len at ingress: no Ethernet header, no FCS).
# No queue: a frame without tokens is dropped.  Over a trial's span t (the
# generator's own account, actual_duration_s) the policer passes
# floor((b + R/8 t) / A) frames; the rest is the truth of the loss, with
# rfc2544/frame-loss's tolerance (2 frames under, 1 % or 8 frames over: a
# TCG guest held up longer than the bucket's 90 ms loses tokens).  Steps
# 100, 90, ... % of the line until two successive zero-loss trials; a draw
# that puts a step within a few frames of zero loss is drawn again.
#
# The accounting is exact whatever the timing: every frame bmgen calls
# lost over all trials is one that OVS's policer dropped (its ingress
# qdisc's drop count), the guest's receive backlog dropped (lib.sh
# backlog_drops), or the datapath lost on its way to ovs-vswitchd
# (ovs-dpctl show's "lost"; 0 here); "missed" there counts the flow-table
# misses, each of which ovs-vswitchd forwards, not a loss.  OVS's OpenFlow
# port counters say the same: what d1 received and d2 did not send (the
# learning frames from t1 cross both) is the policer's drops; the
# interface's rx_dropped does not count them (lib.sh ovs_police).
bm_load
topo_ovs 2
ovs_cross d1 d2
try=0
while :; do
	try=$((try + 1))
	[ $try -le 50 ] || fail "no DUT with clear steps in 50 draws (seed $LAB_SEED)"
	R=$(lab_draw ovs_rate_kbps.$try 2000 6000 50)
	B_MS=$(lab_draw ovs_burst_ms.$try 90 140)
	KB=$((R * B_MS / 1024))
	B=$((KB * 128))
	ROWS=$(awk -v r=$R -v b=$B '
	BEGIN {
		f = 512; a = f - 18; xmax = 10e6 / 8 / (f + 20); zeros = 0
		for (p = 100; p >= 10 && zeros < 2; p -= 10) {
			rows++; x = xmax * p / 100; n = int(x + 0.5)
			fwd = int((b + r * 1000 / 8 * (n - 1) / x) / a)
			l = n - fwd; tol = n / 100 > 8 ? n / 100 : 8
			if (l > 0 && l < 3) { print 0; exit }
			if (l <= 0 && l > -(tol + 4)) { print 0; exit }
			zeros = l > 0 ? 0 : zeros + 1
		}
		print zeros == 2 ? rows : 0
	}')
	[ "$ROWS" -gt 0 ] && break
done
note "seed $LAB_SEED, draw $try: ingress_policing_rate $R kbps, ingress_policing_burst $KB kb ($B bytes, $B_MS ms): $ROWS steps"
ovs_police d1 $R $KB
$TC -n dut -s filter show dev d1 ingress | sed 's/^/note: d1 ingress: /'
ovs_bmd_start

p0=$(ovs_police_drops d1)
k0=$(backlog_drops)
l0=$(ovs_dp_lost)
s0=$(ovs-vsctl get interface d1 statistics)
rx0=$(ovs_port_pkts d1 rx)
tx0=$(ovs_port_pkts d2 tx)
ovs_job flr rfc2544 frame-loss --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 512 --param trial_duration_s=1 --param drain_s=0.3
police=$(($(ovs_police_drops d1) - p0))
backlog=$(($(backlog_drops) - k0))
dplost=$(($(ovs_dp_lost) - l0))
ofdrop=$(( ($(ovs_port_pkts d1 rx) - rx0) - ($(ovs_port_pkts d2 tx) - tx0) ))
note "d1 statistics before: $s0"
note "d1 statistics after: $(ovs-vsctl get interface d1 statistics)"
$IP netns exec dut ovs-dpctl show -s | sed 's/^/note: dpctl: /'
ovs-ofctl dump-ports br0 | sed 's/^/note: dump-ports: /'
$TC -n dut -s filter show dev d1 ingress | sed 's/^/note: d1 ingress: /'

$BMCTL -j result "$job" > /tmp/flr.json || fail "bmctl result --json"
sed -n '/^  "results"/,$p' /tmp/flr.json > /tmp/flr.res
jvals stop /tmp/flr.res > /tmp/flr.stop
jvals rate_pct /tmp/flr.res > /tmp/flr.pct
jvals rate_fps /tmp/flr.res > /tmp/flr.fps
jvals tx /tmp/flr.res > /tmp/flr.tx
jvals rx /tmp/flr.res > /tmp/flr.rx
jvals loss_pct /tmp/flr.res > /tmp/flr.loss
sed -n '/^  "trials"/,/^  "results"/p' /tmp/flr.json > /tmp/flr.trials
jvals actual_duration_s /tmp/flr.trials > /tmp/flr.span

total=$(paste -d' ' /tmp/flr.tx /tmp/flr.rx | awk '{ s += $1 - $2 } END { print s }')
note "lost $total: OVS's policer dropped $police, the receive backlog $backlog, the datapath lost $dplost"
check_eq "frames lost over all trials = policer drops + backlog drops + datapath lost" \
	"$total" $((police + backlog + dplost))
check_eq "datapath upcalls lost" "$dplost" 0
check_eq "OpenFlow port counters: d1 rx - d2 tx = policer drops" "$ofdrop" "$police"
check_eq "rows ($ROWS)" "$(wc -l < /tmp/flr.pct)" "$ROWS"
check_eq "trials, one span each" "$(wc -l < /tmp/flr.span)" "$ROWS"
check_eq "stop rule" "$(sort -u /tmp/flr.stop)" '"two successive zero-loss trials"'
for step in $(seq 1 $ROWS); do
	pct=$(sed -n ${step}p /tmp/flr.pct | awk '{ printf "%d", $1 + 0.5 }')
	x=$(sed -n ${step}p /tmp/flr.fps)
	tx=$(sed -n ${step}p /tmp/flr.tx)
	rx=$(sed -n ${step}p /tmp/flr.rx)
	loss=$(sed -n ${step}p /tmp/flr.loss)
	span=$(sed -n ${step}p /tmp/flr.span)
	check_eq "step $step rate (% of max)" "$pct" $((110 - step * 10))
	awk -v f=512 -v x=$x -v n=$tx -v rx=$rx -v l=$loss -v p=$pct -v t=$span \
		-v r=$R -v b=$B '
	BEGIN {
		a = f - 18
		fwd = int((b + r * 1000 / 8 * t) / a)
		if (fwd > n) fwd = n
		want = (n - fwd) * 100 / n
		printf "note: %d B at %d %%: tx %d rx %d loss %.3f %%, truth %.3f %% (%d frames); %+d frames; span %.4f s\n",
			f, p, n, rx, l, want, n - fwd, fwd - rx, t
		if (fwd == n)
			print 0, 0
		else
			printf "%.6f %.6f\n", (n - fwd - 2.5) * 100 / n,
				(n - fwd + 0.5 + (n / 100 > 8 ? n / 100 : 8)) * 100 / n
	}' > /tmp/flr.want
	head -n1 /tmp/flr.want
	set -- $(sed -n 2p /tmp/flr.want)
	check_range "512 B at $pct % loss (%)" "$loss" "$1" "$2"
done
