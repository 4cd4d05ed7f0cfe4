# RFC 7640 burst hunt (TM-BURST-HUNT) end to end: bmctl -> bmd -> bmgen.ko,
# t1 -> DUT-POL on d2 (police CIR, burst CBS, overhead 4: A = F) -> t2;
# 1518 B frames (SPEC TM-BURST-HUNT acceptance, the CIR scaled).  CIR
# and CBS are drawn on every run (lib.sh lab_draw, seed printed): CIR
# 400..500 kbit/s (step 25), CBS 43..76 KB (step 3 KB: the sizes whose
# whole-frame neighbour is 1,000 B or more above them, below); 0.5
# Mbit/s and 64,000 until 2026-12-03.  The figures below are that DUT's.
#
# Model (MODEL-TB): a full bucket of CBS passes a burst whole iff its
# bytes are at most CBS plus what refills while the burst goes by.  At
# 0.5 Mbit/s the refill is 62.5 B a ms; the guest sends a 43-frame burst
# over 7-9 ms (dataplane/tm-frames), so the smallest margin the test relies
# on, 1,000 B (CBS + 1,000 B in exact mode; in whole mode the burst of whole
# frames above CBS, at least 1,022 B above it for every CBS drawn), holds for
# bursts shorter than 1,000 x 8 / CIR = 16 ms (16..20 ms).  Each
# hunt trial's span (first to last departure, as the module stamped them)
# is checked against that premise; a longer burst is a generator the host
# held up, and the hunt is measured again (lib.sh remeasure --span: a
# burst has no per-frame schedule, so the module counts no lateness in
# it; CI saw a 17.9 ms burst once in 2026-12).
# Truth, exact mode with verify (target CBS, verified up to CBS + 2 KB):
# CBS passes (BSA CBS), CBS + 1,000 fails (first_fail).  Whole mode
# (n = ceil(B / F)) hunted from CBS - 4 KB: the largest nominal B (a
# whole KB) whose ceil(B / 1518) x 1518 <= CBS: for 64,000 B, 64,000 is
# 43 frames = 65,274 B and fails; 60..63 KB pass
# (63,000 B = 42 frames = 63,756 B): BSA 63,000 nominal, 63,756 actual,
# the draft's "63 KB".  recover_wait CBS x 8 / CIR x 1.27, a tenth of a
# second up (1.3 s: the bucket refills 64,000 B in 1.02 s).
bm_load
topo_bridge 2
# The DUT of this run: CIR in kbit/s, CBS in KB (43 + 3i: CBS mod 1518 <=
# 518, so the whole-frame burst above CBS is >= 1,000 B above it)
CIR=$(( $(lab_draw hunt_cir_kbps 400 500 25) * 1000 ))
KB=$(lab_draw hunt_cbs_kb 43 76 3)
CBS=$((KB * 1000))
SPAN=$(awk -v r=$CIR 'BEGIN { printf "%.4f", 1000 * 8 / r }')
WAIT=$(awk -v b=$CBS -v r=$CIR 'BEGIN { w = int(b * 8 / r * 1.27 * 10 + 0.999) / 10; print w }')
# whole mode's truth: the largest nominal j KB, from KB - 4, whose whole
# frames fit CBS, and those frames' bytes
WN=$(awk -v k=$KB -v c=$CBS 'BEGIN { for (j = k - 4; j <= k; j++) { n = int((j * 1000 + 1517) / 1518); if (n * 1518 <= c) b = j } print b * 1000 }')
WA=$(( (WN + 1517) / 1518 * 1518 ))
# exact mode's longest burst: CBS + 2 KB, its frames' gaps at the notional
# 1 Gbit/s (12.304 us a frame)
GAPS=$(( (CBS + 1000 + 1517) / 1518 - 1 ))
note "seed $LAB_SEED: police rate $CIR bit/s, burst $CBS B (span premise $SPAN s, recover_wait $WAIT s; whole-mode truth $WN B nominal, $WA B actual)"
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress matchall \
	action police rate ${CIR}bit burst $CBS mtu 9216 overhead 4 conform-exceed drop/ok ||
	fail "DUT-POL filter"
bmd_start
HUNT="rfc7640 burst-hunt --line-rate 1G --port t1 --port t2 $LEARN_FAST
	--param target=${KB}KB --param rate_bps=$CIR --param recover_wait_s=$WAIT
	--param drain_s=0.3"

# premise: every burst of the result went by in under SPAN (1,000 B of
# refill)
spans_ok() {
	m=$(jvals actual_duration_s "$1" | sort -g | tail -n1)
	note "longest burst span $m s (premise: < $SPAN s)"
	awk -v m="$m" -v s=$SPAN 'BEGIN { exit !(m < s) }' ||
		fail "a burst took $m s: its refill exceeds the model's 1,000 B margin"
}
# TM §5.1 bursts at the line rate: the guest's 43-frame bursts take 7-11
# ms where the notional 1 Gbit/s line takes 42 x 12.304 us = 0.517 ms,
# so the result must say they were not back to back, with the largest
# lateness bmgen.ko measured: at least the longest burst's last frame's,
# its span less 0.517 ms (42 frames due back to back), and at most the
# longest span (frame j is late by its offset less j frame times; a stall
# early in a burst makes an early frame the latest: 10.084 ms for a
# longest span of 10.524 ms was seen).
spread_said() {
	d=$(sed -n 's/.*a burst.s frame left up to \([0-9.]*\) ms behind.*/\1/p' "$1")
	m=$(jvals actual_duration_s "$1" | sort -g | tail -n1)
	[ -n "$d" ] || fail "no deviation: the bursts were not at the line rate"
	check_range "largest burst lateness (ms) vs the longest span $m s" "$d" \
		"$(awk -v m="$m" -v g=$GAPS 'BEGIN { printf "%.3f", m * 1e3 - g * 0.012304 - 0.002 }')" \
		"$(awk -v m="$m" 'BEGIN { printf "%.3f", m * 1e3 }')"
}
exact() {
	bm_job hx $HUNT --param burst_mode=exact --param verify_policer=true \
		--param verify_max=$((KB + 2))KB
	$BMCTL -j result "$job" > /tmp/hx.json || fail "bmctl result"
	spans_ok /tmp/hx.json
	spread_said /tmp/hx.json
	check_range "exact: BSA (B)" "$(jvals bsa_bytes /tmp/hx.json | head -n1)" $CBS $CBS
	check_range "exact: first fail (B)" "$(jvals first_fail_bytes /tmp/hx.json | head -n1)" \
		$((CBS + 1000)) $((CBS + 1000))
	# TM §5.1: within the span premise every burst refilled less than
	# a step (1,000 B) at rate_bps: as asked, the run says "ok"
	check_eq "exact: the run's result" "$(jvals result /tmp/hx.json | sort -u)" '"ok"'
}
remeasure --span $SPAN $SPAN /tmp/hx.json exact
whole() {
	bm_job hw $HUNT --param burst_mode=whole --param min=$((KB - 4))KB
	$BMCTL -j result "$job" > /tmp/hw.json || fail "bmctl result"
	spans_ok /tmp/hw.json
	check_range "whole: BSA nominal (B)" "$(jvals bsa_bytes /tmp/hw.json | head -n1)" $WN $WN
	check_range "whole: BSA actual (B)" "$(jvals bsa_actual_bytes /tmp/hw.json | head -n1)" $WA $WA
	check_eq "whole: the run's result" "$(jvals result /tmp/hw.json | sort -u)" '"ok"'
}
remeasure --span $SPAN $SPAN /tmp/hw.json whole
