# A port a trial sends from is closed during the trial (ip link set down):
# the trial must end at once, failed with ENETDOWN, before the driver's
# ndo_stop frees what the direct and XDP transmit paths write to.  The
# module used to go on calling the driver until the trial's end (pktgen
# checks its device before every frame).
#
# Model.  p0 -> p1 a veth pair, a trial of 2,000,000 frames at 20,000
# fps (100 s), p0 closed 1 s after the start.  Truth, on each transmit
# path p0 allows (alloc; xdp with GRO on p1):
#   - bmgen-trial ends within 10 s of the close (not after 100 s), with
#     trial_state FAILED (5) and trial_error -ENETDOWN (-100), exit 1;
#   - what it sent before is counted (tx_frames between 1 and 2,000,000)
#     and tx_path says which path sent it;
#   - p0 up again, the next trial on it is exact (sent = received);
#   - a close of the receiving port only (p1) is a link loss, not a
#     failure: the trial goes on to its end (Documentation/abi.md).
bm_load
$IP link add p0 type veth peer name p1 || fail "veth"
ns_quiet p0
ns_quiet p1
$IP link set p0 up
$IP link set p1 up

# closed PATH: the trial on PATH, p0 closed during it
closed() {
	$BMT --tx p0 --rx p1 --size 64 --rate 20000 --count 2000000 \
		--tx-path $1 > /tmp/closed.$1 2>&1 &
	pid=$!
	sleep 1
	read -r t0 _ < /proc/uptime
	$IP link set p0 down || fail "p0 down"
	wait $pid
	rc=$?
	read -r t1 _ < /proc/uptime
	check_eq "$1, p0 closed: exit" $rc 1
	check_eq "$1, p0 closed: trial_state" "$(kv trial_state /tmp/closed.$1)" 5
	check_eq "$1, p0 closed: trial_error" "$(kv trial_error /tmp/closed.$1)" -100
	check_eq "$1, p0 closed: tx_path" "$(kv tx_path /tmp/closed.$1)" $1
	check_range "$1, p0 closed: frames sent before" \
		"$(kv tx_frames /tmp/closed.$1)" 1 1999999
	check_range "$1, p0 closed: seconds to the end" \
		"$(awk -v a=$t0 -v b=$t1 'BEGIN { print b - a }')" 0 10
	$IP link set p0 up || fail "p0 up"
	nic_carrier p0 p1
	$BMT --tx p0 --rx p1 --size 64 --rate 2000 --count 2000 \
		--tx-path $1 > /tmp/after.$1 || fail "$1: trial after p0 up"
	check_eq "$1, after: tx_path" "$(kv tx_path /tmp/after.$1)" $1
	check_eq "$1, after: rx_unique" "$(kv rx_unique /tmp/after.$1)" 2000
	check_eq "$1, after: lost" "$(kv lost /tmp/after.$1)" 0
}

closed alloc
ethtool -K p1 gro on || fail "gro on p1"
closed xdp

# the receiving port closed: a link loss, the trial goes on
$BMT --tx p0 --rx p1 --size 64 --rate 2000 --count 6000 > /tmp/rxdown &
pid=$!
sleep 1
$IP link set p1 down
wait $pid || { cat /tmp/rxdown; fail "trial with p1 closed failed"; }
check_eq "p1 closed: tx_frames" "$(kv tx_frames /tmp/rxdown)" 6000
$IP link set p1 up
$IP link del p0
echo "ok: a closed sending port ends the trial"
