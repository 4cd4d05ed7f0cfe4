# The second guest of tools/lab-run --pair: tester host "lab2" of the
# first guest's pool (tests/lab/pair/).  Its two NICs are QEMU dgram
# cables to the first guest: the data port t2 (MAC ...:bb:00:01) to that
# guest's DUT, and ctl0 (...:bb:00:02) the hosts' own network, 10.99.0.2,
# where ptp4l follows the first guest's clock (software stamps, -S, on an
# e1000, which has no PHC: tools/lab-run says why) and busybox nc hands
# each connection on port 7000 to `bmctl bridge`: the stand-in for sshd,
# which would run the same command for a key restricted to it.  Runs
# until the first guest's runner stops this one.
pair_nic 52:54:00:bb:00:01 t2
pair_nic 52:54:00:bb:00:02 ctl0
$IP link set t2 up
$IP link set ctl0 up
$IP addr add 10.99.0.2/24 dev ctl0
insmod /lib/modules/bmgen.ko || echo "LABWARN insmod bmgen failed"
mkdir -p /run/bmd /tmp/results
bmd -f -s $BMD_SOCK -r /tmp/results > /tmp/bmd.log 2>&1 &
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
# the first guest's runner ends this guest; ptp4l's account on the console
ptp4l -S -4 -i ctl0 -f /etc/ptp4l.conf -m 2>&1 | sed 's/^/LABPEER /'
