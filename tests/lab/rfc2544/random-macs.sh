# RFC 2544 §12 random destination addresses for a bridge (SPEC R2544-ADDR,
# AMB-06) end to end: bmctl -> bmd -> bmgen.ko through a
# three-port bridge d1, d2, d3 (t3 idle).
#
# random_macs=16 seed 3: every test frame t1 -> t2 goes to one of 16
# unicast MACs from bmgen_flow_mac(3, k), chosen frame by frame by
# bmgen_flow_pick(3, seq, 16); before every trial t2 sends learning frames
# from each of the 16 MACs, so the bridge forwards the test frames to d2
# only.  The set comes from a dry run first (the same seed, the same set).
# Frame loss from 20 % of the notional 10 Mbit/s line down (470 fps of
# 512 B frames, 2 s trials: nothing lost, so the loop stops after two
# trials).  Truth from the DUT:
# - its forwarding table holds every MAC of the set on d2;
# - one tc flower counter per MAC on d2's egress counts exactly the
#   result's frames_per_mac for that MAC (the destinations are a function
#   of the seed and the sequence number, so no check here can fail by
#   chance);
# - the same counters on d3's egress count 0: no test frame was flooded,
#   so the bridge did learn every MAC;
# - frames lost = 0 and the result calls the destinations uniform
#   (chi-square at 1 %).
# 4. §17 several protocols (SPEC R2544-MIX) through the same bridge:
#    frame-loss from 20 %, 2 s trials, protocols "ipv4,ipv6" (two streams
#    of half the rate each, interleaved) to t2's MAC.  Truth from two tc
#    flower counters on d2's egress, protocol ip and protocol ipv6 (by
#    EtherType), dst_mac t2: each equals the result's per-protocol
#    received count over the job exactly, and the sent counts are the
#    rate's halves, trial by trial (round(r d / 2) each); lost 0.
bm_load
topo_bridge 3
bmd_start

ARGS="rfc2544 frame-loss --port t1 --port t2 --line-rate 10M
	--frame-sizes 512 --param random_macs=16 --param random_seed=3
	--param trial_duration_s=2 --param drain_s=0.3 --param max_rate_pct=20
	$R2544_FAST"

# the set, from a dry run
bm_job dry $ARGS --dry-run
$BMCTL -j result "$job" > /tmp/dry.json || fail "bmctl result --json"
awk '/"mac_set": \[/ { on = 1; next } on && /\]/ { exit }
	on { gsub(/[ ,"]/, ""); print }' /tmp/dry.json > /tmp/macs
check_eq "MACs in the set" "$(wc -l < /tmp/macs)" 16
check_eq "distinct MACs" "$(sort -u /tmp/macs | wc -l)" 16
check_eq "multicast MACs in the set" \
	"$(awk '{ if (index("13579bdf", substr($1, 2, 1))) n++ } END { print n + 0 }' /tmp/macs)" 0

for d in d2 d3; do
	$TC -n dut qdisc add dev $d clsact || fail "clsact $d"
	k=1
	while read -r m; do
		$TC -n dut filter add dev $d egress protocol ip pref $k \
			flower dst_mac "$m" action pass || fail "flower $d $m"
		k=$((k + 1))
	done < /tmp/macs
done
counts() {	# DEV: "MAC PACKETS" per flower filter on DEV's egress
	$TC -n dut -s filter show dev "$1" egress | awk '
		/dst_mac/ { m = $2 }
		/Sent [0-9]+ bytes [0-9]+ pkt/ && m != "" { print m, $4; m = "" }'
}

bm_job rnd $ARGS
$BMCTL -j result "$job" > /tmp/rnd.json || fail "bmctl result --json"
awk '/"mac_set": \[/ { on = 1; next } on && /\]/ { exit }
	on { gsub(/[ ,"]/, ""); print }' /tmp/rnd.json > /tmp/rnd.macs
awk '/"frames_per_mac": \[/ { on = 1; next } on && /\]/ { exit }
	on { gsub(/[ ,]/, ""); print }' /tmp/rnd.json > /tmp/rnd.sent
check_eq "the job's set = the dry run's" "$(cat /tmp/rnd.macs)" "$(cat /tmp/macs)"

# 1. every MAC learnt on d2
$BRIDGE -n dut fdb show br br0 > /tmp/fdb || fail "bridge fdb"
n=0
while read -r m; do
	grep -q "^$m dev d2 " /tmp/fdb || { note "not learnt on d2: $m"; n=$((n + 1)); }
done < /tmp/macs
check_eq "MACs of the set not learnt on d2" $n 0

# 2. per MAC, the DUT's count = frames_per_mac
counts d2 > /tmp/d2.counts
paste -d' ' /tmp/macs /tmp/rnd.sent > /tmp/want
check_eq "d2 counters" "$(wc -l < /tmp/d2.counts)" 16
sort /tmp/want > /tmp/want.s
sort /tmp/d2.counts > /tmp/d2.s
cmp -s /tmp/want.s /tmp/d2.s ||
	{ paste /tmp/want.s /tmp/d2.s | head -n 16; fail "a MAC's counter on d2 differs from frames_per_mac"; }
check_eq "frames forwarded to the set = sum of attempted" \
	"$(awk '{ s += $2 } END { print s }' /tmp/d2.counts)" \
	"$(jvals attempted /tmp/rnd.json | awk '{ s += $1 } END { print s }')"
check_range "the fewest frames of a MAC" "$(sort -n /tmp/rnd.sent | head -n1)" 1 1000000

# 3. nothing flooded to d3
check_eq "test frames flooded to d3" \
	"$(counts d3 | awk '{ s += $2 } END { print s + 0 }')" 0
check_eq "frames lost" "$(jvals lost /tmp/rnd.json | awk '{ s += $1 } END { print s }')" 0
check_eq "uniform (chi-square, 1 %)" "$(jvals uniform /tmp/rnd.json)" true
note "$(awk '{ s += $1 } END { print s }' /tmp/rnd.sent) frames over 16 MACs, chi2 $(jvals chi2 /tmp/rnd.json), 1 % critical $(jvals chi2_critical_1pct /tmp/rnd.json)"
echo "ok: every MAC learnt on d2, its counter = frames_per_mac, none flooded"

# 4. §17: IPv4 and IPv6 test frames in one trial
t2mac=$(mac t2)
$TC -n dut filter add dev d2 egress protocol ip pref 100 \
	flower dst_mac "$t2mac" action pass || fail "flower ip"
$TC -n dut filter add dev d2 egress protocol ipv6 pref 101 \
	flower dst_mac "$t2mac" action pass || fail "flower ipv6"
pcount() {	# PREF: packets counted by d2's egress filter PREF
	$TC -n dut -s filter show dev d2 egress pref "$1" |
		awk '/Sent [0-9]+ bytes [0-9]+ pkt/ { print $4; exit }'
}
bm_job mix rfc2544 frame-loss --port t1 --port t2 --line-rate 10M \
	--frame-sizes 512 --param protocols=ipv4,ipv6 \
	--param trial_duration_s=2 --param drain_s=0.3 --param max_rate_pct=20 \
	$R2544_FAST
$BMCTL -j result "$job" > /tmp/mix.json || fail "bmctl result --json"
sed -n '/^  "trials"/,/^  "results"/p' /tmp/mix.json > /tmp/mix.trials
sum() { jvals "$1" /tmp/mix.trials | awk '{ s += $1 } END { print s + 0 }'; }
check_eq "(4) IPv4 frames on d2 = the result's ipv4_received" "$(pcount 100)" "$(sum ipv4_received)"
check_eq "(4) IPv6 frames on d2 = the result's ipv6_received" "$(pcount 101)" "$(sum ipv6_received)"
check_range "(4) IPv6 frames forwarded" "$(pcount 101)" 100 1000000
# each protocol's half of the rate over the 2 s: round(r / 2 x 2)
jvals rate_fps /tmp/mix.trials > /tmp/mix.r
jvals ipv4_sent /tmp/mix.trials > /tmp/mix.4
jvals ipv6_sent /tmp/mix.trials > /tmp/mix.6
check_range "(4) trials" "$(wc -l < /tmp/mix.r)" 2 20
paste -d' ' /tmp/mix.r /tmp/mix.4 /tmp/mix.6 | awk '
	{ h = sprintf("%.0f", $1); print "note: trial at " $1 " fps: ipv4 " $2 ", ipv6 " $3 " sent"
	  if ($2 != h || $3 != h) { print "FAILMSG trial at " $1 " fps: ipv4 " $2 " ipv6 " $3 ", want " h " each"; bad = 1 } }
	END { exit bad }' > /tmp/mix.v
model_verdict /tmp/mix.v $?
check_eq "(4) frames lost" "$(sum lost)" 0
check_eq "(4) stream type" "$(jvals stream_type /tmp/mix.json | sort -u | head -n1)" '"protocols(ipv4:1,ipv6:1)"'
echo "ok: (4) IPv4 and IPv6 frames in one trial, each counted by the DUT as the result says"
