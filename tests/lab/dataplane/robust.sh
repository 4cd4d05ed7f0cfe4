# Robustness: a port deleted mid-trial ends the trial as failed
# (no oops, no WARN, no leak), a client killed mid-trial takes its owned
# trial with it, and rmmod during a running trial is clean.  Hotplug: the
# CPU whose kthread sends a stream taken offline mid-trial and back: the
# kthread moves to the other CPU and the trial ends done, every frame
# sent and received (exact; the receive side may count a CPU split).
# Truth: the errno each fault must produce (-ENODEV, -ECONNRESET), the
# guest's WARN/oops count (0, the runner's check) and the final counts;
# no timing beyond the fault's own moment.
bm_load
topo_bridge 2
$BMT --tx t1 --rx t2 --size 64 --rate 2000 --count 100000 > /tmp/del 2>&1 &
pid=$!
sleep 2
$IP link del t1 || fail "ip link del"
wait $pid
rc=$?
cat /tmp/del
[ $rc -ne 0 ] || fail "trial with a deleted port reported success"
check_eq "trial state" "$(kv trial_state /tmp/del)" 5
check_eq "trial error (-ENODEV)" "$(kv trial_error /tmp/del)" -19
$BMT status > /tmp/st || fail "status after device deletion"
check_eq "ports left" "$(kv ports /tmp/st)" 1
$IP link add t1 type veth peer name d1 netns dut
$IP -n dut link set d1 master br0 up
$IP link set t1 up
# the client that started (and owns) a trial is killed: the trial ends at
# once as FAILED with -ECONNRESET instead of sending on for 50 s
$BMT --tx t1 --rx t2 --size 64 --rate 2000 --count 100000 > /tmp/own 2>&1 &
pid=$!
sleep 2
kill -9 $pid
wait $pid
sleep 0.5
$BMT status > /tmp/st || fail "status after the owner died"
check_eq "owner killed: trial state" "$(kv trial_state /tmp/st)" 5
check_eq "owner killed: trial error (-ECONNRESET)" "$(kv trial_error /tmp/st)" -104
# CPU 1 offline and back while its kthread sends the stream (4 s)
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	$BMT --tx t1 --rx t2 --size 64 --rate 1000 --count 4000 --cpu 1 \
		> /tmp/cpu 2>&1 &
	pid=$!
	sleep 1
	echo 0 > /sys/devices/system/cpu/cpu1/online || fail "cpu1 offline"
	sleep 1
	echo 1 > /sys/devices/system/cpu/cpu1/online || fail "cpu1 online"
	wait $pid
	rc=$?
	cat /tmp/cpu
	check_eq "cpu1 offline mid-trial: exit" "$rc" 0
	check_eq "cpu1 offline mid-trial: tx" "$(kv tx_frames /tmp/cpu)" 4000
	check_eq "cpu1 offline mid-trial: rx unique" "$(kv rx_unique /tmp/cpu)" 4000
	$BMT status > /tmp/st || fail "status after cpu1 came back"
	note "kthreads after cpu1 came back: $(kv kthreads /tmp/st)"
else
	note "no CPU hotplug in this guest: the offline case is not run"
fi
# rmmod while a trial runs
$BMT --tx t1 --rx t2 --size 64 --rate 2000 --count 100000 > /tmp/rm 2>&1 &
pid=$!
sleep 2
rmmod bmgen || fail "rmmod during a trial"
wait $pid
note "bmgen-trial after rmmod: rc=$? $(tail -n1 /tmp/rm)"
grep -q '^bmgen ' /proc/modules && fail "module still loaded"
bm_load
$BMT --tx t1 --rx t2 --size 64 --rate 1000 --count 500 > /tmp/again || fail "trial after reload"
check_eq "after reload: rx" "$(kv rx_unique /tmp/again)" 500
