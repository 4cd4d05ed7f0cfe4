# TM-SETUP, REQ-TM-2 and REQ-TM-6 via bmctl/bmd: the network delay
# emulator verified alone, and the stateful tests' gate on it (SPEC
# TM-SETUP acceptance, scaled to a TCG guest: a notional 2 Mbit/s line
# where the SPEC has 100 Mbit/s and 1 Gbit/s).
#
# The NDE: a quiet 2-port bridge with netem delay D = 10 ms on d2 (towards
# t2) and on d1 (back), nothing else.  Truth from netem's own counters.
# D is drawn on every run (lib.sh lab_draw, seed printed): 8..30 ms (10
# until 2026-12-03; the figures below are for 10); every window follows
# from the drawn D: at least 8 ms so that (3)'s 10-packet netem still
# holds fewer than the frames in flight (1689 fps x 8 ms = 13.5).
# (1) `bmctl nde-verify` at 100 % of the line, 128, 512 and 1500 B, 1 s
#     each, both ways, then a bulk TCP connection for 2 s: every frame
#     arrives (lost 0 = netem's drops on d1 and d2), each direction's
#     minimum delay in [D, D + 1 ms] (netem never early; the bridge and
#     the guest add well under a millisecond) and mean in [D, D + 3 ms]
#     (the TCG guest's timers fire late, measured 1.0 ms mean in
#     rfc2544/latency);
#     the procedure's own tolerance is given as 3 ms for the same reason
#     (a real NDE keeps 1 % or 50 us, the defaults); the TCP baseline RTT
#     in [2 D, 2 D + 3 ms], not tcp_host_limited (nothing shapes the path;
#     SO_SNDBUF 128 KB keeps its flight far below netem's 1000 packets, so
#     that netem's drops count the frames' alone).
# (2) queue-stateful stating nde_rtt_ms = 2 D runs, and its meta.nde names
#     (1)'s job.
# (3) netem's limit on d2 cut to 10 packets: 128 B at the line is 1689 fps,
#     17 frames in D (13.5..50.7), so netem drops (SPEC: 8,446 in flight over
# a limit of
#     1000 at 1 Gbit/s must fail): bmctl exits 1 naming the loss, the
#     result is stored with nde_ok false, and its lost frames equal netem's
#     drops on d2 exactly, the way back none.
# (4) queue-stateful is then refused, one line naming REQ-TM-2 and --force;
#     bmd still answers.  (5) With --force it runs: meta.nde.forced, the
#     deviation, and the failed job named.
# (6) TM-QS-CAP-1 with TM-QS-2's TCP (queue-capacity stateful_apps): t1
#     and t2 -> t3.  The NDE of those paths is netem on the way back (d1,
#     d2, limit 1000 again): verified first, 512 B both ways, frames only
#     (delay 0 and D).  Then d3 becomes DUT-SP (tbf R = 10 Mbit/s, burst
#     30400, over prio: EF to band 1, the rest to band 3, pfifo 50): t1
#     and t2 send EF 1 Mbit/s each beside one bulk connection each, best
#     effort, for Td 3 s.  EF: 2 Mbit/s +- 2 % with LP 0 (strict
#     priority); the two connections together get what EF leaves of the
#     egress over their window W (which spans the learning frames, the
#     trial and the loss wait): F-9's (R W - E) / W x 1448/1518, E the EF
#     bits the egress delivered (the throughput of the queue x Td), in
#     [0.85 x, 1.01 x (1 x + the bucket / W)] (rfc7640/stateful's window for
#     one connection; the 1 %: W's ends are the engine's clock reads around
#     the connections' start and close, not the tbf's service, and the
#     two connections fill the link to the bucket's last byte: one run
#     read 8,093,540 of a bound of 8,096,205 bit/s without it);
#     meta.nde holds both paths' verifications.
bm_load
topo_bridge 3
D=$(lab_draw nde_delay_ms 8 30)
note "seed $LAB_SEED: netem delay $D ms each way"
for d in d1 d2; do
	$TC -n dut qdisc add dev $d root netem delay ${D}ms limit 1000 ||
		fail "netem $d"
done
bmd_start
NDE="--line-rate 2M $LEARN_FAST --param delay_ms=$D --param reverse_delay_ms=$D --param tolerance_ms=3 --param drain_s=0.5"
SF="--line-rate 2M --param td_s=1 --param tr=1 --param apps=[\"bulk\"] --param bulk_bytes=100000 --param nde_rtt_ms=$((2 * D))"

# lost frames and netem's drops of the DUT's d1 and d2 over (1)
d1=$(qdisc_drops d1) d2=$(qdisc_drops d2)
$BMCTL nde-verify --port t1 --port t2 $NDE --frame-sizes 128,512,1500 \
	--duration 1 --param tcp_duration_s=2 --param tcp_warmup_s=1 \
	--param sndbuf=131072 \
	> /tmp/v1.out 2>&1 || { cat /tmp/v1.out /tmp/bmd.log; fail "nde-verify (1)"; }
cat /tmp/v1.out
v1=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/v1.out | head -n1)
$BMCTL -j result "$v1" > /tmp/v1.json || fail "bmctl result $v1"
# the directions' rows alone (the trial records have a "lost" too)
sed -n '/"per_size"/,/"tcp"/p' /tmp/v1.json > /tmp/v1.ps
check_eq "(1) nde_ok" "$(jvals nde_ok /tmp/v1.json)" true
check_eq "(1) netem drops d1 + d2" "$(($(qdisc_drops d1) - d1 + $(qdisc_drops d2) - d2))" 0
check_eq "(1) frames lost, all sizes and ways" "$(jvals lost /tmp/v1.ps | awk '{ s += $1 } END { print s }')" 0
check_eq "(1) directions measured" "$(jvals direction /tmp/v1.ps | sort | uniq -c | awk '{ printf "%s%s", s, $1 $2; s = " " }')" '3"t1->t2" 3"t2->t1"'
for x in $(jvals min_delay_ms /tmp/v1.ps); do
	check_range "(1) min delay (ms)" "$x" $D $((D + 1))
done
for x in $(jvals mean_delay_ms /tmp/v1.ps); do
	check_range "(1) mean delay (ms)" "$x" $D $((D + 3))
done
check_range "(1) TCP baseline RTT (ms)" "$(jvals baseline_rtt_ms /tmp/v1.json | tail -n1)" $((2 * D)) $((2 * D + 3))
check_eq "(1) tcp_host_limited" "$(jvals tcp_host_limited /tmp/v1.json)" false
note "(1) TCP goodput $(jvals goodput_pct_of_ceiling /tmp/v1.json) % of the ceiling at 2 Mbit/s"

bm_job sf2 rfc7640 queue-stateful $SF --port t1 --port t2
$BMCTL -j result "$job" > /tmp/sf2.json || fail "bmctl result"
check_eq "(2) meta.nde.verified_by_job" "$(jvals verified_by_job /tmp/sf2.json)" "$v1"
check_eq "(2) meta.nde.forced" "$(jvals forced /tmp/sf2.json)" false

$TC -n dut qdisc change dev d2 root netem delay ${D}ms limit 10 || fail "netem limit 10"
d1=$(qdisc_drops d1) d2=$(qdisc_drops d2)
$BMCTL nde-verify --port t1 --port t2 $NDE --frame-sizes 128 --duration 1 \
	--param tcp=false > /tmp/v3.out 2> /tmp/v3.err
rc=$?
cat /tmp/v3.out /tmp/v3.err
check_eq "(3) bmctl exit status" "$rc" 1
grep -q "job [0-9]* failed: the NDE failed its verification: 128 B t1->t2: [0-9]* of [0-9]* frames lost" /tmp/v3.err ||
	fail "(3) no loss named on stderr"
v3=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/v3.out | head -n1)
$BMCTL -j result "$v3" > /tmp/v3.json || fail "(3) no result stored"
sed -n '/"per_size"/,/"tcp"/p' /tmp/v3.json > /tmp/v3.ps
check_eq "(3) nde_ok" "$(jvals nde_ok /tmp/v3.json)" false
lost=$(jvals lost /tmp/v3.ps | head -n1)
check_range "(3) frames lost t1->t2" "$lost" 1 1000000
check_eq "(3) lost t1->t2 = netem's drops on d2" "$lost" "$(($(qdisc_drops d2) - d2))"
check_eq "(3) lost t2->t1 = netem's drops on d1 = 0" "$(jvals lost /tmp/v3.ps | sed -n 2p) $(($(qdisc_drops d1) - d1))" "0 0"

$BMCTL run rfc7640 queue-stateful $SF --port t1 --port t2 > /tmp/sf4.out 2> /tmp/sf4.err
rc=$?
cat /tmp/sf4.out /tmp/sf4.err
check_eq "(4) bmctl exit status" "$rc" 1
grep -q "the newest rfc7640.nde-verify on these ports (job $v3) failed: verify the NDE first (REQ-TM-2: bmctl nde-verify), or run with --force" /tmp/sf4.err ||
	fail "(4) refusal not named"
$BMCTL status > /dev/null || fail "(4) bmd does not answer"

bm_job sf5 rfc7640 queue-stateful $SF --force --port t1 --port t2
$BMCTL -j result "$job" > /tmp/sf5.json || fail "bmctl result"
check_eq "(5) meta.nde.forced" "$(jvals forced /tmp/sf5.json)" true
check_eq "(5) meta.nde.verified_by_job" "$(jvals verified_by_job /tmp/sf5.json)" "$v3"
grep -q '"run with --force without a verified NDE' /tmp/sf5.json || fail "(5) no deviation"

$TC -n dut qdisc change dev d2 root netem delay ${D}ms limit 1000 || fail "netem limit 1000"
for t in t1 t2; do
	bm_job v6 rfc7640 nde-verify --line-rate 2M $LEARN_FAST --port $t \
		--port t3 --frame-sizes 512 --duration 1 --param tcp=false \
		--param delay_ms=0 --param reverse_delay_ms=$D \
		--param tolerance_ms=3 --param drain_s=0.5
done
dut_sp d3 30400
d0=$(qdisc_drops d3)
bm_job qc rfc7640 queue-capacity --line-rate 100M $LEARN_FAST --port t1 \
	--port t2 --port t3 --param scheduler=sp --param 'class_dscps=[46]' \
	--param 'class_rates_bps=[1e6]' --param bb_bps=10e6 --param ql=50000 \
	--param bursts=false --param td_s=3 --param tr=1 --param drain_s=0.5 \
	--param 'stateful_apps=["bulk"]' --param nde_rtt_ms=$D \
	--param sndbuf=131072
$BMCTL -j result "$job" > /tmp/qc.json || fail "bmctl result"
tm_queue_rows /tmp/qc.json > /tmp/qc.rows
ef=$(awk '$1 == "t3:1" { print $2 }' /tmp/qc.rows)
check_eq "(6) EF LP" "$(awk '$1 == "t3:1" { print $3 }' /tmp/qc.rows)" 0
check_range "(6) EF (bit/s), 2 Mbit/s +- 2 %" "$ef" 1960000 2040000
sed -n '/^    "stateful": \[/,/^    \]/p' /tmp/qc.json | tr -d '",' |
	awk '$1 == "ingress:" { i = $2 } $1 == "throughput_bps:" { t[i] = $2 }
	     $1 == "window_s:" { w = $2 }
	     END { print t["t1"] + 0, t["t2"] + 0, w + 0 }' > /tmp/qc.sf
read -r tcp1 tcp2 w < /tmp/qc.sf
note "(6) TCP t1 $tcp1, t2 $tcp2 bit/s over $w s; EF $ef bit/s; tbf drops $(($(qdisc_drops d3) - d0))"
lohi=$(awk -v w="$w" -v ef="$ef" 'BEGIN {
	c = (10e6 * w - ef * 3) / w * 1448 / 1518
	printf "%.0f %.0f", 0.85 * c, 1.01 * (c + 30400 * 8 / w) }')
check_range "(6) the two connections together (bit/s)" \
	"$(awk -v a="$tcp1" -v b="$tcp2" 'BEGIN { printf "%.0f", a + b }')" $lohi
check_eq "(6) both paths' verifications in meta.nde" "$(jvals verified_by_job /tmp/qc.json | wc -l)" 2
