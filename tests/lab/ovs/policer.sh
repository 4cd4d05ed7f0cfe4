# RFC 7640 policer (TM-POL-1) end to end through Open vSwitch: bmctl ->
# bmd -> bmgen.ko, t1 -> d1 -> br0 -> d2 -> t2, br0 an OVS bridge (kernel
# datapath) crossing d1 and d2 by two OpenFlow flows, and OVS's ingress
# policing on d1 the policer under test; 1518 B frames, notional 1 Gbit/s.
# rfc7640/policer's procedure and model, with OVS's configuration as truth.
#
# Truth from OVS's units (lib.sh ovs_police): ingress_policing_rate R kbps
# is R x 1000 bit/s, ingress_policing_burst K kb is K x 128 bytes (OVS
# takes a kb for 1024 bits here), less under one byte of tick rounding;
# the policer charges a frame F - 18 bytes (1500 for 1518 B).  The
# procedure counts whole frames (A = F), so its CBS is the burst of n full
# frames and one last frame whose charges add up to K x 128 - 2 bytes
# (n x 1518 + the last frame's size), and its CIR is R x 1000 x CBS / (K x
# 128) bit/s, rounded down: then its Ti = CBS / CIR is at least the
# time the policer's bucket takes to refill.  Drawn on every run (lab_draw,
# seed printed): K of 297..711 kb (38..91 kB, as rfc7640/policer's 25..60
# frames) and R such that the refill takes 52..75 ms, 15 % margin on top.
# Truth: compliant LP = 0 and BSA = CBS in every run; the excess step
# (32,000 B more per burst, twice the refill over a burst the guest
# forwards in ~8 ms) must report the excess dropped; bmgen's LP summed
# over every step and run equals the police action's drops exactly (the
# ingress qdisc's count, where OVS's policer drops).  Then with policing
# off (rate 0: OVS removes the filter): "excess was not dropped or
# re-marked".  The procedure does not measure a CIR of its own: the rate is
# checked as a Ti that suffices, as in rfc7640/policer.
bm_load
topo_ovs 2
ovs_cross d1 d2
try=0
while :; do
	try=$((try + 1))
	[ $try -le 50 ] || fail "no burst with a last frame of 64 B or more in 50 draws"
	KB=$(lab_draw ovs_burst_kb.$try 297 711)
	TI_MS=$(lab_draw ovs_ti_ms.$try 52 75)
	BYTES=$((KB * 128 - 2))
	N=$((BYTES / 1500))
	LAST=$((BYTES - N * 1500 + 18))
	[ $LAST -ge 64 ] && break
done
R=$((KB * 1024 / TI_MS))
CBS=$((N * 1518 + LAST))
CIR=$(awk -v r=$R -v c=$CBS -v k=$KB 'BEGIN { printf "%d", r * 1000 * c / (k * 128) }')
MARGIN=$(awk -v b=$CBS -v r=$CIR 'BEGIN { printf "%.4f", 0.15 * b * 8 / r }')
note "seed $LAB_SEED, draw $try: ingress_policing_rate $R kbps, ingress_policing_burst $KB kb ($((KB * 128)) bytes as charged); procedure's CIR $CIR bit/s, CBS $CBS bytes ($N x 1518 + $LAST; margin $MARGIN s)"
ovs_police d1 $R $KB
$TC -n dut filter show dev d1 ingress | grep police | sed 's/^/note: d1 ingress: /'
ovs_bmd_start
POL="rfc7640 policer --line-rate 1G --port t1 --port t2 $LEARN_FAST
	--param cir_bps=$CIR --param cbs=$CBS --param ti_margin_pct=15
	--param excess=32KB --param td_s=1.2 --param tr=2 --param drain_s=0.5"

# the "compliant"/"excess" rows of a result: "test lp bsa_bytes"
rows() {
	tm_step_rows "$1" "$2" | cut -d' ' -f2- | sort -n
}

measure() {
	d0=$(ovs_police_drops d1)
	k0=$(backlog_drops)
	ovs_job pol $POL
	$BMCTL -j result "$job" > /tmp/pol.json || fail "bmctl result"
	drops=$(($(ovs_police_drops d1) - d0))
	backlog=$(($(backlog_drops) - k0))
	note "compliant runs (test lp bsa): $(rows /tmp/pol.json compliant | tr '\n' ';')"
	note "excess runs (test lp bsa): $(rows /tmp/pol.json excess | tr '\n' ';')"
	lp=$( (rows /tmp/pol.json compliant; rows /tmp/pol.json excess) |
		awk '{ s += $2 } END { print s + 0 }')
	check_eq "LP over every step and run = OVS's policer drops + backlog drops" \
		"$lp" $((drops + backlog))
	rows /tmp/pol.json compliant | while read -r t l b; do
		check_eq "run $t: compliant LP" "$l" 0
		check_range "run $t: compliant BSA (B)" "$b" $CBS $CBS
	done || exit 1
	check_eq "excess outcome" "$(jvals excess_outcome /tmp/pol.json | head -n1)" \
		'"excess dropped or re-marked"'
}
remeasure $MARGIN /tmp/pol.json measure

ovs-vsctl set interface d1 ingress_policing_rate=0 || fail "policing off"
i=0
while $TC -n dut filter show dev d1 ingress | grep -q police; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "OVS left its policer on d1"
	sleep 0.1
done
ovs_job nopol $POL --param tr=1
$BMCTL -j result "$job" > /tmp/nopol.json || fail "bmctl result"
check_eq "no policing: LP over both steps" \
	"$( (rows /tmp/nopol.json compliant; rows /tmp/nopol.json excess) | awk '{ s += $2 } END { print s + 0 }')" 0
check_eq "no policing: excess outcome" "$(jvals excess_outcome /tmp/nopol.json | head -n1)" \
	'"excess was not dropped or re-marked"'
