# The transmit path a host chooses for the module's trials: bmgen-traffic
# --tx-path and bmd.conf's tx-path, through the backend every procedure
# uses, on a veth pair t1 -> t2 whose t2 has GRO (so t1 takes XDP frames).
#
# Model.  No DUT: nothing drops a frame while the guest keeps up (1 % of
# a notional 100 Mbit/s, 1,488 fps of 64 B).  Truth:
#   - bmgen-traffic with no --tx-path: tx_path alloc (auto never takes
#     xdp; veth allows no recycling); with --tx-path xdp: xdp; each run
#     exact (lost 0, sent = intended);
#   - bmd with "tx-path = xdp" in its bmd.conf (and --check-config saying
#     so): every trial record of an RFC 2544 throughput job says tx_path
#     xdp, and no trial lost a frame (no DUT: the search ends at its
#     maximum rate, 10 %);
#   - bmd refuses "tx-path = fast" with one line naming the key, exit 2.
bm_load
veth_loop t1 t2
ethtool -K t2 gro on || fail "gro on t2"

val() {	# KEY LINE
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

traffic() {	# NAME [OPTION...]: one pair run, its total line in $tot
	n=$1
	shift
	bmgen-traffic --ports t1,t2 --topology pair --size 64 --line-rate 100e6 \
		--load 1 --duration 1 --drain 0.3 "$@" > /tmp/tr.$n ||
		{ cat /tmp/tr.$n; fail "bmgen-traffic $*"; }
	tot=$(grep '^total ' /tmp/tr.$n)
	st=$(grep '^stream=0 ' /tmp/tr.$n)
	check_eq "$n: lost" "$(val lost "$st")" 0
	check_eq "$n: sent = intended" "$(val sent "$st")" "$(val intended "$st")"
}

traffic auto
check_eq "auto: tx_path" "$(val tx_path "$tot")" alloc
traffic xdp --tx-path xdp
check_eq "xdp asked: tx_path" "$(val tx_path "$tot")" xdp
if bmgen-traffic --ports t1,t2 --topology pair --tx-path fast > /dev/null 2>&1; then
	fail "bmgen-traffic took --tx-path fast"
fi

printf 'tx-path = fast\n' > /tmp/bad.conf
out=$(bmd -c /tmp/bad.conf --check-config 2>&1)
rc=$?
check_eq "bmd, tx-path = fast: exit" $rc 2
check_eq "bmd, tx-path = fast: the line" "$out" \
	"bmd: /tmp/bad.conf:1: tx-path: 'fast' must be auto, alloc, recycle or xdp"

printf 'tx-path = xdp\n' > /tmp/bmd-xdp.conf
bmd -c /tmp/bmd-xdp.conf --check-config | grep -q '^tx-path *xdp$' ||
	fail "bmd --check-config does not say tx-path xdp"
bmd_start -c /tmp/bmd-xdp.conf
bm_job thr rfc2544 throughput --port t1 --port t2 --line-rate 100M $R2544_FAST \
	--frame-sizes 64 --param trial_duration_s=1 --param search_trial_duration_s=1 \
	--param drain_s=0.3 --param max_rate_pct=10 --param resolution_pct=5 \
	--param r_min_pct=5
$BMCTL -j result "$job" > /tmp/thr.json || fail "bmctl result --json"
paths=$(jvals tx_path /tmp/thr.json | tr -d '"' | sort -u | tr '\n' ' ')
check_eq "tx_path of every trial" "$paths" "xdp "
lost=$(jvals lost /tmp/thr.json | awk '{ s += $1 } END { print s }')
check_eq "frames lost over all trials" "$lost" 0
bmd_stop
$IP link del t1
echo "ok: the transmit path a host chooses"
