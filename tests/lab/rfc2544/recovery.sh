# R2544-RECOV (RFC 2544 §26.5) end to end: bmctl -> bmd -> bmgen.ko against
# DUTs of known recovery time, at F = 512 B (a frame costs A = 512 - 4 + 24
# = 532 B of tbf tokens, 4256 bit) on a notional 10 Mbit/s line.  The
# DUT's rates, queues and buckets are drawn on every run (lib.sh lab_draw,
# seed printed; "Truths drawn on every run" in Documentation/lab.md); the
# figures in brackets are those of the DUT it had until 2026-12-03.
#
# The procedure gets throughput_fps = T = 1000 (a recorded deviation; no
# search), so it overloads at O = 1.1 T = 1100 fps for 3 s and steps at
# A (t = 0 below) to L = 0.5 O = 550 fps for a 1.5 s observation window.
# S2 is the tbf "line" on d2: R2 = 780..900 fps (850; 3617600 bit/s), a
# bucket of K2 = 2..8 frames + 8 B (6 frames, 3200 B), pfifo Q2 = 5..30
# (10).  R2 > L + 230: the room that grows after the step (below).
#
# (a) SPEC R2544-RECOV acceptance (a): S2 alone, one tail-drop queue.  It
#     drops only while full and arrivals exceed service; after A arrivals
#     (L) are below service (R2), so no frame sent after A is lost:
#     truth B - A = 0 (SPEC: 0 <= B - A <= 2/L = 3.6 ms).
#
# (b) Two stages: br0 -> m1 ==veth== m2 -> br1 -> d2, with S1 on m1 of
#     R1 = 900..1000 fps (1000; 4256000 bit/s), R1 >= R2 + 100, a bucket of
#     K1 = 4..20 frames + 8 B (20 frames, 10640 B) and pfifo Q1 = 60..200
#     (200) in front of S2.  During the overload S1 fills (O - R1 excess:
#     full after (Q1 + K1)/(O - R1) <= 220/100 = 2.2 s of the 3) and feeds
#     S2 at R1 > R2, so S2 drops R1 - R2 fps.  After A, S1 still sends at
#     R1 while its backlog of Q1 drains at R1 - L, so S2 keeps dropping
#     until S1 is empty at t1 = Q1/(R1 - L) (0.444 s; 0.13 .. 0.57 s drawn);
#     then S2 gets L < R2 and stops.  The frame S1 sends at t1 arrived
#     there at ~t1 (queue empty), so the last lost frame was sent at t1
#     minus at most one S2 drop spacing.  Truth: B - A = Q1/(R1 - L).
#
# Tolerances.  Model terms: S2 drops one in R1/(R1 - R2) of S1's frames
# (6.7; at most 10 drawn), whose tx times are 1/L apart near t1, so the
# last loss is up to R1/((R1 - R2) L) early (12 ms; 18 at most); Q1 +- 1
# frame (the one tbf has peeked, one between the stages) is +- 1/(R1 - L)
# (2.2 ms); tbf's rate is exact to 0.07 % (SPEC CAL-ACC, verified), so
# R1 - L is within 0.0007 R1, t1 within 0.0007 t1 R1/(R1 - L) (0.7 ms).
# TCG jitter d (a vCPU or a timer late by d; measured as the generator's
# largest lateness tx_late_max_s, 4.6 .. 21 ms over 6 runs): S2's queue is
# full at t1 (at A in case (a)) and its free room grows only at R2 - L
# (300 fps; 230 .. 350 drawn), so frames held up for d and then arriving
# at once (L d of them), or arriving while S2 is stalled for d, are
# dropped until t1 + J d, J = L/(R2 - L) (1.83; 1.57 .. 2.39 drawn); a
# stall also moves B against the tx schedule by up to d.  With
# d = max(21 ms, the run's own largest lateness), e = 1/(R1 - L) +
# 0.0007 t1 R1/(R1 - L):
#   (a) [0, 2/L + J d]                             = [0, 0.042] s
#   (b) [t1 - R1/((R1 - R2) L) - e - d, t1 + e + J d] = [0.408, 0.486] s
# (figures at the DUT until 2026-12-03 and d = 21 ms).  The latest bound,
# 0.57 + 0.003 + 2.39 x 21 ms = 0.63 s, is far from the window's end
# less the procedure's 0.18 s "still losing" margin (1.32 s).
# (The first version, R2 = 650 fps, had room growing at 100 fps: one
# repetition in 18 lost a frame 102 ms after t1, = 5.5 x 19 ms; J was
# then written as 1.83, and 5.5 = 550/100 is what J says.)
# Measured (DUT until 2026-12-03) over 15 repetitions in 5 runs: (b)
# 0.433 .. 0.444 s, (a) 0.
elapsed() {
	awk -v a="$1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { print b - a }'
}

bm_load
topo_bridge 2
quiet_bridge br1 dut
$IP -n dut link add m1 type veth peer name m2 || fail "veth m1"
for l in br1 m1 m2; do ns_quiet $l dut; done
$IP -n dut link set d2 nomaster
$IP -n dut link set m1 master br0
$IP -n dut link set m2 master br1
$IP -n dut link set d2 master br1
for l in m1 m2 br1; do $IP -n dut link set $l up; done
# The DUT of this run (see the top): rates in frames/s of A = 4256 bit
R1=$(lab_draw s1_fps 900 1000 10)
R2=$(lab_draw s2_fps 780 $((R1 - 100)) 10)
Q1=$(lab_draw s1_pfifo 60 200 5)
K1=$(lab_draw s1_bucket_frames 4 20)
Q2=$(lab_draw s2_pfifo 5 30)
K2=$(lab_draw s2_bucket_frames 2 8)
L=550
T1=$(awk -v q=$Q1 -v r=$R1 -v l=$L 'BEGIN { printf "%.4f", q / (r - l) }')
note "seed $LAB_SEED: S1 $R1 fps, bucket $K1 frames, pfifo $Q1; S2 $R2 fps, bucket $K2 frames, pfifo $Q2: truth (b) $T1 s, (a) 0"
# S2 on d2 (both cases)
$TC -n dut qdisc add dev d2 root handle 1: tbf rate $((R2 * 4256))bit \
	burst $((K2 * 532 + 8)) limit 1000000 overhead 24 || fail "tbf S2"
$TC -n dut qdisc add dev d2 parent 1:1 handle 10: pfifo limit $Q2 ||
	fail "pfifo S2"
bmd_start

# run_recov NAME REPS: one recovery job, result document in /tmp/NAME.json
run_recov() {
	s=$(cut -d' ' -f1 /proc/uptime)
	$BMCTL run rfc2544 recovery --port t1 --port t2 --line-rate 10M $R2544_FAST \
		--frame-sizes 512 --param throughput_fps=1000 \
		--param overload_duration_s=3 --param observe_s=1.5 \
		--param repetitions=$2 --param drain_s=0.5 \
		> /tmp/$1.out 2>&1 ||
		{ cat /tmp/$1.out /tmp/bmd.log; fail "bmctl run recovery ($1)"; }
	job=$(sed -n 's/^job \([0-9]*\) submitted$/\1/p' /tmp/$1.out)
	[ -n "$job" ] || fail "no job id in the bmctl output"
	$BMCTL -j result "$job" > /tmp/$1.json || fail "bmctl result"
	sed -n '/"per_size"/,$p' /tmp/$1.json > /tmp/$1.res
	note "recovery ($1) took $(elapsed $s) s"
	sed -n '/"per_size"/,/"deviations"/p' /tmp/$1.json
	# per trial: lost frames and the generator's largest lateness
	awk -F': ' '{ sub(/,$/, "") } /^ *"lost":/ { l = $2 }
		/^ *"tx_late_max_s":/ { print "note: trial lost " l ", late " $2 " s" }' \
		/tmp/$1.json
	# the guest's timer jitter d as the generator saw it (see the top)
	late=$(jall tx_late_max_s /tmp/$1.json | sort -g | tail -n1)
	d=$(awk -v l="$late" 'BEGIN { print (l > 0.021 ? l : 0.021) }')
	note "largest generator lateness $late s: d = $d s"
}

# (b) first: S1 in front of S2
$TC -n dut qdisc add dev m1 root handle 1: tbf rate $((R1 * 4256))bit \
	burst $((K1 * 532 + 8)) limit 1000000 overhead 24 || fail "tbf S1"
$TC -n dut qdisc add dev m1 parent 1:1 handle 10: pfifo limit $Q1 ||
	fail "pfifo S1"
run_recov two-stage 3
$TC -n dut -s qdisc show dev m1
$TC -n dut -s qdisc show dev d2
r=/tmp/two-stage.res
check_eq "(b) result" "$(jall result $r | head -n1)" ok
check_range "(b) overload (fps)" "$(jall overload_fps $r)" 1099.99 1100.01
check_range "(b) reduced (fps)" "$(jall reduced_fps $r)" 549.99 550.01
# the window of the top, from this run's DUT and d
win() {
	awk -v d="$d" -v t1=$T1 -v r1=$R1 -v r2=$R2 -v l=$L -v w=$1 'BEGIN {
		e = 1 / (r1 - l) + 0.0007 * t1 * r1 / (r1 - l); j = l / (r2 - l)
		if (w == "lo") printf "%.4f\n", t1 - r1 / ((r1 - r2) * l) - e - d
		else if (w == "hi") printf "%.4f\n", t1 + e + j * d
		else printf "%.4f\n", 2 / l + j * d }'
}
lo=$(win lo)
hi=$(win hi)
note "(b) truth $T1 s, window [$lo, $hi] s"
check_range "(b) recovery mean (s)" "$(jall recovery_s $r)" $lo $hi
check_range "(b) recovery min (s)" "$(jall recovery_min_s $r)" $lo $hi
check_range "(b) recovery max (s)" "$(jall recovery_max_s $r)" $lo $hi

# (a) S1 removed: one tail-drop queue
$TC -n dut qdisc del dev m1 root || fail "tc del S1"
run_recov one-stage 1
r=/tmp/one-stage.res
check_eq "(a) result" "$(jall result $r | head -n1)" ok
check_range "(a) recovery (s)" "$(jall recovery_s $r)" 0 "$(win a)"
