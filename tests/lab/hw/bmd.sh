# Hardware timestamps through bmd: a procedure on ports that can stamp gets a
# hw_latency block in every trial record, and the ports' stamping is put
# back when the job ends; bmd.conf hw-timestamps = no leaves them alone.
#
# Model (as hw/timestamps): igb eth0/eth1 on a QEMU hub (a wire),
# e1000e eth2/eth3 likewise.  RFC 2544 frame loss at a 1 Mbit/s notional
# line, 128 B, 845 fps at 100 %: no loss on a wire, so the procedure ends
# after two loss-free steps (100 %, 90 %).  igb: the 82576's filter takes
# PTPv2 event frames only, so the procedure's UDP frames get tx stamps
# (every request answered) and no rx stamp, and the record says which
# filter each port took.  e1000e: every tx request missed.  The accuracy
# is the two PHC offsets' uncertainty (a few us, hw/timestamps' output) plus
# their drift over the trial (QEMU's PHCs count one virtual clock: none), so
# it must be under 100 us.
bm_load
nic_up eth0 eth1 eth2 eth3
bmd_start

FL="--line-rate 1M --frame-sizes 128 $R2544_FAST --param trial_duration_s=1 --param drain_s=0.3"
bm_job igb rfc2544 frame-loss --port eth0 --port eth1 $FL
$BMCTL -j result "$job" > /tmp/igb.json || fail "result igb"
set -- $(jvals tx_requests /tmp/igb.json)
[ $# -ge 2 ] || fail "igb: want a hw_latency block in each of >= 2 trials, got $#"
note "igb trials: tx_requests $*"
for v in "$@"; do check_range "igb: tx stamp requests a trial" "$v" 100 845; done
check_eq "igb: tx requests = tx stamps" "$(jvals tx_requests /tmp/igb.json | tr '\n' ' ')" \
	"$(jvals tx_stamps /tmp/igb.json | tr '\n' ' ')"
check_eq "igb: rx stamps (UDP frames, PTP-only filter)" "$(jvals rx_stamps /tmp/igb.json | sort -u)" 0
check_eq "igb: filters named" "$(jvals tx_port_rx_filter /tmp/igb.json | sort -u)" '"ptpv2-event"'
check_eq "igb: source" "$(jvals source /tmp/igb.json | sort -u)" '"hw"'
for a in $(jvals accuracy_ns /tmp/igb.json); do
	check_range "igb: stated accuracy (ns)" "$a" 1 100000
done
$BMT hwts eth0 > /tmp/after.eth0 || fail "hwts eth0 after the job"
check_eq "igb: stamping put back after the job (tx)" "$(kv hwts_before_tx /tmp/after.eth0)" off
check_eq "igb: stamping put back after the job (rx)" "$(kv hwts_before_rx_filter /tmp/after.eth0)" none

bm_job e1k rfc2544 frame-loss --port eth2 --port eth3 $FL
$BMCTL -j result "$job" > /tmp/e1k.json || fail "result e1000e"
check_eq "e1000e: tx stamps" "$(jvals tx_stamps /tmp/e1k.json | sort -u)" 0
check_eq "e1000e: missed = requests" "$(jvals tx_missed /tmp/e1k.json | tr '\n' ' ')" \
	"$(jvals tx_requests /tmp/e1k.json | tr '\n' ' ')"
check_eq "e1000e: filters named" "$(jvals rx_port_rx_filter /tmp/e1k.json | sort -u)" '"all"'
check_eq "e1000e: every trial loss-free (software path intact)" \
	"$(jvals lost /tmp/e1k.json | sort -u)" 0

# R8238-CAL with hardware stamps: back to back, so the
# frames take the PTP shape igb's filter stamps; after a link reset the
# model stamps one rx frame: C_hw is that frame's hardware FF, within
# [-U, C_sw_same + U] and under 1 ms (a wire), U the offsets' part of the
# stated accuracy.
nic_reset eth0 eth1
bm_job cal rfc8238 calibrate --port eth0 --port eth1 --line-rate 1M \
	--frame-sizes 128 --param frames=200 --param drain_s=0.3 \
	--param cable_type=qemu-hub --param cable_length_m=0
$BMCTL -j result "$job" > /tmp/cal.json || fail "result calibrate"
sed -n '/"hw": {/,/}/p' /tmp/cal.json > /tmp/cal.hw
[ -s /tmp/cal.hw ] || fail "calibrate: no hw entry"
cat /tmp/cal.hw
check_range "calibrate: frames with both stamps" "$(jvals frames /tmp/cal.hw)" 1 200
check_eq "calibrate: rx filter" "$(jvals rx_filter /tmp/cal.hw)" '"ptpv2-event"'
C=$(jvals cal_constant_ns /tmp/cal.hw)
S=$(jvals sw_cal_constant_ns /tmp/cal.hw)
A=$(jvals accuracy_ns /tmp/cal.hw)
MX=$(jvals max_ns /tmp/cal.hw)
MN=$(jvals min_ns /tmp/cal.hw)
U=$(awk -v a="$A" -v x="$MX" -v n="$MN" 'BEGIN { printf "%.0f", a - (x - n) }')
note "C_hw $C ns (software, same frames: $S ns), accuracy $A ns, offsets' part $U ns"
check_range "calibrate: C_hw (ns)" "$C" "-$U" "$(awk -v s="$S" -v u="$U" 'BEGIN { printf "%.0f", s + u }')"
check_range "calibrate: C_hw on a wire (ns)" "$C" "-$U" 1000000

# hw-timestamps = no: nothing switched on, no hardware block
bmd_stop
printf 'hw-timestamps = no\n' > /tmp/bmd-nohw.conf
bmd_start -c /tmp/bmd-nohw.conf
bm_job nohw rfc2544 frame-loss --port eth0 --port eth1 $FL
$BMCTL -j result "$job" > /tmp/nohw.json || fail "result nohw"
grep -q '"hw_latency"' /tmp/nohw.json && fail "hw-timestamps = no: a hw_latency block"
check_eq "hw-timestamps = no: trials" "$(jvals lost /tmp/nohw.json | sort -u)" 0
echo "ok: hw-timestamps = no: no hardware block"
