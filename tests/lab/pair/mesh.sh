# RFC 8239 §2.2 full-mesh line rate (R8239-LR-MESH) over the ports of
# both tester hosts (Documentation/multi-host.md): t1 and t3 on this
# guest, lab2's t2 behind the QEMU cable (tools/lab-run --pair), through
# this guest's DUT bridge, every port to both others.  A stream between
# the hosts runs as two halves: its sender's module sends and counts what
# it sent, the receiver's counts what arrived; lab2 sends its halves to
# t1's and t3's MACs, which bmd read from this host's sysfs.
#
# Truth: the DUT's port to lab2, d2, shaped to E (drawn 1200..1600
# kbit/s; bucket and limit 16000 B, so that the learning frames t1 and t3
# flood before the trial pass) under the 50 % of a 4 Mbit/s line (1518 B
# frames: 162.5 fps) that the mesh sends into t2 (t1's and t3's halves,
# 25 % each) for 3 s: port lab2:t2 loses exactly the frames d2's tbf
# dropped (this host's sent counts less lab2's received ones, RFC 2544
# §26.3); those are (162.5 - E / (8 x 1514)) x 3 s less the 21 frames
# bucket and limit hold, within 50 % (TCG's timers); t1 and t3, fed from
# this host and across the cable, lose nothing; each trial's record
# states both hosts' clocks on this guest's grandmaster, within the
# pool's tolerance.
bm_load
pair_setup
veth_port t3 d3
$IP -n dut link set d3 master br0 || fail "d3 into br0"
E=$(lab_draw shaped_d2_kbit 1200 1600 100)
T=$(awk -v e=$E 'BEGIN { printf "%d", (162.5 - e * 1000 / (8 * 1514)) * 3 - 21 }')
note "seed $LAB_SEED: d2 shaped to $E kbit/s under 2000 kbit/s offered: $T drops"
$TC -n dut qdisc add dev d2 root tbf rate ${E}kbit burst 16000 limit 16000 ||
	fail "tbf d2"
pair_sync 1000000 > /dev/null
bmd_start

before=$(qdisc_drops d2)
bm_job lrm rfc8239 line-rate-mesh --line-rate 4M --frame-sizes 1518 \
	--param load_pct=50 --param trial_duration_s=3 --param repeat=1 \
	--param drain_s=0.5 $LEARN_FAST --port t1 --port lab2:t2 --port t3
$BMCTL -j result "$job" > /tmp/lrm.json || fail "bmctl result"
drops=$(($(qdisc_drops d2) - before))
note "d2's tbf dropped $drops frames"
check_eq "port lab2:t2 lost = d2's tbf drops" \
	"$(port_lost /tmp/lrm.json lab2:t2)" "$drops"
check_range "d2's tbf drops (truth $T +-50 %)" "$drops" $((T / 2)) $((T * 3 / 2))
for p in t1 t3; do
	check_eq "port $p lost" "$(port_lost /tmp/lrm.json $p)" 0
done
trials=$(jvals within /tmp/lrm.json | wc -l)
check_range "trials with a sync record" "$trials" 1 100
check_eq "trials whose sync is within the pool's tolerance" \
	"$(jvals within /tmp/lrm.json | grep -c true)" "$trials"
check_eq "clock readings on grandmaster 525400.fffe.aa0002" \
	"$(jvals grandmaster /tmp/lrm.json | grep -c '"525400.fffe.aa0002"')" $((4 * trials))
# both hosts send: their first departures' spread is the start skew
skew=$(jvals start_skew_ns /tmp/lrm.json | sort -n | tail -n 1)
note "start skew of the two sending hosts: $skew ns"
