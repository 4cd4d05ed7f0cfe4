# RFC 7640 concurrent capacity load (TM-CONC, REQ-TM-9) end to end: bmctl
# -> bmd -> bmgen.ko, SPEC's acceptance profile "policers on ingress +
# shapers on egress" on one 4-port bridge at rates the TCG guest forwards
# (SPEC's 100 and 50 Mbit/s divided by 40 and 10): flow t1 -> t2 policed
# by DUT-POL on d2 (police 2.5 Mbit/s, burst 16,000, overhead 4), flow
# t3 -> t4 shaped by DUT-TBFB on d4 (tbf 5 Mbit/s, burst 15,180 = 10
# frames, bfifo 200,000 B).  One job runs rfc7640.policer on ports 1, 2
# (2 runs of a compliant and an excess step of 1.2 s) and rfc7640.shaper
# on ports 3, 4 (4 runs of Td = 2.0402 s, 42 Ti) at once: the module runs
# one trial at a time, so each pair of their trials runs as one trial,
# four in all.
#
# The DUT's numbers are drawn on every run (lib.sh lab_draw, seed
# printed); the figures in the text are the fixed DUT the test had until
# 2026-12-03.  Drawn: the policer's CBS 12..20 KB and Ti 64..80 ms, CIR =
# CBS x 8 / Ti (1.2..2.5 Mbit/s, at most the 2.5 it had: the 4,000 B
# excess stays above any refill during a burst, 2.5 Mbit/s over a 10 ms
# burst is 3,125 B); the shaper's SR 4..5 Mbit/s (step 0.25), bucket B
# 8..12 whole frames, IQ B + 6..12 frames (more than the bucket: the
# trains after the first are single frames), Ti = IQ x 8 / SR, Td the
# whole Ti in 2.0402 s (1.97..2.04 s, longer than the policer's 1.2 s).
# The windows below follow from the drawn values as in rfc7640/policer
# and rfc7640/shaper-queue.
#
# Truth (SPEC TM-CONC acceptance: each result equals its standalone result
# within the standalone tolerances), the models of rfc7640/policer and
# rfc7640/shaper-queue:
# policer: bursts of exactly CBS = 16,000 B (10 x 1518 + 820) every Ti x
# 1.5 (Ti = 51.2 ms: 25.6 ms, Ti / 2, for the bucket to refill after a
# late burst); compliant LP 0 and BSA CBS in every run; excess 4,000 B
# (every burst loses it: the bucket holds CBS); LP over every step and
# run = the police action's drops, exactly.  Shaper: IQ 30,360 B (20
# frames) every IQ x 8 / SR = 48.6 ms: the bucket's B = 10 frames go at
# once, the others one per token interval; LP 0 = the tbf's drops; SR
# +- (1 % + lateness / Td); SBI median 1518 x 8 / SR = 2.4288 ms +- 5 %;
# SBB median 1518 B; largest SBB the bucket's B frames plus what refills
# while the guest forwards them, B - 1 to B + 2 frames; low confidence.
# The bursts are smaller than rfc7640/shaper-queue's and
# rfc7640/policer's (84 and 43 frames): two
# generators in one TCG guest, each burst forwarded in the softirq of
# the CPU that sends it, ran 9 to 129 ms late with those (one run of
# five within rfc7640/policer's 7.7 ms margin), and MODEL-TB on the logged tx
# times then predicted the compliant losses (41 for 40, 81 for 81, 65
# for 63): the DUT did what the model says, the generator was late.
# Premises first: both instances done; every policer trial shared with a
# shaper trial (trials_together 4); and the frames really went out
# together: the report lays each instance's first-to-last frame of every
# trial on one time base (the module's trial clock within a trial), the
# policer's bursts (1.2 s) inside the shaper's (2.04 s), both from the
# trial's start, so overlap_pct (the time both sent over the shorter
# sender's) is 100 % in the model; >= 90 % is required (measured 98.8 to
# 99.5 %).  Re-measured when the generator was later than the policer's
# refill margin, Ti / 2 (25.6 ms; 32..40 ms).
bm_load
topo_bridge 4
# The DUT of this run (the ranges in the header)
CBS=$(( $(lab_draw conc_cbs_kb 12 20) * 1000 ))
TI_MS=$(lab_draw conc_ti_ms 64 80)
CIR=$((CBS * 8000 / TI_MS))
MARGIN=$(awk -v t=$TI_MS 'BEGIN { printf "%.4f", t / 2000 }')
SR=$(( $(lab_draw conc_sr_kbps 4000 5000 250) * 1000 ))
B=$(lab_draw conc_bucket_frames 8 12)
IQ=$(( (B + $(lab_draw conc_iq_more 6 12)) * 1518 ))
# Td the whole Ti in 2.0402 s (42 at the fixed DUT), rounded up to the
# ns: the procedure counts floor(Td / Ti) bursts
TD=$(awk -v q=$IQ -v r=$SR 'BEGIN { ti = q * 8 / r; printf "%.9f", (int(int(2.0402 / ti + 1e-9) * ti * 1e9) + 1) / 1e9 }')
note "seed $LAB_SEED: police rate $CIR bit/s, burst $CBS B (Ti $TI_MS ms; margin $MARGIN s); tbf $SR bit/s, burst $B frames, IQ $IQ B, Td $TD s"
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress matchall \
	action police rate ${CIR}bit burst $CBS mtu 9216 overhead 4 conform-exceed drop/ok ||
	fail "DUT-POL filter"
# DUT-TBFB on d4
tbfb_d4() {
	$TC -n dut qdisc add dev d4 root handle 1: tbf rate ${SR}bit burst $((B * 1518)) \
		limit 1000000 overhead 4 || fail "tbf d4"
	$TC -n dut qdisc add dev d4 parent 1:1 handle 10: bfifo limit 200000 ||
		fail "bfifo d4"
}
tbfb_d4
bmd_start
# the policer instance, in both parts
POL='{ "procedure": "rfc7640.policer", "ports": [1, 2],
      "params": { "cir_bps": '$CIR', "cbs": '$CBS', "ti_margin_pct": 50,
                  "excess": "4KB", "td_s": 1.2, "tr": 2, "drain_s": 0.5,
                  "learning_pause_s": 0.2 } }'
cat > /tmp/conc-params.json <<EOF
{ "profile": "policers on ingress + shapers on egress",
  "instances": [ $POL,
    { "procedure": "rfc7640.shaper", "ports": [3, 4],
      "params": { "iq": $IQ, "sr_bps": $SR, "bc": $((B * 1518)), "be": $((B * 1518)),
                  "td_s": $TD, "tr": 4, "drain_s": 0.5,
                  "cal_pdv_ns": 500000, "learning_pause_s": 0.2 } } ] }
EOF

# the part of result FILE for instance N (1 or 2), into OUT
part() {
	awk -v n="$2" '
		$1 == "\"instance\":" { on = ($2 == n ",") }
		on' "$1" > "$3"
}
# the "compliant"/"excess" rows of the policer's part: "test lp bsa_bytes"
rows() {
	tm_step_rows "$1" "$2" | cut -d' ' -f2- | sort -n
}

measure() {
	p0=$(police_drops d2)
	s0=$(qdisc_drops d4)
	bm_job conc rfc7640 concurrent --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 --param @/tmp/conc-params.json
	$BMCTL -j result "$job" > /tmp/conc.json || fail "bmctl result"
	pdrops=$(($(police_drops d2) - p0))
	sdrops=$(($(qdisc_drops d4) - s0))
	part /tmp/conc.json 1 /tmp/conc-pol.json
	part /tmp/conc.json 2 /tmp/conc-shp.json

	# premises: both done, and at once
	check_eq "policer instance state" "$(jvals state /tmp/conc-pol.json | head -n1)" '"done"'
	check_eq "shaper instance state" "$(jvals state /tmp/conc-shp.json | head -n1)" '"done"'
	sed -n '/"concurrency": {/,/}/p' /tmp/conc.json > /tmp/conc-c.json
	check_eq "module trials (the instances' pairs merged)" \
		"$(jvals trials /tmp/conc-c.json)" 4
	check_eq "policer trials shared with the shaper" \
		"$(jvals trials_together /tmp/conc-pol.json | head -n1)" 4
	note "concurrency: span $(jvals span_s /tmp/conc-c.json) s, both sending $(jvals all_active_s /tmp/conc-c.json) s; sending policer $(jvals tx_time_s /tmp/conc-pol.json | head -n1) s, shaper $(jvals tx_time_s /tmp/conc-shp.json | head -n1) s"
	check_range "overlap (%): the policer's frames went out while the shaper's did" \
		"$(jvals overlap_pct /tmp/conc-c.json)" 90 100.000001

	# the policer, as rfc7640/policer
	note "policer compliant runs (test lp bsa): $(rows /tmp/conc-pol.json compliant | tr '\n' ';')"
	note "policer excess runs (test lp bsa): $(rows /tmp/conc-pol.json excess | tr '\n' ';')"
	lp=$( (rows /tmp/conc-pol.json compliant; rows /tmp/conc-pol.json excess) |
		awk '{ s += $2 } END { print s + 0 }')
	check_eq "policer: LP over every step and run = the policer's drops" "$lp" "$pdrops"
	check_eq "policer: compliant runs" "$(rows /tmp/conc-pol.json compliant | wc -l)" 2
	rows /tmp/conc-pol.json compliant | while read -r t l b; do
		check_eq "policer run $t: compliant LP" "$l" 0
		check_range "policer run $t: compliant BSA (B)" "$b" $CBS $CBS
	done || exit 1
	check_eq "policer: excess outcome" \
		"$(jvals excess_outcome /tmp/conc-pol.json | head -n1)" \
		'"excess dropped or re-marked"'

	# the shaper, as rfc7640/shaper-queue, each run
	late=$(jvals tx_late_max_s /tmp/conc-shp.json | sort -g | tail -n1)
	tol=$(awk -v l=$late -v td=$TD 'BEGIN { printf "%.4f", 0.01 + l / td }')
	sed -n '/"runs": \[/,/^ *\]/p' /tmp/conc-shp.json > /tmp/conc-runs.json
	n=$(grep -c '"sr_bps"' /tmp/conc-runs.json)
	check_eq "shaper: runs" "$n" 4
	lps=$(jvals lp /tmp/conc-runs.json | awk '{ s += $1 } END { print s + 0 }')
	check_eq "shaper: LP over both runs = the tbf's drops" "$lps" "$sdrops"
	check_eq "shaper: LP" "$sdrops" 0
	for k in $(seq 1 "$n"); do
		sr=$(jvals sr_bps /tmp/conc-runs.json | sed -n "${k}p")
		check_range "shaper run $k: SR (bit/s), $SR +- (1 % + late $late s / Td)" \
			"$sr" "$(awk -v t=$tol -v r=$SR 'BEGIN { printf "%.0f", r * (1 - t) }')" \
			"$(awk -v t=$tol -v r=$SR 'BEGIN { printf "%.0f", r * (1 + t) }')"
		check_range "shaper run $k: SBI median (s), 1518 x 8 / SR +- 5 %" \
			"$(jvals sbi_median_s /tmp/conc-runs.json | sed -n "${k}p")" \
			$(awk -v r=$SR 'BEGIN { printf "%.7f %.7f", 12144 / r * 0.95, 12144 / r * 1.05 }')
		check_range "shaper run $k: SBB median (B), one frame" \
			"$(jvals sbb_median_bytes /tmp/conc-runs.json | sed -n "${k}p")" 1518 1518
		check_range "shaper run $k: largest SBB (B), $B frames + 1 refilled, +- 1 frame" \
			"$(jvals sbb_max_bytes /tmp/conc-runs.json | sed -n "${k}p")" \
			$(((B - 1) * 1518)) $(((B + 2) * 1518))
		check_eq "shaper run $k: software stamps are low confidence" \
			"$(jvals low_confidence /tmp/conc-runs.json | sed -n "${k}p")" true
	done
}
remeasure $MARGIN /tmp/conc.json measure

# (2) TM-CONC with stateful traffic, "policers on ingress + queuing with
# TCP on egress": the same policer on t1 -> t2 beside
# rfc7640.queue-stateful's bulk TCP on t3 -> t4 through the tbf on d4 (SR
# = 5 Mbit/s, bucket B frames, over bfifo 200,000), the NDE netem 10 ms on d3
# (the ACKs), verified first with the tbf removed (REQ-TM-2: bmd's gate
# covers the instance's path), at 25 % of the line as in
# rfc7640/stateful.  One connection, window clamp 64 KB (far below the bfifo:
# nothing dropped), 10 MB: more than 2 Td at the line, so the run lasts 2 Td =
# 4 s.  Truth: the policer as in (1) (compliant LP 0, BSA 16,000, LP = the
# police action's drops); the TCP's throughput in [0.85 x, 1.01 x (1 x + the
# bucket / its window)] of F-9's SR x 1448/1518 (5 x 1448/1518 Mbit/s) (the
# 1 %: the window's ends are the engine's clock reads, as rfc7640/nde-verify
# (6); one run read 4,791,469 of 4,799,729), the tbf's drops 0; the TCP
# instance takes no trial and the policer's trials run beside its connections:
# at least 2 of its 4 in the 4 s (each 1.2 s and a 0.5 s loss wait), and some
# time with both sending.
$TC -n dut qdisc del dev d4 root || fail "del d4"
$TC -n dut qdisc add dev d3 root netem delay 10ms limit 10000 || fail "netem d3"
bm_job v45 rfc7640 nde-verify --line-rate 10M $LEARN_FAST --port t3 --port t4 \
	--frame-sizes 512 --duration 1 --param tcp=false --param delay_ms=0 \
	--param reverse_delay_ms=10 --param tolerance_ms=3 --param drain_s=0.5 \
	--param load_pct=25
tbfb_d4
cat > /tmp/conc2-params.json <<EOF
{ "profile": "policers on ingress + queuing with TCP on egress",
  "instances": [ $POL,
    { "procedure": "rfc7640.queue-stateful", "ports": [3, 4],
      "params": { "bb_bps": $SR, "nde_rtt_ms": 10, "apps": ["bulk"],
                  "tr": 1, "td_s": 2, "bulk_bytes": 10000000,
                  "window_clamp": 64000 } } ] }
EOF
measure2() {
	p0=$(police_drops d2)
	s0=$(qdisc_drops d4)
	bm_job conc2 rfc7640 concurrent --line-rate 1G --port t1 --port t2 \
		--port t3 --port t4 --param @/tmp/conc2-params.json
	$BMCTL -j result "$job" > /tmp/conc.json || fail "bmctl result"
	pdrops=$(($(police_drops d2) - p0))
	part /tmp/conc.json 1 /tmp/conc-pol.json
	part /tmp/conc.json 2 /tmp/conc-sf.json
	check_eq "(2) TCP instance state" "$(jvals state /tmp/conc-sf.json | head -n1)" '"done"'
	check_eq "(2) TCP instance trials" "$(jvals trials /tmp/conc-sf.json | head -n1)" 0
	check_range "(2) policer trials beside the TCP" \
		"$(jvals trials_together /tmp/conc-pol.json | head -n1)" 2 4
	sed -n '/"concurrency": {/,/}/p' /tmp/conc.json > /tmp/conc-c.json
	note "(2) concurrency: both sending $(jvals all_active_s /tmp/conc-c.json) s, overlap $(jvals overlap_pct /tmp/conc-c.json) %"
	check_range "(2) time both sent (s)" "$(jvals all_active_s /tmp/conc-c.json)" 0.5 100
	lp=$( (rows /tmp/conc-pol.json compliant; rows /tmp/conc-pol.json excess) |
		awk '{ s += $2 } END { print s + 0 }')
	check_eq "(2) policer: LP over every step and run = the policer's drops" "$lp" "$pdrops"
	rows /tmp/conc-pol.json compliant | while read -r t l b; do
		check_eq "(2) policer run $t: compliant LP" "$l" 0
		check_range "(2) policer run $t: compliant BSA (B)" "$b" $CBS $CBS
	done || exit 1
	check_eq "(2) tbf drops" "$(($(qdisc_drops d4) - s0))" 0
	thr=$(sed -n '/"statistics"/,$p' /tmp/conc-sf.json | sed -n '/"throughput_bps": {/,/}/p' |
		sed -n 's/^ *"mean": \([^,]*\),*$/\1/p' | head -n1)
	# the bulk never ends (10 MB): its window is the run's, 2 Td
	w=$(jvals window_s /tmp/conc-sf.json | head -n1)
	hi=$(awk -v t="$w" -v r=$SR -v b=$((B * 1518)) 'BEGIN { printf "%.0f", 1.01 * (r * 1448 / 1518 + b * 8 / t) }')
	check_range "(2) TCP throughput (bit/s) over $w s" "$thr" \
		"$(awk -v r=$SR 'BEGIN { printf "%.0f", 0.85 * r * 1448 / 1518 }')" "$hi"
}
remeasure $MARGIN /tmp/conc.json measure2
