# RFC 2544 §11.2 management queries (R2544-MOD, C.2.4.3, AMB-24)
# end to end: bmctl -> bmd -> bmgen.ko through rfc2544/throughput's bridge
# with the tbf on d2 (3 Mbit/s), and a real SNMP agent, net-snmp's snmpd,
# in the DUT on 198.18.1.1 (br0's address, SPEC's management address).
#
# bmgen sends one SNMPv1 GetRequest for sysUpTime.0 and the four counters
# of d1 (mgmt_ifindex = d1's ifIndex in the DUT) as the first frame of
# each second of every trial, from t1's address 198.18.1.2 (which the
# management queries give t1 in a bridge test), and verifies each answer.
# Truths:
# - the agent's own record: snmpd -Lo logs one "Connection from UDP:
#   [198.18.1.2]" line per request it received; that count = the queries
#   bmgen says it sent = ceil(2 s) = 2 per trial x the trials;
# - SPEC acceptance: exactly one GetResponse per trial second verified,
#   i.e. answered = verified = queries, first_error null;
# - the throughput is rfc2544/throughput's C = 704.89 fps at 512 B, within
#   2 %: the queries are answered by br0 and never reach d2's tbf; the job is
#   measured again, as rfc2544/throughput's, when it fails with the generator
#   held up longer than bucket and queue absorb.
# Then a wrong interface (mgmt_ifindex 999): snmpd answers noSuchName, so
# every query is answered and none verified, and the entry says why.
bm_load
topo_bridge 2
$TC -n dut qdisc add dev d2 root tbf rate 3mbit burst 3200 limit 8000 overhead 24 ||
	fail "tbf"
$IP -n dut addr add 198.18.1.1/24 dev br0 || fail "br0 address"
dut_snmpd
note "snmpd on 198.18.1.1, d1 is ifIndex $ifx"
bmd_start

# requests: the requests snmpd has logged so far
requests() {
	grep -c 'Connection from UDP: \[198.18.1.2\]' /tmp/snmpd.log
}

# measure: the throughput job and its checks; remeasure runs it again if
# it fails with the generator held up longer than rfc2544/throughput's
# bucket and queue absorb (29.9 ms; lib.sh)
measure() {
	seen0=$(requests)
	bm_job mgmt rfc2544 throughput --port t1 --port t2 --line-rate 10M \
		--frame-sizes 512 --param management=true \
		--param mgmt_community=s3cr3t-lab --param mgmt_ifindex=$ifx \
		--param trial_duration_s=2 --param search_trial_duration_s=2 \
		--param drain_s=0.3 --param max_rate_pct=40 --param r_min_pct=5 \
		--param resolution_pct=0.5 $R2544_FAST
	$BMCTL -j result "$job" > /tmp/mgmt.json || fail "bmctl result --json"
	trials=$(jvals mgmt_sent /tmp/mgmt.json | wc -l)
	sent=$(jvals mgmt_sent /tmp/mgmt.json | awk '{ s += $1 } END { print s }')
	seen=$(($(requests) - seen0))
	note "$trials trials, $sent queries; snmpd logged $seen requests"
	check_eq "queries = 2 per 2 s trial" "$sent" $((2 * trials))
	check_eq "requests snmpd received = queries sent" "$seen" "$sent"
	check_eq "answered" "$(jvals answered /tmp/mgmt.json)" "$sent"
	check_eq "verified" "$(jvals verified /tmp/mgmt.json)" "$sent"
	check_eq "first_error" "$(jvals first_error /tmp/mgmt.json)" null
	check_eq "result" "$(jvals result /tmp/mgmt.json | head -n1)" '"ok"'
	grep -q 's3cr3t-lab\|mgmt_community' /tmp/mgmt.json &&
		fail "the community is in the result"
	grep -rlq 's3cr3t-lab' /tmp/results /tmp/bmd.log &&
		fail "the community is in bmd's files: $(grep -rl 's3cr3t-lab' /tmp/results /tmp/bmd.log)"
	echo "ok: the community is in no result, job file or log"
	check_tbf_throughput /tmp/mgmt.json 3e6 2 512
}

remeasure 0.0299 /tmp/mgmt.json measure

# an interface the agent has not: answered, not verified, and why
# (frame-loss at 20 % of the line: two trials below C, no search)
bm_job bad rfc2544 frame-loss --port t1 --port t2 --line-rate 10M \
	--frame-sizes 512 --param management=true \
	--param mgmt_community=s3cr3t-lab --param mgmt_ifindex=999 \
	--param trial_duration_s=2 --param drain_s=0.3 --param max_rate_pct=20 \
	$R2544_FAST
$BMCTL -j result "$job" > /tmp/mgmt-bad.json || fail "bmctl result --json"
check_eq "answered (ifIndex 999)" "$(jvals answered /tmp/mgmt-bad.json)" \
	"$(jvals queries /tmp/mgmt-bad.json)"
check_eq "verified (ifIndex 999)" "$(jvals verified /tmp/mgmt-bad.json)" 0
case "$(jvals first_error /tmp/mgmt-bad.json)" in
*noSuchName*) echo "ok: first_error names noSuchName" ;;
*) fail "first_error = $(jvals first_error /tmp/mgmt-bad.json), want noSuchName" ;;
esac
kill $SNMPD 2>/dev/null
