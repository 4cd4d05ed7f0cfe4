# RFC 2544's data stream types end to end: bmctl -> bmd
# -> bmgen.ko, rfc2544 throughput with §21 bursts, a §18 IMIX and §11.1
# broadcast frames, against the bridge + tbf DUT of rfc2544/throughput
# (SPEC DUT-TBF), re-made for each job so that its counters are the job's.
#
# tbf accounting (rfc2544/throughput): a frame costs A = F - 4 + overhead 24 =
# F + 20 bytes of tokens, so a tbf of rate R forwards C = R / 8 / (F + 20) fps
# of F-byte frames and, of a mix, C = R / 8 / (m + 20) fps, m the mean size.
# Its bfifo holds Q = floor(limit / (F - 4)) frames, the bucket floor(b/A).
# Every job but the bursts (10 Mbit/s, below) runs on a notional 100 Mbit/s
# line (r_max and r_min chosen
# around C), full-length 2 s trials only, resolution 1 % of the result.
#
# 1. Bursts (R2544-BURSTY), 512 B: tbf 300 kbit/s, burst 3200, limit 5700:
#    C = 70.489 fps, Q = 11, bucket 6 frames.  A burst of n back to back
#    into an idle tbf passes iff n <= Q + 6 + refill (the burst lasts
#    ~2 ms here: 0.1 frame): n = 16 passes with one frame to spare, n = 64
#    never.  At an average rate r <= C the bucket and queue are whole again
#    by the next burst (n frames take n / C <= n / r); above C they lose
#    what the spare frame does not absorb, so the search ends in
#    [C - 1 %, C + 1 / 2 s] = [-1 %, +0.71 %].  bmgen.ko spaces bursts end
#    to start from the last frame's real departure, with the gap worked
#    out for the notional line (42.56 us a frame): a burst that really
#    takes t per frame shifts the period by 16 (t - 42.56 us), at 70 fps
#    +-1 % for t within 42.56 +- 150 us, and a kthread that wakes late
#    stretches the gap (rate lower, result higher): +0.5 % for 1 ms.  So
#    16 is checked to [-2.5 %, +3 %] of C, and 64 must be "throughput <
#    r_min" (SPEC's not-achievable path), with no interval.
# 2. IMIX (R2544-MIX) "classic" 64:7, 594:4, 1518:1, m = 361.83 B: tbf
#    3 Mbit/s, burst 3200, limit 8000 (rfc2544/throughput's): C = 982.10 fps
#    of the mix.  The bfifo (about 22 frames of the mix) and the bucket (8)
#    absorb 30 frames over 2 s above C: window [-1 %, +1.5 %]; checked to
#    [-2 %, +2.5 %] (rfc2544/throughput's margin for TCG generator
#    bursts).  The rates of the mix: l1 = fps (m + 20) 8, % of line of that.
# 3. Broadcast 1 % (R2544-MOD §11.1), 512 B: rfc2544/throughput's
#    tbf, C = 704.89 fps of all frames (the tbf drops broadcast and test
#    frames alike); window [C - 1 %, C + (15 + 6) / 2 s] = [-1 %, +1.5 %],
#    checked to [-2 %, +2.5 %].  A two-port bridge floods a broadcast frame to
#    d2 only, so t2 receives every broadcast frame the tbf does not drop, at
#    about 1 % of the frames.  §11.1's broadcasts modify the stream; the
#    throughput counts test frames (§26.1), so a trial may pass with a
#    broadcast frame lost.  At the throughput the tbf drops none where
#    r <= C; above C (the window's top, +1.5 %, is where the absorption
#    runs out) it may drop a frame, and a trial that lost no test frame
#    lost only broadcasts there (run 18 of session 23's stressed boot: 1
#    of 14 at 715.46 fps): at most the frames offered beyond C,
#    (r - C) x 2 s.  broadcast_delivered must say what that trial's
#    counts say ("all", "some", "none").
# Every job: every frame the trials lost (test frames, plus broadcast
# frames sent and not received) is one the tbf dropped.
# Jobs 2 and 3 run on rfc2544/throughput's tbf, whose bucket and queue absorb
# a generator held up 29.9 ms ((3200 + 8000) B at 3 Mbit/s); a stall longer
# than that fails a trial below C (a stressed fresh clone once read 846
# fps of the mix for 982).  So each is measured again (lib.sh remeasure,
# at most 5 runs, said in the output) when it fails with the module
# reporting its generator more than 29.9 ms late, as rfc2544/throughput is;
# any other failure is the test's.  Job 1 is not: a late burst only lowers
# the offered rate (bursts are spaced from the last frame's real
# departure), which the +3 % bound covers.
# Stalls add up (lab.md, sessions 22-23): with the worst single lateness
# as the trigger, stalls of 17-23 ms lost 42 and 55 frames below C in one
# 2 s trial with no remeasure (1 stressed run in 20, at eeb3ab1).  The
# generator's catch-up bursts alone cannot do that (the frames of any
# stretch exceed C times its length by at most C times the largest
# lateness, and the tbf serves while the generator stalls); a tbf held up
# with it (one guest) can: while its queue holds frames each stall costs
# it service beyond the bucket's 8.5 ms, and below C the queue drains
# only at C - r (9.8 fps at -1 %).  So jobs 2 and 3 are also measured
# again when one trial's stalls beyond the bucket's 8.53 ms add up to
# more than the queue's 21.3 ms (remeasure --bucket; the module keeps a
# trial's 8 largest stalls, tx_stalls_s, which the IMIX job checks
# against their definition).  The sum of every stall would not do: the
# interval-long jitter of an idle TCG guest adds up to 45-100 ms a trial.
#
# Guest time: about 8 + 2 + 8 + 8 trials of 2 s plus learning (0.2 s),
# drain (0.3 s) and set-up: 70-80 s.
bm_load
topo_bridge 2
bmd_start

# tbf RATE BURST LIMIT: a fresh tbf on d2 (fresh counters)
tbf() {
	$TC -n dut qdisc del dev d2 root 2>/dev/null
	$TC -n dut qdisc add dev d2 root tbf rate "$1" burst "$2" limit "$3" \
		overhead 24 || fail "tbf $*"
}
# drops: the tbf's drop counter
drops() {
	qdisc_drops d2
}
# trials FILE OUT: the trial records of result FILE; results FILE OUT: its
# per_size entries (the only places each key means one thing)
trials() {
	sed -n '/^  "trials"/,/^  "results"/p' "$1" > "$2"
}
results() {
	sed -n '/"per_size"/,$p' "$1" > "$2"
}
# sum KEY FILE
sum() {
	jvals "$1" "$2" | awk '{ s += $1 } END { print s + 0 }'
}
# truth_range NAME GOT TRUTH LO_PCT HI_PCT
truth_range() {
	note "$1: $2, truth $3 ($(awk -v g="$2" -v t="$3" 'BEGIN { printf "%+.2f", (g / t - 1) * 100 }') %)"
	check_range "$1" "$2" "$(awk -v t="$3" -v p="$4" 'BEGIN { printf "%.3f", t * (1 - p / 100) }')" \
		"$(awk -v t="$3" -v p="$5" 'BEGIN { printf "%.3f", t * (1 + p / 100) }')"
}
COMMON="--port t1 --port t2 --line-rate 100M $R2544_FAST
	--param trial_duration_s=2 --param search_trial_duration_s=2
	--param drain_s=0.3 --param resolution_pct=1 --param r_min_pct=60"

# --- 1. §21 bursts of 16 and 64 -------------------------------------------
# On a notional 10 Mbit/s line: §21's bursts are back to back at the line,
# and the module judges each frame against that (a frame more than 10 us
# behind its burst's first departure + its frame times makes the trial
# generator-limited, never a pass).  At 100 Mbit/s (42.56 us a frame) the
# TCG guest's 10 to 30 kfps cannot keep a burst together; at 10 Mbit/s
# (425.6 us) it can, and the burst of 16 lasts 6.8 ms: 0.5 frame of
# refill, the model above within [-1 %, +0.74 %].
tbf 300kbit 3200 5700
# r_max = 4.5 % of fps_max(512) = 105.7 fps, r_min 63.4 fps
bm_job burst rfc2544 throughput $(echo "$COMMON" | sed 's/--line-rate 100M/--line-rate 10M/') \
	--frame-sizes 512 \
	--param max_rate_pct=4.5 --param 'burst_sizes=[16,64]'
$BMCTL -j result "$job" > /tmp/b.json || fail "bmctl result (bursts)"
trials /tmp/b.json /tmp/b.tr
results /tmp/b.json /tmp/b.res
# every burst trial's gaps measured; none passed while spread
check_eq "bursts: trials with their gaps measured" \
	"$(jvals tx_burst_late_max_s /tmp/b.tr | wc -l)" "$(jvals attempted /tmp/b.tr | wc -l)"
jvals tx_burst_late_max_s /tmp/b.tr > /tmp/b.late
jvals generator_limited /tmp/b.tr > /tmp/b.gl
paste -d' ' /tmp/b.late /tmp/b.gl |
	awk '$1 > 10e-6 && $2 != "true" { bad++ } END { print bad + 0 }' > /tmp/b.spread
check_eq "bursts: a trial whose burst spread > 10 us is generator-limited" \
	"$(cat /tmp/b.spread)" 0
note "bursts: largest spread $(jvals tx_burst_late_max_s /tmp/b.tr | sort -g | tail -n1) s, generator-limited trials $(jvals generator_limited /tmp/b.tr | grep -c true)"
check_eq "bursts: lost over all trials = tbf drops" "$(sum lost /tmp/b.tr)" "$(drops)"
[ "$(jvals stream_type /tmp/b.tr | grep -c 'bursty(')" -ge 10 ] ||
	fail "bursts: fewer than 10 trial records say bursty(n)"
[ "$(jvals stream_type /tmp/b.tr | grep -vc 'bursty(')" -eq 0 ] ||
	fail "a burst trial record without stream_type bursty(n)"
check_eq "bursts: entries" "$(jvals burst_frames /tmp/b.res | tr '\n' ' ')" "16 64 "
check_eq "bursts: 16 result" "$(jvals result /tmp/b.res | head -n1)" '"ok"'
c16=$(awk 'BEGIN { printf "%.3f", 300000 / 8 / 532 }')
thr=$(jvals throughput_fps /tmp/b.res | head -n1)
truth_range "bursts of 16: throughput (average fps)" "$thr" "$c16" 2.5 3
per=$(jvals inter_burst_period_s /tmp/b.res | head -n1)
check_range "bursts of 16: inter_burst_period_s = 16 / throughput" \
	"$(awk -v p="$per" -v t="$thr" 'BEGIN { printf "%.9f", p * t / 16 }')" 0.999999 1.000001
check_eq "bursts of 64: result" "$(jvals result /tmp/b.res | sed -n 2p)" \
	'"not measured: throughput < r_min"'
check_eq "bursts of 64: throughput" "$(jvals throughput_fps /tmp/b.res | sed -n 2p)" null
check_eq "bursts of 64: interval" "$(jvals inter_burst_period_s /tmp/b.res | sed -n 2p)" null

# --- 2. §18 IMIX ----------------------------------------------------------
imix_job() {
	tbf 3mbit 3200 8000
	# r_max = 4.2 % of fps_max(m) = 1375 fps, r_min 825 fps
	bm_job imix rfc2544 throughput $COMMON --param imix=classic \
		--param max_rate_pct=4.2
	$BMCTL -j result "$job" > /tmp/i.json || fail "bmctl result (imix)"
	trials /tmp/i.json /tmp/i.tr
	results /tmp/i.json /tmp/i.res
	# every trial's generator account (REQ-GEN-6), and the module's
	# stalls against their definition (kmod/tx.c, one stream): largest
	# first, none above the largest lateness (a frame gains at most its
	# own lateness), and one at least where that is over an interval
	# (the frame that first reached it gained lateness)
	awk '
		function done_() {
			printf "note: trial %.2f fps lost %d late_frames %d late_max %.1f ms stalls%s ms\n",
				r, l, lf, lm * 1000, list
			if (n && (top > lm + 1e-9 || !ord) || !n && lm > 1 / r + 1e-6) {
				print "note: stalls against late_max " lm " s, 1 / rate " 1 / r " s"
				bad = 1
			}
			inb = 0; k++
		}
		/"rate_fps"/ { gsub(/[",]/, ""); r = $2 }
		/"lost"/ { gsub(/[",]/, ""); l = $2 }
		/"tx_late_frames"/ { gsub(/[",]/, ""); lf = $2 }
		/"tx_late_max_s"/ { gsub(/[",]/, ""); lm = $2 }
		/"tx_stalls_s": *\[/ { inb = 1; n = 0; ord = 1; list = ""
			if ($0 ~ /\]/) done_()
			next }
		inb && /\]/ { done_(); next }
		inb { v = $1; gsub(/,/, "", v); v += 0
			if (!n) top = v
			if (v <= 0 || n && v > prev) ord = 0
			prev = v; n++; list = list sprintf(" %.1f", v * 1000) }
		END { exit bad || !k }' /tmp/i.tr ||
		fail "imix: tx_stalls_s of a trial against its definition (or none)"
	check_eq "imix: lost over all trials = tbf drops" "$(sum lost /tmp/i.tr)" "$(drops)"
	check_eq "imix: the mix" "$(jvals imix /tmp/i.res)" '"64:7,594:4,1518:1"'
	check_range "imix: mean_frame_size" "$(jvals mean_frame_size /tmp/i.res)" 361.833 361.834
	check_eq "imix: result" "$(jvals result /tmp/i.res)" '"ok"'
	cm=$(awk 'BEGIN { printf "%.3f", 3e6 / 8 / (4342 / 12 + 20) }')
	thr=$(jvals throughput_fps /tmp/i.res)
	truth_range "imix: throughput (fps of the mix)" "$thr" "$cm" 2 2.5
	check_range "imix: throughput_l1_bps / (fps (m + 20) 8)" \
		"$(awk -v l="$(jvals throughput_l1_bps /tmp/i.res)" -v t="$thr" \
			'BEGIN { printf "%.9f", l / (t * (4342 / 12 + 20) * 8) }')" 0.999999 1.000001
	check_range "imix: throughput_pct_line = l1 / 100 Mbit/s" \
		"$(awk -v p="$(jvals throughput_pct_line /tmp/i.res)" -v l="$(jvals throughput_l1_bps /tmp/i.res)" \
			'BEGIN { printf "%.9f", p / (l / 1e6) }')" 0.999999 1.000001
}
remeasure --bucket 0.00853 0.0299 /tmp/i.json imix_job

# --- 3. §11.1 broadcast frames, 1 % -----------------------------------------
bcast_job() {
	tbf 3mbit 3200 8000
	# r_max = 4.2 % of fps_max(512) = 986.8 fps, r_min 592 fps
	bm_job bcast rfc2544 throughput $COMMON --frame-sizes 512 \
		--param max_rate_pct=4.2 --param broadcast_pct=1
	$BMCTL -j result "$job" > /tmp/c.json || fail "bmctl result (broadcast)"
	trials /tmp/c.json /tmp/c.tr
	results /tmp/c.json /tmp/c.res
	bsent=$(sum broadcast_sent /tmp/c.tr)
	brecv=$(sum broadcast_received /tmp/c.tr)
	note "broadcast frames over all trials: $bsent sent, $brecv received on t2"
	[ "$bsent" -gt 0 ] || fail "no broadcast frame sent"
	check_eq "broadcast: lost test frames + lost broadcasts = tbf drops" \
		"$(($(sum lost /tmp/c.tr) + bsent - brecv))" "$(drops)"
	check_eq "broadcast: result" "$(jvals result /tmp/c.res)" '"ok"'
	c512=$(awk 'BEGIN { printf "%.3f", 3e6 / 8 / 532 }')
	truth_range "broadcast: throughput (fps of all frames)" \
		"$(jvals throughput_fps /tmp/c.res)" "$c512" 2 2.5
	bs=$(jvals broadcast_sent /tmp/c.res)
	br=$(jvals broadcast_received /tmp/c.res)
	[ -n "$bs" ] && [ -n "$br" ] || fail "no broadcast counts at the throughput"
	want=some
	[ "$br" -lt "$bs" ] || want=all
	[ "$br" -gt 0 ] || want=none
	check_eq "broadcast: delivered at the throughput ($br of $bs)" \
		"$(jvals broadcast_delivered /tmp/c.res)" "\"$want\""
	check_range "broadcast: lost at the throughput (0 at or below C, at most (r - C) x 2 s above)" \
		"$((bs - br))" 0 "$(awk -v r="$(jvals throughput_fps /tmp/c.res)" \
			-v c="$c512" 'BEGIN { x = (r - c) * 2; print (x > 0 ? int(x) + (x > int(x)) : 0) }')"
	check_range "broadcast: actual level (% of the frames)" \
		"$(jvals broadcast_actual_pct /tmp/c.res)" 0.9 1.1
}
remeasure --bucket 0.00853 0.0299 /tmp/c.json bcast_job
