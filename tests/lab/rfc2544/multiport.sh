# RFC 2544 §16 multi-port throughput (R2544-MULTI) end to
# end: bmctl -> bmd -> bmgen.ko on a 4-port bridge, 512 B frames,
# rfc2544/throughput's tbf (SPEC DUT-TBF: 3 Mbit/s, burst 3200, limit 8000,
# overhead 24) on d3 and on d4, d1 and d2 unshaped.
#
# tbf accounting (rfc2544/throughput): a frame costs F + 20 bytes of tokens,
# so each tbf forwards C = 3e6 / 8 / 532 = 704.89 fps; it holds Q =
# floor(8000 / 508) = 15 frames and a bucket of 6.
# 1. multiport: t1 and t2 are the inputs, t3 and t4 the outputs; each
#    input sends rate r round-robin to t3, t4 in the same order, so each
#    output receives r / 2 from either input, r in all: the throughput per
#    input is C, the aggregate 2 C.  Window (rfc2544/throughput's):
#    [C - 1 %, C + (Q + 6) / 2 s] = [-1 %, +1.5 %], checked to [-2 %,
#    +2.5 %].
# 2. mesh: every port sends r to the three others round-robin (r / 3
#    each), so every port receives r; t3 and t4 are the bottleneck at C,
#    t1 and t2 take r unshaped: throughput per port C, aggregate 4 C; the
#    same window.
# Every job: every frame the trials lost is one the two tbfs dropped (d1
# and d2 drop nothing), and every trial record counts all senders'
# frames: intended = senders x rate x 2 s, within a frame a stream.
# Each job is measured again (lib.sh remeasure, at most 5 runs, said in
# the output) when it fails with the module reporting its generator more
# than 29.9 ms late, what rfc2544/throughput's tbf absorbs ((3200 + 8000) B at
# 3 Mbit/s), as rfc2544/throughput is; any other failure is the test's.
bm_load
topo_bridge 4
bmd_start

# tbfs: fresh tbfs on d3 and d4 (fresh counters)
tbfs() {
	for d in d3 d4; do
		$TC -n dut qdisc del dev $d root 2>/dev/null
		$TC -n dut qdisc add dev $d root tbf rate 3mbit burst 3200 \
			limit 8000 overhead 24 || fail "tbf $d"
	done
}
# every_drop: the drops of every DUT port's root qdisc, summed
every_drop() {
	for d in d1 d2 d3 d4; do
		qdisc_drops $d
	done | awk '{ s += $1 } END { print s + 0 }'
}
COMMON="--port t1 --port t2 --port t3 --port t4 --line-rate 100M $R2544_FAST
	--frame-sizes 512 --param max_rate_pct=4.2 --param r_min_pct=60
	--param trial_duration_s=2 --param search_trial_duration_s=2
	--param drain_s=0.3 --param resolution_pct=1"
C=$(awk 'BEGIN { printf "%.3f", 3e6 / 8 / 532 }')

# multi TOPOLOGY SENDERS STREAMS (the trial's streams: a frame of rounding each)
multi() {
	tbfs
	bm_job $1 rfc2544 throughput $COMMON --param topology=$1
	$BMCTL -j result "$job" > /tmp/$1.json || fail "bmctl result ($1)"
	sed -n '/^  "trials"/,/^  "results"/p' /tmp/$1.json > /tmp/$1.tr
	sed -n '/"per_size"/,$p' /tmp/$1.json > /tmp/$1.res
	check_eq "$1: lost over all trials = the tbfs' drops" \
		"$(jvals lost /tmp/$1.tr | awk '{ s += $1 } END { print s + 0 }')" \
		"$(every_drop)"
	check_eq "$1: trial records' topology" \
		"$(jvals topology /tmp/$1.tr | sort -u)" "\"$1\""
	jvals intended /tmp/$1.tr > /tmp/$1.int
	jvals rate_fps /tmp/$1.tr | paste /tmp/$1.int - |
		awk -v s=$2 -v k=$3 '{ d = $1 - s * $2 * 2; if (d < 0) d = -d;
			if (d > k) { print "intended " $1 " for " s " x " $2 " fps x 2 s"; exit 1 } }' ||
		fail "$1: a trial did not count every sender's frames"
	check_eq "$1: sending_ports" "$(jvals sending_ports /tmp/$1.json)" "$2"
	check_eq "$1: result" "$(jvals result /tmp/$1.res)" '"ok"'
	thr=$(jvals throughput_fps /tmp/$1.res)
	note "$1: throughput per port $thr fps, truth $C ($(awk -v g="$thr" -v t="$C" 'BEGIN { printf "%+.2f", (g / t - 1) * 100 }') %)"
	check_range "$1: throughput per sending port (fps), C -2 % .. +2.5 %" "$thr" \
		"$(awk -v t=$C 'BEGIN { printf "%.3f", t * 0.98 }')" \
		"$(awk -v t=$C 'BEGIN { printf "%.3f", t * 1.025 }')"
	check_range "$1: aggregate = $2 x throughput" \
		"$(awk -v a="$(jvals throughput_aggregate_fps /tmp/$1.res)" -v t="$thr" -v s=$2 \
			'BEGIN { printf "%.9f", a / (s * t) }')" 0.999999 1.000001
}
remeasure 0.0299 /tmp/multiport.json multi multiport 2 4
remeasure 0.0299 /tmp/mesh.json multi mesh 4 12
