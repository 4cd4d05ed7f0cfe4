# Issue 12 item 1 (TM-CAP-SL, REQ-GEN-2.4, REQ-RX-5): what the RFC 7640
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
# frame's verdict, and the frames that arrived (the rx log) must be
# exactly those, except frames within 100 us of refill of their size
# (edges: the policer sees a frame a few us after its tx stamp); and
# bmgen's lost = the police action's drops.
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
