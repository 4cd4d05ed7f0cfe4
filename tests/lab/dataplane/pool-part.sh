# One host's part of a trial across hosts, through libbm's module backend
# (bmgen-traffic --part, as a pool runs it): the receiving half of a
# stream another host sends, and the sending half of a stream to another
# host's port, each started at one CLOCK_TAI instant.
#
# Truth, receiving part: bmgen-peer plays the sending host (a raw socket,
# its frames stamped from the same TAI epoch) through DUT netem delay D;
# the part learns its rx port first (broadcast learning frames, the tx
# port being the other host's), counts all 1,000 frames once, in order,
# sends none, and times them at D plus the path (under 2 ms in this
# guest). Sending part: 1,000 frames leave t1 for t2, another host's port
# (no bmgen stream here: they reach t2's kernel, counted by its link),
# addressed to t2's MAC; the part reports them sent and none received,
# its first frame at the epoch.
bm_load
topo_bridge 2
bmgen-peer --tai-offset 37 || fail "TAI offset"
DLY=$(lab_draw pool_part_delay_ms 5 30)
note "seed $LAB_SEED: netem delay $DLY ms"
$TC -n dut qdisc add dev d2 root netem delay ${DLY}ms limit 100000 || fail "netem"
D=$((DLY * 1000000))

# stream0 FILE: stream 0's line of a bmgen-traffic output, a key a line
stream0() {
	grep '^stream=0 ' "$1" | tr ' ' '\n' > "$1.s0"
	echo "$1.s0"
}

# 10 Mbit/s at 128 B: 8,445.9 fps the line, 11.84 % of it 1,000 fps
LOAD=11.84

# the receiving part: stream 0 from the other host's t1 into t2 here
at=$(( $(bmgen-peer --now) + 2000000000 ))
bmgen-traffic --ports peer:t1,t2 --topology pair --size 128 --line-rate 10e6 \
	--load $LOAD --duration 1 --drain 0.3 --learning-pause 0.2 \
	--part . --start-tai $at > /tmp/rx 2>/tmp/rx.err &
tpid=$!
bmgen-peer --dev t1 --epoch-tai $at --id 1 --size 128 --rate 1000 \
	--count 1000 --dst-mac "$(mac t2)" > /tmp/rx.peer || fail "bmgen-peer"
wait $tpid || fail "receiving part: $(cat /tmp/rx.err)"
s=$(stream0 /tmp/rx)
check_eq "receiving part: frames the other host sent" "$(kv sent /tmp/rx.peer)" 1000
check_eq "receiving part: sent here (the sender is elsewhere)" "$(kv sent $s)" 0
check_eq "receiving part: intended (the sender's schedule)" "$(kv intended $s)" 1000
check_eq "receiving part: received once each" "$(kv received $s)" 1000
check_eq "receiving part: duplicated" "$(kv duplicated $s)" 0
check_eq "receiving part: reordered" "$(kv reordered $s)" 0
l0=$(kv late_first_ns /tmp/rx.peer)
first=$(awk -v s="$(kv first_rx_s $s)" 'BEGIN { printf "%.0f", s * 1e9 }')
check_range "receiving part: first arrival after the epoch (ns)" "$first" \
	$((D + l0)) $((D + l0 + 10000000))
mean=$(awk -v s="$(kv lat_mean_ns $s)" 'BEGIN { printf "%.0f", s }')
check_range "receiving part: latency mean (ns)" "$mean" $D $((D + 2000000))

# the sending part: stream 0 from t1 here to t2, the other host's port
rx0=$(cat /sys/class/net/t2/statistics/rx_packets)
at=$(( $(bmgen-peer --now) + 1000000000 ))
bmgen-traffic --ports t1,peer:t2 --topology pair --size 128 --line-rate 10e6 \
	--load $LOAD --duration 1 --drain 0.3 --no-learning \
	--part . --start-tai $at > /tmp/tx 2>/tmp/tx.err ||
	fail "sending part: $(cat /tmp/tx.err)"
sleep 0.2
rx1=$(cat /sys/class/net/t2/statistics/rx_packets)
s=$(stream0 /tmp/tx)
check_eq "sending part: sent" "$(kv sent $s)" 1000
check_eq "sending part: received here (the receiver is elsewhere)" "$(kv received $s)" 0
check_range "sending part: frames at the other host's port" $((rx1 - rx0)) 1000 1010
first=$(awk -v s="$(kv first_tx_s $s)" 'BEGIN { printf "%.0f", s * 1e9 }')
check_range "sending part: first departure after the epoch (ns)" "$first" 0 5000000

# a part with a far port whose MAC is unknown: refused, by name
bmgen-traffic --ports t1,peer:nosuch0 --topology pair --size 128 \
	--line-rate 10e6 --load $LOAD --duration 1 --no-learning --part . \
	> /tmp/bad 2>&1 && fail "a far port without a MAC was taken"
grep -q "port nosuch0 of host peer: its MAC address is not known" /tmp/bad ||
	fail "refusal: $(cat /tmp/bad)"
bmgen-peer --tai-offset 0 || fail "TAI offset back to 0"
