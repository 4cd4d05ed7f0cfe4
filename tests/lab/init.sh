#!/bin/sh
# /init of the lab guest: load the kernel modules, run every test listed in
# /tests/list (by id, rfc2544/throughput: /tests/rfc2544/throughput.sh) in
# its own shell with a time limit, print one LABTEST line per
# test and leave through isa-debug-exit (0x10 all passed, 0x11 otherwise).
# Kernel command line words arrive as environment: labtimeout=SECONDS,
# labrepeat=N.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# what udev would add: ovs/flows read /dev/stdin, and without it read
# nothing (its late count always 0)
ln -s /proc/self/fd /dev/fd
ln -s fd/0 /dev/stdin
ln -s fd/1 /dev/stdout
ln -s fd/2 /dev/stderr
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mkdir -p /run/netns
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "LABBOOT uptime=$(cut -d' ' -f1 /proc/uptime) kernel=$(uname -r) cpus=$(nproc)"
for m in $(cat /lib/modules/load-order); do
	insmod /lib/modules/$m || echo "LABWARN insmod $m failed"
done
/usr/sbin/ip link set lo up
# labrole=peer: the second guest of tools/lab-run --pair, another tester
# host for the first one's tests (tests/lab/pair/); it runs until killed
if [ "${labrole:-}" = peer ]; then
	. /tests/lib.sh
	. /tests/pair-peer.sh
	poweroff -f
fi

# labrepeat=N runs the whole list N times, in order, so that the runner
# can report each test's pass rate; every report names its run.
failed=0
run=1
while [ "$run" -le "${labrepeat:-1}" ]; do
for t in $(cat /tests/list); do
	echo "LABSTART $t run=$run"
	start=$(cut -d' ' -f1 /proc/uptime)
	timeout -s KILL "${labtimeout:-300}" sh -c ". /tests/lib.sh; . /tests/$t.sh"
	rc=$?
	# every result document the test's bmd wrote, one line each, for the
	# runner's check against the result schema
	for f in /tmp/results/*.json; do
		[ -f "$f" ] && echo "LABRESULT $t run=$run ${f##*/} $(tr -d '\n' < "$f")"
	done
	rm -rf /tmp/results
	# leave a clean guest for the next test: no daemon of this test left
	# behind; a module that will not unload
	# is a failure of the test that loaded it
	killall -q bmd bmctl bird snmpd 2>/dev/null
	for ns in $(/usr/sbin/ip netns list | cut -d' ' -f1); do
		/usr/sbin/ip netns del "$ns"
	done
	# and no cable of its own in this namespace: a veth pair whose two
	# ends both live here (rfc8239/rfc8238-calibrate's loopback) outlives
	# the namespaces
	# (one ip for all: an ip costs 60 to 110 ms here; -force goes on past
	# an end its peer's deletion took first)
	/usr/sbin/ip -o link show type veth 2>/dev/null |
		sed -n 's/^[0-9]*: \([^@:]*\).*/link del \1/p' > /tmp/veth.del
	[ ! -s /tmp/veth.del ] || /usr/sbin/ip -force -batch /tmp/veth.del > /dev/null 2>&1
	if grep -q '^bmgen ' /proc/modules && ! rmmod bmgen; then
		echo "LABNOTE $t: rmmod bmgen failed"
		rc=99
	fi
	end=$(cut -d' ' -f1 /proc/uptime)
	if [ $rc -eq 0 ]; then
		echo "LABTEST $t PASS run=$run ($start..$end s)"
	else
		echo "LABTEST $t FAIL run=$run rc=$rc ($start..$end s)"
		failed=1
	fi
done
run=$((run + 1))
done
echo "LABDONE failed=$failed"
if [ $failed -eq 0 ]; then code='\020'; else code='\021'; fi
printf "$code" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
poweroff -f
