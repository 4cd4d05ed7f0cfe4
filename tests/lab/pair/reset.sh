# R2544-RESET (RFC 2544 §26.6) across two tester hosts (Documentation/
# multi-host.md): the stream from this guest's t1 to lab2's t2 (tools/
# lab-run --pair) through this guest's DUT bridge, whose forwarding stops
# for about D s when bmd runs the reset the job names.  The DUT's reset is
# no host's part: this host's bmd runs its command once, reset_at_s after
# the trial's CLOCK_TAI instant, while this host sends and lab2 receives
# (as a bmgen.part job of lab2's bmd); the reset value is lab2's longest
# receive gap.  As rfc2544/reset, with D = 1.0..2.0 s and P = 0.3..0.6 s
# drawn (lab_draw, seed printed), r = 300..600 fps of 64-byte frames, a
# 5 s trial, the hook at 1 s:
#
#   reset.br0-bounce = (sleep P; echo "link set br0 down"; sleep D;
#       echo "link set br0 up") | /usr/sbin/ip -n dut -batch -
#
# Truth: the DUT's own record of the outage (the bridge's port state
# changes in this guest's kernel log, printk time: first "entered
# disabled state" to the last of d1's and d2's "entered forwarding
# state"), T.  B - A is taken on lab2's clock alone, so no sync error
# enters it; the window is rfc2544/reset's, [T - 10 ms, T + 2 I + L + 10
# ms] (I = 1/r, L the largest generator lateness the module reported),
# with 10 ms more each side for the QEMU cable between two guests of one
# vCPU each.  The hook fired at 1 s of this host's trial, by the record,
# and no later than 1.5 s; timestamp A, lab2's, is after 1 + P - I less
# the trial's stated sync error.  Lost frames: those scheduled while
# forwarding stood still, r T +- (2 + r L) as there, and 1 more each side
# for the cable.

bm_load
pair_setup
D=$(awk -v x=$(lab_draw reset_down_ds 10 20) 'BEGIN { print x / 10 }')
P=$(awk -v x=$(lab_draw reset_delay_ds 3 6) 'BEGIN { print x / 10 }')
FPS=$(lab_draw stream_fps 300 600 50)
note "seed $LAB_SEED: br0-bounce down $D s after $P s, stream $FPS fps"
cat >> /tmp/bmd-pool.conf <<EOF
reset.br0-bounce = (sleep $P; echo "link set br0 down"; sleep $D; echo "link set br0 up") | /usr/sbin/ip -n dut -batch -
EOF
chmod 0644 /tmp/bmd-pool.conf
off0=$(pair_sync 1000000)
note "lab2's clock offset by ptp4l before the job: $off0 ns"
bmd_start
dmesg -c > /dev/null
bm_job reset rfc2544 reset --port t1 --port lab2:t2 --line-rate 10M \
	$R2544_FAST --frame-sizes 64 --param throughput_fps=$FPS \
	--param trial_duration_s=5 --param reset_at_s=1 --param repetitions=1 \
	--param drain_s=0.5 --param reset_type=software \
	--param reset=br0-bounce
T=$(br0_outages)
note "DUT outage: $T s"
check_eq "DUT outages recorded" "$(echo "$T" | grep -c .)" 1
$BMCTL -j result "$job" > /tmp/reset.json || fail "bmctl result --json"
r=/tmp/reset.res
sed -n '/"per_size"/,$p' /tmp/reset.json > $r
sed -n '/"per_size"/,/"deviations"/p' /tmp/reset.json
L=$(jall tx_late_max_s /tmp/reset.json | sort -g | tail -n1)
E=$(jall error_ns /tmp/reset.json | sort -g | tail -n1)
note "largest generator lateness L: $L s; the trial's stated sync error: $E ns"
$IP -n dut link show br0 | grep -q 'state UP' || fail "br0 not back up"
check_eq "result" "$(jall result $r | tail -n1)" ok
check_eq "valid repetitions" "$(jall valid_repetitions $r)" 1
check_range "reset value (s) vs DUT outage $T s" "$(jall reset_s $r | head -n1)" \
	$(awk -v t="$T" -v l="$L" -v r=$FPS 'BEGIN { printf "%.6f %.6f", t - 0.020, t + 2 / r + l + 0.020 }')
check_range "the hook fired (s of the trial)" "$(jall reset_fired_s $r)" 1 1.5
check_range "timestamp A (s, lab2's)" "$(jall timestamp_a_s $r)" \
	$(awk -v p=$P -v r=$FPS -v e="${E:-0}" 'BEGIN { printf "%.4f %.4f", 1 + p - 1 / r - e / 1e9, 2 + p }')
l=$(sed -n '/"phase": "reset"/,/"lost"/s/^ *"lost": \([0-9]*\),$/\1/p' /tmp/reset.json | head -n1)
check_range "frames lost (outage $T s)" "$l" \
	$(awk -v t="$T" -v l="$L" -v r=$FPS 'BEGIN { printf "%d %d", r * t - 3 - r * l, r * t + 3 + r * l + 0.999 }')
check_eq "the trial's hosts' clocks within the pool's tolerance" \
	"$(jall within /tmp/reset.json | sort -u)" true
# lab2 ran the receiving half: a bmgen.part job there, done
bmctl -H lab2 jobs | awk '$3 == "bmgen.part"' | tail -n1 | grep -q ' done ' ||
	{ bmctl -H lab2 jobs | tail -n3; fail "lab2's part of the reset trial is not a done bmgen.part job"; }
