# RFC 2544 §11.4 filters (R2544-MOD, AMB-25) end to end:
# bmctl -> bmd -> bmgen.ko through rfc2544/router's namespace router, whose
# forward chain gets nftables rules written from the list bmgen prints.
#
# DUT: rfc2544/router's router (d1 198.18.1.1/24, d2 198.19.1.1/24, tbf 20: 3
# Mbit/s behind a prio band that keeps ARP unshaped) plus routes to the
# filters' networks via the phantom routers .10, which bmgen's router mode
# puts on the tester ports (REQ-TRIAL-4): 198.19.0.0/16 via 198.19.1.10
# (the test stream's 198.19.65.2 and the probes' 198.19.101-124.x),
# 198.18.0.0/16 via 198.18.1.10.
#
# 1. No filters on the DUT, filters=25: the DUT forwards the probe frames
#    from the denied pairs, so the result must not be "ok" but say the
#    filters are not active (a §11.4 run on a DUT that does not filter is
#    no result).  Its "rules" are the 25-filter list (order last).
# 2. That list as an nft chain (deny -> drop, permit -> accept, "deny all
#    else" -> drop, each with a counter), filters=25 again: the result is
#    ok, no probe frame arrived, and the DUT's own counters are the truth:
#    the permit rule counted every test frame the trials sent (the sum of
#    attempted), the deny rules every probe frame (filters.probe_sent),
#    each deny rule of pairs 2..24 at least one (every pair probed:
#    probe_pct 2 gives a trial near the throughput 28 probes, over 23
#    pairs), pair 1's none: its source 198.18.1.1 is d1's own address, a
#    martian the kernel drops before the forward hook, so bmgen does not
#    probe it (the first version did, and this counter stayed at 0).
#    Throughput of the test frames: the tbf's C = 3e6 / 8 / 532 = 704.89
#    fps, the window of rfc2544/router ([C - 0.5 %, C + 0.99 %], checked to
#    2 %); the probes never reach the tbf.
# 3. §12 random destinations (SPEC R2544-ADDR) on the same router:
#    frame-loss at 20 % of the line (below C: nothing lost), 3 s trials
#    (2679 frames, 14 a network on average),
#    random_networks=190 seed 5: every frame goes to one of
#    198.19.65-254.2, which the DUT routes via 198.19.1.10.  Truth from a
#    forward chain with one counter per /24: each network's counter equals
#    the result's frames_per_network for it, exactly (every network
#    reached); frames lost = tbf drops = 0; the result calls the largest
#    trial's destinations uniform (chi-square at 1 %).  The destinations
#    are a function of the seed and the sequence number, so these counts
#    and the chi-square value are the same every run: no check here can
#    fail by chance.
bm_load
dut_router_tbf
$IP netns exec dut sysctl -qw net.ipv4.conf.all.rp_filter=0
$IP netns exec dut sysctl -qw net.ipv4.conf.d1.rp_filter=0
$IP -n dut route add 198.19.0.0/16 via 198.19.1.10 || fail "route 198.19/16"
$IP -n dut route add 198.18.0.0/16 via 198.18.1.10 || fail "route 198.18/16"
bmd_start

COMMON="--port t1 --port t2 --router --line-rate 10M --frame-sizes 512
	--param filters=25 --param drain_s=0.3 --param max_rate_pct=40
	--param r_min_pct=5 $R2544_FAST"

# 1. no filters: the probes pass, and the result says so
bm_job nof rfc2544 throughput $COMMON --param probe_pct=2 \
	--param trial_duration_s=1 --param search_trial_duration_s=1 \
	--param resolution_pct=10
$BMCTL -j result "$job" > /tmp/nof.json || fail "bmctl result --json"
res=$(jvals result /tmp/nof.json | head -n1)
note "without filters: $res"
case "$res" in
*"filters not active: the DUT forwarded"*) echo "ok: result says the filters do not act" ;;
*) fail "result without filters on the DUT = $res, want 'filters not active'" ;;
esac
check_eq "filters_act without filters" "$(jvals filters_act /tmp/nof.json)" false
check_range "probe frames forwarded without filters" \
	"$(jvals probe_received /tmp/nof.json | tail -n1)" 1 1000000

# 2. the printed list as the DUT's filters
sed -n 's/^ *"\(permit\|deny\) \(.*\)",\{0,1\}$/\1 \2/p' /tmp/nof.json > /tmp/rules
check_eq "rules printed" "$(wc -l < /tmp/rules)" 26
check_eq "the permit rule is last of 25 (order last)" \
	"$(sed -n 25p /tmp/rules)" "permit 198.18.1.2 -> 198.19.65.2"
{
	echo "table ip flt {"
	echo " chain forward {"
	echo "  type filter hook forward priority 0; policy accept;"
	while read -r verb a arrow b; do
		case "$verb $a" in
		"deny all") echo "  counter drop comment \"else\"" ;;
		"deny "*) echo "  ip saddr $a ip daddr $b counter drop comment \"deny\"" ;;
		"permit "*) echo "  ip saddr $a ip daddr $b counter accept comment \"permit\"" ;;
		esac
	done < /tmp/rules
	echo " }"
	echo "}"
} > /tmp/rules.nft
$IP netns exec dut /usr/sbin/nft -f /tmp/rules.nft || { cat /tmp/rules.nft; fail "nft -f"; }

bm_job flt rfc2544 throughput $COMMON --param probe_pct=2 \
	--param trial_duration_s=2 --param search_trial_duration_s=2 \
	--param resolution_pct=0.5
$BMCTL -j result "$job" > /tmp/flt.json || fail "bmctl result --json"
check_eq "result with the filters" "$(jvals result /tmp/flt.json | head -n1)" '"ok"'
check_eq "filters_act" "$(jvals filters_act /tmp/flt.json)" true
# the entry's totals come after the trials' own counts
check_eq "probe frames received" "$(jvals probe_received /tmp/flt.json | tail -n1)" 0
check_eq "pairs probed" "$(jvals pairs_probed /tmp/flt.json)" 23

# the DUT's own record: nft's counters per rule
$IP netns exec dut /usr/sbin/nft list chain ip flt forward > /tmp/ctr
pk() {	# packets of the rules whose comment is $1, one per line
	sed -n "s/.*counter packets \([0-9]*\) bytes [0-9]* .*comment \"$1\".*/\1/p" /tmp/ctr
}
permit=$(pk permit)
deny=$(pk deny | awk '{ s += $1 } END { print s + 0 }')
pair1=$(pk deny | head -n1)
denied_min=$(pk deny | tail -n +2 | sort -n | head -n1)
else_=$(pk else)
note "nft: permit $permit, 24 denies $deny (pair 1: $pair1, fewest of 2..24: $denied_min), else $else_"
att=$(jvals attempted /tmp/flt.json | awk '{ s += $1 } END { print s }')
check_eq "permit rule's counter = test frames sent (sum of attempted)" "$permit" "$att"
check_eq "deny rules' counters = probe frames sent" "$deny" \
	"$(jvals probe_sent /tmp/flt.json | tail -n1)"
check_eq "pair 1 (from the DUT's own 198.18.1.1) not probed" "$pair1" 0
check_range "every deny rule of pairs 2..24 matched" "$denied_min" 1 1000000

thr=$(jvals test_frames_fps /tmp/flt.json | head -n1)
C=$(awk 'BEGIN { printf "%.2f", 3e6 / 8 / 532 }')
note "512 B: test frames' throughput $thr fps, truth $C fps ($(awk -v g=$thr -v t=$C 'BEGIN { printf "%+.2f", (g / t - 1) * 100 }') %)"
check_range "test frames' throughput (fps)" "$thr" \
	"$(awk -v t=$C 'BEGIN { print t * 0.98 }')" "$(awk -v t=$C 'BEGIN { print t * 1.02 }')"

# 3. §12 random destinations, one counter per destination network
$IP netns exec dut /usr/sbin/nft delete table ip flt || fail "nft delete"
net_counters rnd 65 254 > /tmp/rnd.nft
$IP netns exec dut /usr/sbin/nft -f /tmp/rnd.nft || fail "nft -f rnd"
d0=$(qdisc_drops d2)
bm_job rnd rfc2544 frame-loss --port t1 --port t2 --router --line-rate 10M \
	--frame-sizes 512 --param random_networks=190 --param random_seed=5 \
	--param trial_duration_s=3 --param drain_s=0.3 --param max_rate_pct=20 \
	$R2544_FAST
$BMCTL -j result "$job" > /tmp/rnd.json || fail "bmctl result --json"
$IP netns exec dut /usr/sbin/nft list chain ip rnd forward |
	sed -n 's/.*counter packets \([0-9]*\) .*comment "n[0-9]*".*/\1/p' > /tmp/rnd.dut
awk '/"frames_per_network": \[/ { on = 1; next } on && /\]/ { exit }
	on { gsub(/[ ,]/, ""); print }' /tmp/rnd.json > /tmp/rnd.sent
check_eq "networks counted by the DUT" "$(wc -l < /tmp/rnd.dut)" 190
check_eq "networks in the result" "$(wc -l < /tmp/rnd.sent)" 190
paste /tmp/rnd.sent /tmp/rnd.dut | awk '$1 != $2 { n++ } END { exit n > 0 }' ||
	{ paste /tmp/rnd.sent /tmp/rnd.dut | awk '$1 != $2' | head; fail "a network's counter differs from frames_per_network"; }
check_eq "frames the DUT routed = sum of attempted" \
	"$(awk '{ s += $1 } END { print s }' /tmp/rnd.dut)" \
	"$(jvals attempted /tmp/rnd.json | awk '{ s += $1 } END { print s }')"
check_range "the fewest frames of a network" "$(sort -n /tmp/rnd.dut | head -n1)" 1 1000000
check_eq "frames lost = tbf drops" "$(jvals lost /tmp/rnd.json | awk '{ s += $1 } END { print s }')" \
	"$(($(qdisc_drops d2) - d0))"
check_eq "uniform (chi-square, 1 %)" "$(jvals uniform /tmp/rnd.json)" true
note "chi2 $(jvals chi2 /tmp/rnd.json) over $(jvals chi2_frames /tmp/rnd.json) frames, 1 % critical $(jvals chi2_critical_1pct /tmp/rnd.json)"
echo "ok: every network's counter on the DUT = frames_per_network, exactly"
