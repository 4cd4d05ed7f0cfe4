# R8239-BUF-2 and -BUF-4 (RFC 8239 §3.2 (2) and (4)) end to end: bmctl ->
# bmd -> bmgen.ko, 4 tester ports on a bridge DUT whose every egress dK is
# DUT-TBF at the notional line rate (10 Mbit/s) with a queue of its own:
#
#   tbf rate 10mbit burst 8000 overhead 24, child pfifo limit Q_K,
#   Q = 100, 150, 200, 250 on d1 .. d4; frames of 512 B
#
# MODEL-TBF: a frame costs A = F - 4 + 24 = 532 bytes of tokens, so the
# shaper is the line itself (2349.6 fps), and when the first frame is
# dropped the egress holds Q_K frames in the pfifo plus floor(b/A) = 15
# it forwarded ahead of the line on the bucket: truth Buf_q = Q_K + 15
# frames.  The procedures find the largest loss-free traffic (a search on
# its length) and report Buf_q = frames sent to the egress - span / t_wire.
# Tolerance +-2 frames: the phases of the streams and the last frame's
# arrival against the shaper's tokens (+-1), and one more for the TCG
# guest's timers; below, also L x 2349.6 fps, L the largest lateness the
# module reported for any trial of that search (search_tx_late_max_s):
# a generator L late while the egress's queue is still short (the first
# tens of ms of a trial) idles the egress for up to L, service it never
# gets back, so that trial loses although it fits and the search can end
# up to L x rate low.  The procedure runs every lossy trial again
# (confirm=1) so that one such stall does not decide; the window covers
# the stall the module saw in a trial that did decide.  (A tbf watchdog
# that fires late loses service only beyond the bucket, 15 frames = 6 ms
# at this rate, which is why the bucket is 8000 B and not the SPEC's
# 1600.)  A generator that stalls later, with the queue long, and
# catches up changes nothing: the egress drains meanwhile and the frames
# held back arrive back to back.  Seen on CI before confirm=1: 192.2
# frames for 215 with the decisive trial's generator 4.8 ms late.
# Oversubscription 10 % instead of the RFC's 1 % (reported as such): the
# queue fills at 9.98 % of the line, 234.5 fps, so the largest egress
# (253 + 15 frames) fills in 1.1 s and not 11 s.  At os 10 % the RFC's
# own estimator Buf_rfc = (n_os - 1) F counts 1/0.998 of the frames it
# should (F-7), +0.2 %; Buf_rfc_corr removes that.
#
# port-buffer (BUF-2) on t1..t4: egress t2 (Q 150, fed by t1 at 99.98 %
# and t3 at 10 %) and t3 (Q 200, t2 and t4).  dut-buffer (BUF-4): egress
# t4, t1, t2, t3, each fed by the other three at 36.66 % (F-8 at os 10 %).
# Every frame a trial lost must be one a tbf dropped.
bm_load
topo_bridge 4
q=100
for d in d1 d2 d3 d4; do
	$TC -n dut qdisc add dev $d root handle 1: tbf rate 10mbit burst 8000 \
		limit 1000000 overhead 24 || fail "tbf $d"
	$TC -n dut qdisc add dev $d parent 1:1 handle 10: pfifo limit $q ||
		fail "pfifo $d"
	q=$((q + 50))
done
bmd_start

# check_buf FILE [upper]: each repetition's Buf_q against Q_e + 15 +- 2,
# or with "upper" only <= Q_e + 15 + 2 (below)
check_buf() {
	sed -n '/^  "results"/,$p' "$1" | tr -d '",' | awk -v upper="${2:-}" '
		$1 == "egress:" { e = $2; sub(/^t/, "", e); want = 50 + 50 * e + 15 }
		$1 == "n_os:" { nos = $2 }
		$1 == "buf_q_frames:" { bq = $2 }
		$1 == "buf_rfc_corr_bytes:" { bc = $2 }
		$1 == "search_tx_late_max_s:" { late = $2 }
		$1 == "lower_bound:" && e != "" && bq != "" {
			r++
			printf "note: egress t%s: Buf_q %.2f frames (truth %d), Buf_rfc_corr %s B, n_os %s, generator late <= %.1f ms\n", e, bq, want, bc, nos, late * 1000
			if ($2 != "false") { printf "FAILMSG egress t%s: no loss found\n", e; bad = 1 }
			# a last frame sent L late arrives after the egress
			# drained L x 2349.6 more: the queue it finds is
			# that much shorter, though nothing was lost
			lo = upper ? -1e9 : want - 2 - late * 2349.6
			if (bq < lo || bq > want + 2) { printf "FAILMSG egress t%s: Buf_q %.2f frames, want [%.1f, %d] (%d - 2 - lateness, + 2)\n", e, bq, lo, want + 2, want; bad = 1 }
			bq = ""
		}
		END { if (!r) print "FAILMSG no repetitions"; exit bad || !r }' > /tmp/buf.check
	model_verdict /tmp/buf.check $?
}

lost_all=0
# check_losses FILE NAME: frames lost in all runs so far = the tbfs' drops
check_losses() {
	lost=$(jvals lost "$1" | awk '{ s += $1 } END { print s + 0 }')
	lost_all=$((lost_all + lost))
	drops=0
	for d in d1 d2 d3 d4; do
		x=$($TC -n dut -s qdisc show dev $d | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1)
		drops=$((drops + x))
	done
	check_eq "$2: frames lost over all trials = tbf drops" "$lost_all" "$drops"
}

BUF="--line-rate 10M $LEARN_FAST --frame-sizes 512 --param os_pct=10 \
	--param drain_s=0.3 --port t1 --port t2 --port t3 --port t4"

bm_job pbuf rfc8239 port-buffer $BUF --param repeat=2
$BMCTL -j result "$job" > /tmp/pbuf.json || fail "bmctl result"
check_buf /tmp/pbuf.json
check_losses /tmp/pbuf.json "port-buffer"
jvals rsd_pct /tmp/pbuf.json | sed 's/^/note: RSD (%) port-buffer: /'

bm_job dbuf rfc8239 dut-buffer $BUF --param repeat=1
$BMCTL -j result "$job" > /tmp/dbuf.json || fail "bmctl result"
# Many-to-one in the TCG guest: three senders, two on one kthread, leave
# the egress idle in the first milliseconds (a stall empties the short
# queue, the bucket refills only 15 frames), and Buf_q, which counts the
# egress busy from the first arrival, then reads low: measured here 100,
# 147, 185, 236 frames for 115, 165, 215, 265.  The DUT cannot have held
# more than its queue and bucket, so the upper bound stands; the deficit
# is printed (procedures-rfc8239.md: Buf_q's premise).
check_buf /tmp/dbuf.json upper
check_losses /tmp/dbuf.json "port-buffer + dut-buffer"
max=$(jvals max_dut_buffer_bytes /tmp/dbuf.json)
# the largest egress, t4: (250 + 15) frames of 512 B = 135680 B +- 2 frames
check_range "max DUT buffer (B), at most (250 + 15 + 2) x 512" "$max" 1 136704
note "trials sent again (generator fell short): $(jvals trials_sent_again /tmp/pbuf.json) + $(jvals trials_sent_again /tmp/dbuf.json)"
