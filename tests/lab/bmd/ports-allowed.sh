# bmd(8) ACCESS: the ports a job may use and what else it may reach
# (bmd.conf ports, admin-group), on the guest's real interfaces:
#  1. no ports in bmd.conf (unaddressed): a port up with 10.9.9.9/24 is
#     refused with one line naming the address; with 198.18.5.2/24 only
#     (the benchmark network, and IPv6 link-local) it is taken; a port
#     in a bridge is refused naming the bridge; a port that
#     is down is taken whatever it carries;
#  2. ports = x0 y*: x0 is taken with 10.9.9.9, any other is "not named";
#  3. a port that gets an address while its job waits: the job fails with
#     the refusal, before a frame goes out;
#  4. an SNMP agent outside 198.18.0.0/15 is refused (one line, exit 1);
#  5. bmctl status names the resets but shows no command.
# Each job is refused at submit or cancelled at once: the test sends
# almost nothing.
RUN="rfc2544 throughput --line-rate 10M $R2544_FAST --frame-sizes 512
	--param trial_duration_s=1 --param search_trial_duration_s=1
	--param drain_s=0.1"

# refused WHY PORT...: a run on the ports is refused, its one line says WHY
refused() {
	why=$1
	shift
	args=
	for p in "$@"; do
		args="$args --port $p"
	done
	one_line 1 $BMCTL run $RUN $args
	grep -qF "$why" /tmp/one.err || fail "ports $*: '$(cat /tmp/one.err)' does not say '$why'"
}

# taken PORT...: a run on the ports is accepted (then cancelled)
taken() {
	args=
	for p in "$@"; do
		args="$args --port $p"
	done
	j=$($BMCTL run $RUN $args --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
	[ -n "$j" ] || fail "ports $*: not taken"
	$BMCTL cancel "$j" > /dev/null 2>&1
	$BMCTL wait "$j" > /dev/null 2>&1
	echo "ok: ports $* taken (job $j)"
}

bm_load
# a repeated run (lab-rate, one boot) finds the last run's devices
for i in 0 1 2 3; do
	$IP link del x$i 2> /dev/null
done
$IP link del br9 2> /dev/null
for i in 0 1 2 3; do
	$IP link add x$i type veth peer name y$i || fail "veth x$i"
	$IP link set y$i up && $IP link set x$i up || fail "x$i up"
done
$IP link add br9 type bridge || fail "br9"
$IP link set x2 master br9 || fail "x2 into br9"
$IP addr add 10.9.9.9/24 dev x0 || fail "x0 address"
cat > /tmp/bmd-ports.conf <<'EOF'
reset.secret = echo s3cr3t-lab > /dev/null
EOF
bmd_start -c /tmp/bmd-ports.conf

# 1.
refused "port x0: refused: up with address 10.9.9.9, the host's own; name it to allow it (ports = unaddressed in /tmp/bmd-ports.conf)" x0 x1
refused "port x2: refused: enslaved to br9, the host's own" x1 x2
$IP addr flush dev x0
$IP addr add 198.18.5.2/24 dev x0 || fail "x0 benchmark address"
taken x0 x1
$IP addr add 10.9.9.9/24 dev x1 || fail "x1 address"
$IP link set x1 down
taken x0 x1
$IP link set x1 up
refused "port x1: refused: up with address 10.9.9.9" x0 x1
$IP addr flush dev x1
bmd_stop

# 2.
cat >> /tmp/bmd-ports.conf <<'EOF'
ports = x0 y*
EOF
$IP addr add 10.9.9.9/24 dev x0
bmd_start -c /tmp/bmd-ports.conf
bmd -c /tmp/bmd-ports.conf --check-config | grep -q '^ports *x0 y\*$' ||
	fail "bmd --check-config does not show the ports"
taken x0 y1
refused "port x1: refused: not named (ports = x0 y* in /tmp/bmd-ports.conf)" x0 x1
bmd_stop
$IP addr flush dev x0
$IP addr add 198.18.5.2/24 dev x0

# 3. the second job waits for the first (same ports); x3 becomes the
# host's meanwhile
sed -i '/^ports/d' /tmp/bmd-ports.conf
bmd_start -c /tmp/bmd-ports.conf
a=$($BMCTL run $RUN --port x0 --port x3 --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
b=$($BMCTL run $RUN --port x0 --port x3 --detach | sed -n 's/^job *\([0-9]*\)$/\1/p')
[ -n "$a" ] && [ -n "$b" ] || fail "jobs on x0 x3 not taken"
$IP addr add 10.7.7.7/24 dev x3 || fail "x3 address"
$BMCTL cancel "$a" > /dev/null || fail "cancel $a"
one_line 1 $BMCTL wait "$b"
grep -qF "port x3: refused: up with address 10.7.7.7" /tmp/one.err ||
	fail "job $b: '$(cat /tmp/one.err)' is not the refusal"
check_eq "job $b trials" "$($BMCTL jobs | awk -v j="$b" '$1 == j { print $6 }')" 0
$IP addr flush dev x3

# 4.
one_line 2 $BMCTL run $RUN --port x0 --port x3 --param management=true \
	--param mgmt_agent=10.0.2.2
grep -qF "mgmt_agent: 10.0.2.2 is not a DUT address: the test network is 198.18.0.0/15" /tmp/one.err ||
	fail "agent 10.0.2.2: '$(cat /tmp/one.err)'"

# 5.
$BMCTL status > /tmp/status.out || fail "bmctl status"
grep -q "reset secret" /tmp/status.out || { cat /tmp/status.out; fail "status names no reset 'secret'"; }
! grep -q "s3cr3t" /tmp/status.out || fail "status shows the reset's command"
$BMCTL -j status | grep -q "s3cr3t" && fail "status (JSON) shows the reset's command"
echo "ok: ports: the host's refused with the reason, the benchmark's taken; no command shown"
