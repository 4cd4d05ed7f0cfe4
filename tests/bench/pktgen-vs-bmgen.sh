# make bench, guest side: bmgen against kernel pktgen on one veth
# pair, 64 B frames, one transmit kthread on CPU 0; then the receive side's
# cost, full analysis against count only.  Not a lab test (make check does
# not run it): it prints "BENCH ..." lines that tools/bench turns into
# Documentation/benchmarks.md, and fails only if a tool does not run.
#
# Transmit: both tools are measured as senders, by their own counts of the
# frames they handed to the driver: pktgen's (sofar + errors) over its
# elapsed time, bmgen's tx_frames over its first..last departure.  pktgen
# runs with clone_skb 0 (a new skb per frame, as bmgen builds one) and
# pkt_size 60 (64 B on the wire with the FCS).  Both send to t2's MAC, where
# one tc ingress filter drops and counts every frame, so the two senders
# meet the same receiver (veth delivers in the sender's softirq, so a
# costlier receiver would slow the sender down).  bmgen.ko is loaded only
# for its own trials.  Receive placements:
#   cpu0  the veth default: t2's receive runs on the sending CPU;
#   rps   t2's receive is steered to CPU 1, so the sender's rate is the
#         generator's own.
# pktgen with NO_TIMESTAMP (no clock read per frame) bounds what one clock
# read costs in this guest.
#
# Receive: the same unpaced bmgen sender, no filter on t2, the rx_handler
# analysing every frame (rx_analysis=1) or only counting it (0).
#
# The further parts (benchparts=...; meant for the icount guest,
# where guest time counts instructions):
#   streams   the cost per frame with 1, 64, 1024 and 4032 streams on one
#             kthread (tx_batch=1, every stream behind its schedule, so
#             frames interleave one per pick), with the set-up time of the
#             streams and the trial, the memory they hold and the time to
#             read their statistics;
#   kthreads  two unpaced streams on one kthread against one each on two;
#   pacing    one stream paced at 1, 10, 50, 90 and 99.98 % of what the
#             generator carries frame by frame (unpaced, tx_batch=1),
#             measured first, 2 s each, the achieved rate
#             from the module's own first and last departure, its largest
#             back-to-back run and late frames (REQ-GEN-3);
#   bursts    bursts of 32 frames, 5 ms apart (end to start), 50 of them,
#             every departure logged: frames per burst and the gaps;
#   sinks     each tool as a sender on a dummy device d0, a sink that frees
#             what it is given (no receiver, so a sender's own cost): pktgen
#             with clone_skb 0 (a new skb per frame), pktgen re-sending one
#             skb (clone_skb >= N, burst 1), pktgen at its ceiling (one skb,
#             burst 32, NO_TIMESTAMP: repeated frames, the floor of handing
#             a frame to a driver), bmgen with --tx-path alloc (a new skb
#             per frame) and with --tx-path recycle (a ring of skbs filled
#             again once dummy has freed them; its misses are reported);
#             netsniff-ng's trafgen (TX_RING, qdisc bypass, a counter byte
#             per frame; its rate from its own transmit loop time);
#             the rows alternate run by run as the core's do, and a bmgen
#             row fails if the trial's tx_path is not the one asked for;
#   xsinks    the same on a veth x0 whose peer x1 drops in XDP (an XDP
#             program returning XDP_DROP): pktgen with a new skb per frame
#             and re-sending one, bmgen alloc, and bmgen --tx-path xdp
#             (pages to veth's ndo_xdp_xmit, dropped in x1's NAPI), and
#             xdp-tools' xdp-trafficgen (XDP live frames, the same
#             ndo_xdp_xmit; its rate from x1's XDP drop counter);
#   vsinks    the same on the veth pair the lab tests use, t1 -> t2, t2's
#             ingress filter dropping every frame (tc matchall: veth's
#             receive up to the filter is in every row): pktgen with a new
#             skb per frame (veth takes no shared skb, so no re-sent one),
#             bmgen alloc, trafgen, and bmgen-rx: bmgen alloc with the
#             filter off, its receiver analysing every frame, as a lab
#             test's trial does;
#   hsinks    the same on the igb model of the --hw boot (BENCH_HW=1):
#             eth0 sends into QEMU's hub, eth1 is down so its model drops
#             every frame outside the guest, and each row is the sender
#             and a real driver's transmit path (descriptors, tail write,
#             completion interrupt and cleaning): pktgen new skb, one skb,
#             burst 32; bmgen alloc and recycle; trafgen; then with an
#             XDP_PASS program on eth0 (igb's ndo_xdp_xmit needs one)
#             bmgen xdp and xdp-trafficgen, whose rate is eth0's
#             tx_packets over a window;
#   lanes     one stream of N frames t1 -> t2 (bmgen-traffic), effectively
#             unpaced (100 % of a notional 50 Gbit/s line), on one
#             transmit kthread and on two (--tx-kthreads 2: lane i sends
#             frames i, i + 2, ... on CPU i), t2 receiving and analysing
#             every frame in the sender's softirq on the lane's CPU; the
#             rows alternate run by run, and a run fails if intended is
#             not N or the trial's tx_kthreads is not the one asked for.
#
# Kernel command line (tools/bench --append): benchruns=R (runs per row),
# benchcount=N (frames per run), benchcfgs=cpu0,rps (placements),
# benchparts=core,streams,kthreads,pacing,bursts,sinks,xsinks,vsinks,
# hsinks,lanes (default core; hsinks needs the --hw boot).
RUNS=${benchruns:-7}
N=${benchcount:-20000}
CFGS=$(echo "${benchcfgs:-cpu0,rps}" | tr ',' ' ')
PARTS=",${benchparts:-core},"
PG=/proc/net/pktgen
BMGEN_KO=/lib/modules/bmgen.ko

[ -d $PG ] || fail "no /proc/net/pktgen (pktgen.ko not loaded)"
$IP link add t1 type veth peer name t2 || fail "veth"
ns_quiet t1
ns_quiet t2
$IP link set t1 up
$IP link set t2 up
T2MAC=$(mac t2)
# the last slub_debug= on the command line is the one in force
slub=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^slub_debug=//p' | tail -n1)
echo "BENCH env cpus=$(nproc) clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) kernel=$(uname -r) slub_debug=${slub:-none} count=$N runs=$RUNS"

pg() {	# FILE CMD: one pktgen command
	echo "$2" > "$PG/$1" || fail "pktgen $1: $2"
}

softnet_drops() {	# frames dropped at a full backlog, all CPUs (hex column 2)
	awk '{ n = 0; h = tolower($2)
		for (k = 1; k <= length(h); k++)
			n = n * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
		s += n } END { print s + 0 }' /proc/net/softnet_stat
}

t2_in() {	# frames that reached t2's ingress filter
	$TC -s qdisc show dev t2 ingress | sed -n 's/.* bytes \([0-9]*\) pkt.*/\1/p' | head -n1
}

set_rps() {	# CPU mask for t2's receive, 0 = none
	echo "$1" > /sys/class/net/t2/queues/rx-0/rps_cpus || fail "rps_cpus"
}

t2_filter() {	# on | off: the drop-and-count filter on t2
	$TC qdisc del dev t2 ingress 2>/dev/null
	[ "$1" = on ] || return 0
	$TC qdisc add dev t2 ingress || fail "tc ingress"
	$TC filter add dev t2 ingress matchall action drop || fail "tc filter"
}

# pktgen_send DEV [CMD...]: one pktgen run of N frames on DEV: 64 B with
# the FCS, a new skb per frame, no delay, then the CMDs (which may override
# these).  Sets pg_sent (sofar + errors), pg_err and pg_fps (pg_sent over
# pktgen's elapsed time).
pktgen_send() {
	dev=$1
	shift
	grep -q '^bmgen ' /proc/modules && { rmmod bmgen || fail "rmmod"; }
	pg kpktgend_0 "rem_device_all"
	pg kpktgend_0 "add_device $dev"
	for c in "count $N" "clone_skb 0" "pkt_size 60" "delay 0" \
		"dst 198.19.1.2" "src_min 198.18.1.2" "src_max 198.18.1.2" "$@"; do
		pg $dev "$c"
	done
	echo start > $PG/pgctrl || fail "pktgen start"
	sleep 0.3
	res=$(sed -n 's/^Result: //p; /pps/p' $PG/$dev | tr '\n' ' ')
	pg kpktgend_0 "rem_device_all"
	set -- $(echo "$res" | awk '{
		if (!match($0, /OK: [0-9]+/)) exit 1
		us = substr($0, RSTART + 4, RLENGTH - 4)
		match($0, /usec, [0-9]+/); sofar = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /errors: [0-9]+/); err = substr($0, RSTART + 8, RLENGTH - 8)
		if (us <= 0) exit 1
		printf "%d %d %.1f\n", sofar + err, err, (sofar + err) * 1e6 / us
	}')
	[ $# -eq 3 ] || fail "pktgen result on $dev: $res"
	pg_sent=$1 pg_err=$2 pg_fps=$3
}

run_pktgen() {	# CFG I TOOL: TOOL pktgen or pktgen-nots (NO_TIMESTAMP), t1 -> t2
	in0=$(t2_in) d0=$(softnet_drops)
	if [ "$3" = pktgen-nots ]; then
		pktgen_send t1 "dst_mac $T2MAC" "flag NO_TIMESTAMP"
	else
		pktgen_send t1 "dst_mac $T2MAC"
	fi
	in1=$(t2_in) d1=$(softnet_drops)
	echo "BENCH tx cfg=$1 tool=$3 run=$2 sent=$pg_sent errors=$pg_err tx_fps=$pg_fps arrived=$((in1 - in0)) backlog_drops=$((d1 - d0))"
}

# bmgen_send TX RX [OPTION...]: one unpaced trial of N frames of 64 B from
# TX to RX on CPU 0, bmgen-trial's output in /tmp/b.
bmgen_send() {
	tx=$1 rx=$2
	shift 2
	$BMT --tx $tx --rx $rx --size 64 --count $N --cpu 0 --drain 0.3 "$@" > /tmp/b ||
		{ cat /tmp/b; fail "bmgen-trial --tx $tx --rx $rx $*"; }
}

run_bmgen() {	# MODE CFG I [insmod params]: one unpaced trial
	mode=$1 cfg=$2 i=$3
	shift 3
	grep -q '^bmgen ' /proc/modules || insmod $BMGEN_KO "$@" || fail "insmod bmgen"
	in0=0
	[ $mode = tx ] && in0=$(t2_in)
	d0=$(softnet_drops)
	bmgen_send t1 t2
	d1=$(softnet_drops)
	in1=0
	[ $mode = tx ] && in1=$(t2_in)
	rmmod bmgen || fail "rmmod bmgen"
	awk -F= -v mode=$mode -v cfg=$cfg -v i=$i -v arr=$((in1 - in0)) -v drop=$((d1 - d0)) '
	{ v[$1] = $2 }
	END {
		txs = v["tx_last_ns"] - v["tx_first_ns"]
		if (v["tx_frames"] < 2 || txs <= 0) { print "FAIL: bmgen tx counters"; exit 1 }
		if (mode == "tx") {
			printf "BENCH tx cfg=%s tool=bmgen run=%d sent=%d errors=%d tx_fps=%.1f arrived=%d backlog_drops=%d\n",
				cfg, i, v["tx_frames"], v["tx_errors"], (v["tx_frames"] - 1) * 1e9 / txs, arr, drop
			exit 0
		}
		rxs = v["rx_last_ns"] - v["rx_first_ns"]
		if (v["rx_frames"] < 2 || rxs <= 0) { print "FAIL: bmgen rx counters"; exit 1 }
		printf "BENCH rx cfg=%s mode=%s run=%d sent=%d tx_fps=%.1f arrived=%d unique=%d rx_fps=%.1f backlog_drops=%d\n",
			cfg, mode, i, v["tx_frames"], (v["tx_frames"] - 1) * 1e9 / txs,
			v["rx_frames"], v["rx_unique"], (v["rx_frames"] - 1) * 1e9 / rxs, drop
	}' /tmp/b || fail "bmgen result"
}

part() {	# NAME: is this part of the bench asked for?
	case $PARTS in *",$1,"*) return 0 ;; esac
	return 1
}

# Runs alternate between the tools, and which goes first alternates too.
t2_filter on
part core && for cfg in $CFGS; do
	case $cfg in cpu0) set_rps 0 ;; rps) set_rps 2 ;; esac
	i=1
	while [ $i -le $RUNS ]; do
		if [ $((i % 2)) -eq 1 ]; then
			run_pktgen $cfg $i pktgen
			run_bmgen tx $cfg $i
			run_pktgen $cfg $i pktgen-nots
		else
			run_pktgen $cfg $i pktgen-nots
			run_bmgen tx $cfg $i
			run_pktgen $cfg $i pktgen
		fi
		i=$((i + 1))
	done
done
t2_filter off

part core && for cfg in $CFGS; do
	case $cfg in cpu0) set_rps 0 ;; rps) set_rps 2 ;; esac
	i=1
	while [ $i -le $RUNS ]; do
		if [ $((i % 2)) -eq 1 ]; then
			run_bmgen full $cfg $i rx_analysis=1
			run_bmgen count $cfg $i rx_analysis=0
		else
			run_bmgen count $cfg $i rx_analysis=0
			run_bmgen full $cfg $i rx_analysis=1
		fi
		i=$((i + 1))
	done
done
set_rps 0

trial_kv() {	# FILE KEY: one key=value of bmgen-trial's output
	sed -n "s/^$2=//p" "$1" | head -n1
}

# The frames of a multi-stream trial over its first..last departure.
rate_of() {	# FILE
	awk -F= '{ v[$1] = $2 } END {
		d = v["tx_last_ns"] - v["tx_first_ns"]
		if (v["tx_frames"] < 2 || d <= 0) { print "FAIL"; exit 1 }
		printf "%.3f", (v["tx_frames"] - 1) * 1e9 / d }' "$1"
}

bmgen_in() {	# [insmod params]: a fresh module
	grep -q '^bmgen ' /proc/modules && { rmmod bmgen || fail "rmmod"; }
	insmod $BMGEN_KO "$@" || fail "insmod bmgen"
}

if part streams; then
	t2_filter on
	set_rps 0
	for n in 1 64 1024 4032; do
		per=$(((N + n - 1) / n))
		i=1
		while [ $i -le $RUNS ]; do
			bmgen_in tx_batch=1
			# 10^6 fps in all: far above what the guest can send,
			# so every stream is behind and they take turns
			$BMT --tx t1 --rx t2 --size 64 --count $per --streams $n \
				--rate "$(echo "1000000 / $n" | bc -l)" --cpu 0 \
				--drain 0.1 --sum > /tmp/b || { cat /tmp/b; fail "streams $n"; }
			r=$(rate_of /tmp/b) || fail "streams $n: no rate"
			echo "BENCH streams n=$n run=$i frames=$(trial_kv /tmp/b tx_frames) tx_fps=$r setup_ns=$(trial_kv /tmp/b setup_ns) setup_mem_kb=$(trial_kv /tmp/b setup_mem_kb) stats_ns=$(trial_kv /tmp/b stats_ns)"
			i=$((i + 1))
		done
	done
	rmmod bmgen
	t2_filter off
fi

if part kthreads && [ "$(nproc)" -ge 2 ]; then
	t2_filter on
	set_rps 0
	i=1
	while [ $i -le $RUNS ]; do
		for k in 1 2; do
			bmgen_in
			cpu="--cpu 0"
			[ $k = 2 ] && cpu=	# round robin: stream 1 on CPU 0, 2 on 1
			$BMT --tx t1 --rx t2 --size 64 --count $((N / 2)) --streams 2 \
				$cpu --drain 0.1 --sum > /tmp/b || { cat /tmp/b; fail "kthreads $k"; }
			r=$(rate_of /tmp/b) || fail "kthreads $k: no rate"
			echo "BENCH kthreads k=$k run=$i frames=$(trial_kv /tmp/b tx_frames) tx_fps=$r"
		done
		i=$((i + 1))
	done
	rmmod bmgen
	t2_filter off
fi

if part pacing; then
	t2_filter on
	set_rps 0
	# what the generator can carry frame by frame (tx_batch=1), each
	# frame at its own departure time; batched (the tx rows) it carries
	# more, but only as runs of frames back to back
	bmgen_in tx_batch=1
	$BMT --tx t1 --rx t2 --size 64 --count $N --cpu 0 --drain 0.1 > /tmp/b ||
		{ cat /tmp/b; fail "capacity"; }
	cap=$(rate_of /tmp/b) || fail "capacity: no rate"
	bmgen_in
	$BMT --tx t1 --rx t2 --size 64 --count $N --cpu 0 --drain 0.1 > /tmp/b ||
		{ cat /tmp/b; fail "capacity"; }
	echo "BENCH capacity tx_fps=$cap batched_fps=$(rate_of /tmp/b)"
	for pct in 1 10 50 90 99.98; do
		rate=$(echo "$cap * $pct / 100" | bc -l)
		cnt=$(echo "$rate * 2 + 1" | bc)
		cnt=${cnt%.*}
		$BMT --tx t1 --rx t2 --size 64 --count $cnt --rate "$rate" --cpu 0 \
			--drain 0.1 > /tmp/b || { cat /tmp/b; fail "pacing $pct"; }
		echo "BENCH pacing pct=$pct intended_fps=$(printf %.6f "$rate") frames=$(trial_kv /tmp/b tx_frames) first_ns=$(trial_kv /tmp/b tx_first_ns) last_ns=$(trial_kv /tmp/b tx_last_ns) late=$(trial_kv /tmp/b tx_late_frames) late_max_ns=$(trial_kv /tmp/b tx_late_max_ns) max_batch=$(trial_kv /tmp/b tx_max_batch)"
	done
	rmmod bmgen
	t2_filter off
fi

if part bursts; then
	t2_filter on
	# t2 receives on CPU 1: veth would receive a burst in the sender's
	# softirq, 1.5 ms of guest time for 32 frames, deferred to
	# ksoftirqd, which then holds the sender's wake-up back
	[ "$(nproc)" -ge 2 ] && set_rps 2
	bmgen_in
	$BMT --tx t1 --rx t2 --size 64 --burst 32 --gap 5000000 --bursts 50 \
		--cpu 0 --log 1600 --drain 0.1 > /tmp/b || { cat /tmp/b; fail "bursts"; }
	echo "BENCH bursts len=32 gap_ns=5000000 count=50 frames=$(trial_kv /tmp/b tx_frames) max_batch=$(trial_kv /tmp/b tx_max_batch) log=$(trial_kv /tmp/b tx_log)"
	rmmod bmgen
	set_rps 0
	t2_filter off
fi

# One sender on a sink: SINK (the row's dev=) is SINK_TX's, which sends to
# SINK_RX (SINK_MAC): a dummy device that frees what it is given, or a
# veth whose peer drops in XDP.
run_sink() {	# ROW I
	case $1 in
	pktgen-unique) pktgen_send $SINK_TX "dst_mac $SINK_MAC" ;;
	pktgen-one-skb) pktgen_send $SINK_TX "dst_mac $SINK_MAC" "clone_skb $N" ;;
	pktgen-burst32) pktgen_send $SINK_TX "dst_mac $SINK_MAC" "clone_skb $N" \
		"burst 32" "flag NO_TIMESTAMP" ;;
	bmgen-alloc|bmgen-recycle|bmgen-xdp)
		path=${1#bmgen-}
		bmgen_in
		bmgen_send $SINK_TX $SINK_RX --tx-path $path
		rmmod bmgen || fail "rmmod bmgen"
		got=$(trial_kv /tmp/b tx_path)
		[ "$got" = $path ] || { cat /tmp/b; fail "sinks: --tx-path $path ran tx_path=$got"; }
		r=$(rate_of /tmp/b) || fail "sinks: $1: no rate"
		echo "BENCH sink dev=$SINK tool=$1 run=$2 sent=$(trial_kv /tmp/b tx_frames) errors=$(trial_kv /tmp/b tx_errors) tx_fps=$r ring_misses=$(trial_kv /tmp/b tx_ring_misses)"
		return 0 ;;
	bmgen-rx)
		# the lab's trial: the receiver analyses every frame
		t2_filter off
		bmgen_in
		bmgen_send $SINK_TX $SINK_RX --tx-path alloc
		rmmod bmgen || fail "rmmod bmgen"
		t2_filter on
		[ "$(trial_kv /tmp/b rx_unique)" = $N ] ||
			{ cat /tmp/b; fail "vsinks: bmgen-rx received $(trial_kv /tmp/b rx_unique) of $N"; }
		r=$(rate_of /tmp/b) || fail "sinks: $1: no rate"
		echo "BENCH sink dev=$SINK tool=$1 run=$2 sent=$(trial_kv /tmp/b tx_frames) errors=$(trial_kv /tmp/b tx_errors) tx_fps=$r ring_misses=0"
		return 0 ;;
	xdp-trafficgen) tg_send ;;
	trafgen) trafgen_send ;;
	*) fail "sinks: no row $1" ;;
	esac
	echo "BENCH sink dev=$SINK tool=$1 run=$2 sent=$pg_sent errors=$pg_err tx_fps=$pg_fps"
}

# The XDP frames SINK_RX's program dropped, all queues (veth's counters).
xdp_drops() {
	ethtool -S $SINK_RX | awk '/xdp_drops:/ { s += $2 } END { print s + 0 }'
}

# window PID COUNTER OUT NAME: the rate of a tool PID (its output in OUT)
# that sends until interrupted, from a sink's counter (a function): the
# frames counted over 4 s of guest time from 1 s after the counter first
# moved (a tool's start, e.g. libbpf's CO-RE relocations against the
# kernel's BTF, takes seconds here, and is left out, as pktgen's and
# bmgen's own rates leave theirs out); then SIGINT.  The counter's value
# before the tool started is in $base.  Sets pg_sent, pg_err and pg_fps.
window() {
	w=0
	while [ "$($2)" -eq "$base" ]; do
		w=$((w + 1))
		[ $w -le 240 ] || { kill -9 $1; cat $3; fail "$4 sent nothing in 120 s"; }
		sleep 0.5
	done
	sleep 1
	read -r u0 _ < /proc/uptime
	d0=$($2)
	sleep 4
	read -r u1 _ < /proc/uptime
	d1=$($2)
	kill -INT $1 2> /dev/null
	wait $1
	[ "$d1" -gt "$d0" ] || { cat $3; fail "$4 sent nothing"; }
	pg_sent=$((d1 - d0)) pg_err=0
	pg_fps=$(awk -v n=$pg_sent -v a=$u0 -v b=$u1 'BEGIN { printf "%.1f", n / (b - a) }')
}

# tg_send: xdp-tools' xdp-trafficgen (64 B IPv6 UDP frames, FCS not
# counted; one thread on CPU 0) from SINK_TX to SINK_MAC, its rate from
# the sink's counter SINK_COUNT (window): the frames SINK_RX's program
# dropped, or SINK_TX's driver sent.  Debian 12's 1.3.1 needs
# xdp-tg-probe.so to start (tests/fixtures/xdp_tg_probe.c) and does not
# stop by itself after -n frames (fixed in 1.5.0), hence the window.
tg_send() {
	grep -q '^bmgen ' /proc/modules && { rmmod bmgen || fail "rmmod"; }
	command -v xdp-trafficgen > /dev/null || fail "no xdp-trafficgen in the guest"
	base=$($SINK_COUNT)
	LD_PRELOAD=/usr/lib/xdp-tg-probe.so xdp-trafficgen udp -m $SINK_MAC \
		-I 60 $SINK_TX > /tmp/tg 2>&1 &
	window $! $SINK_COUNT /tmp/tg xdp-trafficgen
}

# The frames SINK_TX's driver took, from its own counters.
tx_packets() {
	cat /sys/class/net/$SINK_TX/statistics/tx_packets
}

# trafgen_send: netsniff-ng's trafgen (PF_PACKET TX_RING, the qdisc
# bypassed, its default; one CPU: -P 1) sending N 60-byte frames (64 B with
# the FCS) to SINK_MAC, each with a byte counter (dinc), so that no two
# neighbours are the same frame; its rate is its own, N over the time it
# reports for its transmit loop ("S sec, U usec on CPU0"), as pktgen's is
# pktgen's own.  Sets pg_sent, pg_err and pg_fps.
trafgen_send() {
	grep -q '^bmgen ' /proc/modules && { rmmod bmgen || fail "rmmod"; }
	command -v trafgen > /dev/null || fail "no trafgen in the guest"
	hex() { echo "$1" | sed 's/^/0x/; s/:/, 0x/g'; }
	echo "{ $(hex $SINK_MAC), $(hex $(mac $SINK_TX)), 0x08, 0x00, dinc(0, 255), fill(0x00, 45) }" > /tmp/trafgen.cfg
	d0=$(tx_packets)
	trafgen -o $SINK_TX -i /tmp/trafgen.cfg -P 1 -n $N > /tmp/trafgen 2>&1 ||
		{ cat /tmp/trafgen; fail "trafgen"; }
	d1=$(tx_packets)
	set -- $(awk '/ sec, .* usec on CPU/ { print $1, $3, $(NF - 1) }' /tmp/trafgen | tr -d '(')
	[ $# -eq 3 ] || { cat /tmp/trafgen; fail "trafgen: no time"; }
	pg_sent=$((d1 - d0)) pg_err=$((N - (d1 - d0)))
	pg_fps=$(awk -v n=$N -v s=$1 -v u=$2 'BEGIN { printf "%.1f", n / (s + u / 1e6) }')
}

# run_sinks ROW...: every row RUNS times, alternated run by run.
run_sinks() {
	fwd="$*"
	rev=$(echo "$fwd" | tr ' ' '\n' | tac | tr '\n' ' ')
	i=1
	while [ $i -le $RUNS ]; do
		if [ $((i % 2)) -eq 1 ]; then rows=$fwd; else rows=$rev; fi
		for row in $rows; do
			run_sink $row $i
		done
		i=$((i + 1))
	done
}

if part sinks; then
	insmod /lib/modules/dummy.ko numdummies=0 || fail "insmod dummy"
	$IP link add d0 type dummy || fail "dummy d0"
	ns_quiet d0
	$IP link set d0 up
	SINK=dummy SINK_TX=d0 SINK_RX=d0 SINK_MAC=$(mac d0)
	run_sinks pktgen-unique pktgen-one-skb pktgen-burst32 bmgen-alloc \
		bmgen-recycle trafgen
	$IP link del d0
	rmmod dummy
fi

# The XDP sink: x0 -> x1, an XDP_DROP program on x1 (xdp-attach).  An skb
# sender pays veth's move of its skb into an XDP buffer on x1 (a copy
# where the skb's head is not one veth can run XDP on); bmgen's XDP path
# hands x1 the page itself, which x1's NAPI drops.
if part xsinks; then
	$IP link add x0 type veth peer name x1 || fail "veth x0"
	ns_quiet x0
	ns_quiet x1
	$IP link set x0 up
	$IP link set x1 up
	xdp-attach x1 drop || fail "xdp-attach x1 drop"
	SINK=veth-xdp SINK_TX=x0 SINK_RX=x1 SINK_MAC=$(mac x1) SINK_COUNT=xdp_drops
	run_sinks pktgen-unique bmgen-alloc bmgen-xdp xdp-trafficgen
	xdp-attach x1 off
	$IP link del x0
fi

# The veth pair of the lab tests, t1 -> t2, t2's filter dropping.
if part vsinks; then
	t2_filter on
	SINK=veth SINK_TX=t1 SINK_RX=t2 SINK_MAC=$T2MAC SINK_COUNT=t2_in
	run_sinks pktgen-unique bmgen-alloc trafgen bmgen-rx
	t2_filter off
fi

# The igb model (the --hw boot): eth0 -> hub, eth1 down.
if part hsinks; then
	[ -e /sys/class/net/eth1 ] || fail "hsinks: no eth1 (the --hw boot, BENCH_HW=1)"
	nic_up eth0
	$IP link set eth1 down
	SINK=igb SINK_TX=eth0 SINK_RX=eth0 SINK_MAC=$(mac eth1) SINK_COUNT=tx_packets
	run_sinks pktgen-unique pktgen-one-skb pktgen-burst32 bmgen-alloc \
		bmgen-recycle trafgen
	xdp-attach eth0 pass || fail "xdp-attach eth0 pass"
	nic_carrier eth0
	run_sinks bmgen-xdp xdp-trafficgen
	xdp-attach eth0 off
fi

# run_lanes K I: the one stream on K transmit kthreads, from bmgen-traffic's
# stream=0 and total lines; tx_fps is the merged stream's (sent - 1) over
# its first to last departure.
run_lanes() {
	bmgen_in
	bmgen-traffic --ports t1,t2 --topology pair --size 64 \
		--line-rate 50e9 --load 100 --duration "$LANES_S" --no-learning \
		--drain 0.3 --tx-kthreads $1 > /tmp/b ||
		{ cat /tmp/b; fail "lanes: bmgen-traffic --tx-kthreads $1"; }
	rmmod bmgen || fail "rmmod bmgen"
	line=$(awk -v k=$1 -v i=$2 -v n=$N '
	$1 == "stream=0" || $1 == "total" {
		p = $1 == "total" ? "total." : ""
		for (f = 2; f <= NF; f++) {
			e = index($f, "=")
			if (e)
				v[p substr($f, 1, e - 1)] = substr($f, e + 1)
		}
	}
	END {
		if (v["intended"] + 0 != n + 0) { print "intended=" v["intended"] ", not " n; exit 1 }
		if (v["total.tx_kthreads"] + 0 != k + 0) { print "tx_kthreads=" v["total.tx_kthreads"] ", not " k; exit 1 }
		d = v["last_tx_s"] - v["first_tx_s"]
		if (v["sent"] + 0 < 2 || d <= 0) { print "no departure span"; exit 1 }
		printf "BENCH lanes k=%d run=%d sent=%d received=%d lost=%d reordered=%d duplicated=%d tx_kthreads=%d tx_fps=%.3f\n",
			k, i, v["sent"], v["received"], v["lost"], v["reordered"],
			v["duplicated"], v["total.tx_kthreads"], (v["sent"] - 1) / d
	}' /tmp/b) || { cat /tmp/b; fail "lanes k=$1 run=$2: $line"; }
	echo "$line"
}

if part lanes; then
	[ "$(nproc)" -ge 2 ] || fail "lanes: two CPUs needed, $(nproc) here"
	# t2 counts nothing itself and receives where it is sent from: the
	# module's rx_handler sees every frame, each lane's on its own CPU
	t2_filter off
	set_rps 0
	# 100 % of 50 Gbit/s is 74,404,761.9 fps of 64 B frames (84 B with
	# preamble and gap): no lane ever waits for a departure time, and
	# N frames take N * 1344 / 10^11 s of the schedule.  Not 100 Gbit/s:
	# the module refuses a stream (a lane) above 100 Mfps, and the one
	# kthread's is the whole stream
	LANES_S=$(awk -v n=$N 'BEGIN { printf "%.12g", n * 1344 / 1e11 }')
	i=1
	while [ $i -le $RUNS ]; do
		if [ $((i % 2)) -eq 1 ]; then ks="1 2"; else ks="2 1"; fi
		for k in $ks; do
			run_lanes $k $i
		done
		i=$((i + 1))
	done
fi
$IP link del t1
echo "BENCH done"
