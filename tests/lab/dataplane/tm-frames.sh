# TM-CAP-SL, REQ-GEN-2.4, REQ-RX-5: what the RFC 7640
# tests need of the instrument.  bmgen-traffic, one pair t1 -> t2.
#
# Part 1, through a quiet bridge (lossless at this load: 860 frames in
# bursts of 43): byte-exact bursts of 64,000 B (42 x 1518 + one 244 B
# frame), 20 of them started every 10 ms start to start, DSCP 10, logged.
# Truth, exact: tx and rx bytes 20 x 64,000; every 43rd frame is 244 B in
# the rx log; all 860 frames counted at DSCP 10 and untagged.  The
# schedule: burst k's first frame leaves at k x 10 ms after the epoch, no
# earlier, and no later than the lateness the module reports for the
# stream (tx_late_max_s) - a burst started early or late beyond its own
# account is a wrong schedule.  A second run with VLAN 5 / PCP 3 must
# count all its frames at PCP 3 and none untagged.
#
# Part 2, DUT-POL2 (SPEC 5.2) on d2: a colour-blind two-bucket marker,
# 100 Mbit/s / 63,756 B each; frames over the first bucket are re-marked
# DSCP 10 (pedit) and offered to the second, which drops what exceeds it.
# Truth from the DUT's own action counters: green = police 1's conforming
# frames (its packets - overlimits), yellow = pedit's packets - police 2's
# drops, red = police 2's drops; bmgen must count exactly green frames at
# DSCP 0, yellow at DSCP 10 and red as lost.  The model (42 green + 42
# yellow per 84-frame burst when the burst is instantaneous) is printed,
# not checked: a burst the guest spreads out refills the buckets.
#
# Part 3, DUT-POL (SPEC 5.2) on d2, 10 Mbit/s, CBS 64,000, overhead 4
# (A = F): 20 bursts of exactly 64,000 B (compliant) and then of 65,000 B
# (excess, 42 x 1518 + 1244), every Ti x 1.015 = 51.97 ms (SPEC TM-POL-1
# with the CIR scaled to what the TCG guest forwards).  Truth: MODEL-TB
# fed with the actual tx times of every frame (the tx log) gives each
# frame's verdict as the policer would give it at that instant; the DUT
# sees each frame between its tx time and its arrival, not always with
# the same delay as its neighbours (a burst the guest delays and then
# forwards in a rush refills less), so a verdict that differs from the
# model's is allowed where the frame's tokens were within the refill of
# the run's largest tx-to-rx delay of its size (an edge, counted); any
# other difference fails (bmgen-traffic --model-tb, which follows the DUT's
# verdicts so that one difference does not drag the next).  And bmgen's
# lost = the police action's drops.
#
# Part 4, DUT-TBFB (SPEC 5.2) on d2: tbf 10 Mbit/s, burst 16,000, overhead
# 4, child bfifo: 10 bursts of exactly 128,000 B (84 x 1518 + 488, TM-SHP-1
# scaled to the guest) every Ti = IQ x 8 / SR = 102.4 ms, into a bfifo of
# 200,000 B (holds a burst: no loss) and then of 60,000 B (the burst
# overflows it).  Truth: MODEL-TBF fed with the actual tx times gives each
# frame's drop or departure.  The frames that arrived must be the model's
# when the queue holds the burst.  When it overflows, the first dropped
# frame of a burst moves with the DUT's dequeue timer, which fires late in
# the guest (p99 of arrival after the model's departure measured 2.8 ms
# idle, 15 ms with the host busy: 2 to 13 frame times of 1518 B at
# 10 Mbit/s): per burst the drops may differ by 1 + ceil(p99 x R / 8 / A)
# frames (A = 1518), computed from the p99 the run measured; the frames
# that differ are printed, not checked.  Both: the rate of the arrivals
# (TM-MET-SR over first to last) within late_max / span + 0.5 % of the
# model's departures' (the last arrival is as late as the DUT's timer:
# 0.999-1.002 idle, 0.988 seen with the host busy).  How late the
# arrivals come after the model's departures is printed.
#
# Part 5, encapsulations (REQ-TM-5) through the quiet bridge, which
# forwards any EtherType: 802.1ad outer tag 5 (PCP 3) over an 802.1Q
# inner tag 7 (QinQ), and two MPLS labels 100/200 over IPv4 with DSCP 46.
# Truth: every frame arrives whole (bytes sent = received), counted at
# the outer PCP 3 resp. DSCP 46 read under the labels; and the DUT's own
# classifier (a flower filter on d2: 802.1ad vid 5 + cvlan 7, resp. MPLS
# label 100) counts every one of them: the frames carry the headers a
# DUT classifies on.
bm_load
topo_bridge 2
BTR=/usr/sbin/bmgen-traffic

$BTR --ports t1,t2 --topology pair --size 1518 --line-rate 1e9 \
	--bursts 43,20,0.01,244 --dscp 10 --log 1000 --drain 0.5 \
	--learning-pause 0.2 > /tmp/tm1 2>&1 || { cat /tmp/tm1; fail "byte-exact bursts"; }
grep '^stream=0 ' /tmp/tm1 | tr ' ' '\n' | grep -E '^(sent|received|lost|tx_bytes|rx_bytes|dscp|pcp|untagged|tx_late_max_s|log_tx|log_rx)='
s=$(grep '^stream=0 ' /tmp/tm1 | tr ' ' '\n')
f() { echo "$s" | sed -n "s/^$1=//p"; }
check_eq "frames sent" "$(f sent)" 860
check_eq "tx bytes (20 x 64,000)" "$(f tx_bytes)" 1280000
check_eq "frames received" "$(f received)" 860
check_eq "rx bytes" "$(f rx_bytes)" 1280000
check_eq "frames by DSCP" "$(f dscp)" "10:860"
check_eq "untagged frames" "$(f untagged)" 860
check_eq "tx log records" "$(f log_tx)" 860
check_eq "rx log records" "$(f log_rx)" 860
check_eq "rx log: every 43rd frame 244 B, the others 1518 B" \
	"$(awk '/^log stream=0 dir=rx/ { split($4, q, "="); split($7, z, "=");
		want = (q[2] % 43 == 42) ? 244 : 1518; if (z[2] != want) bad++ }
		END { print bad + 0 }' /tmp/tm1)" 0
awk -v late="$(f tx_late_max_s)" '/^log stream=0 dir=tx/ {
		split($4, q, "="); split($5, t, "=")
		if (q[2] % 43 == 42 && t[2] - s0 > span) span = t[2] - s0
		if (q[2] % 43) next
		s0 = t[2]
		d = t[2] - q[2] / 43 * 0.01
		if (d < -1e-9 || d > late + 1e-6) {
			printf "FAILMSG burst %d started %.6f s from its schedule, lateness %.6f\n", q[2] / 43, d, late
			bad = 1
		}
		if (d > m) m = d
	}
	END { printf "burst starts: at most %.6f s after k x 10 ms (module lateness %.6f); longest burst %.1f us first to last frame\n", m, late, span * 1e6; exit bad }' \
	/tmp/tm1 > /tmp/tm1.sched
model_verdict /tmp/tm1.sched $?

$BTR --ports t1,t2 --topology pair --size 512 --line-rate 1e9 \
	--bursts 10,5,0.01 --vlan 5,3 --drain 0.5 --learning-pause 0.2 \
	> /tmp/tm2 2>&1 || { cat /tmp/tm2; fail "tagged bursts"; }
s=$(grep '^stream=0 ' /tmp/tm2 | tr ' ' '\n')
check_eq "tagged: received" "$(f received)" 50
check_eq "tagged: frames by PCP" "$(f pcp)" "3:50"
check_eq "tagged: untagged frames" "$(f untagged)" 0

# Part 2: DUT-POL2 on d2's egress
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress matchall \
	action police rate 100mbit burst 63756 mtu 9216 overhead 4 conform-exceed pipe/ok \
	action pedit ex munge ip dsfield set 0x28 retain 0xfc pipe \
	action csum ip pipe \
	action police rate 100mbit burst 63756 mtu 9216 overhead 4 conform-exceed drop/ok ||
	fail "DUT-POL2 filter"
$BTR --ports t1,t2 --topology pair --size 1518 --line-rate 1e9 \
	--bursts 84,10,0.0051765 --drain 0.5 --no-learning \
	> /tmp/tm3 2>&1 || { cat /tmp/tm3; fail "DUT-POL2 bursts"; }
$TC -n dut -s filter show dev d2 egress > /tmp/tm3.tc
# per action, in order: "PKTS OVERLIMITS DROPPED"
acts=$(sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt (dropped \([0-9]*\), overlimits \([0-9]*\).*/\1 \3 \2/p' /tmp/tm3.tc)
echo "$acts" | grep -c . | grep -qx 4 || { cat /tmp/tm3.tc; fail "want 4 action counters"; }
set -- $acts
p1_pkts=$1 p1_over=$2 pe_pkts=$4 p2_drop=${12}
green=$((p1_pkts - p1_over)) yellow=$((pe_pkts - p2_drop)) red=$p2_drop
note "DUT counted green $green, yellow $yellow, red $red of 840 (model: 420 / 420 / 0 for instantaneous bursts)"
s=$(grep '^stream=0 ' /tmp/tm3 | tr ' ' '\n')
check_eq "POL2: frames the DUT saw" $((green + yellow + red)) "$(f sent)"
want=""
[ $green -gt 0 ] && want="0:$green"
[ $yellow -gt 0 ] && want="${want:+$want,}10:$yellow"
check_eq "POL2: frames by DSCP (green at 0, yellow at 10)" "$(f dscp)" "${want:--}"
check_eq "POL2: lost = red" "$(f lost)" "$red"

# Part 3: DUT-POL on d2, MODEL-TB on the actual tx times
$TC -n dut qdisc del dev d2 clsact
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress matchall \
	action police rate 10mbit burst 64000 mtu 9216 overhead 4 conform-exceed drop/ok ||
	fail "DUT-POL filter"
pol_drops() {
	$TC -n dut -s filter show dev d2 egress |
		sed -n 's/.*Sent [0-9]* bytes [0-9]* pkt (dropped \([0-9]*\).*/\1/p' | head -n1
}
for step in compliant:244 excess:1244; do
	name=${step%%:*} last=${step#*:}
	d0=$(pol_drops)
	$BTR --ports t1,t2 --topology pair --size 1518 --line-rate 1e9 \
		--bursts 43,20,0.05197,$last --log 1000 --model-tb 10e6,64000,4 \
		--drain 0.5 --no-learning > /tmp/tm4 2>&1 || { cat /tmp/tm4; fail "DUT-POL $name"; }
	drops=$(($(pol_drops) - d0))
	grep '^model ' /tmp/tm4
	s=$(grep '^stream=0 ' /tmp/tm4 | tr ' ' '\n')
	m=$(grep '^model stream=0 ' /tmp/tm4 | tr ' ' '\n')
	g() { echo "$m" | sed -n "s/^$1=//p"; }
	note "$name: sent $(f sent), lost $(f lost), generator lateness $(f tx_late_max_s) s"
	check_eq "POL $name: logged frames" "$(g frames)" 860
	check_eq "POL $name: lost = the policer's drops" "$(f lost)" "$drops"
	check_eq "POL $name: frames MODEL-TB and the DUT disagree on (outside edges)" "$(g mismatch)" 0
done

# Part 4: DUT-TBFB on d2, MODEL-TBF on the actual tx times
$TC -n dut qdisc del dev d2 clsact
for lim in 200000 60000; do
	$TC -n dut qdisc del dev d2 root 2> /dev/null
	$TC -n dut qdisc add dev d2 root handle 1: tbf rate 10mbit burst 16000 \
		limit 1000000 overhead 4 || fail "tbf"
	$TC -n dut qdisc add dev d2 parent 1:1 handle 10: bfifo limit $lim || fail "bfifo"
	$BTR --ports t1,t2 --topology pair --size 1518 --line-rate 1e9 \
		--bursts 85,10,0.1024,488 --log 1000 --model-tbf 10e6,16000,$lim,4 \
		--drain 0.3 --no-learning > /tmp/tm5 2>&1 || { cat /tmp/tm5; fail "DUT-TBFB limit $lim"; }
	tbf_drops=$(qdisc_drops d2)
	grep '^model_tbf ' /tmp/tm5
	s=$(grep '^stream=0 ' /tmp/tm5 | tr ' ' '\n')
	m=$(grep '^model_tbf stream=0 ' /tmp/tm5 | tr ' ' '\n')
	g() { echo "$m" | sed -n "s/^$1=//p"; }
	note "bfifo $lim: sent $(f sent), lost $(f lost), tbf drops $tbf_drops, generator lateness $(f tx_late_max_s) s"
	check_eq "TBFB $lim: logged frames" "$(g frames)" 850
	check_eq "TBFB $lim: lost = the tbf's drops" "$(f lost)" "$tbf_drops"
	if [ $lim -eq 200000 ]; then
		check_eq "TBFB $lim: frames MODEL-TBF and the DUT disagree on" "$(g mismatch)" 0
	else
		w=$(awk -v p=$(g late_p99_s) 'BEGIN { k = p * 10e6 / 8 / 1518; printf "%d", 10 * (1 + (k == int(k) ? k : int(k) + 1)) }')
		check_range "TBFB $lim: frames the model drops - frames lost (10 bursts x (1 + p99 late / frame time))" \
			$(($(g model_dropped) - $(f lost))) -$w $w
	fi
	tol=$(awk -v l=$(g late_max_s) -v s=$(g span_s) 'BEGIN { printf "%.4f", l / s + 0.005 }')
	check_range "TBFB $lim: egress rate / the model's (1 +- late_max / span + 0.5 %)" \
		"$(awk -v r=$(g sr_rx_bps) -v m=$(g sr_model_bps) 'BEGIN { printf "%.4f", r / m }')" \
		"$(awk -v t=$tol 'BEGIN { print 1 - t }')" "$(awk -v t=$tol 'BEGIN { print 1 + t }')"
done
[ "$(f lost)" -gt 0 ] || fail "TBFB 60000: the burst should overflow the bfifo"

# Part 5: QinQ and MPLS, classified by the DUT
$TC -n dut qdisc del dev d2 root 2> /dev/null
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress protocol 802.1ad flower vlan_id 5 \
	vlan_ethtype 802.1q cvlan_id 7 action ok || fail "flower QinQ"
$TC -n dut filter add dev d2 egress protocol mpls_uc flower mpls_label 100 \
	action ok || fail "flower MPLS"
flower_pkts() {	# KEYWORD: packets of the flower filter whose line has it
	$TC -n dut -s filter show dev d2 egress | awk -v k="$1" '
		$0 ~ k { on = 1 } on && /Sent/ { for (i = 1; i < NF; i++) if ($(i + 1) == "pkt") { print $i; exit } }'
}
$BTR --ports t1,t2 --topology pair --size 256 --line-rate 1e9 --bursts 20,5,0.01 \
	--vlan 5,3 --tpid 0x88a8 --vlan2 7,1 --drain 0.3 --no-learning > /tmp/tm6 2>&1 ||
	{ cat /tmp/tm6; fail "QinQ bursts"; }
s=$(grep '^stream=0 ' /tmp/tm6 | tr ' ' '\n')
check_eq "QinQ: received" "$(f received)" 100
check_eq "QinQ: bytes received = sent" "$(f rx_bytes)" "$(f tx_bytes)"
check_eq "QinQ: frames by outer PCP" "$(f pcp)" "3:100"
check_eq "QinQ: frames the DUT's flower (802.1ad 5 / 802.1Q 7) matched" "$(flower_pkts cvlan_id)" 100
$BTR --ports t1,t2 --topology pair --size 256 --line-rate 1e9 --bursts 20,5,0.01 \
	--mpls 100,200 --dscp 46 --drain 0.3 --no-learning > /tmp/tm7 2>&1 ||
	{ cat /tmp/tm7; fail "MPLS bursts"; }
s=$(grep '^stream=0 ' /tmp/tm7 | tr ' ' '\n')
check_eq "MPLS: received" "$(f received)" 100
check_eq "MPLS: bytes received = sent" "$(f rx_bytes)" "$(f tx_bytes)"
check_eq "MPLS: frames by DSCP (under two labels)" "$(f dscp)" "46:100"
check_eq "MPLS: frames the DUT's flower (label 100) matched" "$(flower_pkts mpls_label)" 100
