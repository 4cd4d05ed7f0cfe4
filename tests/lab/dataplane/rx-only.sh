# The receiving half of a trial across hosts: an rx-only stream (STREAM_ADD
# with an rx port and no tx port) in a trial started at an absolute
# CLOCK_TAI instant, its frames sent by another "host" (bmgen-peer, a raw
# socket whose clock the test sets) through DUT netem delay D.
#
# Truth: the sender's TPLD transmit times count from the same TAI epoch as
# the receiver's arrival times, so the one-way latency is D plus the path
# (a raw socket and a bridge under TCG: well under 2 ms), less the
# sender's clock offset O (a sender ahead by O stamps O later); the first
# arrival comes D after the epoch plus the sender's own lateness for its
# first frame; every frame counts once, in order, of the right length; the
# trial runs until TRIAL_STOP and reports the TAI epoch it was given.
# The guest's TAI - UTC offset is set to 37 s first, so that CLOCK_TAI and
# CLOCK_REALTIME differ as on a synchronised host.
bm_load
topo_bridge 2
# CLOCK_TAI 37 s ahead of UTC, as on a host whose ptp4l or chrony set it:
# an epoch taken on the wrong clock would start the trial 37 s late
bmgen-peer --tai-offset 37 || fail "TAI offset"
DLY=$(lab_draw rxonly_delay_ms 5 30)
OFS=$(lab_draw rxonly_offset_ms 1 $((DLY - 2)))
note "seed $LAB_SEED: netem delay $DLY ms, sender clock ahead by $OFS ms in the second trial"
$TC -n dut qdisc add dev d2 root netem delay ${DLY}ms limit 100000 || fail "netem"
D=$((DLY * 1000000))
# rx_only_trial NAME OFFSET_NS: 1000 frames of 128 B at 1000 fps from t1
# (not a bmgen port here: the sender is "elsewhere") to t2, the receiving
# trial started 1 s ahead and stopped 3 s after.
rx_only_trial() {
	at=$(( $(bmgen-peer --now) + 1000000000 ))
	bmgen-trial --rx-only --rx t2 --size 128 --start-tai $at --stop-after 3 \
		--drain 0.3 > /tmp/$1 2>/tmp/$1.err &
	tpid=$!
	bmgen-peer --dev t1 --epoch-tai $at --id 1 --size 128 --rate 1000 \
		--count 1000 --dst-mac "$(mac t2)" --clock-offset $2 > /tmp/$1.peer ||
		fail "$1: bmgen-peer"
	wait $tpid || fail "$1: bmgen-trial: $(cat /tmp/$1.err)"
	check_eq "$1: the epoch on CLOCK_TAI as given" "$(kv epoch_tai_ns /tmp/$1)" $at
	check_eq "$1: frames sent by the peer" "$(kv sent /tmp/$1.peer)" 1000
	check_eq "$1: trial state (STOPPED: it ran until TRIAL_STOP)" "$(kv trial_state /tmp/$1)" 4
	check_eq "$1: tx frames (the sender is elsewhere)" "$(kv tx_frames /tmp/$1)" 0
	check_eq "$1: received once each" "$(kv rx_unique /tmp/$1)" 1000
	check_eq "$1: duplicates" "$(kv rx_dup /tmp/$1)" 0
	# the premise of in-order arrival: one receiving CPU (bmgen-peer
	# sends from one; lab.md "A quiet DUT")
	check_eq "$1: received on one CPU (rx_cpu_split)" "$(kv rx_cpu_split /tmp/$1)" 0
	check_eq "$1: reordered" "$(kv rx_reordered /tmp/$1)" 0
	check_eq "$1: bad lengths" "$(kv rx_bad_len /tmp/$1)" 0
	# the receiver's epoch, alone: the first frame left late_first after
	# it and took D to arrive
	l0=$(kv late_first_ns /tmp/$1.peer)
	check_range "$1: first arrival after the epoch (ns)" "$(kv rx_first_ns /tmp/$1)" \
		$((D + l0)) $((D + l0 + 10000000))
}
rx_only_trial synced 0
check_range "synced: latency min (ns)" "$(kv lat_min_ns /tmp/synced)" $D $((D + 1000000))
check_range "synced: latency mean (ns)" "$(kv lat_mean_ns /tmp/synced)" $D $((D + 2000000))
check_eq "synced: latency samples" "$(kv lat_count /tmp/synced)" 1000
# a sender whose clock runs ahead by O: every latency O shorter
O=$((OFS * 1000000))
rx_only_trial ahead $O
check_range "ahead: latency min (ns)" "$(kv lat_min_ns /tmp/ahead)" $((D - O)) $((D - O + 1000000))
check_range "ahead: latency mean (ns)" "$(kv lat_mean_ns /tmp/ahead)" $((D - O)) $((D - O + 2000000))
# leave the guest as it booted for the tests after this one
bmgen-peer --tai-offset 0 || fail "TAI offset back to 0"
