# One-way latency across two tester hosts with NIC hardware stamps
# (Documentation/multi-host.md "Hardware stamps across hosts"): R8238-CAL
# back to back from this guest's igb h1 to lab2's igb h2 (tools/lab-run
# --pair: cable 3, a QEMU dgram cable between the two guests, no DUT).
# No module sees both stamps of a frame: this host's part logs its tx
# stamps, lab2's its rx stamps, and the pool pairs them by seq.
#
# Model (as hw/timestamps, on one host): each igb's PHC counts QEMU's
# virtual clock; each host converts its stamps to its own clock with its
# PHC's offset (uncertainty U, both hosts' together) and the two clocks
# are ptp4l's (software, on ctl0), off by the trial's sync error E.  The
# 82576 model stamps one received PTP event frame after a device reset
# (its tx stamps need none), so lab2's igb is reset just before the job:
# >= 1 pair, frame 0's.  A frame's
# software latency S rides the same two clocks, and hardware stamps are
# taken nearer the wire: H <= S + U.  A frame cannot arrive before it
# left: H >= -E - U.  And the cable between two TCG guests is under 2 ms:
# H <= 2 ms + E + U.
#
# Truth: every pair is one across hosts (the stream's two ports are on
# two hosts: no module pairs any); tx requests answered but for one at
# most (the one in flight at the end); the record states the filters
# (ptpv2-event: the 82576's), E as sync_error_ns and it within the
# accuracy.
bm_load
pair_setup
off0=$(pair_sync 1000000)
bmd_start
N=200
nic_carrier h1
lab2_reset_h2
bm_job cal rfc8238 calibrate --port h1 --port lab2:h2 --line-rate 1M \
	--frame-sizes 128 --param frames=$N --param drain_s=0.3 \
	--param cable_type=qemu-dgram --param cable_length_m=0
off1=$(lab2_offset)
note "lab2's offset by ptp4l: $off0 ns before, $off1 ns after the job"
$BMCTL -j result "$job" > /tmp/cal.json || fail "result calibrate"
sed -n '/^  "trials"/,/^  "results"/p' /tmp/cal.json > /tmp/cal.trials
sed -n '/"hw_latency": {/,/}/p' /tmp/cal.trials > /tmp/cal.thw
sed -n '/"hw": {/,/}/p' /tmp/cal.json > /tmp/cal.hw
[ -s /tmp/cal.thw ] || fail "no hw_latency block in the trial"
[ -s /tmp/cal.hw ] || fail "calibrate: no hw entry"
cat /tmp/cal.thw
X=$(jvals across_hosts /tmp/cal.thw)
check_range "pairs across hosts" "$X" 1 $N
check_eq "every pair across hosts" "$(jvals count /tmp/cal.thw)" "$X"
check_eq "calibrate: frames with both stamps" "$(jvals frames /tmp/cal.hw)" "$X"
req=$(jvals tx_requests /tmp/cal.thw)
check_range "this host's tx stamp requests (one in flight)" "$req" $((N / 4)) $N
check_range "tx requests unanswered" "$(jvals tx_missed /tmp/cal.thw)" 0 1
check_range "lab2's rx stamps" "$(jvals rx_stamps /tmp/cal.thw)" "$X" $N
check_eq "filters (82576: PTP event frames)" \
	"$(jvals tx_port_rx_filter /tmp/cal.thw) $(jvals rx_port_rx_filter /tmp/cal.thw)" \
	'"ptpv2-event" "ptpv2-event"'
E=$(jvals sync_error_ns /tmp/cal.thw)
A=$(jvals accuracy_ns /tmp/cal.thw)
check_eq "the stated sync error is the trial's" "$E" "$(jvals error_ns /tmp/cal.trials)"
U=$(awk -v a="$A" -v e="$E" 'BEGIN { printf "%.0f", a - e }')
check_range "the PHC offsets' part of the accuracy (ns)" "$U" 0 100000
H=$(jvals cal_constant_ns /tmp/cal.hw)
S=$(jvals sw_cal_constant_ns /tmp/cal.hw)
note "hardware latency $H ns, software latency of the same frames $S ns, sync error $E ns, offsets' uncertainty $U ns"
check_range "hardware latency across hosts (ns)" "$H" \
	"$(awk -v e="$E" -v u="$U" 'BEGIN { printf "%.0f", -e - u }')" \
	"$(awk -v s="$S" -v u="$U" 'BEGIN { printf "%.0f", s + u }')"
check_range "hardware latency on a cable between two guests (ns)" "$H" \
	"$(awk -v e="$E" -v u="$U" 'BEGIN { printf "%.0f", -e - u }')" \
	"$(awk -v e="$E" -v u="$U" 'BEGIN { printf "%.0f", 2e6 + e + u }')"
