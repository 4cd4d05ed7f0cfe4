# R2544-RESET (RFC 2544 §26.6) end to end: bmctl -> bmd -> bmgen.ko, with a
# DUT-BR whose forwarding stops for about T = D s when bmd runs the reset
# the request names (--param reset=br0-bounce), DUT-RESET(T) of SPEC §5.1.
# bmd takes reset commands only from its configuration, so the
# test gives it one with that reset:
#
#   reset.br0-bounce = (sleep P; echo "link set br0 down"; sleep D;
#       echo "link set br0 up") | /usr/sbin/ip -n dut -batch -
#
# The reset's numbers and the stream's rate are drawn on every run
# (lib.sh lab_draw, seed printed; "Truths drawn on every run" in
# Documentation/lab.md; the figures in brackets are those it had until
# 2026-12-03): D = 1.0..2.5 s (2), P = 0.3..0.7 s (0.5), the stream
# r = 300..800 fps (500), so the outage ends by 1 + 0.7 + 2.5 = 4.2 s of
# the 5 s trial (3.5).
#
# The stream is r fps of 64-byte frames (throughput_fps given: a
# recorded deviation) for 5 s; the hook fires at 1 s.  bmd runs the hook in
# the job's thread and waits for it, while the module keeps sending: if
# it blocked the stream there would be no frames between 1 s and the end
# of the outage and the gap would not match it.
#
# Truth: the DUT's own record of each outage, not the script's sleep 2
# (on a busy machine the real outage was 1.983 s).  The bridge
# logs every port state change in the kernel log at the moment it
# happens; forwarding t1 -> t2 stops at the first "entered disabled
# state" and resumes at the last "entered forwarding state" of d1 and d2:
# T_k = that difference for repetition k (printk timestamps, one clock).
#
# Model: reset value = B - A, the longest rx gap.  A left the generator at
# most one interval I = 1/r (2 ms; 1.25 .. 3.3 ms drawn; plus its lateness
# L) before forwarding
# stopped; B is the first frame scheduled after it resumed, at most I + L
# after.  Each frame's transit d1 -> t2 (bridge, veth, rx softirq) varies
# by the guest's scheduling, at most 10 ms here (TCG, 2 vCPUs; stated,
# not measured by the module).  Window: [T_k - 10 ms, T_k + 2 I + L + 10
# ms], with L the largest lateness the module reported.  Lost frames:
# those scheduled while forwarding stood still, r T_k, within
# +- (2 + r L) frames (the boundary frames; a late generator sends its
# backlog back to back, which moves frames across the edges).
# Timestamp A (last frame before the outage) is >= 1 + P s - I: the hook
# fired at 1 s and sleep P never returns early; the stream ran on while
# bmd sat in the hook.  Its upper bound 1 + P + 1 s only says the hook was
# not lost (a scheduling delay of a second would be a bmd fault).

bm_load
topo_bridge 2
# The reset and the stream of this run (see the top; the second job's
# outages at the bottom)
D=$(awk -v x=$(lab_draw reset_down_ds 10 25) 'BEGIN { print x / 10 }')
P=$(awk -v x=$(lab_draw reset_delay_ds 3 7) 'BEGIN { print x / 10 }')
FPS=$(lab_draw stream_fps 300 800 50)
BLIP=$(awk -v x=$(lab_draw blip_cs 25 50 5) 'BEGIN { print x / 100 }')
OWN=$(awk -v x=$(lab_draw own_down_ds 8 14) 'BEGIN { print x / 10 }')
note "seed $LAB_SEED: br0-bounce down $D s after $P s, stream $FPS fps; second job: the script's outage $OWN s, br0-blip $BLIP s"
# root's, writable by root only: bmd refuses any other file of commands
cat > /tmp/bmd-reset.conf <<EOF
reset.br0-bounce = (sleep $P; echo "link set br0 down"; sleep $D; echo "link set br0 up") | /usr/sbin/ip -n dut -batch -
reset.br0-blip = (echo "link set br0 down"; sleep $BLIP; echo "link set br0 up") | /usr/sbin/ip -n dut -batch -
EOF
chmod 0644 /tmp/bmd-reset.conf
bmd_start -c /tmp/bmd-reset.conf
dmesg -c > /dev/null
t0=$(cut -d' ' -f1 /proc/uptime)
$BMCTL run rfc2544 reset --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 64 --param throughput_fps=$FPS \
	--param trial_duration_s=5 --param reset_at_s=1 --param repetitions=2 \
	--param drain_s=0.5 --param reset_type=software \
	--param reset=br0-bounce > /tmp/reset.out 2>&1 ||
	{ cat /tmp/reset.out /tmp/bmd.log; fail "bmctl run reset"; }
t1=$(cut -d' ' -f1 /proc/uptime)
note "reset took $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
# the DUT's outages: first "disabled" to last of the two "forwarding"
br0_outages > /tmp/outage.vals
note "DUT outages (s): $(tr '\n' ' ' < /tmp/outage.vals)"
check_eq "DUT outages recorded" "$(wc -l < /tmp/outage.vals)" 2
job=$(sed -n 's/^job \([0-9]*\) submitted$/\1/p' /tmp/reset.out)
[ -n "$job" ] || fail "no job id in the bmctl output"
$BMCTL -j result "$job" > /tmp/reset.json || fail "bmctl result"
r=/tmp/reset.res
sed -n '/"per_size"/,$p' /tmp/reset.json > $r
sed -n '/"per_size"/,/"deviations"/p' /tmp/reset.json
L=$(jall tx_late_max_s /tmp/reset.json | sort -g | tail -n1)
note "largest generator lateness L: $L s"
$IP -n dut link show br0 | grep -q 'state UP' || fail "br0 not back up"

check_eq "result" "$(jall result $r | tail -n1)" ok
check_eq "valid repetitions" "$(jall valid_repetitions $r)" 2
# the default threshold, max(10 ms, 100 frame intervals): 0.2 s at 500 fps
check_range "gap threshold (s)" "$(jall gap_threshold_s $r)" \
	$(awk -v r=$FPS 'BEGIN { t = 100 / r; if (t < 0.01) t = 0.01; printf "%.5f %.5f", t - 0.0001, t + 0.0001 }')
# per repetition: reset_s, then the entry's mean as the last one
jall reset_s $r > /tmp/reset.vals
check_eq "reset values" "$(wc -l < /tmp/reset.vals)" 3
# window [T - 10 ms, T + 2 I + L + 10 ms] for T = each outage, and for the
# mean, min and max against the outages' mean, min and max
win() {
	awk -v t="$1" -v l="$L" -v r=$FPS 'BEGIN { printf "%.6f %.6f", t - 0.010, t + 2 / r + l + 0.010 }'
}
i=0
while read -r v; do
	i=$((i + 1))
	[ $i -le 2 ] || break
	T=$(sed -n "${i}p" /tmp/outage.vals)
	check_range "reset value $i (s) vs DUT outage $T s" "$v" $(win "$T")
done < /tmp/reset.vals
Tmin=$(sort -g /tmp/outage.vals | head -n1)
Tmax=$(sort -g /tmp/outage.vals | tail -n1)
check_range "reset_min_s vs shortest outage $Tmin s" "$(jall reset_min_s $r)" $(win "$Tmin")
check_range "reset_max_s vs longest outage $Tmax s" "$(jall reset_max_s $r)" $(win "$Tmax")
for v in $(jall timestamp_a_s $r); do
	check_range "timestamp A (s)" "$v" \
		$(awk -v p=$P -v r=$FPS 'BEGIN { printf "%.4f %.4f", 1 + p - 1 / r, 2 + p }')
done
# the stream went on around the outage: lost = frames sent during it
i=0
for l in $(sed -n '/"phase": "reset"/,/"lost"/s/^ *"lost": \([0-9]*\),$/\1/p' /tmp/reset.json); do
	i=$((i + 1))
	T=$(sed -n "${i}p" /tmp/outage.vals)
	check_range "frames lost in repetition $i (outage $T s)" "$l" \
		$(awk -v t="$T" -v l="$L" -v r=$FPS 'BEGIN { printf "%d %d", r * t - 2 - r * l, r * t + 2 + r * l + 0.999 }')
done
check_eq "repetitions with a loss count" $i 2

# A longer gap before the reset (RFC 2544 §26.6: the reset's outage, not
# any outage): the module keeps a trial's longest receive gap only.  A
# 6 s stream, the hook br0-blip (BLIP = 0.25..0.5 s down, drawn; 0.3
# until 2026-12-03) at 4.5 s; 2 s after the job is submitted (the trial
# starts 0.2 s of learning and some TCG tenths later) the script takes
# br0 down for OWN = 0.8..1.4 s (1) itself, over by 3.4 s of the trial.
# Truth (the script's own outage, OWN s, at 1-3.4 s of the trial; the
# reset's BLIP s at 4.5 s, shorter by 0.3 s at least): the longest gap
# began before the reset fired, so the repetition is not measured, and
# the result says so; before, it was "ok" with the script's 1 s as the
# reset value.
$BMCTL run rfc2544 reset --port t1 --port t2 --line-rate 10M $R2544_FAST \
	--frame-sizes 64 --param throughput_fps=$FPS --param trial_duration_s=6 \
	--param reset_at_s=4.5 --param repetitions=1 --param drain_s=0.5 \
	--param reset_type=software --param reset=br0-blip --detach \
	> /tmp/early.out 2>&1 || { cat /tmp/early.out; fail "bmctl run (early)"; }
job=$(sed -n 's/^job *\([0-9]*\)$/\1/p' /tmp/early.out | head -n1)
[ -n "$job" ] || fail "no job id (early)"
sleep 2
$IP -n dut link set br0 down && sleep $OWN && $IP -n dut link set br0 up ||
	fail "the script's own outage"
$BMCTL wait "$job" > /dev/null 2>&1
$BMCTL -j result "$job" > /tmp/early.json || fail "bmctl result (early)"
r=/tmp/early.res
sed -n '/"per_size"/,$p' /tmp/early.json > $r
note "early gap: A $(jall timestamp_a_s $r) s, gap $(jall max_gap_s /tmp/early.json) s, reset fired $(jall reset_fired_s $r) s"
check_eq "a longer gap before the reset: repetitions not measured" \
	"$(grep -c '"result": "not measured: the longest receive gap began before the reset fired, so it is not the reset.s"' $r)" 1
check_eq "a longer gap before the reset: result" "$(jall result $r | cut -c1-13)" "not measured:"
check_range "the script's gap (s)" "$(jall max_gap_s /tmp/early.json)" \
	$(awk -v o=$OWN 'BEGIN { printf "%.2f %.2f", o - 0.1, o + 0.6 }')
grep -q '1 repetition(s) not measured' /tmp/early.json ||
	fail "a longer gap before the reset: no deviation"
