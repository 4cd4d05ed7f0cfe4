# RFC 7640 burst hunt (TM-BURST-HUNT) end to end: bmctl -> bmd -> bmgen.ko,
# t1 -> DUT-POL on d2 (police 0.5 Mbit/s, burst 64,000, overhead 4: A = F)
# -> t2; 1518 B frames (SPEC TM-BURST-HUNT acceptance, the CIR scaled).
#
# Model (MODEL-TB): a full bucket of 64,000 B passes a burst whole iff its
# bytes are at most 64,000 plus what refills while the burst goes by.  At
# 0.5 Mbit/s the refill is 62.5 B a ms; the guest sends a 43-frame burst
# over 7-9 ms (lab 18), so the smallest margin the test relies on, 1,000 B
# (65,000 B in exact mode), holds for bursts shorter than 16 ms.  Each
# hunt trial's span (first to last departure, as the module stamped them)
# is checked against that premise; a longer burst is a generator the host
# held up, and the hunt is measured again (lib.sh remeasure --span: a
# burst has no per-frame schedule, so the module counts no lateness in
# it; CI saw a 17.9 ms burst once in 2026-12).
# Truth, exact mode with verify: 64,000 B passes (BSA 64,000), 65,000 B
# fails (first_fail 65,000).  Whole mode (n = ceil(B / F)) hunted from
# 60 KB: 64,000 B is 43 frames = 65,274 B and fails; 60..63 KB pass
# (63,000 B = 42 frames = 63,756 B): BSA 63,000 nominal, 63,756 actual,
# the draft's "63 KB".  recover_wait 1.3 s: the bucket refills 64,000 B in
# 1.02 s.
bm_load
topo_bridge 2
$TC -n dut qdisc add dev d2 clsact || fail "clsact"
$TC -n dut filter add dev d2 egress matchall \
	action police rate 500kbit burst 64000 mtu 9216 overhead 4 conform-exceed drop/ok ||
	fail "DUT-POL filter"
bmd_start
HUNT="rfc7640 burst-hunt --line-rate 1G --port t1 --port t2 $LEARN_FAST
	--param target=64KB --param rate_bps=5e5 --param recover_wait_s=1.3
	--param drain_s=0.3"

# premise: every burst of the result went by in under 16 ms
spans_ok() {
	m=$(jvals actual_duration_s "$1" | sort -g | tail -n1)
	note "longest burst span $m s (premise: < 0.016 s)"
	awk -v m="$m" 'BEGIN { exit !(m < 0.016) }' ||
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
		"$(awk -v m="$m" 'BEGIN { printf "%.3f", m * 1e3 - 0.517 - 0.002 }')" \
		"$(awk -v m="$m" 'BEGIN { printf "%.3f", m * 1e3 }')"
}
exact() {
	bm_job hx $HUNT --param burst_mode=exact --param verify_policer=true \
		--param verify_max=66KB
	$BMCTL -j result "$job" > /tmp/hx.json || fail "bmctl result"
	spans_ok /tmp/hx.json
	spread_said /tmp/hx.json
	check_range "exact: BSA (B)" "$(jvals bsa_bytes /tmp/hx.json | head -n1)" 64000 64000
	check_range "exact: first fail (B)" "$(jvals first_fail_bytes /tmp/hx.json | head -n1)" 65000 65000
}
remeasure --span 0.016 0.016 /tmp/hx.json exact
whole() {
	bm_job hw $HUNT --param burst_mode=whole --param min=60KB
	$BMCTL -j result "$job" > /tmp/hw.json || fail "bmctl result"
	spans_ok /tmp/hw.json
	check_range "whole: BSA nominal (B)" "$(jvals bsa_bytes /tmp/hw.json | head -n1)" 63000 63000
	check_range "whole: BSA actual (B)" "$(jvals bsa_actual_bytes /tmp/hw.json | head -n1)" 63756 63756
}
remeasure --span 0.016 0.016 /tmp/hw.json whole
