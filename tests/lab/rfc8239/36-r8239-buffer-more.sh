# R8239-BUF-1 (buffer efficiency) and -BUF-3 (port-pair buffers) end to
# end: bmctl -> bmd -> bmgen.ko on bridge DUTs of known buffer, at a
# notional 10 Mbit/s line with os 10 % (reported; the queues fill in about
# a second instead of ten).
#
# BUF-1 (SPEC acceptance, DUT-TBFB): 3 ports, d2 = tbf rate 10mbit burst
# 9300 limit 20000 overhead 24, i.e. a byte-limited queue of 20000 bytes
# of skb->len (F - 4) behind a bucket of floor(9300/(F + 20)) frames:
#   truth(F) = (floor(20000/(F - 4)) + floor(9300/(F + 20))) x F bytes.
# Swept exhaustively over 1429 .. 1436: 20 frames up to 1432 (28640 B at
# 1432), 19 from 1433 (the queue loses a frame).  Each size's Buf_q must
# be truth(F) +- 2 frames (below, also the generator's largest reported
# lateness over the search x the frame rate: the window of lab 31), and
# B* must be the argmax 1432 or within one frame of its buffer.
#
# BUF-3 (SPEC acceptance shape, AMB-30): 6 ports, every dK a tbf at the
# line with burst 8000 and pfifo Q_K: Q = 100 on d2, 150 on d3, 1000
# elsewhere; 1518 B (the pairs 1<->2 and 3<->4 both ways at 99.98 % are
# 3.3 kfps, what the TCG guest's bridge carries); iteration 1 only (e = 2:
# egress 2 and 3; the RFC's last iteration would fill a queue of 1000
# frames, 12 s).  Truth Buf_q = Q_K + floor(8000/1538) = 105 and 155
# frames, +-2 (+ lateness).  Every frame lost, all runs, is a tbf drop.
bm_load
topo_bridge 6
$TC -n dut qdisc add dev d2 root tbf rate 10mbit burst 9300 limit 20000 \
	overhead 24 || fail "tbfb d2"
bmd_start

# check_q FILE TRUTH_AWK_EXPR: each repetition's Buf_q frames against the
# truth (an awk expression of F), -2 - lateness .. +2
check_q() {
	sed -n '/^  "results"/,$p' "$1" | tr -d '",' | awk -v fps="$3" '
		function truth(F, e) { '"$2"' }
		$1 == "frame_size:" && !fs { f = $2 }
		$1 == "egress:" { e = $2 }
		$1 == "buf_q_frames:" { bq = $2 }
		$1 == "search_tx_late_max_s:" { late = $2 }
		$1 == "lower_bound:" && bq != "" {
			n++; w = truth(f, e); lo = w - 2 - late * fps
			printf "note: %d B egress %s: Buf_q %.2f frames, truth %d, late %.1f ms\n", f, e, bq, w, late * 1000
			if ($2 != "false" || bq < lo || bq > w + 2) { printf "FAILMSG %d B egress %s: Buf_q %.2f, want [%.1f, %d]\n", f, e, bq, lo, w + 2; bad = 1 }
			bq = ""
		}
		END { if (!n) print "FAILMSG no measurement"; exit bad || !n }' > /tmp/q.check
	model_verdict /tmp/q.check $?
}
drops_all() {
	s=0
	for i in 1 2 3 4 5 6; do
		x=$($TC -n dut -s qdisc show dev d$i | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1)
		s=$((s + ${x:-0}))
	done
	echo $s
}

# BUF-1 on t1, t2, t3: t1 at 99.98 % and t3 at 10 % into t2
bm_job eff rfc8239 buffer-efficiency --port t1 --port t2 --port t3 \
	--line-rate 10M $LEARN_FAST --param sweep=exhaustive --param b_min=1429 \
	--param b_max=1436 --param os_pct=10 --param repeat=1 --param drain_s=0.3
$BMCTL -j result "$job" > /tmp/eff.json || fail "bmctl result"
check_q /tmp/eff.json \
	'return int(20000 / (F - 4)) + int(9300 / (F + 20))' 900
best=$(jvals best_frame_size /tmp/eff.json)
bb=$(awk -v f="$best" 'BEGIN { print (int(20000 / (f - 4)) + int(9300 / (f + 20))) * f }')
check_range "B* = $best: its true buffer (B), within a frame of 28640 at 1432" \
	"$bb" $((28640 - best)) 28640
lost1=$(jvals lost /tmp/eff.json | awk '{ s += $1 } END { print s + 0 }')
check_eq "BUF-1: frames lost = tbf drops" "$lost1" "$(drops_all)"

# BUF-3 on six ports
$TC -n dut qdisc del dev d2 root
q=1000
for i in 1 2 3 4 5 6; do
	case $i in 2) q=100 ;; 3) q=150 ;; *) q=1000 ;; esac
	$TC -n dut qdisc add dev d$i root handle 1: tbf rate 10mbit burst 8000 \
		limit 10000000 overhead 24 || fail "tbf d$i"
	$TC -n dut qdisc add dev d$i parent 1:1 handle 10: pfifo limit $q ||
		fail "pfifo d$i"
done
bm_job pp rfc8239 port-pair-buffer --port t1 --port t2 --port t3 --port t4 \
	--port t5 --port t6 --line-rate 10M $LEARN_FAST --frame-sizes 1518 \
	--param os_pct=10 --param iteration=1 --param repeat=1 --param drain_s=0.3
$BMCTL -j result "$job" > /tmp/pp.json || fail "bmctl result"
check_q /tmp/pp.json \
	'return (e == "t2" ? 100 : e == "t3" ? 150 : 1000) + int(8000 / 1538)' 813
lost3=$(jvals lost /tmp/pp.json | awk '{ s += $1 } END { print s + 0 }')
check_eq "BUF-3: frames lost = tbf drops" "$lost3" "$(drops_all)"
