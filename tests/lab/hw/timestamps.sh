# NIC hardware timestamps, on the igb boot (tools/lab-run --hw:
# QEMU 10's 82576 model, two igb ports eth0/eth1 on one QEMU hub, two
# e1000e ports eth2/eth3 on another).
#
# Model.  The hub is a wire: no queue, no loss.  Each NIC's PHC counts
# QEMU's virtual clock from its own start, so the two PHCs differ by a
# constant, which bmgen-trial --hwts measures per port against
# CLOCK_MONOTONIC (PTP_SYS_OFFSET_EXTENDED) with an uncertainty U each;
# the module converts both stamps of a frame with them.
# - igb tx: the driver stamps any frame it is asked to, one in flight;
#   bmgen asks for one frame at a time per port and gives a request up
#   after 1 s.  Truth: every request is answered (missed = 0; a host
#   stall over 1 s would cost one, which the window allows).
# - igb rx: the driver's 82576 filter is PTPv2 event frames only (the
#   negotiation must end at ptpv2-event, "all" refused), so UDP frames are
#   never stamped and PTP-shaped ones (--ptp) are.  QEMU's model latches
#   its rx stamp until RXSATRH is read, which Linux never reads: one rx
#   stamp per device reset (QEMU 10.0.2 hw/net/igb_core.c).  Truth after a
#   link reset of both ports: >= 1 rx stamp, paired with frame 0's tx
#   stamp into a hardware latency H with -2U <= H <= S + 2U, S the
#   software latency of the same frame (hardware stamps are taken nearer
#   the wire than software ones), and H < 1 ms (a wire).
# - e1000e advertises stamping and never delivers a tx stamp: every
#   request is missed, and every frame still has its software latency.
# - veth cannot stamp: the negotiation says so and fails.
# What this cannot check (Documentation/hw-timestamps.md): ns accuracy
# (a virtual clock), sustained rx stamping, NICs that stamp all frames.
bm_load
nic_up eth0 eth1 eth2 eth3
$IP link add v0 type veth peer name v1 || fail "veth"
ns_quiet v0
ns_quiet v1
$IP link set v0 up
$IP link set v1 up

# 1. capabilities, as ethtool says them
ET=/usr/sbin/ethtool
for d in eth0 eth2; do
	$ET -T $d > /tmp/caps.$d || fail "ethtool -T $d"
	grep -q hardware-transmit /tmp/caps.$d || fail "$d: no hardware-transmit"
	grep -q hardware-receive /tmp/caps.$d || fail "$d: no hardware-receive"
done
$ET -T v0 > /tmp/caps.v0 || fail "ethtool -T v0"
grep -q hardware- /tmp/caps.v0 && fail "veth claims hardware stamping"
echo "ok: igb and e1000e advertise hardware stamping, veth does not"

# 2. the negotiation's outcome, and the old setting put back
$BMT hwts eth0 > /tmp/neg.eth0 || fail "hwts eth0"
check_eq "igb tx stamping" "$(kv hwts_tx /tmp/neg.eth0)" on
check_eq "igb rx filter (82576: PTP event frames only)" "$(kv hwts_rx_filter /tmp/neg.eth0)" ptpv2-event
check_eq "igb rx filter put back" "$(kv hwts_after_rx_filter /tmp/neg.eth0)" none
check_eq "igb tx stamping put back" "$(kv hwts_after_tx /tmp/neg.eth0)" off
$BMT hwts eth2 > /tmp/neg.eth2 || fail "hwts eth2"
check_eq "e1000e rx filter" "$(kv hwts_rx_filter /tmp/neg.eth2)" all
if $BMT hwts v0 > /tmp/neg.v0 2> /tmp/neg.v0.err; then
	fail "veth: hardware stamping switched on"
fi
grep -q "no hardware timestamping" /tmp/neg.v0.err || fail "veth: $(cat /tmp/neg.v0.err)"
echo "ok: veth refused: $(cat /tmp/neg.v0.err)"

# 3. igb, PTP-shaped frames, after a reset of both ports
nic_reset eth0 eth1
N=400
$BMT --tx eth0 --rx eth1 --size 128 --rate 200 --count $N --hwts --ptp > /tmp/igb ||
	fail "igb trial"
check_eq "igb: lost" "$(kv lost /tmp/igb)" 0
check_eq "igb: software latency of every frame" "$(kv lat_count /tmp/igb)" $N
req=$(kv hw_tx_requests /tmp/igb)
check_range "igb: tx stamp requests (one in flight)" "$req" $((N / 4)) $N
check_range "igb: tx requests unanswered" "$(kv hw_tx_missed /tmp/igb)" 0 1
rxs=$(kv hw_rx_stamps /tmp/igb)
check_range "igb: rx hardware stamps after a reset" "$rxs" 1 $N
note "igb rx stamps this trial: $rxs (QEMU's model: 1 per reset)"
check_range "igb: frames with both stamps" "$(kv hw_lat_count /tmp/igb)" 1 "$rxs"
U=$(( $(kv tx_phc_offset_unc_ns /tmp/igb) + $(kv rx_phc_offset_unc_ns /tmp/igb) ))
H=$(kv hw_lat_mean_ns /tmp/igb)
S=$(kv hw_lat_sw_mean_ns /tmp/igb)
note "hardware latency $H ns, software latency of the same frames $S ns, U $U ns"
check_range "igb: hardware latency (ns)" "$H" $((-U)) $((S + U))
check_range "igb: hardware latency on a wire (ns)" "$H" $((-U)) 1000000
$BMT port eth0 > /tmp/port.eth0 || fail "port eth0"
check_eq "igb: module's ts caps (rx|tx)" "$(kv ts_caps /tmp/port.eth0)" 3
check_eq "igb: module's PHC index = ethtool's" "$(kv phc /tmp/port.eth0)" \
	"$(sed -n 's/^PTP Hardware Clock: //p' /tmp/caps.eth0)"
check_eq "igb: stamping handed back after the trial" "$(kv hwts /tmp/port.eth0)" 0

# 4. igb, UDP frames: the PTP-only filter stamps none of them
$BMT --tx eth0 --rx eth1 --size 128 --rate 200 --count $N --hwts > /tmp/igbudp ||
	fail "igb udp trial"
check_eq "igb udp: rx hardware stamps" "$(kv hw_rx_stamps /tmp/igbudp)" 0
check_range "igb udp: tx stamps answered" "$(kv hw_tx_missed /tmp/igbudp)" 0 1
check_eq "igb udp: software latency of every frame" "$(kv lat_count /tmp/igbudp)" $N

# 5. e1000e: advertised, never delivered; software stamps carry on
$BMT --tx eth2 --rx eth3 --size 128 --rate 200 --count $N --hwts --ptp > /tmp/e1k ||
	fail "e1000e trial"
ereq=$(kv hw_tx_requests /tmp/e1k)
check_range "e1000e: tx stamp requests (1 s apart)" "$ereq" 1 4
check_eq "e1000e: tx stamps" "$(kv hw_tx_stamps /tmp/e1k)" 0
check_eq "e1000e: missed = requests" "$(kv hw_tx_missed /tmp/e1k)" "$ereq"
check_eq "e1000e: frames with a hardware latency" "$(kv hw_lat_count /tmp/e1k)" 0
check_eq "e1000e: software latency of every frame" "$(kv lat_count /tmp/e1k)" $N
check_eq "e1000e: lost" "$(kv lost /tmp/e1k)" 0

# 6. PTP shape needs room: 79 B is refused with the module's reason
if $BMT --tx eth0 --rx eth1 --size 79 --count 1 --ptp > /dev/null 2> /tmp/small.err; then
	fail "a 79 B PTP-shaped frame was accepted"
fi
grep -q "PTP Sync" /tmp/small.err || fail "79 B: $(cat /tmp/small.err)"
echo "ok: 79 B refused: $(cat /tmp/small.err)"
