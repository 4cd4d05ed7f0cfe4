# Every malformed or out-of-range netlink request is rejected with
# an extack message and changes nothing (STATUS_GET, PORT_GET and STREAM_GET
# byte for byte the same); an unprivileged caller gets EPERM for every change
# and can still read.  Also the header, commands, flags, duplicate and
# dump attributes, accepted boundary values, several messages in one
# datagram, a dump across changes and the namespace model, as sequences.
# The table is in tests/tools/bmgen_nlcheck.c and in Documentation/abi.md,
# "Rejections (tested)".
NLC=/usr/sbin/bmgen-nlcheck
bm_load
topo_bridge 2
# x1: an Ethernet device nobody attached (a valid target);
# x2: a bridge port, whose rx handler the bridge holds;
# netns nlc with a veth p1 <-> p2: a second namespace with its own ports
# (the namespace model); bmgen-nlcheck deletes it mid-trial
cleanup() {
	$IP link del x1 2>/dev/null
	$IP link del brx 2>/dev/null
	$IP netns del nlc 2>/dev/null
}
trap cleanup EXIT
$IP link add x1 type veth peer name x2 || fail "veth x1"
$IP link add brx type bridge || fail "bridge brx"
$IP link set x2 master brx || fail "enslave x2"
$IP -n dut link show d1 > /dev/null || fail "d1 is not in netns dut"
$IP netns add nlc || fail "netns add nlc"
$IP -n nlc link add p1 type veth peer name p2 || fail "veth p1"
for p in p1 p2; do
	ns_quiet $p nlc
	$IP -n nlc link set $p up || fail "$p up"
done

nlcheck() {	# NAME ARGS...: run bmgen-nlcheck, show its output, need all ok
	name=$1; shift
	$NLC --tx t1 --rx t2 --spare x1 --enslaved x2 --foreign d1 --peer nlc "$@" \
		> /tmp/nlc-$name 2>&1
	rc=$?
	cat /tmp/nlc-$name
	[ $rc -eq 0 ] || fail "$name: bmgen-nlcheck rc=$rc"
	grep -q '^not ok' /tmp/nlc-$name && fail "$name: a case failed"
	grep -q ' 0 failed$' /tmp/nlc-$name || fail "$name: no summary"
}

# an empty module: no ports, no streams (a trial start without streams)
nlcheck empty --empty
# state to protect: t1 and t2 attached, stream 1 from a completed trial
$BMT --tx t1 --rx t2 --size 128 --rate 2000 --count 1000 > /tmp/setup ||
	fail "setup trial"
check_eq "setup rx unique" "$(kv rx_unique /tmp/setup)" 1000
nlcheck reject
n=$(sed -n 's/^# \([0-9]*\) cases;.*/\1/p' /tmp/nlc-reject)
check_range "rejection cases" "$n" 30 100000
nlcheck privilege --privilege
$BMT status > /tmp/st || fail "status"
check_eq "ports after the checks" "$(kv ports /tmp/st)" 2
check_eq "streams after the checks" "$(kv streams /tmp/st)" 1

# the normal client still works after all the rejections
$BMT --tx t1 --rx t2 --size 64 --rate 1000 --count 500 > /tmp/after ||
	fail "trial after the rejections"
check_eq "after: tx" "$(kv tx_frames /tmp/after)" 500
check_eq "after: rx unique" "$(kv rx_unique /tmp/after)" 500
check_eq "after: lost" "$(kv lost /tmp/after)" 0
