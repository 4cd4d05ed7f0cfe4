# PLAT-TCP: the kernel TCP engine's connections cross
# the DUT, never the host's loopback, and its goodput is what the DUT's
# shaper allows (R8238-GOODPUT, F-9).
#
# DUT: a quiet 3-port bridge (t1, t2, t3), and on d3 (towards t3) tbf rate
# R = 10 Mbit/s, burst 30400 (20 frames, 24.3 ms of tokens: a tbf watchdog
# that the TCG guest fires late must not lose tokens, which idles the line
# beside a full queue: with burst 3200, 2.6 ms of tokens, one run in 20
# got 83.7 % of the ceiling with no loss and a 17 ms standing queue),
# limit 100 full frames (151,400 B of skb), overhead 24 (A = F + 20: the
# tbf counts the wire's 1538 B of a 1518 B frame).  One bulk connection t1 -> t3 (`bmgen-tcp`), each port in a VRF
# of the engine's.
#
# Truth, from the DUT's own counters: a clsact ingress filter on d1 counts
# every TCP segment that came from t1 and one on d3 every segment from
# t3; they must equal the client's and the server's tcpi_segs_out exactly
# (a veth loses nothing; ARP is not TCP).  The engine reads those counts
# after both ends closed with their handshake (`quiesced`), so that the
# segments still in the tbf's queue when the window closed, their ACKs
# and the FINs are in them too.  The one segment d3 sees beyond the
# server's count is its SYN-ACK: the listener sends it from a request
# socket before the connection's own socket exists, so that socket's
# tcpi_segs_out never counts it (the client's SYN is in its own count).  The host's loopback must carry
# none of it: lo's packet counter grows by fewer than 10 over the run.
#
# Model of the goodput: F-9's Linux ceiling R x 1448/1538 = 9.415 Mbit/s
# (MTU 1500, timestamps on).  The window [0.85, 1] of the ceiling is SPEC
# R8238-GOODPUT's acceptance: CUBIC's sawtooth into a 100-frame queue may
# leave the line idle at times, but never lets it carry more than R and
# its bucket: 30400 B over the 4 s window, +60.8 kbit/s.  Efficiency = (sent -
# retransmitted) / sent must lie in (0, 100] and match the tbf's drops:
# a dropped segment is retransmitted, so a run with drops has
# retransmissions (not as many: the last drops may still be in flight).
#
# Afterwards every port is out of its VRF and the VRFs are gone.
topo_bridge 3
no_gso t1 t2 t3
$TC -n dut qdisc add dev d3 root tbf rate 10mbit burst 30400 limit 151400 \
	overhead 24 || fail "tbf d3"
for d in d1 d3; do
	$TC -n dut qdisc add dev $d clsact || fail "clsact $d"
	$TC -n dut filter add dev $d ingress protocol ip flower ip_proto tcp \
		action pass || fail "tcp counter $d"
done
lo0=$(cat /sys/class/net/lo/statistics/rx_packets)
bmgen-tcp --warmup 1 --duration 4 t1:t3 > /tmp/tcp.json 2> /tmp/tcp.err ||
	{ cat /tmp/tcp.err /tmp/tcp.json; fail "bmgen-tcp"; }
lo1=$(cat /sys/class/net/lo/statistics/rx_packets)
cat /tmp/tcp.json
tcp_pkts() {
	$TC -n dut -s filter show dev "$1" ingress |
		sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -n1
}
check_eq "established" "$(jvals established /tmp/tcp.json)" true
check_eq "closed cleanly before the counts were read" \
	"$(jvals quiesced /tmp/tcp.json)" true
check_eq "d1 ingress TCP = client segs_out" "$(tcp_pkts d1)" \
	"$(jvals client_segs_out /tmp/tcp.json)"
check_eq "d3 ingress TCP = server segs_out + the SYN-ACK" "$(tcp_pkts d3)" \
	"$(($(jvals server_segs_out /tmp/tcp.json) + 1))"
check_range "loopback packets during the run" $((lo1 - lo0)) 0 9
g=$(jvals goodput_bps /tmp/tcp.json | head -n1)
check_range "goodput (bit/s) of R x 1448/1538 = 9414824 (+ the bucket)" "$g" \
	8002600 9475624
drops=$(qdisc_drops d3)
retr=$(jvals total_retrans /tmp/tcp.json)
note "tbf drops $drops, retransmitted segments $retr"
[ "$drops" -eq 0 ] || check_range "retransmissions (the tbf dropped)" "$retr" 1 1000000000
check_range "efficiency %" "$(jvals efficiency_pct /tmp/tcp.json)" 0.000001 100
for t in t1 t3; do
	m=$($IP -o link show $t | sed -n 's/.* master \([^ ]*\) .*/\1/p')
	check_eq "$t's master after the run" "${m:-none}" none
done
check_eq "VRFs left" "$($IP -o link show type vrf | wc -l)" 0
