# R8239-BUF-2 and -BUF-4 (RFC 8239 §3.2 (2) and (4)) end to end: bmctl ->
# bmd -> bmgen.ko, 4 tester ports on a bridge DUT whose every egress dK is
# DUT-TBF at the notional line rate (10 Mbit/s) with a queue of its own:
#
#   tbf rate 10mbit burst 8000 overhead 24, child pfifo limit Q_K,
#   Q_K drawn from 80..260 on every run (below; the figures in this
#   comment are those of the DUT it had before: 100, 150, 200, 250 on
#   d1 .. d4); frames of 512 B
#
# The procedures find the inflection from per-frame logs (REQ-BUF-1,
# method log): they lengthen the traffic until a frame into the egress is
# lost, and Buf_q is what the egress held when it dropped that frame:
# frames it took up to t_loss - frames that had left by then, a frame
# received at rx having left at rx - L0 + t_wire (L0 the trial's smallest
# latency; the frame on the line is the egress's).  When the pfifo drops,
# it holds Q_K frames (tbf peeks its head without taking it out), and the
# frame the tbf sent last is on the notional line: truth Buf_q = Q_K + 1.
# The bucket (8000 B = 15 frames of A = F - 4 + 24 = 532 B) lets frames
# out above the line early in the trial; they have left, so they are not
# buffer (the counters' estimator, method search, counted them: Q_K + 15).
# Nothing about how fast the egress served or how late the generator was
# enters: a queue that drops is full.  Window +-2 frames: L0 and t_wire
# place each departure within a frame time (0.43 ms at 512 B on the 10
# Mbit/s line), and the guest's receive path adds up to another.
# Oversubscription 10 % instead of the RFC's 1 % (reported as such): the
# queue fills at 9.98 % of the line, 234.5 fps, so the largest egress
# (251 frames) fills in 1.1 s and not 11 s.  At os 10 % the RFC's own
# estimator Buf_rfc = (n_os - 1) F counts 1/0.998 of the frames it
# should (F-7), +0.2 %; Buf_rfc_corr removes that.
#
# port-buffer (BUF-2) on t1..t4: egress t2 (Q 150, fed by t1 at 99.98 %
# and t3 at 10 %) and t3 (Q 200, t2 and t4).  dut-buffer (BUF-4): egress
# t4, t1, t2, t3, each fed by the other three at 36.66 % (F-8 at os 10 %).
# Every frame a trial lost must be one a tbf dropped.
bm_load
topo_bridge 4
# The queues of this run (lib.sh lab_draw, seed printed): Q_K of 80..260
# frames each (the largest fills in 1.1 s at os 10 %)
QS=
for k in 1 2 3 4; do
	QS="$QS $(lab_draw pfifo_d$k 80 260 10)"
done
set -- $QS
Q1=$1 Q2=$2 Q3=$3 Q4=$4
QMAX=$(printf '%s\n' $QS | sort -n | tail -n1)
note "seed $LAB_SEED: pfifo limits d1..d4 $QS frames"
k=0
for d in d1 d2 d3 d4; do
	k=$((k + 1))
	eval q=\$Q$k
	$TC -n dut qdisc add dev $d root handle 1: tbf rate 10mbit burst 8000 \
		limit 1000000 overhead 24 || fail "tbf $d"
	$TC -n dut qdisc add dev $d parent 1:1 handle 10: pfifo limit $q ||
		fail "pfifo $d"
done
bmd_start

# check_buf FILE: each repetition's Buf_q against Q_e + 1 +- 2
check_buf() {
	sed -n '/^  "results"/,$p' "$1" | tr -d '",' | awk -v qs="$QS" '
		BEGIN { split(qs, q, " ") }
		$1 == "egress:" { e = $2; sub(/^t/, "", e); want = q[e] + 1 }
		$1 == "n_os:" { nos = $2 }
		$1 == "buf_q_frames:" { bq = $2 }
		$1 == "buf_rfc_corr_bytes:" { bc = $2 }
		$1 == "search_tx_late_max_s:" { late = $2 }
		$1 == "lower_bound:" && e != "" && bq != "" {
			r++
			printf "note: egress t%s: Buf_q %.2f frames (truth %d), Buf_rfc_corr %s B, n_os %s, generator late <= %.1f ms\n", e, bq, want, bc, nos, late * 1000
			if ($2 != "false") { printf "FAILMSG egress t%s: no loss found\n", e; bad = 1 }
			if (bq < want - 2 || bq > want + 2) { printf "FAILMSG egress t%s: Buf_q %.2f frames, want %d +- 2\n", e, bq, want; bad = 1 }
			bq = ""
		}
		END { if (!r) print "FAILMSG no repetitions"; exit bad || !r }' > /tmp/buf.check
	model_verdict /tmp/buf.check $?
}

# drops4: the frames the four tbfs dropped so far
drops4() {
	n=0
	for d in d1 d2 d3 d4; do
		x=$(qdisc_drops $d)
		n=$((n + ${x:-0}))
	done
	echo $n
}

BUF="--line-rate 10M $LEARN_FAST --frame-sizes 512 --param os_pct=10 \
	--param drain_s=0.3 --port t1 --port t2 --port t3 --port t4"

# buf_run NAME PROC REPEAT: the job, its Buf_q and that every frame it lost
# is one a tbf dropped in it
buf_run() {
	before=$(drops4)
	bm_job "$1" rfc8239 "$2" $BUF --param repeat="$3"
	$BMCTL -j result "$job" > /tmp/$1.json || fail "bmctl result"
	check_buf /tmp/$1.json
	# the estimator checked is the one the result calls its buffer
	check_eq "$2: every iteration's buffer is Buf_q" \
		"$(jvals estimator /tmp/$1.json | sort -u | tr -d '"')" buf_q
	lost=$(jvals lost /tmp/$1.json | awk '{ s += $1 } END { print s + 0 }')
	check_eq "$2: frames lost over all trials = tbf drops" "$lost" \
		$(($(drops4) - before))
}

# The log's premise is a receive path as prompt as when the trial saw
# its smallest latency L0: a departure stamped D late reads D / t_wire
# frames too many (never too few).  A guest whose generator the module
# reports over 30 ms late was descheduled that long, its receive path
# with it (seen: +28 frames at 58 ms, +2..+6 at 50-70 ms, exact below
# 30 ms), so such a failed run is measured again (remeasure, lib.sh).
remeasure 0.030 /tmp/pbuf.json buf_run pbuf port-buffer 2
jvals rsd_pct /tmp/pbuf.json | sed 's/^/note: RSD (%) port-buffer: /'

remeasure 0.030 /tmp/dbuf.json buf_run dbuf dut-buffer 1
max=$(jvals max_dut_buffer_bytes /tmp/dbuf.json)
# the largest egress: (QMAX + 1) frames of 512 B +- 2 frames
check_range "max DUT buffer (B), ($QMAX + 1) x 512 +- 2 frames" "$max" \
	$(((QMAX - 1) * 512)) $(((QMAX + 3) * 512))

# An egress that drains at half the line: d2's tbf at 5 Mbit/s behind the
# notional 10 Mbit/s line, its pfifo 150 (the root replaced whole: `tc
# qdisc change` with a limit puts a 1 MB bfifo in place of the pfifo).
# Port-buffer iteration 1 (t1 at 99.98 %, t3 at 10 % into t2) fills it at
# 59.98 % of the line's 2,349 fps, and RFC 8239 §3.2's (n_os - 1) x F
# reads about 25 frames for the 151 it holds (n_os = 10 / 59.98 x 151).
# Truth: the egress served at 50 % of the line (5 / 10, the tbf counting
# A = 532 B as the line counts F + 20), +- 3 %; Buf_q = 151 frames +- 2
# as above; the buffer is Buf_q, estimator_why says why Buf_rfc reads
# low, and the result has the deviation.  Earlier, the result
# headlined Buf_rfc with no deviation.
$TC -n dut qdisc del dev d2 root || fail "d2 root away"
$TC -n dut qdisc add dev d2 root handle 1: tbf rate 5mbit burst 8000 \
	limit 1000000 overhead 24 || fail "tbf d2 at 5 Mbit/s"
$TC -n dut qdisc add dev d2 parent 1:1 handle 10: pfifo limit $Q2 ||
	fail "pfifo d2"
slow() {
	bm_job slow rfc8239 port-buffer $BUF --param repeat=1 --param iteration=1
	$BMCTL -j result "$job" > /tmp/slow.json || fail "bmctl result"
	check_eq "half-rate egress: estimator" \
		"$(jvals estimator /tmp/slow.json | tr -d '"')" buf_q
	check_range "half-rate egress: its service (% of the line)" \
		"$(jvals egress_service_pct_line /tmp/slow.json | head -n1)" 47 53
	check_range "half-rate egress: Buf_q (frames), $Q2 + 1 +- 2" \
		"$(jvals buf_q_frames /tmp/slow.json | head -n1)" $((Q2 - 1)) $((Q2 + 3))
	note "half-rate egress: Buf_rfc $(jvals buf_rfc_bytes /tmp/slow.json) B, $(jvals estimator_why /tmp/slow.json)"
	grep -q 'whose egress served below the line rate, where Buf_rfc reads low' /tmp/slow.json ||
		fail "half-rate egress: no deviation"
}
remeasure 0.030 /tmp/slow.json slow
