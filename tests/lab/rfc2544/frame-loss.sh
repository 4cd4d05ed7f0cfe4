# R2544-FLR end to end (bmctl -> bmd -> bmgen.ko) against a bridge DUT
# whose egress port d2 has a token bucket of rate R, drawn on every run
# (lib.sh lab_draw: the seed is printed) from 2 to 6 Mbit/s, with a bucket
# of 90 to 140 ms of tokens and a bfifo of 4000 to 16000 bytes: an egress
# that drains at 20 to 60 % of the line.
#
# tbf charges A = F + 20 bytes per frame (skb->len = F - 4 plus
# "overhead 24"), so it forwards C = R / 8 / A fps, R/10 Mbit/s of the
# notional 10 Mbit/s line at every size.  The steps are 100, 90, ... % of
# the line (max rate, AMB-17); the loop must stop after two successive
# zero-loss trials, at the step the model below predicts.  A draw that
# puts a step within a few frames of zero loss either way (where the
# model's timing, not bmgen, decides the row count) is drawn again.  512 B
# only since session 18 (make check's 30 minutes).
#
# Steady-state truth at offered rate X > C: loss = 1 - C/X.  A trial of
# N = X d frames also gets through what the bucket and queue hold: the
# bucket starts full (b bytes = b/A frames) and the bfifo still holds
# Q = floor(limit / (F - 4)) frames when the stream ends, and those drain
# out.  Over the stream's span t = (N - 1)/X the DUT therefore forwards
# floor((b + R/8 t)/A) + Q frames; that is the truth below, with t the
# span the generator really took, first to last departure, from its own
# account (actual_duration_s): a TCG guest at 100 % of the line may send
# the last frames late (generator_limited), and a span 12.5 ms longer lets
# 10 more 512 B frames through the bucket (a run failed 4 frames
# under the loss of the nominal span (N - 1)/X).  The naive 1 - C/X is
# printed next to it (the two differ by several points at the 1 s trials
# used here to keep make check short; the model is exact at any length).
bm_load
topo_bridge 2
# the DUT of this run: redrawn while a step lies too near zero loss (the
# model with the nominal span; +-: its tolerance below, 2 frames under,
# 1 % or 8 frames over, and 4 more for the span's variation)
try=0
while :; do
	try=$((try + 1))
	[ $try -le 50 ] || fail "no DUT with clear steps in 50 draws (seed $LAB_SEED)"
	R=$(lab_draw tbf_rate_kbit.$try 2000 6000 50)
	B_MS=$(lab_draw tbf_bucket_ms.$try 90 140)
	LIMIT=$(lab_draw bfifo_bytes.$try 4000 16000 500)
	B=$((R * B_MS / 8))
	ROWS=$(awk -v r=$R -v b=$B -v q=$LIMIT '
	BEGIN {
		f = 512; a = f + 20; xmax = 10e6 / 8 / a; zeros = 0
		for (p = 100; p >= 10 && zeros < 2; p -= 10) {
			rows++; x = xmax * p / 100; n = int(x + 0.5)
			fwd = int((b + r * 1000 / 8 * (n - 1) / x) / a) + int(q / (f - 4))
			l = n - fwd; tol = n / 100 > 8 ? n / 100 : 8
			if (l > 0 && l < 3) { print 0; exit }
			if (l <= 0 && l > -(tol + 4)) { print 0; exit }
			zeros = l > 0 ? 0 : zeros + 1
		}
		print zeros == 2 ? rows : 0
	}')
	[ "$ROWS" -gt 0 ] && break
done
note "seed $LAB_SEED, draw $try: tbf rate ${R} kbit/s, bucket $B bytes ($B_MS ms), bfifo $LIMIT bytes: $ROWS steps"
$TC -n dut qdisc add dev d2 root tbf rate ${R}kbit burst $B limit $LIMIT overhead 24 ||
	fail "tbf"
# REQ-TM-4: bmd reads the DUT's own counters (its egress qdisc's) before
# the job's traffic and 1 s after it (15 s by default: the lab's software
# DUT counts at once, and the result says the wait was short)
cat > /tmp/bmd-counters.conf <<EOF
dut-counters = $TC -n dut -s qdisc show dev d2 | sed -n 's/.*Sent [0-9]* bytes \\([0-9]*\\) pkt (dropped \\([0-9]*\\),.*/tbf_sent \\1\\ntbf_dropped \\2/p' | head -n2
dut-counters-wait = 1
EOF
bmd_start -c /tmp/bmd-counters.conf

bm_job flr rfc2544 frame-loss --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 512 --param trial_duration_s=1 \
	--param drain_s=0.3
$BMCTL -j result "$job" > /tmp/flr.json || fail "bmctl result --json"
# the per-size results only: the trial log has loss_pct keys too
sed -n '/^  "results"/,$p' /tmp/flr.json > /tmp/flr.res
jvals stop /tmp/flr.res > /tmp/flr.stop
jvals rate_pct /tmp/flr.res > /tmp/flr.pct
jvals rate_fps /tmp/flr.res > /tmp/flr.fps
jvals tx /tmp/flr.res > /tmp/flr.tx
jvals rx /tmp/flr.res > /tmp/flr.rx
jvals loss_pct /tmp/flr.res > /tmp/flr.loss
sed -n '/^  "trials"/,/^  "results"/p' /tmp/flr.json > /tmp/flr.trials
jvals actual_duration_s /tmp/flr.trials > /tmp/flr.span

check_eq "rows ($ROWS)" "$(wc -l < /tmp/flr.pct)" "$ROWS"
check_eq "trials, one span each" "$(wc -l < /tmp/flr.span)" "$ROWS"
check_eq "stop rule" "$(sort -u /tmp/flr.stop)" '"two successive zero-loss trials"'

# Tolerance, in frames against the model (then in loss % of that trial):
# -2: the model floors the bucket's tokens and the bfifo's byte limit,
#     each worth at most one frame either way;
# +8: the DUT forwards fewer when TCG fires tbf's watchdog later than the
#     tokens its bucket can hold (the excess tokens are lost): with a
#     10000-byte bucket (22.9 ms) a make check run lost 50 frames in one
#     trial to an ~84 ms stall of the guest, so the bucket holds at least
#     90 ms of tokens; measured 0..4 frames per lossy trial otherwise, but 9 once
#     more under load, so the bound is 1 % of the trial's frames (at least
#     8): the model's timing, not bmgen's counting, is what varies.  Zero-
#     loss steps must be exactly zero.  Whatever the timing,
#     every frame bmgen calls lost must be one the DUT says it dropped:
#     the sum over all trials equals tbf's own drop counter exactly.
row=0
for f in 512; do
	for step in $(seq 1 $ROWS); do
		row=$((row + 1))
		pct=$(sed -n ${row}p /tmp/flr.pct | awk '{ printf "%d", $1 + 0.5 }')
		x=$(sed -n ${row}p /tmp/flr.fps)
		tx=$(sed -n ${row}p /tmp/flr.tx)
		rx=$(sed -n ${row}p /tmp/flr.rx)
		loss=$(sed -n ${row}p /tmp/flr.loss)
		span=$(sed -n ${row}p /tmp/flr.span)
		check_eq "$f B step $step rate (% of max)" "$pct" $((110 - step * 10))
		awk -v f=$f -v x=$x -v n=$tx -v rx=$rx -v l=$loss -v p=$pct -v t=$span \
			-v r=$R -v b=$B -v q=$LIMIT '
		BEGIN {
			a = f + 20; c = r * 1000 / 8 / a
			fwd = int((b + r * 1000 / 8 * t) / a) + int(q / (f - 4))
			if (fwd > n) fwd = n
			want = (n - fwd) * 100 / n
			naive = x > c ? (1 - c / x) * 100 : 0
			printf "note: %d B at %d %%: tx %d rx %d loss %.3f %%, truth %.3f %% (%d frames), naive 1-C/X %.3f %%; %+d frames; span %.4f s (nominal %.4f)\n",
				f, p, n, rx, l, want, n - fwd, naive, fwd - rx, t, (n - 1) / x
			if (fwd == n)
				print 0, 0
			else
				# half a frame more each side: the loss is whole
				# frames, and a bound printed to 6 places may
				# round past the frame it stands for (a run of
				# exactly -2 frames failed on 53.8175047 > its
				# 53.81750466)
				printf "%.6f %.6f\n", (n - fwd - 2.5) * 100 / n,
					(n - fwd + 0.5 + (n / 100 > 8 ? n / 100 : 8)) * 100 / n
		}' > /tmp/flr.want
		head -n1 /tmp/flr.want
		set -- $(sed -n 2p /tmp/flr.want)
		check_range "$f B at $pct % loss (%)" "$loss" "$1" "$2"
	done
done
# the DUT's own account: every lost frame was dropped by the shaper
total=$(paste -d' ' /tmp/flr.tx /tmp/flr.rx | awk '{ s += $1 - $2 } END { print s }')
dropped=$(qdisc_drops d2)
check_eq "frames lost over all trials = tbf's drops" "$total" "$dropped"
# REQ-RX-3 through bmd: the module stops counting at the drain (0.3 s), and
# a trial that lost frames watches for late ones 0.25 s more (late_watch_s,
# with the read: under 1 s); one without loss keeps none (0).  Truth: late
# = 0, as the bfifo's at most 16000 bytes leave in 64 ms at 2 Mbit/s,
# long before the drain.
jvals lost /tmp/flr.trials > /tmp/flr.tlost
jvals late /tmp/flr.trials > /tmp/flr.tlate
jvals late_watch_s /tmp/flr.trials > /tmp/flr.twatch
check_eq "trials with late and late_watch_s" \
	"$(wc -l < /tmp/flr.tlate) $(wc -l < /tmp/flr.twatch)" "$ROWS $ROWS"
paste -d' ' /tmp/flr.tlost /tmp/flr.tlate /tmp/flr.twatch | awk '
	$1 > 0 && ($2 != 0 || $3 < 0.25 || $3 >= 1) { bad++ }
	$1 == 0 && ($2 != 0 || $3 != 0) { bad++ }
	END { print bad + 0 }' > /tmp/flr.bad
cat /tmp/flr.bad | sed 's/^/note: trials with a wrong late watch: /'
check_eq "late watch: 0.25..1 s on lossy trials, none on clean ones; late 0" \
	"$(cat /tmp/flr.bad)" 0
# REQ-TM-4: the DUT's own account of the job beside the tester's: every
# frame the tester lost over the job is one the tbf dropped (delta of its
# counter from before the first trial to 1 s after the last), and every
# frame it forwarded one the tester received.  Exact: nothing else crosses
# the quiet DUT.
jvals tbf_dropped /tmp/flr.json > /tmp/flr.dc
check_eq "DUT counters: before, after, delta of tbf_dropped" "$(wc -l < /tmp/flr.dc)" 3
set -- $(cat /tmp/flr.dc)
check_eq "DUT's tbf drops over the job (delta) = tester's lost" "$3" "$total"
check_eq "after - before = delta" $(($2 - $1)) "$3"
sed -n '/"tester"/,/}/p' /tmp/flr.json > /tmp/flr.tester
check_eq "the result's tester total lost = trials' lost" \
	"$(jvals lost /tmp/flr.tester)" "$total"
jvals tbf_sent /tmp/flr.json > /tmp/flr.dcs
set -- $(cat /tmp/flr.dcs)
check_eq "DUT's tbf sent over the job = tester's received" "$3" \
	"$(jvals received /tmp/flr.tester)"
$BMCTL result "$job" > /tmp/flr.report || fail "bmctl result"
grep -A6 '^DUT counters' /tmp/flr.report | sed 's/^/note: /'
grep -q "^  tbf_dropped .* $total\$" /tmp/flr.report ||
	fail "bmctl report tabulates the DUT's drops"
