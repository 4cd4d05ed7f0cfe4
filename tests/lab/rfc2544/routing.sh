# RFC 2544 §13 route set-up and §11.3 routing update frames (SPEC
# R2544-ROUTE, REQ-2544-4, R2544-MOD), RIP v1 per
# C.2.6.2, end to end bmctl -> bmd -> bmd's packet socket on the tester
# port -> a real RIP v1 listener in the DUT.
#
# DUT: rfc2544/router's router (d1 198.18.1.1/24, d2 198.19.1.1/24, tbf 20: of
# 3 Mbit/s behind a prio band that keeps ARP unshaped) with NO static route,
# and BIRD 2 (Debian's bird2) running RIP on d1 and d2, version 1,
# broadcast, exporting what it learns to the kernel.  "check zero no":
# BIRD 2.0.12 reads the all-zero next hop of a v1 entry as non-zero (an
# IPv4-mapped ::ffff:0.0.0.0) and ignores every v1 route otherwise; the
# frames are C.2.6.2's with every reserved field zero (unit test_rip).
#
# 1. §13: frame-loss at 20 % of the line (below the tbf's C, so nothing is
#    lost), random_networks=190 (§12: 198.19.65-254.2), route_setup=rip,
#    route_lead_s=2.2, 1.5 s trials (lib.sh rip_setup_job).  Truth from the DUT's own tables: before the job it
#    has no route to any of the 190 networks (a frame to one would be
#    dropped); after it, BIRD's RIP table has all 190 via 198.19.1.10 on
#    d2 with metric 8 (C.2.6.2's 7 plus its interface's 1), the kernel
#    table has each of them from BIRD via 198.19.1.10, and every frame
#    the job lost is one the tbf dropped (0 on a guest that keeps up; a
#    generator held up longer than the tbf absorbs, 29.9 ms, catches up
#    in a burst the tbf partly drops: a stressed run lost 4 after 50 ms):
#    a frame to a network the DUT had no route for would be lost without
#    a tbf drop, so every frame reached its network by a learnt route.  Each trial sent ceil(190 / 25) = 8
#    messages (1.5 s trials end before the 30 s repeat).
# 2. §11.3: the same DUT, frame-loss at 20 %, routing_updates with
#    routing_interval_s=0.5: each 1.5 s trial sends 3 updates, A and B
#    alternating over the run (ABA, BAB).  A advertises 198.18.65-76.0
#    and withdraws 198.18.77-88.0 via 198.18.1.10, B the reverse.  Truth
#    from the DUT's own record, `ip monitor route` in its namespace: the
#    kernel added 198.18.65.0/24 once per A update and 198.18.77.0/24 once
#    per B update (each update changes the state, so each is a change),
#    exactly the counts of A and B in the trials' routing_ab; afterwards
#    the table holds the last state's twelve networks and none of the
#    other's.  Lost = the tbf's drops over the job, as in 1.
# 3. §26.2 new-net (R2544-LAT): latency at a given 200 fps (below the
#    tbf's C), 20 repetitions of 0.4 s, destination=new-net: repetition
#    k's tagged frame goes to 198.19.(65 + k).2, a network the DUT routes
#    by the RIP routes of (1), the other frames to 198.19.1.2.  Truth from
#    an nftables forward chain in the DUT with a counter per destination:
#    attempt k's network (198.19.65.0/24 .. 198.19.84.0/24 for 20
#    attempts) forwarded exactly 1 frame, the trials' tag_destination name
#    them in order, the next network none, and 20 repetitions are valid.
#    A tagged frame the tbf drops (the chain counted it on the way) makes
#    its repetition invalid and re-run with the next network: then the
#    attempts, not 20, name the networks.
# No timing tolerance: RIP's effects are states and counts.
bm_load
dut_router_tbf
dut_bird
bmd_start

rip_setup_job t2 "qdisc_drops d2"

# 2. §11.3: the DUT's route changes as it made them
rip_ab_job t2 "qdisc_drops d2"
last=$(printf %s "$seq" | tail -c 1)
check_eq "(2) the result's last state" "$(jvals last_state /tmp/ab.json | tr -d '"')" "$last"
if [ "$last" = A ]; then up=65 down=77; else up=77 down=65; fi
for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
	$IP -n dut route show 198.18.$((up + k)).0/24 | grep -q "via 198.18.1.10 dev d1 proto bird" ||
		fail "(2) state $last: no route to 198.18.$((up + k)).0/24"
	[ -z "$($IP -n dut route show 198.18.$((down + k)).0/24)" ] ||
		fail "(2) state $last: a route to 198.18.$((down + k)).0/24 is left"
done
echo "ok: (2) the DUT took every update: $na A and $nb B, in state $last at the end"

# 3. §26.2: each tagged frame to a new destination network
net_counters nn 65 90 'ip daddr 198.19.1.2 counter comment "own"' > /tmp/nn.nft
$IP netns exec dut /usr/sbin/nft -f /tmp/nn.nft || fail "(3) nft"
bm_job nn rfc2544 latency --port t1 --port t2 --router --line-rate 10M \
	--frame-sizes 512 --param throughput_fps=200 --param destination=new-net \
	--param trial_duration_s=0.4 --param tag_at_s=0.2 --param repetitions=20 \
	--param drain_s=0.2 $R2544_FAST
$BMCTL -j result "$job" > /tmp/nn.json || fail "(3) bmctl result --json"
$IP netns exec dut /usr/sbin/nft list chain ip nn forward |
	sed -n 's/.*counter packets \([0-9]*\) .*comment "\([a-z0-9]*\)".*/\2 \1/p' > /tmp/nn.counts
cat /tmp/nn.counts | tr '\n' ' '; echo
check_eq "(3) valid repetitions" "$(jvals valid_repetitions /tmp/nn.json)" 20
sed -n '/^  "results"/,$p' /tmp/nn.json > /tmp/nn.res
check_eq "(3) the result's destination" "$(jvals destination /tmp/nn.res)" '"new-net"'
jvals tag_destination /tmp/nn.json | tr -d '"' > /tmp/nn.dst
# one tagged frame an attempt: 20, more when a tagged frame was lost (the
# repetition re-run with the next network; the forward chain counted it)
na=$(wc -l < /tmp/nn.dst)
check_range "(3) attempts (counters up to 198.19.90.0/24)" "$na" 20 25
k=65
while [ $k -lt $((65 + na)) ]; do
	check_eq "(3) frames the DUT forwarded to 198.19.$k.0/24" \
		"$(awk -v n=n$k '$1 == n { print $2 }' /tmp/nn.counts)" 1
	check_eq "(3) attempt $((k - 64))'s tag_destination" \
		"$(sed -n "$((k - 64))p" /tmp/nn.dst)" "198.19.$k.2"
	k=$((k + 1))
done
check_eq "(3) frames to 198.19.$k.0/24, the first network not named" \
	"$(awk -v n=n$k '$1 == n { print $2 }' /tmp/nn.counts)" 0
check_eq "(3) frames to the stream's own 198.19.1.2 = attempted - tagged" \
	"$(awk '$1 == "own" { print $2 }' /tmp/nn.counts)" \
	$(($(jvals attempted /tmp/nn.json | awk '{ s += $1 } END { print s }') - na))
echo "ok: (3) each repetition's tagged frame reached a new network, one frame each"
kill "$(cat /tmp/bird.pid)" 2>/dev/null
