# The second guest of tools/lab-run --pair: tester host "lab2" of the
# first guest's pool (tests/lab/pair/).  Its two NICs are QEMU dgram
# cables to the first guest: the data port t2 (MAC ...:bb:00:01) to that
# guest's DUT, and ctl0 (...:bb:00:02) the hosts' own network, 10.99.0.2,
# where ptp4l follows the first guest's clock (software stamps, -S, on an
# e1000, which has no PHC: tools/lab-run says why) and busybox nc hands
# each connection on port 7000 to `bmctl bridge`: the stand-in for sshd,
# which would run the same command for a key restricted to it.  The
# third cable is an igb (...:bb:00:03, QEMU's 82576 with a PHC) named h2,
# up with no address, straight to the first guest's h1: one-way latency
# by NIC hardware stamps, h1's tx stamp against h2's rx stamp.  QEMU's
# igb stamps one received frame per device reset (tests/lab/hw/
# timestamps.sh), so busybox nc on port 7001 resets h2 for each
# connection and then answers "h2 reset" (lib.sh lab2_reset_h2 asks it
# before each frame to be stamped), and one on port 7002 restarts ptp4l
# with the path asymmetry it is told (lib.sh lab2_asymmetry), and one on
# port 7003 runs phc2sys on h2's PHC and restarts bmd reading its log
# (lib.sh lab2_phc2sys).  Runs until the first guest's runner stops this
# one.
pair_nic 52:54:00:bb:00:01 t2
pair_nic 52:54:00:bb:00:02 ctl0
pair_nic 52:54:00:bb:00:03 h2
$IP link set t2 up
$IP link set ctl0 up
$IP link set h2 up
$IP addr add 10.99.0.2/24 dev ctl0
insmod /lib/modules/bmgen.ko || echo "LABWARN insmod bmgen failed"
mkdir -p /run/bmd /tmp/results
bmd -f -s $BMD_SOCK -r /tmp/results > /tmp/bmd.log 2>&1 &
echo $! > /tmp/bmd.pid
cat > /etc/ptp4l.conf <<'PTP'
[global]
slaveOnly 1
logSyncInterval -2
summary_interval 2
# a TCG guest's clock against its monotonic one is no frequency ptp4l's
# sanity check expects of a real oscillator
sanity_freq_limit 0
# the PI servo waits 16 s (0.016 / its software-stamp ki) for its first
# frequency estimate; linear regression locks within a second or two
clock_servo linreg
PTP
echo "LABPEER up: t2 $(cat /sys/class/net/t2/address), bmd, ptp4l slave"
busybox nc -ll -p 7000 -e bmctl bridge &
# what h2 offers, once: hardware stamp capabilities, its PHC, its modes
/usr/sbin/ethtool -T h2 | awk '
	/^Capabilities:/ { s = "c" }
	/^Hardware Transmit/ { s = "t" }
	/^Hardware Receive/ { s = "r" }
	/^PTP Hardware Clock:/ { phc = $4 }
	/^\t/ {
		if (s == "c" && $1 ~ /^hardware-/) c = c " " $1
		if (s == "t") t = t " " $1
		if (s == "r") r = r " " $1
	}
	END { print "LABPEER h2 stamps:" c "; PHC " phc "; tx" t "; rx filters" r }'
# a reset of h2 a connection: nic_reset (down, up, carrier within 10 s,
# or its FAIL line is the answer), then the one line the first guest
# waits for
cat > /tmp/h2-reset <<'RESET'
#!/bin/sh
. /tests/lib.sh
nic_reset h2
echo "LABPEER h2 reset at $(cut -d' ' -f1 /proc/uptime) s" >&2
echo "h2 reset"
RESET
chmod +x /tmp/h2-reset
busybox nc -ll -p 7001 -e /tmp/h2-reset &
# a path asymmetry ptp4l is told of, a connection on port 7002: the
# number of ns it reads (ptp4l's delayAsymmetry), then ptp4l restarted
# with it (the loop below), then "asymmetry NS" (lib.sh lab2_asymmetry)
cat > /tmp/ptp-asym <<'ASYM'
#!/bin/sh
read -r ns
case "$ns" in
''|*[!0-9-]*) echo "not a number of ns: '$ns'"; exit 0 ;;
esac
echo "$ns" > /tmp/ptp-asym.ns
killall ptp4l
echo "LABPEER ptp4l restarted, delayAsymmetry $ns ns" >&2
echo "asymmetry $ns"
ASYM
chmod +x /tmp/ptp-asym
echo 0 > /tmp/ptp-asym.ns
busybox nc -ll -p 7002 -e /tmp/ptp-asym &
# phc2sys, a connection on port 7003 (lib.sh lab2_phc2sys): "on NS" sets
# h2's PHC to the system clock less NS and starts phc2sys from it to
# CLOCK_REALTIME with the ntpshm servo (it reports, never steers: ptp4l
# keeps this clock), 4 reports a second into /tmp/phc2sys.log, and bmd
# restarted reading it (BMGEN_PHC2SYS_LOG); "stop" stops phc2sys alone
# (its log stays, silent); "off" stops it and restarts bmd without; "log"
# sends the log.  Each but "log" answers "phc2sys WORD".
cat > /tmp/phc2sys-ctl <<'PHC'
#!/bin/sh
read -r cmd ns
bmd_restart() {
	kill "$(cat /tmp/bmd.pid)"
	while [ -d /proc/"$(cat /tmp/bmd.pid)" ]; do sleep 0.1; done
	BMGEN_PHC2SYS_LOG=$1 setsid bmd -f -s /run/bmd/bmd.sock \
		-r /tmp/results >> /tmp/bmd.log 2>&1 < /dev/null &
	echo $! > /tmp/bmd.pid
}
case "$cmd" in
on)
	case "$ns" in ''|*[!0-9]*) echo "not a number of ns: '$ns'"; exit 0 ;; esac
	killall phc2sys 2> /dev/null
	# one run: set to CLOCK_REALTIME, then back NS ("--": a
	# negative number is no option)
	phc_ctl h2 -- set adj "-$(awk -v n="$ns" 'BEGIN { printf "%.9f", n / 1e9 }')" \
		> /dev/null || { echo "phc_ctl h2 failed"; exit 0; }
	setsid phc2sys -s h2 -c CLOCK_REALTIME -E ntpshm -O 0 -R 4 -m -q \
		> /tmp/phc2sys.log 2>&1 < /dev/null &
	bmd_restart /tmp/phc2sys.log
	echo "LABPEER phc2sys on: h2's PHC $ns ns behind" >&2 ;;
stop)
	killall phc2sys 2> /dev/null ;;
off)
	killall phc2sys 2> /dev/null
	bmd_restart "" ;;
log)
	cat /tmp/phc2sys.log; exit 0 ;;
*)
	echo "no such command: '$cmd'"; exit 0 ;;
esac
echo "phc2sys $cmd"
PHC
chmod +x /tmp/phc2sys-ctl
busybox nc -ll -p 7003 -e /tmp/phc2sys-ctl &
# the first guest's runner ends this guest; ptp4l's account on the console
while :; do
	ptp4l -S -4 -i ctl0 -f /etc/ptp4l.conf -m \
		--delayAsymmetry="$(cat /tmp/ptp-asym.ns)" 2>&1 |
		sed 's/^/LABPEER /'
	sleep 0.2
done
