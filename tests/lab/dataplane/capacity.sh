# The generator's calibrated capacity (SPEC REQ-GEN-6): bmgen.capacity
# (bmctl port calibrate) on a veth pair t1 -> t2, the tester-to-tester
# loop the SPEC names, whose t2 has GRO (so t1 takes XDP frames); what
# bmd does with the figure.
#
# Model.  No DUT.  veth allows no recycled skbs (the module falls back
# to alloc) and XDP frames once its peer has GRO.  Truth:
#   - one entry per path asked (auto, alloc, recycle, xdp at 64 B), each
#     with the path the module used: auto and alloc use alloc, recycle
#     is not available (used alloc), xdp uses xdp; every send_fps > 0 and
#     every available path's loop_fps in (0, 0.95 x send_fps];
#   - the figures hold: one kthread asked for 0.5 x the auto loop rate
#     sends every frame on time and loses none (the loop's own claim,
#     with half kept for TCG, whose rate varies +-40 % between trials of
#     one boot: auto and alloc, the same path, calibrated at 10.2 and
#     6.0 kfps in one job); asked for 2 x its send_fps it falls short and
#     says generator_limited (the ceiling is real);
#   - bmctl port list shows the figure for t1 and none for t2; bmctl
#     status lists it per path;
#   - a job at a line rate above what one kthread sends (10 Gbit/s at
#     64 B, 14.88 Mfps) is warned before its first trial, on stderr, and
#     its result's deviations carry the same line;
#   - with tx-kthreads = auto a trial at 1.5 x the auto figure goes out
#     on 2 kthreads (ceil(1.5 / 0.9)) and one at 0.1 x on 1.
# The loop is tried down to 0.95 x 0.85^7 = 31 % of send_fps (steps 8,
# not the default 4, whose 58 % a fresh clone's run once missed for xdp:
# 128 kfps sent, every loop trial from 122 down to 75 kfps losing frames
# in the boot's first test); a step below the first clean one is never
# run, so a run that needs fewer costs nothing.
bm_load
veth_loop t1 t2
ethtool -K t2 gro on || fail "gro on t2"

printf 'tx-kthreads = auto\n' > /tmp/bmd-auto.conf
bmd -c /tmp/bmd-auto.conf --check-config | grep -q '^tx-kthreads *auto$' ||
	fail "bmd --check-config does not say tx-kthreads auto"
bmd_start -c /tmp/bmd-auto.conf

$BMCTL port calibrate t1 t2 --frame-sizes 64 --duration 0.3 \
	--param steps=8 > /tmp/cal.out 2>&1 ||
	{ cat /tmp/cal.out /tmp/bmd.log; fail "bmctl port calibrate t1 t2"; }
cat /tmp/cal.out
job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/cal.out | head -n1)
[ -n "$job" ] || fail "bmctl port calibrate: no job id"
$BMCTL -j result "$job" > /tmp/cal.json || fail "bmctl result --json"
cal=$job

# entry PATH KEY: KEY of the capacity entry of PATH (entries come in the
# order asked; the keys are the entries' own, no trial record has them)
entry() {
	case $1 in auto) n=1 ;; alloc) n=2 ;; recycle) n=3 ;; xdp) n=4 ;; esac
	jvals "$2" /tmp/cal.json | sed -n "${n}p" | tr -d '"'
}
check_eq "entries" "$(jvals tx_path_used /tmp/cal.json | wc -l)" 4
for p in auto alloc recycle xdp; do
	note "$p: used $(entry $p tx_path_used), send $(entry $p send_fps) fps, loop $(entry $p loop_fps) fps after $(entry $p loop_trials) trials"
	check_range "$p: send_fps" "$(entry $p send_fps)" 1000 1e9
done
check_eq "auto: used" "$(entry auto tx_path_used)" alloc
check_eq "alloc: used" "$(entry alloc tx_path_used)" alloc
check_eq "recycle: used" "$(entry recycle tx_path_used)" alloc
check_eq "recycle: available" "$(entry recycle available)" false
check_eq "recycle: loop_fps" "$(entry recycle loop_fps)" null
check_eq "xdp: used" "$(entry xdp tx_path_used)" xdp
check_eq "xdp: available" "$(entry xdp available)" true
for p in auto alloc xdp; do
	s=$(entry $p send_fps)
	check_range "$p: loop_fps" "$(entry $p loop_fps)" 1 "$(awk -v s="$s" 'BEGIN { print 0.95 * s + 1 }')"
done

# the claims: 0.5 x the loop rate clean on one kthread; 2 x send short
send=$(entry auto send_fps)
loop=$(entry auto loop_fps)
# bmgen-traffic takes a load in % of a line: 10 Gbit/s, 14,880,952 fps
pct() { awk -v r="$1" 'BEGIN { printf "%.6f", r / 14880952.38 * 100 }'; }
r=$(awk -v l="$loop" 'BEGIN { printf "%.0f", 0.5 * l }')
bmgen-traffic --ports t1,t2 --topology pair --size 64 --line-rate 10e9 \
	--load "$(pct $r)" \
	--duration 1 --drain 0.3 > /tmp/tr.ok 2>&1 ||
	{ cat /tmp/tr.ok; fail "bmgen-traffic at $r fps"; }
st=$(grep '^stream=0 ' /tmp/tr.ok)
val() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
check_eq "0.5 x loop ($r fps): lost" "$(val lost "$st")" 0
check_eq "0.5 x loop ($r fps): sent = intended" "$(val sent "$st")" "$(val intended "$st")"
check_eq "0.5 x loop ($r fps): generator_limited" \
	"$(val generator_limited "$(grep '^total ' /tmp/tr.ok)")" 0
r=$(awk -v s="$send" 'BEGIN { printf "%.0f", 2 * s }')
bmgen-traffic --ports t1,t2 --topology pair --size 64 --line-rate 10e9 \
	--load "$(pct $r)" --duration 0.5 --drain 0.3 > /tmp/tr.over 2>&1 ||
	{ cat /tmp/tr.over; fail "bmgen-traffic at $r fps"; }
check_eq "2 x send ($r fps): generator_limited" \
	"$(val generator_limited "$(grep '^total ' /tmp/tr.over)")" 1

$BMCTL port list > /tmp/ports.txt || fail "bmctl port list"
cat /tmp/ports.txt
grep -q '^t1 .*Mfps/kthread 64 B' /tmp/ports.txt ||
	fail "bmctl port list shows no capacity for t1"
grep '^t2 ' /tmp/ports.txt | grep -q 'Mfps/kthread' &&
	fail "bmctl port list shows a capacity for t2, never measured"
$BMCTL status > /tmp/status.txt || fail "bmctl status"
grep -q "capacity t1 auto.*fps/kthread at 64 B.*job $cal" /tmp/status.txt ||
	{ cat /tmp/status.txt; fail "bmctl status lists no capacity of t1"; }

# the warning before the first trial, and in the result
$BMCTL run rfc8238.calibrate --port t1 --port t2 --line-rate 10G \
	--frame-sizes 64 --param frames=2000 --param load_pct=0.05 \
	--param drain_s=0.3 > /tmp/warn.out 2> /tmp/warn.err ||
	{ cat /tmp/warn.out /tmp/warn.err; fail "rfc8238.calibrate at 10G"; }
cat /tmp/warn.err
grep -q '^bmctl: warning: generator capacity (REQ-GEN-6): at 64 B the line rate is 1.488e+07 fps; one transmit kthread sent .* fps from t1 (tx path auto, bmgen.capacity), 2 kthreads' /tmp/warn.err ||
	fail "no capacity warning for t1 at 10G"
job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/warn.out | head -n1)
$BMCTL -j result "$job" | grep -q '"generator capacity (REQ-GEN-6): at 64 B' ||
	fail "the result's deviations lack the capacity warning"

# tx-kthreads = auto: the kthreads a stream needs of the figure
lanes() {	# NAME LOAD_PCT: the trial record's tx_kthreads at that load
	line=$(awk -v s="$send" 'BEGIN { printf "%.0f", 1.5 * s * 84 * 8 }')
	$BMCTL -j run rfc8238.calibrate --port t1 --port t2 --line-rate "$line" \
		--frame-sizes 64 --param frames=3000 --param load_pct="$2" \
		--param drain_s=0.3 > /tmp/$1.json 2> /tmp/$1.err ||
		{ cat /tmp/$1.err; fail "rfc8238.calibrate at $2 %"; }
	jvals tx_kthreads /tmp/$1.json | head -n1
}
check_eq "1.5 x the figure: kthreads" "$(lanes fast 99.98)" 2
check_eq "0.1 x the figure: kthreads" "$(lanes slow 6.67)" 1
bmd_stop
$IP link del t1
echo "ok: the generator's calibrated capacity"
