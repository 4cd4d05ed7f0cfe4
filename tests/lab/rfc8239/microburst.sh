# R8239-MB (RFC 8239 §4) end to end: bmctl -> bmd -> bmgen.ko, 3 and 4
# tester ports on a bridge DUT whose egress ports d3 and d4 are DUT-TBF of
# known capacity (SPEC R8239-MB acceptance, notional 100 Mbit/s, 512 B):
#
#   tbf rate 1mbit burst 1600 overhead 24, child pfifo limit Q (drawn on
#   every run, 60..140; the figures below are for Q = 100, as before)
#
# MODEL-TBF: a frame costs A = F - 4 + 24 = 532 bytes of tokens, the full
# bucket b = 1600 B lets floor(b/A) = 3 frames through at once, and tokens
# come back at rho = 125000 B/s.  Frames that reach one egress within T
# (first to last arrival) are all forwarded iff their number is at most
#   C(T) = Q + floor((b + rho T) / A).
# Per repetition the procedure reports the loss-free burst and the
# smallest lossy one, each with the span the generator took to send it
# (its own first and last departure; on veth a frame reaches the tbf as
# it leaves the tester).  Truth: the loss-free burst's frames per egress
# are <= C(T_ok) and the lossy burst's > C(T_lossy), each +-1 frame: the
# tx stamp and the enqueue are a few us apart in the TCG guest, and a
# token can arrive in between.  A lossy burst that took longer than the
# bucket's time (b / rho = 12.8 ms; the generator held up by the host)
# may also have met a tbf whose timer stalled longer than that, which
# loses the tokens beyond b: its bound is lower by ceil((T - 12.8 ms) x
# rho / A) frames (a check on a busy host saw 106 frames lossy over
# 17.28 ms, C(T) = 107: one token's worth lost).
# In iteration j the N-j ingress ports send burst n round robin over the
# j egress ports (AMB-31), so the busiest egress takes (N-j) ceil(n/j).
#
# Why 1 Mbit/s and not the SPEC's 10 Mbit/s: the SPEC's closed form
# Q + floor(b/A) = 103 leaves out the tokens that come back during the
# burst.  At 10 Mbit/s a 2 x 53-frame burst at 100 Mbit/s lasts 2.3 ms,
# rho T = 2.8 kB, and the truth is 108, not 103 +- 1.  At 1 Mbit/s rho T
# stays below one frame for bursts up to 4.3 ms, so the SPEC's numbers
# hold as well where the generator kept to its notional line: 103 +- 1
# per egress (2 -> 1: 51 or 52 per port; 3 -> 1: 34; 2 -> 2: 102..104).
# The TCG guest sends 10 to 30 kfps, not 23.5 kfps a port, and a longer
# burst earns more tokens, so 103 +- 1 is checked for each repetition
# whose span gives C(T) = 103, the full form for all; the RSD of each
# series is printed (RFC 8239 §1.2).
# Every frame a trial lost must be one the tbfs dropped.
# A fresh-clone check of 51b6a8f failed once, idle: a lossy burst
# of 104 frames over 10.94 ms (C = 105), sent at 28.6 % intensity, i.e.
# the generator held up about 8.7 ms.  The departures the module logs are
# the span T; a generator held up longer than one frame's tokens (A / rho
# = 4.256 ms) may have its frames reach the tbf bunched by more than the
# logged spans show, one token-frame fewer than C(T).  So a job that fails
# with the module reporting its generator over 4.256 ms late is measured
# again (`remeasure`, at most 5 runs, each saying why).
# Cost: the queue drains in 100 x 532 B / 125 kB/s = 0.43 s, drain_s 0.6.
bm_load
topo_bridge 4
# Q is drawn on every run (lib.sh lab_draw, seed printed): 60..140
# frames (100 until 2026-12-02); the SPEC form is then Q + 3 +- 1
Q=$(lab_draw pfifo_frames 60 140)
note "seed $LAB_SEED: pfifo limit $Q frames on d3 and d4"
for d in d3 d4; do
	$TC -n dut qdisc add dev $d root handle 1: tbf rate 1mbit burst 1600 \
		limit 1000000 overhead 24 || fail "tbf $d"
	$TC -n dut qdisc add dev $d parent 1:1 handle 10: pfifo limit $Q ||
		fail "pfifo $d"
done
bmd_start

# check_reps FILE: every repetition of every iteration against MODEL-TBF
check_reps() {
	sed -n '/^  "results"/,$p' "$1" | tr -d '",' | awk -v q=$Q '
		function C(span) {
			# arrivals span the departures less one frame time
			t = span - 532 * 8 / 1e8
			if (t < 0) t = 0
			return q + int((1600 + 125000 * t) / 532)
		}
		function per_egress(n) { return nin * int((n + j - 1) / j) }
		$1 == "j:" { j = $2 }
		$1 == "n_ingress:" { nin = $2 }
		$1 == "burst_per_port:" { ok = $2 }
		$1 == "burst_span_s:" { sok = $2 }
		$1 == "sync_pct:" { sy = $2 }
		$1 == "intensity_pct:" { it = $2 }
		$1 == "lossy_burst_per_port:" { bad = $2 }
		$1 == "lossy_span_s:" {
			r++
			a = per_egress(ok); ca = C(sok)
			b = per_egress(bad); cb = C($2)
			printf "note: j=%d rep %d: %d per port (%d at the egress, C = %d over %.2f ms), lossy %d (%d, C = %d over %.2f ms), sync %s %%, intensity %s %%\n", j, r, ok, a, ca, sok * 1000, bad, b, cb, $2 * 1000, sy, it
			if (a > ca + 1) { printf "FAILMSG j=%d rep %d: loss-free %d frames at the egress > C(T) + 1 = %d\n", j, r, a, ca + 1; bad_any = 1 }
			# a burst longer than the bucket time (b / rho =
			# 12.8 ms) may have met a tbf timer stall long enough
			# for tokens beyond b to be lost: that many fewer
			# frames can make it lossy
			st = $2 > 0.0128 ? ($2 - 0.0128) * 125000 / 532 : 0
			st = st == int(st) ? st : int(st) + 1
			if (b < cb - st) { printf "FAILMSG j=%d rep %d: lossy %d frames at the egress <= C(T) - 1 - %d (stall) = %d\n", j, r, b, st, cb - 1 - st; bad_any = 1 }
			# the SPEC form Q + floor(b/A) = 103 +- 1 where it
			# holds: a burst short enough for rho T < A - 4 B.
			# The egress takes whole bursts of every ingress, so
			# the loss-free total steps by per_egress(ok + 1) - a
			# (3 frames from 3 ports): too low is when the next
			# step ends still below Q + 2
			if (ca == q + 3 && (per_egress(ok + 1) - 1 < q + 2 || a > q + 4)) { printf "FAILMSG j=%d rep %d: %d frames at the egress outside %d +- 1 (steps of %d)\n", j, r, a, q + 3, per_egress(ok + 1) - a; bad_any = 1 }
		}
		END { if (!r) print "FAILMSG no repetitions"; exit bad_any || !r }' > /tmp/mb.check
	model_verdict /tmp/mb.check $?
}

# check_losses FILE: frames lost over all trials = the tbfs' drops so far
MB="rfc8239 microburst --line-rate 100M $LEARN_FAST --frame-sizes 512 \
	--param drain_s=0.6 --param burst_max=1024"

# drops of both egress tbfs so far
d_all() {
	s=0
	for d in d3 d4; do
		x=$(qdisc_drops $d)
		s=$((s + x))
	done
	echo $s
}

# mb NAME PORTS...: one job, its model check and its loss count
mb() {
	n=$1
	shift
	d0=$(d_all)
	bm_job $n $MB "$@"
	$BMCTL -j result "$job" > /tmp/$n.json || fail "bmctl result"
	check_reps /tmp/$n.json
	lost=$(jvals lost /tmp/$n.json | awk '{ s += $1 } END { print s + 0 }')
	check_eq "$n: frames lost over all trials = tbf drops" "$lost" \
		"$(($(d_all) - d0))"
	jvals rsd_pct /tmp/$n.json | sed "s/^/note: RSD (%) of the aggregate burst, $n: /"
	note "$n: bursts sent again (generator fell short): $(jvals bursts_sent_again /tmp/$n.json)"
}

# 2 ingress -> 1 egress (t3), then on 4 ports j = 1 and 2
remeasure 0.004256 /tmp/mb3.json mb mb3 --port t1 --port t2 --port t3 --param repeat=2
remeasure 0.004256 /tmp/mb4.json mb mb4 --port t1 --port t2 --port t3 --port t4 --param repeat=2
