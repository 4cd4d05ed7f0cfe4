# make demo, part 2: the mission's heart, RFC 8239 buffering (R8239-BUF-2)
# and microburst (R8239-MB) through bmctl -> bmd -> bmgen.ko, against a
# bridge DUT whose egress ports have buffers of known size:
#
#   d2: tbf rate 10mbit burst 8000 overhead 24 + pfifo 100 (the line of a
#       notional 10 Mbit/s port, 15 frames of bucket, 100 of queue)
#   d3: tbf rate 1mbit burst 1600 overhead 24 + pfifo 100
#
# Buffer truth: when the first frame is dropped, d2 holds its queue of
# 100 frames and the one on the notional line: 101 frames of 512 B =
# 51712 B (REQ-BUF-1 from the frame logs; the frames the bucket let out
# above the line, floor(8000/532) = 15, have left and are not buffer).
# Microburst truth: t1 and t2 burst n frames each at 100 Mbit/s into d3;
# all 2n get through iff 2n <= Q + floor((b + rho T)/A) = 103 (+1 when the
# burst takes longer than 4.3 ms: rho T > A), so n = 51 per port.
bm_load
topo_bridge 3
$TC -n dut qdisc add dev d2 root handle 1: tbf rate 10mbit burst 8000 \
	limit 1000000 overhead 24 || fail "tbf d2"
$TC -n dut qdisc add dev d2 parent 1:1 handle 10: pfifo limit 100 || fail "pfifo d2"
$TC -n dut qdisc add dev d3 root handle 1: tbf rate 1mbit burst 1600 \
	limit 1000000 overhead 24 || fail "tbf d3"
$TC -n dut qdisc add dev d3 parent 1:1 handle 10: pfifo limit 100 || fail "pfifo d3"
bmd_start
export_result() {
	echo "DEMOFILE $1.json"
	cat /tmp/results/$1.json
	echo "DEMOEND"
}
# run NAME ARGS...: bmctl run, its report without the progress lines
run() {
	name=$1
	shift
	$BMCTL run "$@" > /tmp/$name.out 2>&1
	rc=$?
	grep -v '^job [0-9]*: trial' /tmp/$name.out | sed -n '/^results/,$p'
	[ $rc -eq 0 ] || { cat /tmp/$name.out /tmp/bmd.log; fail "bmctl run $1 $2"; }
	job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/$name.out | head -n1)
	$BMCTL -j result "$job" > /tmp/$name.json || fail "bmctl result $job"
	export_result "$job"
}

echo
echo "=== 3. bmctl run rfc8239 port-buffer (RFC 8239 §3.2 (2)): t1 at 99.98 % and t3 at 10 % into t2"
run buf rfc8239 port-buffer --port t1 --port t2 --port t3 --line-rate 10M \
	$LEARN_FAST --frame-sizes 512 --param os_pct=10 --param repeat=2 \
	--param drain_s=0.3
echo
echo "DEMO truth, maximum port buffer of t2: Q + the frame on the line = 101 frames = 51712 B"
echo "DEMO window 101 +- 2 frames (lab rfc8239/buffer), whatever the generator's lateness L"
printf "DEMO %4s %14s %14s %14s %10s %8s %10s\n" rep "Buf_q frames" "Buf_q B" "Buf_rfc B" "error" "L ms" "in window"
sed -n '/^  "results"/,$p' /tmp/buf.json | tr -d '",' | awk '
	$1 == "buf_rfc_bytes:" { rfc = $2 }
	$1 == "buf_q_frames:" { q = $2 }
	$1 == "search_tx_late_max_s:" && q != "" { r++
		printf "DEMO %4d %14.2f %14.0f %14.0f %+9.2f%% %8.1f %10s\n", r, q, q * 512, rfc, (q / 101 - 1) * 100, $2 * 1000, (q >= 99 && q <= 103) ? "in" : "OUT"
		q = "" }'

echo
echo "=== 4. bmctl run rfc8239 microburst (RFC 8239 §4): t1 and t2 burst together into t3"
run mb rfc8239 microburst --port t1 --port t2 --port t3 --line-rate 100M \
	$LEARN_FAST --frame-sizes 512 --param repeat=3 --param drain_s=0.6 \
	--param burst_max=1024
echo
echo "DEMO truth, largest loss-free burst into t3: Q + floor(b/A) = 103 frames in all, 51 per port"
echo "DEMO (one more when the burst lasts long enough for a token to come back: 104, 52)"
printf "DEMO %4s %10s %10s %10s %10s\n" rep "per port" aggregate "sync %" "span ms"
sed -n '/^  "results"/,$p' /tmp/mb.json | tr -d '",' | awk '
	$1 == "burst_per_port:" { n = $2 }
	$1 == "burst_aggregate:" { a = $2 }
	$1 == "sync_pct:" { y = $2 }
	$1 == "burst_span_s:" { r++
		printf "DEMO %4d %10d %10d %10.1f %10.2f\n", r, n, a, y, $2 * 1000 }'
