# REQ-GEN-3: the achieved rate, from first/last departure or
# arrival and the count, is within 0.1 % of the intended rate for rates
# from 1 % to 90 % of what the lab carries.
#
# What the lab carries is measured here, in this boot: TCG guests differ
# +-20 % run to run and more between machines, so fixed rates either test
# too little or fail on a slower CI host.
#
# A software pacer on an emulated CPU is sometimes held up by the host (a
# TCG vCPU wakes milliseconds late now and then).  An attempt off by more
# than 0.1 % must be explained by the instrument's own account: the
# module's largest departure lateness (tx_late_max_ns) must cover the tx
# span's stretch, and that plus the largest latency the rx span's.  An
# unexplained error fails at once (the schedule, a count or a timestamp is
# wrong); an explained one is repeated, 3 attempts.  At up to 50 % of
# capacity three disturbed attempts fail the test; at 90 % the guest itself
# is the limit, the module said so, and that is noted.
#
# Loss is not what this test measures, but a lost frame shortens the rx
# span.  The lab (t1 -> d1 -> br0 -> d2 -> t2, all veth) drops only in
# the guest's receive backlogs (netdev_max_backlog), which count every
# drop in /proc/net/softnet_stat: lost frames must equal the backlog drops
# of the attempt, else bmgen miscounted and the test fails at once.  Equal
# drops mean the guest could not carry the rate at that moment (seen at
# 90 % of the capacity with a compile loop on the host's other CPU: 2502
# lost): an explained miss, like a late generator.
bm_load
topo_bridge 2

$BMT --tx t1 --rx t2 --size 64 --count 20000 > /tmp/cap || fail "capacity trial"
cap=$(kv rx_rate_fps /tmp/cap)
note "the lab carries $cap fps unpaced (64 B, bridge)"
check_range "capacity" "$cap" 2000 1000000

attempt() {	# RATE: one 2 s trial; 0 = accurate, 1 = explained miss
	r=$1
	n=$(awk -v r=$r 'BEGIN { printf "%d", r * 2 }')
	d0=$(backlog_drops)
	$BMT --tx t1 --rx t2 --size 64 --rate $r --count $n > /tmp/r ||
		fail "trial at $r fps"
	drops=$(($(backlog_drops) - d0))
	lost=$(kv lost /tmp/r)
	check_eq "rate $r: lost = the guest's backlog drops" "$lost" "$drops"
	if [ "$lost" -ne 0 ]; then
		note "rate $r: the guest's backlogs dropped $drops frames: the lab could not carry the rate"
		return 1
	fi
	# the stretch of each span against (n - 1) intervals, in ns
	awk -v r=$r -v n=$n -v tf=$(kv tx_first_ns /tmp/r) -v tl=$(kv tx_last_ns /tmp/r) \
	    -v rf=$(kv rx_first_ns /tmp/r) -v rl=$(kv rx_last_ns /tmp/r) \
	    -v late=$(kv tx_late_max_ns /tmp/r) -v lat=$(kv lat_max_ns /tmp/r) '
	function abs(x) { return x < 0 ? -x : x }
	BEGIN {
		span = (n - 1) * 1e9 / r
		ts = (tl - tf) - span; rs = (rl - rf) - span
		printf "rate %s: tx %.3f rx %.3f fps; stretch tx %d rx %d ns; late_max %d lat_max %d ns\n",
			r, (n - 1) * 1e9 / (tl - tf), (n - 1) * 1e9 / (rl - rf), ts, rs, late, lat
		if (abs(ts) <= span * 0.001 && abs(rs) <= span * 0.001) exit 0
		if (abs(ts) > late + 1000) { print "FAIL: rate " r ": tx span off by " ts " ns, lateness only " late; exit 2 }
		if (abs(rs) > late + lat + 1000) { print "FAIL: rate " r ": rx span off by " rs " ns, unexplained"; exit 2 }
		print "note: rate " r ": off by more than 0.1 %, explained by the reported lateness/latency"
		exit 1
	}'
	case $? in
	0) echo "ok: rate $r within 0.1 % (tx and rx)"; return 0 ;;
	1) return 1 ;;
	*) exit 1 ;;
	esac
}

for pct in 1 10 50 90; do
	r=$(awk -v c="$cap" -v p=$pct 'BEGIN { printf "%.3f", c * p / 100 }')
	ok=0
	for try in 1 2 3; do
		if attempt "$r"; then
			ok=1
			break
		fi
	done
	if [ $ok -eq 0 ]; then
		[ $pct -le 50 ] && fail "rate $r ($pct % of capacity): 3 disturbed attempts"
		note "rate $r ($pct % of capacity): 3 disturbed attempts; the module reported its lateness"
	fi
done
