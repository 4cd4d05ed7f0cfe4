# make demo: RFC 2544 throughput (R2544-THRPT) and latency (R2544-LAT)
# through bmctl -> bmd -> bmgen.ko against a software DUT of known truth:
# a bridge whose egress port d2 first delays every frame by D = 10 ms
# (netem) and then shapes to R = 3 Mbit/s (tbf as netem's child).
#
# Throughput truth: tbf charges A = F + 20 bytes per frame (skb->len =
# F - 4 plus "overhead 24"), so it forwards C = R / 8 / (F + 20) fps, 30 %
# of the notional 10 Mbit/s line at every size.  Its bucket (3200 bytes)
# and queue (8000 bytes) let a 3 s trial pass up to (Q + b/A)/3 s above C,
# and the search stops within its resolution below: the model window is
# [C - resolution, C + (Q + b/A)/d], printed next to each result.
#
# Latency truth: D plus the bridge/veth path (tens of us) plus however
# late the guest's hrtimers release netem's frames (TCG: up to a few ms)
# plus the frame's wait in the tbf queue: none below C, but at the
# throughput rate (C, or up to (Q + b/A)/3 s above it) every burst of
# the generator or of netem's late timer stays queued, up to Q/C.
# The latency job runs at the rates job 1 measured (throughput_fps, which
# the report records as a deviation: measured by the previous job, not
# again by this one).
SIZES="256 512 1518"
D_MS=10
bm_load
topo_bridge 2
$TC -n dut qdisc add dev d2 root handle 1: netem delay ${D_MS}ms limit 10000 ||
	fail "netem"
$TC -n dut qdisc add dev d2 parent 1:1 handle 10: tbf rate 3mbit burst 3200 \
	limit 8000 overhead 24 || fail "tbf"
bmd_start
$BMCTL status || fail "bmctl status"
# export JOB: the stored result, framed for tools/demo to copy to the host
export_result() {
	echo "DEMOFILE $1.json"
	cat /tmp/results/$1.json
	echo "DEMOEND"
}

echo
echo "=== 1. bmctl run rfc2544 throughput"
$BMCTL run rfc2544 throughput --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes $(echo $SIZES | tr ' ' ,) \
	--param trial_duration_s=3 --param search_trial_duration_s=3 \
	--param drain_s=0.3 --param max_rate_pct=40 \
	--param resolution_pct=0.5 --param r_min_pct=5 > /tmp/thr.out 2>&1
rc=$?
grep -v '^job [0-9]*: trial' /tmp/thr.out
[ $rc -eq 0 ] || { cat /tmp/bmd.log; fail "bmctl run rfc2544 throughput"; }
job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/thr.out | head -n1)
$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result $job"
echo "saved result: /tmp/results/$job.json and $job.csv (bmd -r /tmp/results)"
export_result "$job"

echo
echo "DEMO truth, throughput (C = 3 Mbit/s / 8 / (F + 20), 30 % of line):"
printf "DEMO %6s %12s %12s %8s   %s\n" size measured truth error "model window [C - res, C + (Q + b/A)/3 s]"
set -- $(jvals throughput_fps /tmp/thr.json)
thr=
for f in $SIZES; do
	awk -v f=$f -v g=$1 'BEGIN {
		a = f + 20; c = 3e6 / 8 / a; res = 0.005 * c	# 0.5 % of the result
		q = int(8000 / (f - 4)); b = 3200 / a
		printf "DEMO %6d %12.2f %12.2f %+7.2f%%   [%.2f, %.2f]\n", f, g, c,
			(g / c - 1) * 100, c - res, c + (q + b) / 3 }'
	thr="$thr${thr:+,}$1"
	shift
done

echo
echo "=== 2. bmctl run rfc2544 latency, at the rates job 1 measured"
$BMCTL run rfc2544 latency --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes $(echo $SIZES | tr ' ' ,) --param "throughput_fps=[$thr]" \
	--param trial_duration_s=0.6 --param tag_at_s=0.3 \
	--param repetitions=20 --param drain_s=0.2 > /tmp/lat.out 2>&1
rc=$?
grep -v '^job [0-9]*: trial' /tmp/lat.out
[ $rc -eq 0 ] || { cat /tmp/bmd.log; fail "bmctl run rfc2544 latency"; }
job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/lat.out | head -n1)
$BMCTL -j result "$job" > /tmp/lat.json || fail "bmctl result $job"
echo "saved result: /tmp/results/$job.json and $job.csv"
export_result "$job"

echo
echo "DEMO truth, latency (bit forwarding, tagged frame, 20 repetitions): D = $D_MS ms (netem)"
echo "DEMO + the bridge path (~0.05 ms) + how late TCG fires netem's timer (0 .. a few ms)"
echo "DEMO + queueing in the tbf: 0 below C, up to Q/C when the generator's bursts fill it"
printf "DEMO %6s %12s %12s %12s   %s\n" size "mean ms" "min ms" "max ms" "truth ms: D + [0, Q/C]"
set -- $(jvals latency_ns /tmp/lat.json)
set -- "$@" $(jvals latency_min_ns /tmp/lat.json)
set -- "$@" $(jvals latency_max_ns /tmp/lat.json)
n=$(echo $SIZES | wc -w)
i=1
for f in $SIZES; do
	eval mean=\${$i} mn=\${$((i + n))} mx=\${$((i + 2 * n))}
	awk -v f=$f -v a=$mean -v b=$mn -v c=$mx -v d=$D_MS 'BEGIN {
		q = int(8000 / (f - 4)) / (3e6 / 8 / (f + 20)) * 1000
		printf "DEMO %6d %12.3f %12.3f %12.3f   [%.1f, %.1f]\n", f, a / 1e6, b / 1e6, c / 1e6, d, d + q }'
	i=$((i + 1))
done
