# A kernel WARN as the console shows it, injected through /dev/kmsg: the
# runner must fail the test although the script itself succeeds.
echo "<4>------------[ cut here ]------------" > /dev/kmsg
echo "<4>WARNING: CPU: 0 PID: 1 at selftest/warn.sh:1 lab_selftest+0x0/0x10" > /dev/kmsg
