# R2544-THRPT end to end (bmctl -> bmd -> bmgen.ko) against a bridge DUT
# whose egress port d2 has a token bucket of known rate (SPEC DUT-TBF),
# drawn on every run (below: 2 to 3.8 Mbit/s, its bucket and queue too).
#
# How tbf counts a frame: it charges qdisc_pkt_len = skb->len = F - 4 bytes
# (the FCS is not in the skb) plus the rate table's "overhead 24", i.e.
# A = F + 20 bytes: the L1 size with preamble, SFD and IFG.  A tbf of rate
# R bit/s therefore forwards exactly C = R / 8 / (F + 20) fps, the same
# formula as the line rate (F-1): R = 3 Mbit/s on the notional 10 Mbit/s
# line is 30 % of line rate, 704.89 fps at 512 B and 243.82 fps at 1518 B.
# (The figures below are those of the DUT the test had until it drew its
# own: R = 3 Mbit/s, b = 3200, limit 8000; the drawn ranges keep them.)
#
# DUT model (SPEC R2544-THRPT acceptance a): the bucket (b = 3200 bytes,
# b/A frames) and the bfifo (limit 8000 bytes of skb->len, Q = 15 frames at
# 512 B, 5 at 1518 B) absorb an excess, so a trial of d seconds at rate r
# loses nothing iff r <= C + (Q + b/A)/d.  The binary search ends with
# hi - lo <= resolution, so the result lies in
# [C - resolution, C + (Q + b/A)/d]: with d = 3 s and resolution 1 % of
# the result, that is [-1 %, +0.99 %] of C at both sizes.  (0.5 %
# until the stateful TCP tests came: its two more trials a size, 14 s
# of make check, went to them.)  One size, 512 B, since
# session 18 (few sizes, for make check's 30 minutes): the model is the
# same at every size, and bmd/bmctl-batch searches 1518 B through the same
# DUT (2 s trials, C within 3 %).
# The check is the 2 % the requirement asks for; the 1 % between the model
# window and 2 % is margin for the one effect the model leaves out: a TCG
# vCPU that wakes the generator late sends the late frames back to back,
# and the bucket plus queue (8000 + 3200 bytes, 30 ms of traffic at C)
# must absorb that burst; the module reports departure lateness of 3 to
# 29 ms per trial here (the notes list it), once 64 ms, so a trial below
# C may still lose frames to a burst.  The search repeats a failed trial
# the generator itself spoiled, generator-limited without loss (its last
# frame left a frame interval late) or a loss within its own catch-up
# burst, rather than take it as the DUT's failure (search_binary.c); the
# 64 ms stall had cut the 1518 B result to 161 fps.
# A stall longer than bucket and queue absorb (29.9 ms) that recurs in
# every attempt still fails a trial below C: with a vCPU held 60 ms in
# every 500 ms (rfc2544/router) the search ended at 363 fps.  So
# the job is measured again (lib.sh remeasure, at most 5 runs) when it
# fails with the module reporting its generator more than 29.9 ms late;
# any other failure is the test's.
# Every frame a trial lost must be one the tbf dropped: the tester loses
# none of its own.
#
# All trials are full length (search = final = 3 s): with shorter search
# trials the excess (Q + b/A)/d differs between the two durations and the
# step-5 confirmation fails by construction (SPEC acceptance d), which
# costs a second full-length search; that case is the sim's unit test.
bm_load
topo_bridge 2
# The DUT of this run (lib.sh lab_draw, seed printed): R from 2 to 3.8
# Mbit/s (20 to 38 % of the line, under max_rate_pct 40), a bucket of 2400
# to 3600 bytes and a bfifo of 6000 to 9000: the model window above stays
# inside [-1 %, +1.9 %] of C for every draw.
dut_tbf_drawn
bmd_start

# measure: one job and its checks; remeasure runs it again if it fails
# with the generator held up longer than bucket and queue absorb,
# (B + limit) bytes at R (ABSORB, lib.sh).
measure() {
	drops0=$(qdisc_drops d2)
	bm_job thr rfc2544 throughput --port t1 --port t2 --line-rate 10M $R2544_FAST \
		--frame-sizes 512 \
		--param trial_duration_s=3 --param search_trial_duration_s=3 \
		--param drain_s=0.3 --param max_rate_pct=40 \
		--param resolution_pct=1 --param r_min_pct=5
	$BMCTL result "$job" --trials | sed -n '/^trials/,$p'
	$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
	# the generator's own account of every trial (REQ-GEN-6)
	sed -n '/^  "trials"/,/^  "results"/p' /tmp/thr.json | awk '
		/"rate_fps"/ { gsub(/[",]/, ""); r = $2 }
		/"lost"/ { gsub(/[",]/, ""); l = $2 }
		/"generator_limited"/ { gsub(/[",]/, ""); g = $2 }
		/"shortfall"/ { gsub(/[",]/, ""); sf = $2 }
		/"tx_late_frames"/ { gsub(/[",]/, ""); lf = $2 }
		/"tx_late_max_s"/ { gsub(/[",]/, ""); lm = $2 }
		/"actual_duration_s"/ { gsub(/[",]/, "");
			printf "note: trial %.2f fps lost %d gen_limited %s shortfall %d late_frames %d late_max %.1f ms span %.4f s\n", r, l, g, sf, lf, lm * 1000, $2 }'

	gl=$(jvals generator_limited /tmp/thr.json | grep -c true)
	note "trials flagged generator_limited: $gl"
	lost=$(jvals lost /tmp/thr.json | awk '{ s += $1 } END { print s }')
	drops=$(($(qdisc_drops d2) - drops0))
	check_eq "frames lost over all trials = tbf drops" "$lost" "$drops"

	check_tbf_throughput /tmp/thr.json ${R}000 2 512
}

remeasure $ABSORB /tmp/thr.json measure
