# make demo: RFC 2544 throughput (R2544-THRPT) through bmctl -> bmd ->
# bmgen.ko, against a bridge DUT whose egress port d2 has a tbf shaper of
# 3 Mbit/s counting F + 20 bytes per frame (tbf "overhead 24" on top of
# skb->len = F - 4), on a notional 10 Mbit/s line: the true throughput is
# exactly 30 % of line rate, 704.89 fps at 512 B and 243.82 fps at 1518 B.
bm_load
topo_bridge 2
$TC -n dut qdisc add dev d2 root tbf rate 3mbit burst 3200 limit 60000 overhead 24 ||
	fail "tbf"
mkdir -p /run/bmd /tmp/results
bmd -f -s /run/bmd/bmd.sock -r /tmp/results > /tmp/bmd.log 2>&1 &
sleep 1
bmctl -s /run/bmd/bmd.sock status || fail "bmctl status"
bmctl -s /run/bmd/bmd.sock run rfc2544 throughput --port t1 --port t2 \
	--line-rate 10M --frame-sizes 512,1518 \
	--param trial_duration_s=4 --param search_trial_duration_s=2 \
	--param drain_s=0.5 --param resolution_pct=1 --param r_min_pct=5 \
	> /tmp/demo.out 2>&1
rc=$?
cat /tmp/demo.out
[ $rc -eq 0 ] || { cat /tmp/bmd.log; fail "bmctl run"; }
bmctl -s /run/bmd/bmd.sock result 1 --trials | tail -n 40
ls -l /tmp/results
echo "DEMO truth: 704.89 fps at 512 B, 243.82 fps at 1518 B (30 % of 10 Mbit/s)"
