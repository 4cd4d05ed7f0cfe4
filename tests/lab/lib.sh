# Guest-side helper library, sourced before every lab test.
# A test is a shell script: it fails by exiting non-zero (or via fail()).
IP=/usr/sbin/ip
TC=/usr/sbin/tc
BRIDGE=/usr/sbin/bridge
BMT=/usr/sbin/bmgen-trial
set -u

# The KASAN/lockdep/kmemleak guest of make check-debug (tools/debug-kernel):
# KASAN's quarantine keeps freed objects, so slab counts there are no
# leak measure (tests/lab/debug/kmemleak.sh is).
case $(uname -r) in
*-bmgen-debug) DEBUG_KERNEL=1 ;;
*) DEBUG_KERNEL= ;;
esac

# fail MESSAGE: print the reason and end the test with a failure.
fail() {
	echo "FAIL: $*"
	exit 1
}

# note MESSAGE: a line that ends up in the console log.
note() {
	echo "note: $*"
}

# Truth tests that cannot be fitted: a test draws its software DUT's
# numbers (rates, bucket and queue sizes, delays) on every run from one
# seed, printed, so a failing run can be repeated exactly with
# tools/lab-run --append labseed=SEED TEST (the kernel command line's
# labseed reaches the test as an environment variable).
LAB_SEED=${labseed:-$(od -An -N3 -tu4 /dev/urandom 2>/dev/null | tr -d ' ')}
LAB_SEED=${LAB_SEED:-$$}
# lab_draw NAME LO HI [STEP]: a whole number of LO, LO + STEP, ... <= HI,
# from the seed and NAME only (so draws do not depend on their order).
# A quadratic map modulo a prime below 2^26 mixes seed and name: its
# products stay below 2^53, exact in busybox awk's doubles, and it is not
# linear, so the draws of different names are independent of each other
# (every pair of 10 values is drawn over 5,000 seeds).  Until 2026-12-03
# the draw was busybox's first rand() after srand(seed, name), nearly
# linear in the seed: two draws hit 60 of 100 cells over 20,000 seeds,
# and the same seed drew other values than it does now.
lab_draw() {
	awk -v s="$LAB_SEED" -v n="$1" -v lo="$2" -v hi="$3" -v st="${4:-1}" '
	function mix(x) {
		return (x * x + 12345) % 67108859
	}
	BEGIN {
		x = (s % 67108859 + 1) % 67108859
		for (r = 0; r < 4; r++)
			x = mix(x)
		for (i = 1; i <= length(n); i++) {
			c = index("abcdefghijklmnopqrstuvwxyz0123456789_.", substr(n, i, 1))
			x = mix((x * 41 + c) % 67108859)
		}
		for (r = 0; r < 8; r++)
			x = mix((x + s % 1000003) % 67108859)
		k = int((hi - lo) / st + 1e-9) + 1
		printf "%d\n", lo + int(x / 67108859 * k) * st
	}'
}

# bm_load [PARAMS]: load bmgen.ko.
bm_load() {
	grep -q '^bmgen ' /proc/modules || insmod /lib/modules/bmgen.ko "$@" ||
		fail "insmod bmgen.ko"
}

# ns_quiet DEV [NS]: no IPv6 autoconf/DAD noise on a test port.
ns_quiet() {
	if [ -n "${2:-}" ]; then
		$IP netns exec "$2" sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1"
	else
		echo 1 > "/proc/sys/net/ipv6/conf/$1/disable_ipv6"
	fi
}

# quiet_bridge NAME NS: a bridge in NS that sends nothing of its own, so
# that a DUT's qdisc counters count test frames only.  With multicast
# snooping on (the default), a bridge joins 224.0.0.106 when it comes up
# and sends IGMP reports out of every port: dataplane/netem saw one cross
# netem and be dropped (drops = lost + 1), and a frame that enters a qdisc
# from the other CPU makes that CPU dequeue test frames into its own backlog,
# which reorders the stream (Documentation/lab.md, "A quiet DUT").
quiet_bridge() {
	$IP -n "$2" link add "$1" type bridge ageing_time 30000 mcast_snooping 0 ||
		fail "bridge $1"
	ns_quiet "$1" "$2"
}

# pair_nic MAC NAME: the NIC of MAC (tools/lab-run --pair's cables
# between the two guests) renamed NAME and quiet
pair_nic() {
	for d in /sys/class/net/*; do
		[ "$(cat "$d/address")" = "$1" ] || continue
		[ "${d##*/}" = "$2" ] ||
			$IP link set "${d##*/}" name "$2" || fail "rename ${d##*/}"
		ns_quiet "$2"
		return 0
	done
	fail "no NIC $1"
}

# pair_setup: the first guest of tools/lab-run --pair (tests/lab/pair/)
# as one tester host of two: ctl0 10.99.0.1 on the hosts' network, its
# clock their grandmaster (ptp4l, software stamps; started once a boot),
# a DUT bridge of t1's cable d1 and d2, the cable to lab2's t2, and
# BMGEN_SSH the stand-in for ssh that reaches lab2's `bmctl bridge` (its
# busybox nc on port 7000, tests/lab/pair-peer.sh); returns when lab2's
# bmd answers.  And h1, the igb of the third cable (QEMU's 82576: a PHC,
# hardware stamps), up with no address in this namespace, not in the DUT:
# that cable joins the two tester hosts back to back, h1 to lab2's h2,
# for one-way latency by NIC stamps; a test waits for its carrier itself
# (nic_carrier h1, or nic_reset h1 for a fresh rx stamp, as
# lab2_reset_h2 gives h2).
pair_setup() {
	pair_nic 52:54:00:aa:00:01 d2
	pair_nic 52:54:00:aa:00:02 ctl0
	pair_nic 52:54:00:aa:00:03 h1
	$IP link set h1 up
	$IP link set ctl0 up
	$IP addr replace 10.99.0.1/24 dev ctl0
	$IP netns add dut || fail "netns add dut"
	quiet_bridge br0 dut
	veth_port t1 d1
	$IP -n dut link set d1 master br0 || fail "d1 into br0"
	$IP link set d2 netns dut || fail "d2 into dut"
	$IP -n dut link set d2 master br0 || fail "d2 into br0"
	$IP -n dut link set d2 up
	$IP -n dut link set br0 up
	if ! pidof ptp4l > /dev/null; then
		cat > /etc/ptp4l.conf <<-'PTP'
		[global]
		priority1 10
		logSyncInterval -2
		sanity_freq_limit 0
		PTP
		ptp4l -S -4 -i ctl0 -f /etc/ptp4l.conf > /tmp/ptp4l.log 2>&1 &
	fi
	# bmd (bmd_start) reaches host lab2 (bmd(8), hosts); the pool's
	# tolerance of a host's clock: lab2's ptp4l, read while a part's
	# traffic runs on its one vCPU, was up to 5.5 ms off (1 ms is the
	# default, for real hosts)
	pool_conf 10000
	printf '#!/bin/sh\nexec busybox nc 10.99.0.2 7000\n' > /tmp/nc-ssh
	chmod +x /tmp/nc-ssh
	export BMGEN_SSH=/tmp/nc-ssh
	lab2_bmd_wait
}

# lab2_reset_h2: a device reset of lab2's igb h2 (down, up, carrier),
# asked of its busybox nc on port 7001 (tests/lab/pair-peer.sh), so that
# the next PTP event frame h2 receives gets its hardware stamp: QEMU's
# 82576 model latches one rx stamp per reset (tests/lab/hw/timestamps.sh).
# Fails the test unless lab2 answers "h2 reset" within 15 s (its carrier
# wait is 10 s at most).
lab2_reset_h2() {
	ans=$(timeout 15 busybox nc 10.99.0.2 7001 < /dev/null 2>&1)
	[ "$ans" = "h2 reset" ] || fail "lab2 did not reset h2 within 15 s: '$ans'"
}

# lab2_asymmetry NS: lab2's ptp4l restarted believing the path from this
# clock is NS longer than the path back (ptp4l's delayAsymmetry; asked of
# its busybox nc on port 7002, tests/lab/pair-peer.sh): lab2's clock
# settles NS off this one while ptp4l's offset says 0.  Returns once
# lab2 follows again within 1 ms by its own account.
lab2_asymmetry() {
	ans=$(echo "$1" | timeout 15 busybox nc 10.99.0.2 7002 2>&1)
	[ "$ans" = "asymmetry $1" ] || fail "lab2's ptp4l not restarted: '$ans'"
	sleep 2		# the old ptp4l's last answers
	pair_sync 1000000 > /dev/null
}

# lab2_phc2sys WORD [NS]: lab2's phc2sys and the bmd that reads its log,
# asked of its busybox nc on port 7003 (tests/lab/pair-peer.sh): "on NS"
# (h2's PHC NS behind lab2's system clock, phc2sys reporting CLOCK_
# REALTIME against it, bmd restarted with BMGEN_PHC2SYS_LOG), "stop"
# (phc2sys alone), "off" (both back as at boot); fails the test unless
# lab2 says it did within 15 s.  "log": phc2sys's log on stdout.
lab2_phc2sys() {
	if [ "$1" = log ]; then
		echo log | timeout 15 busybox nc 10.99.0.2 7003
		return
	fi
	ans=$(echo "$*" | timeout 15 busybox nc 10.99.0.2 7003 2>&1)
	[ "$ans" = "phc2sys $1" ] || fail "lab2's phc2sys $1: '$ans'"
}

# lab2_bmd_wait: until lab2's bmd answers through the ssh stand-in (60 s
# at most)
lab2_bmd_wait() {
	i=0
	until bmctl -H lab2 status > /tmp/lab2.status 2>&1; do
		i=$((i + 1))
		[ $i -lt 120 ] || { cat /tmp/lab2.status; fail "lab2's bmd not reachable"; }
		sleep 0.5
	done
}

# pair_latency_job: bm_job "lat", RFC 2544 §26.2 latency from t1 to
# lab2:t2 at 705 fps of 512 B on a 10 Mbit/s line: its 20 repetitions,
# short; no learning frames (a bridge of two ports learns nothing that
# matters), so each part starts 0.5 s after bmd sends it; ARGS are added
# to bmctl run's
pair_latency_job() {
	bm_job lat rfc2544 latency --port t1 --port lab2:t2 --line-rate 10M \
		--param restabilise_s=0 --param learning=false \
		--frame-sizes 512 --param throughput_fps=705 \
		--param trial_duration_s=0.6 --param tag_at_s=0.3 \
		--param repetitions=20 --param drain_s=0.2 "$@"
}

# pair_router_tbf: pair_setup's DUT made a router (RFC 2544 App C, as
# dut_router_tbf): d1 198.18.1.1/24 towards t1, d2 198.19.1.1/24 the cable
# to lab2's t2, ip_forward on; on d2 ARP in an unshaped band and the test
# frames through tbf 20: of dut_tbf_drawn's drawn rate R, bucket B, limit
# LIMIT (ABSORB as there)
pair_router_tbf() {
	$IP -n dut link set d1 nomaster || fail "d1 out of br0"
	$IP -n dut link set d2 nomaster || fail "d2 out of br0"
	$IP -n dut link del br0 || fail "br0 gone"
	$IP -n dut addr add 198.18.1.1/24 dev d1 || fail "d1 address"
	$IP -n dut addr add 198.19.1.1/24 dev d2 || fail "d2 address"
	$IP netns exec dut sysctl -qw net.ipv4.ip_forward=1 || fail "ip_forward"
	R=$(lab_draw tbf_rate_kbit 2000 3800 50)
	B=$(lab_draw tbf_bucket_bytes 2400 3600 100)
	LIMIT=$(lab_draw bfifo_bytes 6000 9000 500)
	ABSORB=$(awk -v r=$R -v b=$B -v q=$LIMIT 'BEGIN { printf "%.4f", (b + q) * 8 / (r * 1000) }')
	note "seed $LAB_SEED: router, tbf rate ${R} kbit/s, bucket $B bytes, bfifo $LIMIT bytes; bucket and queue absorb $ABSORB s"
	$TC -n dut qdisc add dev d2 root handle 1: prio bands 2 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 || fail "prio"
	$TC -n dut filter add dev d2 parent 1: protocol arp prio 1 matchall \
		classid 1:1 || fail "arp filter"
	$TC -n dut qdisc add dev d2 parent 1:2 handle 20: tbf rate ${R}kbit \
		burst $B limit $LIMIT overhead 24 || fail "tbf"
}

# dut_bird: BIRD 2 (Debian's bird2) in the router DUT of dut_router_tbf or
# pair_router_tbf (d1 198.18.1.1/24, d2 198.19.1.1/24), RIP v1 on d1 and
# d2, broadcast, what it learns exported to the kernel; returns when its
# RIP is up; birdc runs its client (rfc2544/routing, pair/routing).
# "check zero no": BIRD 2.0.12 reads the all-zero next hop of a v1 entry
# as non-zero and ignores every v1 route otherwise.
dut_bird() {
	# a RIP v1 listener takes updates to its network's directed
	# broadcast, which an address without "brd" does not have (BIRD will
	# not even open the interface in broadcast mode)
	for a in d1:198.18.1.1 d2:198.19.1.1; do
		$IP -n dut addr del ${a#*:}/24 dev ${a%%:*} &&
			$IP -n dut addr add ${a#*:}/24 brd + dev ${a%%:*} ||
			fail "${a%%:*}: no broadcast address"
	done
	cat > /tmp/bird.conf <<-'EOF'
	router id 198.19.1.1;
	log "/tmp/bird.log" all;
	protocol device { }
	protocol kernel { ipv4 { export all; }; }
	protocol rip {
		ipv4 { import all; export none; };
		interface "d1", "d2" { version 1; mode broadcast; check zero no; };
	}
	EOF
	$IP netns exec dut /usr/sbin/bird -c /tmp/bird.conf -s /tmp/bird.ctl \
		-P /tmp/bird.pid || fail "bird did not start"
	i=0
	until birdc show protocols 2>/dev/null | grep -q '^rip1 .* up'; do
		i=$((i + 1))
		[ $i -lt 100 ] || { cat /tmp/bird.log; fail "BIRD's RIP is not up"; }
		sleep 0.1
	done
}
birdc() {
	$IP netns exec dut /usr/sbin/birdc -s /tmp/bird.ctl "$@"
}

# rip_setup_job RX DROPS: RFC 2544 §13's route set-up (rfc2544/routing
# (1), pair/routing (1)) from t1 to port RX through dut_bird's router:
# frame-loss at 20 % of 10 Mbit/s, 1.5 s trials, random_networks=190
# (198.19.65-254), route_setup=rip, route_lead_s=2.2, the update from
# RX's network's phantom router 198.19.1.10; DROPS a command printing the
# DUT's tbf drops.  Checked: no route before; each trial 8 messages
# (ceil(190 / 25)); lost = the tbf's drops; after, BIRD's RIP table and
# the kernel's each of the 190 via 198.19.1.10 on d2 at metric 8.
rip_setup_job() {
	rs_rx=$1 rs_drops=$2
	check_eq "(1) routes to 198.19.65-254 before the job" "$(bird_routes 198.19.)" 0
	rs_d0=$($rs_drops)
	bm_job rip rfc2544 frame-loss --port t1 --port "$rs_rx" --router \
		--line-rate 10M --frame-sizes 512 --param random_networks=190 \
		--param random_seed=5 --param route_setup=rip \
		--param route_lead_s=2.2 --param trial_duration_s=1.5 \
		--param drain_s=0.3 --param max_rate_pct=20 $R2544_FAST
	$BMCTL -j result "$job" > /tmp/rip.json || fail "bmctl result --json"
	grep -q '"route_setup": "rip"' /tmp/rip.json || fail "(1) no routing object"
	sed -n '/^  "trials"/,/^  "results"/p' /tmp/rip.json > /tmp/rip.trials
	check_range "(1) trials" "$(jvals attempted /tmp/rip.trials | wc -l)" 2 20
	check_eq "(1) RIP messages of each trial" \
		"$(jvals route_setup_sent /tmp/rip.trials | sort -u)" 8
	check_eq "(1) frames lost over all trials = tbf drops" \
		"$(jvals lost /tmp/rip.trials | awk '{ s += $1 } END { print s }')" \
		"$(($($rs_drops) - rs_d0))"
	check_eq "(1) the DUT's kernel routes to 198.19.65-254 from BIRD" \
		"$(bird_routes 198.19.)" 190
	birdc show route protocol rip1 > /tmp/rip.bird
	$IP -n dut -4 route show > /tmp/rip.kernel
	# every network k = 65..254: in BIRD's RIP table at preference 120,
	# metric 8, next line "via 198.19.1.10 on d2"; in the kernel from BIRD
	awk '/^198\.19\.[0-9]+\.0\/24 .*\(120\/8\)/ { split($1, a, "."); k = a[3]; next }
		k && /via 198\.19\.1\.10 on d2/ { ok[k] = 1 } { k = 0 }
		END { for (k = 65; k <= 254; k++) if (!ok[k]) { print "FAILMSG (1) BIRD has no 198.19." k ".0/24 via 198.19.1.10 on d2, metric 8"; exit 1 } }' \
		/tmp/rip.bird > /tmp/rip.v
	model_verdict /tmp/rip.v $?
	awk '/^198\.19\.[0-9]+\.0\/24 via 198\.19\.1\.10 dev d2 proto bird/ { split($1, a, "."); ok[a[3]] = 1 }
		END { for (k = 65; k <= 254; k++) if (!ok[k]) { print "FAILMSG (1) the DUT kernel has no 198.19." k ".0/24 via 198.19.1.10"; exit 1 } }' \
		/tmp/rip.kernel > /tmp/rip.k
	model_verdict /tmp/rip.k $?
	echo "ok: (1) all 190 networks learnt from the update: BIRD metric 8 via 198.19.1.10 on d2, in the kernel"
}

# bird_routes NET: the DUT kernel's routes from BIRD within NET (198.19.)
bird_routes() {
	$IP -n dut -4 route show | grep "^$1" | grep -c "proto bird"
}

# rip_ab_job RX DROPS: RFC 2544 §11.3's routing updates (rfc2544/routing
# (2), pair/routing (2)) from t1's network's phantom router 198.18.1.10,
# frame-loss t1 -> RX as rip_setup_job's, every 0.5 s of 1.5 s trials:
# A advertises 198.18.65-76.0 and withdraws 198.18.77-88.0, B the
# reverse.  Checked: 3 a trial, alternating from A over the job; `ip
# monitor route` in the DUT saw 198.18.65.0/24 added once per A and
# 198.18.77.0/24 once per B; lost = the tbf's drops.  Leaves seq (the
# updates in order), na, nb and /tmp/ab.json.
rip_ab_job() {
	ra_rx=$1 ra_drops=$2
	$IP -n dut monitor route > /tmp/mon.log 2>&1 &
	ra_mon=$!
	sleep 0.5
	ra_d0=$($ra_drops)
	bm_job ab rfc2544 frame-loss --port t1 --port "$ra_rx" --router \
		--line-rate 10M --frame-sizes 512 --param routing_updates=true \
		--param routing_interval_s=0.5 --param trial_duration_s=1.5 \
		--param drain_s=0.3 --param max_rate_pct=20 $R2544_FAST
	sleep 0.5
	kill $ra_mon
	$BMCTL -j result "$job" > /tmp/ab.json || fail "bmctl result --json"
	sed -n '/^  "trials"/,/^  "results"/p' /tmp/ab.json > /tmp/ab.trials
	seq=$(jvals routing_ab /tmp/ab.trials | tr -d '"\n')
	note "(2) updates in order: $seq"
	na=$(printf %s "$seq" | tr -cd A | wc -c)
	nb=$(printf %s "$seq" | tr -cd B | wc -c)
	check_eq "(2) 3 updates a trial" "${#seq}" \
		$((3 * $(jvals attempted /tmp/ab.trials | wc -l)))
	case "$seq" in
	ABABAB*) ;;
	*) fail "(2) the updates do not alternate from A: $seq" ;;
	esac
	check_eq "(2) A updates = the DUT's additions of 198.18.65.0/24" \
		"$(grep -c '^198\.18\.65\.0/24 via 198\.18\.1\.10 dev d1 proto bird' /tmp/mon.log)" "$na"
	check_eq "(2) B updates = the DUT's additions of 198.18.77.0/24" \
		"$(grep -c '^198\.18\.77\.0/24 via 198\.18\.1\.10 dev d1 proto bird' /tmp/mon.log)" "$nb"
	check_eq "(2) frames lost = tbf drops" \
		"$(jvals lost /tmp/ab.trials | awk '{ s += $1 } END { print s }')" \
		"$(($($ra_drops) - ra_d0))"
}

# dut_snmpd: net-snmp's snmpd in the DUT on 198.18.1.1 (its address
# there is the caller's), community s3cr3t-lab for 198.18.1.0/24, logging
# each request to /tmp/snmpd.log; SNMPD its pid, ifx d1's ifIndex in the
# DUT (rfc2544/management, pair/throughput)
dut_snmpd() {
	mkdir -p /tmp/snmp /var/lib/snmp
	printf 'rocommunity s3cr3t-lab 198.18.1.0/24\nagentaddress udp:198.18.1.1:161\n' > /tmp/snmp/snmpd.conf
	# emptied first: a repeated run's grep must not find the last run's
	# start line before the background shell truncates the log
	: > /tmp/snmpd.log
	SNMP_PERSISTENT_DIR=/tmp/snmp MIBS= MIBDIRS=/tmp/snmp \
		$IP netns exec dut /usr/sbin/snmpd -f -Lo -C -c /tmp/snmp/snmpd.conf \
		> /tmp/snmpd.log 2>&1 &
	SNMPD=$!
	i=0
	until grep -q "NET-SNMP version" /tmp/snmpd.log; do
		i=$((i + 1))
		[ $i -lt 100 ] || { cat /tmp/snmpd.log; fail "snmpd did not start"; }
		sleep 0.1
	done
	ifx=$($IP netns exec dut cat /sys/class/net/d1/ifindex)
}

# pool_conf US: bmd_start's configuration for the two-guest lab: host lab2,
# a sync tolerance of US microseconds
pool_conf() {
	printf 'hosts = lab2\nsync-tolerance-us = %s\n' "$1" > /tmp/bmd-pool.conf
	BMD_CONF=/tmp/bmd-pool.conf
}

# lab2_offset: ptp4l's own account of lab2's offset from this clock (ns):
# the TIME_STATUS_NP of lab2's port (its clock identity from its MAC
# 52:54:00:bb:00:02) among the answers of every clock a hop away, when
# it follows this clock (gmIdentity ...aa0002); "" when it does not
lab2_offset() {
	pmc -u -b 1 -i ctl0 'GET TIME_STATUS_NP' 2>/dev/null |
		awk '/RESPONSE MANAGEMENT/ { mine = /525400\.fffe\.bb0002/ }
		     mine && /master_offset/ { o = $2 }
		     mine && /gmIdentity/ { gm = ($2 == "525400.fffe.aa0002") }
		     END { if (gm) print o }'
}

# pair_sync [NS]: wait (60 s at most) until lab2 follows this clock with
# an offset within NS (default 5 ms) three answers in a row; the last
# one (ns)
pair_sync() {
	i=0 good=0
	while [ $good -lt 3 ]; do
		off=$(lab2_offset)
		if [ -n "$off" ] && [ "${off#-}" -lt "${1:-5000000}" ] 2>/dev/null; then
			good=$((good + 1))
		else
			good=0
		fi
		i=$((i + 1))
		[ $i -lt 60 ] || { tail -n 20 /tmp/ptp4l.log >&2; fail "lab2 not in sync after 60 s (offset '$off' ns)"; }
		sleep 1
	done
	echo "$off"
}

# topo_bridge [NPORTS]: tester ports t1..tN in this namespace, each cabled
# (veth) to dI in namespace "dut", where br0 bridges d1..dN.
topo_bridge() {
	$IP netns add dut || fail "netns add dut"
	bridge_ports 1 "${1:-2}" \
		"link add br0 type bridge ageing_time 30000 mcast_snooping 0" \
		"link set br0 up"
}

# port_list FROM TO: "tFROM,...,tTO" (busybox seq has no -f)
port_list() {
	i=$1 s=t$1
	while [ $i -lt $2 ]; do
		i=$((i + 1))
		s="$s,t$i"
	done
	echo "$s"
}

# veth_port NAME PEER: a cable from tester port NAME (here) to PEER in
# namespace dut, both quiet and up.
veth_port() {
	$IP link add "$1" type veth peer name "$2" netns dut || fail "veth $1"
	ns_quiet "$1"
	ns_quiet "$2" dut
	$IP link set "$1" up
	$IP -n dut link set "$2" up
}

# veth_loop A B: tester ports A and B cabled to each other (a veth pair,
# no DUT), both quiet and up: the loop of the transmit-path and capacity
# tests (dataplane/capacity, dataplane/tx-path-choice).
veth_loop() {
	$IP link add "$1" type veth peer name "$2" || fail "veth $1"
	ns_quiet "$1"
	ns_quiet "$2"
	$IP link set "$1" up
	$IP link set "$2" up
}

# dut_router_tbf: a router DUT in namespace dut (rfc2544/router,
# rfc2544/filters): t1-d1 with 198.18.1.1/24, t2-d2 with 198.19.1.1/24,
# forwarding on; on d2 a prio qdisc keeps ARP in the unshaped band 1:1 and
# sends everything else through tbf 20: (3 Mbit/s, burst 3200, limit 8000,
# overhead 24), so that the tbf's drops are test frames only (a dropped ARP
# probe of the DUT's would make drops = lost + 1 and stop its forwarding).
dut_router_tbf() {
	$IP netns add dut || fail "netns add dut"
	veth_port t1 d1
	veth_port t2 d2
	$IP -n dut addr add 198.18.1.1/24 dev d1 || fail "d1 address"
	$IP -n dut addr add 198.19.1.1/24 dev d2 || fail "d2 address"
	$IP netns exec dut sysctl -qw net.ipv4.ip_forward=1 || fail "ip_forward"
	$TC -n dut qdisc add dev d2 root handle 1: prio bands 2 \
		priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 || fail "prio"
	$TC -n dut filter add dev d2 parent 1: protocol arp prio 1 matchall \
		classid 1:1 || fail "arp filter"
	$TC -n dut qdisc add dev d2 parent 1:2 handle 20: tbf rate 3mbit \
		burst 3200 limit 8000 overhead 24 || fail "tbf"
}

# no_gso DEV...: the stack segments TCP before the tester port, as a NIC
# with TSO puts frames on the wire: a veth passes GSO super-packets to
# the DUT, whose tbf would account one overhead per super-packet
# (dataplane/tcp-engine read 9.55 Mbit/s through a 9.415 Mbit/s ceiling with
# burst 30400).
no_gso() {
	for d in "$@"; do
		ethtool -K "$d" tso off gso off > /dev/null 2>&1 || fail "gso off $d"
	done
}

# bridge_ports FROM TO [FIRST [LAST]]: tester ports tFROM..tTO, each a
# veth to dFROM..dTO on the DUT's br0, both ends up and quiet (as
# veth_port and ns_quiet leave them: born with IPv6 off, each namespace's
# default while they are made); FIRST and LAST are ip commands for
# namespace dut before and after the ports' (topo_bridge's br0, born
# quiet the same way).  Three ip runs for any number of ports, where
# veth_port's are five a port: an ip costs 60 to 110 ms in the TCG guest
# (mostly its dynamic linking), and dataplane/mesh's 64 ports took 35 s.
bridge_ports() {
	bp_d=/proc/sys/net/ipv6/conf/default/disable_ipv6
	: > /tmp/bp.here
	printf '%s\n' "${3:-}" > /tmp/bp.dut
	i=$1
	while [ $i -le $2 ]; do
		printf 'link add t%s type veth peer name d%s netns dut\nlink set t%s up\n' \
			$i $i $i >> /tmp/bp.here
		printf 'link set d%s up\nlink set d%s master br0\n' $i $i >> /tmp/bp.dut
		i=$((i + 1))
	done
	printf '%s\n' "${4:-}" >> /tmp/bp.dut
	sed -i '/^$/d' /tmp/bp.dut
	bp_old=$(cat $bp_d)
	bp_dut=$($IP netns exec dut sh -c "cat $bp_d; echo 1 > $bp_d") ||
		fail "namespace dut: IPv6 default"
	echo 1 > $bp_d
	$IP -batch /tmp/bp.here
	bp_rc=$?
	echo "$bp_old" > $bp_d
	[ $bp_rc -eq 0 ] || fail "cables t$1..t$2"
	$IP netns exec dut sh -c "$IP -batch /tmp/bp.dut; r=\$?; echo $bp_dut > $bp_d; exit \$r" ||
		fail "namespace dut: ports d$1..d$2 on br0"
}

# model_verdict FILE RC: show an awk model check's lines (FILE) and fail
# with its first "FAILMSG reason" line unless the check's status RC is 0.
model_verdict() {
	cat "$1"
	m=$(sed -n 's/^FAILMSG //p' "$1" | head -n1)
	[ "$2" -eq 0 ] || fail "${m:-model check}"
}

# backlog_drops: frames the guest's receive backlogs dropped, all CPUs
backlog_drops() {
	s=0
	for h in $(cut -d' ' -f2 /proc/net/softnet_stat); do
		s=$((s + 0x$h))
	done
	echo $s
}

# qdisc_drops_all: "DEV:N" for every DUT port with a root qdisc, its
# drops (as qdisc_drops, one tc for all of them)
qdisc_drops_all() {
	$TC -n dut -s qdisc show | awk '
		$1 == "qdisc" { d = ""; if ($0 ~ / root /) for (i = 1; i < NF; i++) if ($i == "dev") d = $(i + 1) }
		d != "" && /\(dropped / { x = $0; sub(/.*\(dropped /, "", x); sub(/,.*/, "", x); printf "%s:%s ", d, x; d = "" }'
}

# qdisc_drops DEV: drops of the DUT's DEV's root qdisc (a tbf, htb or ets
# counts its children's)
qdisc_drops() {
	$TC -n dut -s qdisc show dev "$1" |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1
}

# tbf20 dropped|Sent: the counter of tbf 20: on the DUT's d2 so far (a
# router DUT's shaper behind its unshaped ARP band: dut_router_tbf)
tbf20() {
	$TC -n dut -s qdisc show dev d2 | awk -v w=$1 '/^qdisc tbf 20:/ { on = 1 }
		on && w == "dropped" && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }
		on && w == "Sent" && /Sent/ { print $4; exit }'
}

# police_drops DEV...: drops of the police actions of the DUT's DEVs'
# egress filters, summed (their own record of what they dropped)
police_drops() {
	for d in "$@"; do
		$TC -n dut -s filter show dev "$d" egress
	done | sed -n 's/.*Sent [0-9]* bytes [0-9]* pkt (dropped \([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

# dut_sp DEV BURST: DUT-SP on the DUT's DEV (rfc7640/shaper-queue,
# rfc7640/stateful): tbf 10 Mbit/s
# (burst BURST, limit 1,000,000, overhead 4) over prio 3 bands, EF (DSCP
# 46) to band 1, everything else to band 3 with pfifo 50
dut_sp() {
	$TC -n dut qdisc add dev "$1" root handle 1: tbf rate 10mbit burst "$2" \
		limit 1000000 overhead 4 || fail "tbf $1"
	$TC -n dut qdisc add dev "$1" parent 1:1 handle 10: prio bands 3 \
		priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 || fail "prio $1"
	$TC -n dut filter add dev "$1" parent 10: protocol ip u32 \
		match ip dsfield 0xb8 0xfc flowid 10:1 || fail "EF filter $1"
	$TC -n dut qdisc add dev "$1" parent 10:3 handle 30: pfifo limit 50 ||
		fail "BE pfifo $1"
}

# dut_ets DEV: rfc7640/queue-shaper-capacity's and
# rfc7640/capacity-every-port's SP + WFQ egress on the DUT's DEV: tbf 10
# Mbit/s (burst 15,180, overhead 4) over ets bands 3 strict 1 quanta 3000
# 1500, EF (DSCP 46) to the strict band, AF11 (10) to quantum 3000, the
# rest to 1500, pfifo 50 on each WFQ band
dut_ets() {
	$TC -n dut qdisc add dev "$1" root handle 1: tbf rate 10mbit burst 15180 \
		limit 1000000 overhead 4 || fail "tbf $1"
	$TC -n dut qdisc add dev "$1" parent 1:1 handle 10: ets bands 3 strict 1 \
		quanta 3000 1500 priomap 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 || fail "ets $1"
	$TC -n dut filter add dev "$1" parent 10: protocol ip u32 \
		match ip dsfield 0xb8 0xfc flowid 10:1 || fail "EF filter $1"
	$TC -n dut filter add dev "$1" parent 10: protocol ip u32 \
		match ip dsfield 0x28 0xfc flowid 10:2 || fail "AF11 filter $1"
	$TC -n dut qdisc add dev "$1" parent 10:2 pfifo limit 50 || fail "pfifo $1 10:2"
	$TC -n dut qdisc add dev "$1" parent 10:3 pfifo limit 50 || fail "pfifo $1 10:3"
}

# dut_htb DEV: rfc7640/queue-shaper-capacity's and
# rfc7640/capacity-every-port's shaped queues on the DUT's DEV: htb root
# 10 Mbit/s, class EF (DSCP 46) rate = ceil 3 Mbit/s prio 0, class BE 5
# Mbit/s prio 1, each a burst of 10 frames and a pfifo of 50 (overhead 4)
dut_htb() {
	$TC -n dut qdisc add dev "$1" root handle 1: htb default 20 || fail "htb $1"
	$TC -n dut class add dev "$1" parent 1: classid 1:1 htb rate 10mbit \
		ceil 10mbit overhead 4 || fail "htb root class $1"
	$TC -n dut class add dev "$1" parent 1:1 classid 1:10 htb rate 3mbit \
		ceil 3mbit burst 15180 cburst 15180 prio 0 overhead 4 || fail "htb EF class $1"
	$TC -n dut class add dev "$1" parent 1:1 classid 1:20 htb rate 5mbit \
		ceil 5mbit burst 15180 cburst 15180 prio 1 overhead 4 || fail "htb BE class $1"
	$TC -n dut qdisc add dev "$1" parent 1:10 pfifo limit 50 || fail "pfifo $1 1:10"
	$TC -n dut qdisc add dev "$1" parent 1:20 pfifo limit 50 || fail "pfifo $1 1:20"
	$TC -n dut filter add dev "$1" parent 1: protocol ip u32 \
		match ip dsfield 0xb8 0xfc flowid 1:10 || fail "EF filter $1"
}

# tm_step_rows FILE STEP: the rows of an rfc7640 policer result's STEP
# ("compliant" or "excess"), one "ingress/vlan test lp bsa_bytes" each
# ("/-" for a single stream), sorted
tm_step_rows() {
	sed -n "/\"results\": {/,\$p" "$1" | tr -d '",' | awk -v step="$2" '
		$1 == step ":" { on = 1; next }
		on && $1 == "]" { on = 0 }
		on && $1 == "{" { t = lp = b = i = ""; v = "-" }
		on && $1 == "test:" { t = $2 }
		on && $1 == "lp:" { lp = $2 }
		on && $1 == "bsa_bytes:" { b = $2 }
		on && $1 == "ingress:" { i = $2 }
		on && $1 == "vlan:" { v = $2 }
		on && ($1 == "}" || $1 == "},") && t != "" { print i "/" v, t, lp, b; t = "" }' |
		sort
}

# tm_queue_rows FILE: the "queues" rows of an rfc7640 capacity result, one
# "egress:queue throughput_bps lp wfq_share_pct" each ("-" for no share)
tm_queue_rows() {
	sed -n '/^    "queues": \[/,/^    \]/p' "$1" | tr -d '",' | awk '
		$1 == "egress:" { e = $2 }
		$1 == "queue:" { q = e ":" $2 }
		$1 == "throughput_bps:" { t[q] = $2 }
		$1 == "lp:" { l[q] = $2 }
		$1 == "wfq_share_pct:" { w[q] = $2 }
		END { for (k in t) print k, t[k], l[k] + 0, (k in w) ? w[k] : "-" }' |
		sort
}

# dut_tbf_drawn: DUT-TBF on d2 as rfc2544/throughput draws it on every
# run (seed noted): rate R 2 to 3.8 Mbit/s (20 to 38 % of a 10 Mbit/s
# line), bucket B 2400 to 3600 bytes, bfifo LIMIT 6000 to 9000 bytes,
# overhead 24 (A = F + 20); ABSORB the seconds of traffic at R that
# bucket and queue absorb (lib.sh remeasure's threshold).
dut_tbf_drawn() {
	R=$(lab_draw tbf_rate_kbit 2000 3800 50)
	B=$(lab_draw tbf_bucket_bytes 2400 3600 100)
	LIMIT=$(lab_draw bfifo_bytes 6000 9000 500)
	ABSORB=$(awk -v r=$R -v b=$B -v q=$LIMIT 'BEGIN { printf "%.4f", (b + q) * 8 / (r * 1000) }')
	note "seed $LAB_SEED: tbf rate ${R} kbit/s, bucket $B bytes, bfifo $LIMIT bytes; bucket and queue absorb $ABSORB s"
	$TC -n dut qdisc add dev d2 root tbf rate ${R}kbit burst $B limit $LIMIT overhead 24 ||
		fail "tbf"
}

# check_tbf_throughput FILE RATE_BPS TOL_PCT SIZE...: the throughput_fps
# values of result FILE, one per SIZE, each within TOL_PCT of what a tbf
# of RATE_BPS with overhead 24 forwards: C = R / 8 / (F + 20) fps.
check_tbf_throughput() {
	f=$1 r=$2 tol=$3
	shift 3
	got=$(jvals throughput_fps "$f")
	# a failure's one line in CI says how late the generator was
	late=$(jvals tx_late_max_s "$f" | sort -g | tail -n1 |
	       awk '{ printf "%.1f", $1 * 1000 }')
	[ "$(echo "$got" | wc -l)" -eq $# ] || fail "want $# throughput values, got: $got"
	for size in "$@"; do
		g=$(echo "$got" | head -n1)
		got=$(echo "$got" | tail -n +2)
		truth=$(awk -v r=$r -v f=$size 'BEGIN { printf "%.2f", r / 8 / (f + 20) }')
		lo=$(awk -v t=$truth -v p=$tol 'BEGIN { printf "%.2f", t * (1 - p / 100) }')
		hi=$(awk -v t=$truth -v p=$tol 'BEGIN { printf "%.2f", t * (1 + p / 100) }')
		note "$size B: throughput $g fps, truth $truth fps ($(awk -v g=$g -v t=$truth 'BEGIN { printf "%+.2f", (g / t - 1) * 100 }') %)"
		check_range "$size B throughput (fps; generator late up to $late ms)" \
			"$g" "$lo" "$hi"
	done
}

# nic_up DEV...: quiet, up, and wait (10 s at most) until each has carrier:
# the --hw boot's igb/e1000e ports autonegotiate (tests/lab/hw/).
nic_up() {
	for d in "$@"; do
		ns_quiet "$d"
		$IP link set "$d" up || fail "link up $d"
	done
	nic_carrier "$@"
}

# nic_reset DEV...: down and up again, then carrier (a device reset:
# QEMU's 82576 model stamps one rx frame after each).
nic_reset() {
	for d in "$@"; do
		$IP link set "$d" down
		$IP link set "$d" up || fail "link up $d"
	done
	nic_carrier "$@"
}

# nic_carrier DEV...: wait until each has carrier (10 s at most), or fail.
nic_carrier() {
	for i in $(seq 1 50); do
		n=0
		for d in "$@"; do
			[ "$(cat /sys/class/net/$d/carrier 2>/dev/null)" = 1 ] &&
				n=$((n + 1))
		done
		[ $n = $# ] && return 0
		sleep 0.2
	done
	fail "no carrier on $* after 10 s"
}

# mac DEV: the MAC address of DEV in this namespace.
mac() {
	cat /sys/class/net/$1/address
}

# kv KEY FILE: the value of KEY=VALUE in FILE (bmgen-trial output).
kv() {
	v=$(sed -n "s/^$1=//p" "$2" | head -n1)
	[ -n "$v" ] || fail "no $1 in $2"
	echo "$v"
}

# check_eq NAME GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1 = $2"
	else
		fail "$1 = $2, want $3"
	fi
}

# check_range NAME GOT LO HI: LO <= GOT <= HI (decimal numbers)
check_range() {
	if awk -v g="$2" -v l="$3" -v h="$4" 'BEGIN { exit !(g >= l && g <= h) }'; then
		echo "ok: $1 = $2 in [$3, $4]"
	else
		fail "$1 = $2, want [$3, $4]"
	fi
}

# check_tx_exact NAME FILE PATH N: a bmgen-trial of N frames over a wire
# (no queue, no loss) was exact and used transmit path PATH: every frame
# sent and received once, in order, at its length, with a latency below
# 100 ms (a TCG timer tick at worst).  The transmit path tests
# (dataplane/tx-xdp, hw/tx-xdp).
check_tx_exact() {
	check_eq "$1: tx_path" "$(kv tx_path "$2")" "$3"
	check_eq "$1: tx_frames" "$(kv tx_frames "$2")" "$4"
	check_eq "$1: rx_unique" "$(kv rx_unique "$2")" "$4"
	check_eq "$1: lost" "$(kv lost "$2")" 0
	check_eq "$1: duplicates" "$(kv rx_dup "$2")" 0
	check_eq "$1: reordered" "$(kv rx_reordered "$2")" 0
	check_eq "$1: bad lengths" "$(kv rx_bad_len "$2")" 0
	check_eq "$1: tx errors" "$(kv tx_errors "$2")" 0
	check_eq "$1: latency of every frame" "$(kv lat_count "$2")" "$4"
	check_range "$1: latency max (ns)" "$(kv lat_max_ns "$2")" 1 100000000
	note "$1: tx_path $(kv tx_path "$2"), latency mean $(kv lat_mean_ns "$2") ns, max $(kv lat_max_ns "$2") ns, ring misses $(kv tx_ring_misses "$2"), retries $(kv tx_retries "$2")"
}

# bmd_start [BMD ARGS]: run bmd in the background on $BMD_SOCK, results in
# /tmp/results, log in /tmp/bmd.log; it is stopped when the test ends.
BMD_SOCK=/run/bmd/bmd.sock
BMCTL=bmctl_lab
# lab_dut_config FILE: the software DUT's configuration now, into FILE
lab_dut_config() {
	{
		if $IP netns list 2>/dev/null | grep -q '^dut\b'; then
			echo "# network namespace dut"
			$IP netns exec dut sh -c "$IP -d link; $IP addr;
				$IP route; tc qdisc show; nft list ruleset"
		else
			echo "# the guest's own stack"
			$IP -d link show type bridge; tc qdisc show
			nft list ruleset
		fi
	} > "$1" 2>/dev/null
}
# bmctl_lab ARGS...: bmctl on the lab's bmd.  A run is described as RFC
# 2544 §7 asks (bmctl report --check fails a result without it): the
# guest's kernel is the software DUT's version, and its configuration is
# what the test set up at that moment (the dut namespace's, else the
# host's bridges, qdiscs and rules), unless the test gives its own; a
# software DUT has no cards (§15 pathway n/a) and veth pairs for cables
# (§19's devices and media in the path).
LAB_DUT_PATH="the tester's veth ports, each paired with a port of the software DUT (a Linux bridge or router in network namespace dut, or the guest's own stack); no other device"
bmctl_lab() {
	if [ "${1:-}" = run ] && ! printf '%s\n' "$@" | grep -q '^--dut-'; then
		lab_dut_config /tmp/lab-dut.txt
		bmctl -s $BMD_SOCK "$@" --dut-name "bmgen lab software DUT" \
			--dut-version "Linux $(uname -r)" \
			--dut-config /tmp/lab-dut.txt --dut-pathway n/a \
			--dut-path "$LAB_DUT_PATH"
		return
	fi
	bmctl -s $BMD_SOCK "$@"
}
BMD_PID=
bmd_start() {
	mkdir -p /run/bmd /tmp/results
	bmd -f -s $BMD_SOCK -r /tmp/results ${BMD_CONF:+-c "$BMD_CONF"} "$@" \
		>> /tmp/bmd.log 2>&1 &
	BMD_PID=$!
	trap bmd_stop EXIT
	i=0
	until $BMCTL status > /dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 50 ] || { cat /tmp/bmd.log; fail "bmd did not come up"; }
		sleep 0.1
	done
}

# one_line WANT_RC CMD...: CMD exits WANT_RC with exactly one stderr line
# "bmctl: ..." (saved in /tmp/one.err)
one_line() {
	want=$1
	shift
	"$@" > /tmp/one.out 2> /tmp/one.err
	rc=$?
	[ $rc -eq "$want" ] || { cat /tmp/one.out /tmp/one.err; fail "'$*' exited $rc, want $want"; }
	[ "$(wc -l < /tmp/one.err)" -eq 1 ] && grep -q '^bmctl: ..' /tmp/one.err ||
		{ cat /tmp/one.err; fail "'$*': stderr is not one bmctl: line"; }
	echo "ok: '$*' -> $rc: $(cat /tmp/one.err)"
}

# bmd_stop: stop the bmd that bmd_start started (SIGTERM, then wait).
bmd_stop() {
	[ -n "$BMD_PID" ] || return 0
	kill "$BMD_PID" 2>/dev/null
	wait "$BMD_PID" 2>/dev/null
	BMD_PID=
}

# RFC 2544 §23b waits 2 s after the learning frames (bmd's default); the
# lab's software bridge learns at once, and 1.8 s more per trial would
# cost minutes of make check.  bmctl runs in the lab tests add this.
LEARN_FAST="--param learning_pause_s=0.2"
# RFC 2544 §23e waits at least 5 s between trials (bmd's default,
# restabilise_s); the lab's software DUTs have nothing to settle, and 5 s
# a trial would cost make check most of its budget.  rfc2544 runs in the
# lab tests use this in place of LEARN_FAST.
R2544_FAST="$LEARN_FAST --param restabilise_s=0"

# jvals KEY FILE: every value of "KEY": V in a pretty-printed JSON file
jvals() {
	sed -n "s/^ *\"$1\": *\(.*[^,]\),\{0,1\}\$/\1/p" "$2"
}

# jall KEY FILE: every scalar value of "KEY" in a pretty-printed JSON
# file, its quotes dropped
jall() {
	sed -n "s/^ *\"$1\": \([^,]*\),\{0,1\}$/\1/p" "$2" | tr -d '"'
}

# br0_outages: each outage of namespace dut's br0 of two ports since the
# kernel log was last cleared (dmesg -c), by the bridge's own record (s,
# one a line): its first port "entered disabled state" to the second of
# d1's and d2's "entered forwarding state" (printk times, one clock)
br0_outages() {
	dmesg | grep -E 'br0: port [0-9]+\(d[12]\) entered (disabled|forwarding) state' |
		tr -d '[]' | awk '
		/disabled/ { if (!in_out) { t = $1; in_out = 1; fwd = 0 } }
		/forwarding/ { if (in_out && ++fwd == 2) { printf "%.6f\n", $1 - t; in_out = 0 } }'
}

# port_lost FILE PORT: the lost frames of port PORT in the last repetition
# of an RFC 8239 result (its per-port rows; rfc8239/line-rate, pair/mesh)
port_lost() {
	sed -n '/^  "results"/,$p' "$1" | tr -d '",' | awk -v p="$2" '
		$1 == "port:" { cur = $2 } $1 == "lost:" && cur == p { v = $2 }
		END { print v + 0 }'
}

# net_counters TABLE FIRST LAST [RULE]: an nftables file (on stdout) of a
# forward chain in table ip TABLE with one counter per destination
# network 198.19.k.0/24, k = FIRST..LAST, commented "nk", then RULE if
# given (rfc2544/filters, rfc2544/routing: what the DUT routed to each
# network)
net_counters() {
	echo "table ip $1 {"
	echo " chain forward {"
	echo "  type filter hook forward priority 0; policy accept;"
	k=$2
	while [ $k -le $3 ]; do
		echo "  ip daddr 198.19.$k.0/24 counter comment \"n$k\""
		k=$((k + 1))
	done
	[ -z "${4:-}" ] || echo "  $4"
	echo " }"
	echo "}"
}

# stall_excess B FILE: the most, over FILE's trials, of the generator's
# stalls beyond B added up (tx_stalls_s, the module's 8 largest); 1e9
# when all 8 exceed B (more may be missing).
stall_excess() {
	awk -v b="$1" '
	function done_() { if (n >= 8 && last > b) s = 1e9; if (s > m) m = s; inb = 0 }
	/"tx_stalls_s": *\[/ { inb = 1; s = 0; n = 0; last = 0
		if ($0 ~ /\]/) done_()
		next }
	inb && /\]/ { done_(); next }
	inb { v = $1; gsub(/,/, "", v); v += 0; n++; last = v; if (v > b) s += v - b }
	END { printf "%.6f\n", m + 0 }' "$2"
}

# remeasure [--bucket B] T FILE FUNC [ARGS...]: run FUNC ARGS, a
# measurement and its checks that writes its result document to FILE, in a
# subshell.  If it fails and the module reported in FILE its generator
# more than T seconds late (the largest tx_late_max_s of any trial), it is
# measured again, at most 5 runs in all, and each repeat says why.  T is
# what the test's DUT model absorbs: a TCG guest held up that long by the
# host has its shapers lose service too, which no model of the DUT can
# predict.  With --bucket B (the time the DUT's token bucket keeps, T - B
# its queue's), stalls add up too: a DUT held up with the generator (one
# guest) loses each stall's service beyond B while its queue holds frames,
# and below C wins it back only at C - r, so a failure is also measured
# again when one trial's stalls beyond B add up to more than T - B
# (stall_excess; rfc2544/traffic, session 23).  With --span S (a burst's
# longest span the model holds, first to last departure), a failure is also
# measured again when a trial's burst took longer: a burst has no
# per-frame schedule, so a generator held up inside it is late by no
# module count, only by its span (rfc7640/burst-hunt).  This is the
# only retry the lab allows: a failure without such a report,
# or the fifth run's, is the test's failure.  (With both host cores
# compiling beside the lab, rfc8239/holb saw three runs in a row stalled 0.27,
# 0.40 and 0.66 s: three runs were not enough there.)  With --excuse F, a
# failure is also measured again when the run wrote a reason into F: a
# check that can tell from the result itself that the tester, not the DUT,
# explains its miss (rfc8239/buffer-more: a Buf_q read high by no more
# than its trial's generator stall, which delays the receive stamps too).
remeasure() {
	rm_b= rm_s= rm_e=
	[ "$1" != --bucket ] || { rm_b=$2; shift 2; }
	[ "$1" != --span ] || { rm_s=$2; shift 2; }
	[ "$1" != --excuse ] || { rm_e=$2; shift 2; }
	rm_t=$1 rm_file=$2 rm_k=1
	shift 2
	while :; do
		rm -f "$rm_file" ${rm_e:+"$rm_e"}
		( "$@" ) > /tmp/remeasure.out 2>&1
		rm_rc=$?
		rm_late=$(jvals tx_late_max_s "$rm_file" 2>/dev/null | sort -g | tail -n1)
		rm_why="its generator ${rm_late} s late (> $rm_t s"
		if ! awk -v l="${rm_late:-0}" -v t="$rm_t" 'BEGIN { exit !(l > t) }'; then
			rm_why=
			if [ -n "$rm_b" ] && [ -s "$rm_file" ]; then
				rm_x=$(stall_excess "$rm_b" "$rm_file")
				! awk -v x="$rm_x" -v t="$rm_t" -v b="$rm_b" 'BEGIN { exit !(x > t - b) }' ||
					rm_why="its generator's stalls beyond $rm_b s adding up to $rm_x s in one trial (> $rm_t - $rm_b s"
			fi
			if [ -z "$rm_why" ] && [ -n "$rm_s" ] && [ -s "$rm_file" ]; then
				rm_x=$(jvals actual_duration_s "$rm_file" | sort -g | tail -n1)
				! awk -v x="${rm_x:-0}" -v s="$rm_s" 'BEGIN { exit !(x > s) }' ||
					rm_why="a burst that took $rm_x s (> $rm_s s"
			fi
		fi
		if [ -z "$rm_why" ] && [ -n "$rm_e" ] && [ -s "$rm_e" ]; then
			rm_why="$(head -n1 "$rm_e") (the tester's stall"
		fi
		if [ $rm_rc -eq 0 ] || [ $rm_k -ge 5 ] || [ -z "$rm_why" ]; then
			cat /tmp/remeasure.out
			[ $rm_rc -eq 0 ] || exit $rm_rc
			return 0
		fi
		sed 's/^FAIL: /note: attempt failed: /' /tmp/remeasure.out
		note "re-measure $1: attempt $rm_k failed and the module reports $rm_why, what the DUT model absorbs)"
		rm_k=$((rm_k + 1))
	done
}

# tbf_stall_excuse FILE C T: a reason, one line, when every trial of the
# result FILE that lost frames where a tbf DUT of rate C fps that absorbs
# T seconds of the line (bucket and queue) loses none, at L <= C + T C/d,
# lost them behind the generator's stalls: the trial's largest stalls
# (tx_stalls_s, the module's 8 largest) and its own excess over C,
# (L - C) d / C, add up to more than T.  Nothing when no such trial lost
# a frame or one lost frames without that; for remeasure --excuse.  One
# guest stalls the tbf with the generator, and near C the queue drains
# too slowly between stalls to keep them apart (rfc2544/traffic).
tbf_stall_excuse() {
	awk -v c="$2" -v t="$3" '
	function num(s) { sub(/^[^:]*: */, "", s); sub(/,$/, "", s); return s + 0 }
	function judge(x) {
		if (l <= 0 || r > c + t * c / d) return
		n++
		x = (r > c ? (r - c) * d / c : 0)
		if (st + x > t) {
			if (why == "") why = sprintf("a trial at %.2f fps (%+.2f %% of C) lost %d behind stalls of %.1f ms and %.1f ms of excess (> %.1f ms)", r, (r / c - 1) * 100, l, st * 1000, x * 1000, t * 1000)
		} else
			bad++
	}
	/^  "trials": \[/ { on = 1; next }
	on && /^  \]/ { on = 0 }
	!on { next }
	/^    \{/ { r = d = l = st = 0 }
	/^      "rate_fps":/ { r = num($0) }
	/^      "duration_s":/ { d = num($0) }
	/^      "lost":/ { l = num($0) }
	/^      "tx_stalls_s": \[/ { ins = 1; if ($0 ~ /\]/) { ins = 0; judge() }; next }
	ins && /\]/ { ins = 0; judge(); next }
	ins { st += num("x: " $1) }
	END { if (n > 0 && bad == 0) print why }' "$1"
}

# bm_job NAME ARGS...: `bmctl run ARGS...` through bmd, waiting for the
# end; its output goes to the console and /tmp/NAME.out, and $job is the
# job's id.  Any failure fails the test, with bmd's log.
bm_job() {
	name=$1
	shift
	$BMCTL run "$@" > /tmp/$name.out 2>&1
	rc=$?
	cat /tmp/$name.out
	[ $rc -eq 0 ] || { cat /tmp/bmd.log; fail "bmctl run $1 $2"; }
	job=$(sed -n 's/^job \([0-9]*\) submitted.*/\1/p' /tmp/$name.out | head -n1)
	[ -n "$job" ] || fail "bmctl run $1 $2: no job id"
}

# Open vSwitch as the DUT (tests/lab/ovs/): its daemons run in namespace
# dut, where the kernel datapath then lives, with their database, sockets,
# pid files and logs under /tmp/ovs (OVS_RUNDIR and friends).
OVS_DIR=/tmp/ovs
OVS_DB_PID= OVS_SW_PID=
# ovs_start: the openvswitch datapath module (loaded here, not at boot,
# with what it needs: lib/modules/ovs-order), a fresh database, ovsdb-server
# and ovs-vswitchd in namespace dut, stopped when the test ends.
ovs_start() {
	[ -x /usr/sbin/ovs-vswitchd ] || fail "no Open vSwitch in the guest (tools/install-deps)"
	for m in $(cat /lib/modules/ovs-order); do
		grep -q "^${m%.ko} " /proc/modules ||
			insmod /lib/modules/$m || fail "insmod $m"
	done
	export OVS_RUNDIR=$OVS_DIR OVS_DBDIR=$OVS_DIR OVS_LOGDIR=$OVS_DIR \
		OVS_SYSCONFDIR=$OVS_DIR OVS_PKGDATADIR=/usr/share/openvswitch
	rm -rf $OVS_DIR
	mkdir -p $OVS_DIR
	# OVS's resolver warns on every tool's start without one
	[ -e /etc/resolv.conf ] || : > /etc/resolv.conf
	ovsdb-tool create $OVS_DIR/conf.db /usr/share/openvswitch/vswitch.ovsschema ||
		fail "ovsdb-tool create"
	$IP netns exec dut ovsdb-server $OVS_DIR/conf.db \
		--remote=punix:$OVS_DIR/db.sock --pidfile=$OVS_DIR/ovsdb-server.pid \
		--log-file=$OVS_DIR/ovsdb-server.log > /dev/null 2>&1 &
	OVS_DB_PID=$!
	trap ovs_stop EXIT
	i=0
	until [ -S $OVS_DIR/db.sock ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || { cat $OVS_DIR/ovsdb-server.log; fail "ovsdb-server did not come up"; }
		sleep 0.1
	done
	ovs-vsctl --no-wait init || fail "ovs-vsctl init"
	# started in a guest up less than about 10 s, ovs-vswitchd sized
	# its upcall handlers to 0 and the datapath lost every flow miss
	# (ovs_ready; lab.md, "Open vSwitch as the DUT"), as if its CPU
	# count, refreshed every 10 s of its monotonic clock, were still 0
	while [ "$(cut -d. -f1 /proc/uptime)" -lt 11 ]; do
		sleep 0.5
	done
	ovs_vswitchd_start
	note "$(ovs-vswitchd --version | head -n1) up in namespace dut"
}

# ovs_vswitchd_start: ovs-vswitchd in namespace dut, its log afresh
ovs_vswitchd_start() {
	: > $OVS_DIR/ovs-vswitchd.log
	$IP netns exec dut ovs-vswitchd unix:$OVS_DIR/db.sock \
		--pidfile=$OVS_DIR/ovs-vswitchd.pid \
		--log-file=$OVS_DIR/ovs-vswitchd.log > /dev/null 2>&1 &
	OVS_SW_PID=$!
	i=0
	until ovs-appctl -t ovs-vswitchd version > /dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 300 ] || { cat $OVS_DIR/ovs-vswitchd.log; fail "ovs-vswitchd did not come up"; }
		sleep 0.1
	done
}

# ovs_ready: wait (20 s at most) until a flow miss from tester port t1
# reaches ovs-vswitchd: one bmgen frame to t2 (bmgen.ko loaded) while
# the datapath's "lost" count stays and its "missed" grows.  An
# ovs-vswitchd that made its datapath with no upcall handler ("Overriding
# n-handler-threads to 0": started in a guest up under 10 s, ovs_start)
# leaves its per-CPU upcall dispatch without a socket, and the datapath
# drops every flow miss as lost (ovs_dp_upcall's -ENOTCONN, seen with a
# kretprobe).
ovs_ready() {
	i=0
	while :; do
		set -- 0 $($IP netns exec dut ovs-dpctl show |
			sed -n 's/.*missed:\([0-9]*\) lost:\([0-9]*\).*/\1 \2/p')
		$BMT --tx t1 --rx t2 --size 64 --rate 1000 --count 1 --drain 0.1 > /dev/null 2>&1
		set -- "$1" "$2" "$3" $($IP netns exec dut ovs-dpctl show |
			sed -n 's/.*missed:\([0-9]*\) lost:\([0-9]*\).*/\1 \2/p')
		[ "$5" = "$3" ] && [ "$4" -gt "$2" ] && break
		i=$((i + 1))
		[ $i -lt 20 ] || fail "ovs-vswitchd took no flow miss in 20 s (missed $2 -> $4, lost $3 -> $5)"
		sleep 0.8
	done
	note "a flow miss reaches ovs-vswitchd (after $i failed probes)"
}

# ovs_stop: stop what ovs_start started (and bmd, if any), remove the
# datapath and the module, so that the next test's guest has none.
# bmd_start's trap replaces ovs_start's: start bmd with ovs_bmd_start.
ovs_stop() {
	bmd_stop
	[ -n "$OVS_SW_PID" ] || [ -n "$OVS_DB_PID" ] || return 0
	# exit --cleanup: ovs-vswitchd deletes its datapath and the ports'
	# tc policers on its way out (a SIGTERM leaves them)
	ovs-appctl -t ovs-vswitchd exit --cleanup > /dev/null 2>&1 ||
		kill "$OVS_SW_PID" 2>/dev/null
	wait "$OVS_SW_PID" 2>/dev/null
	kill "$OVS_DB_PID" 2>/dev/null
	wait "$OVS_DB_PID" 2>/dev/null
	OVS_SW_PID= OVS_DB_PID=
	grep -q "ERR\|EMER" $OVS_DIR/ovs-vswitchd.log &&
		sed -n '/ERR\|EMER/p' $OVS_DIR/ovs-vswitchd.log | head -n5 | sed 's/^/note: ovs-vswitchd: /'
	rmmod openvswitch 2>/dev/null || note "rmmod openvswitch failed"
	return 0
}

# topo_ovs [NPORTS]: tester ports t1..tN, each cabled (veth) to dI in
# namespace dut, where Open vSwitch's bridge br0 (fail mode secure: no
# flow but the test's) holds d1..dN; the test adds its flows
# (ovs_cross).  br0's own port stays down: it sends nothing.
topo_ovs() {
	$IP netns add dut || fail "netns add dut"
	ovs_start
	ovs-vsctl add-br br0 -- set bridge br0 fail-mode=secure \
		other-config:disable-in-band=true || fail "add-br br0"
	i=1
	while [ $i -le "${1:-2}" ]; do
		veth_port t$i d$i
		ovs-vsctl add-port br0 d$i || fail "add-port d$i"
		i=$((i + 1))
	done
	ovs-ofctl del-flows br0 || fail "del-flows"
	ovs_ready
}

# ovs_cross A B: OpenFlow flows on br0 that cross ports A and B both ways
ovs_cross() {
	ovs-ofctl add-flow br0 "in_port=$1,actions=output:$2" || fail "flow $1 -> $2"
	ovs-ofctl add-flow br0 "in_port=$2,actions=output:$1" || fail "flow $2 -> $1"
}

# ovs_police DEV RATE_KBPS BURST_KB: Open vSwitch's ingress policing on
# DEV.  OVS 3.1 (netdev-linux) puts a tc matchall filter with a police
# action on DEV's ingress qdisc (a basic filter where matchall is missing):
# rate RATE x 1000 bit/s, burst BURST x 1024 / 8 bytes (its source says
# so: a kilobit of 1024 bits there; tc shows 300 kb as 38400b), less what
# its conversion to clock ticks truncates (under one byte: 347 kb showed
# 44415b), charged per frame skb->len at ingress, F - 18 bytes.  OVS's own
# interface statistics do not count the policer's drops (rx_dropped stays
# 0): d1's rx_packets counts every frame, d2's tx_packets what passed.
ovs_police() {
	ovs-vsctl set interface "$1" ingress_policing_rate="$2" \
		ingress_policing_burst="$3" || fail "ingress policing $1"
	i=0
	until $TC -n dut filter show dev "$1" ingress | grep -q police; do
		i=$((i + 1))
		[ $i -lt 50 ] || fail "no police filter on $1 after 5 s"
		sleep 0.1
	done
}

# ovs_htb_queue DEV KBIT: Open vSwitch QoS linux-htb on DEV (the QoS's
# max-rate 10 Mbit/s) with queue 1 of min-rate = max-rate KBIT kbit/s, the
# one a flow's set_queue:1 reaches; returns once tc shows the queue's
# class 1:2 (5 s at most), printed.  htb charges skb->len = F - 4 at
# egress.
ovs_htb_queue() {
	ovs-vsctl set port "$1" qos=@q -- --id=@q create qos type=linux-htb \
		other-config:max-rate=10000000 queues:1=@q1 -- --id=@q1 create queue \
		other-config:min-rate=${2}000 other-config:max-rate=${2}000 > /dev/null ||
		fail "QoS on $1"
	i=0
	until $TC -n dut class show dev "$1" | grep -q 'htb 1:2 '; do
		i=$((i + 1))
		[ $i -lt 50 ] || { $TC -n dut class show dev "$1"; fail "no htb class 1:2 on $1 after 5 s"; }
		sleep 0.1
	done
	$TC -n dut -d class show dev "$1" | sed "s/^/note: $1: /"
}

# ovs_police_drops DEV: what DEV's ingress policer dropped, by its
# ingress qdisc's count (the police's TC_ACT_SHOT is counted there)
ovs_police_drops() {
	$TC -n dut -s qdisc show dev "$1" ingress |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1
}

# ovs_dp_lost: the kernel datapath's "lost" lookups (packets whose upcall
# to ovs-vswitchd found its queue full and were dropped)
ovs_dp_lost() {
	$IP netns exec dut ovs-dpctl show | sed -n 's/.*lost:\([0-9]*\).*/\1/p' | head -n1
}

# ovs_bmd_start [BMD ARGS]: bmd_start, and both bmd and Open vSwitch
# stopped when the test ends
ovs_bmd_start() {
	bmd_start "$@"
	trap ovs_stop EXIT
}

# ovs_job NAME ARGS...: bm_job with the Open vSwitch DUT described as RFC
# 2544 §7 asks: its version, and its configuration now (the database,
# br0's OpenFlow flows, the ports' tc ingress) in /tmp/ovs-dut.txt
ovs_job() {
	n=$1
	shift
	{
		ovs-vsctl show
		ovs-vsctl list interface
		ovs-ofctl dump-flows br0
		$TC -n dut filter show ingress dev d1
	} > /tmp/ovs-dut.txt 2>&1
	bm_job "$n" "$@" --dut-name "Open vSwitch bridge br0 (kernel datapath)" \
		--dut-version "$(ovs-vswitchd --version | head -n1), Linux $(uname -r)" \
		--dut-config /tmp/ovs-dut.txt --dut-pathway n/a \
		--dut-path "the tester's veth ports, each paired with a port of Open vSwitch's br0 in network namespace dut; no other device"
}

# ovs_port_pkts PORT rx|tx: the packets OpenFlow's port statistics
# (ovs-ofctl dump-ports) count on br0's PORT
ovs_port_pkts() {
	ovs-ofctl dump-ports br0 "$1" | tr -d ',' | awk -v d="$2" '
		$1 == "port" { k = "rx" } $1 == "tx" { k = "tx" }
		k == d { for (i = 1; i <= NF; i++) if ($i ~ /^pkts=/) { print substr($i, 6); exit } }'
}
