# make check-debug only (tools/check-debug): after every other test of the
# debug guest, kmemleak scans memory twice (an object must stay
# unreferenced over two scans to be reported) and every report whose
# backtrace names bmgen fails the test.  Reports of the kernel's own
# objects are counted and printed, not judged (not ours to fix).
KL=/sys/kernel/debug/kmemleak
# premises: the detectors this guest is for are on (the console shows
# only warnings; the kernel's log has the rest)
dmesg | grep -q 'KernelAddressSanitizer initialized' || fail "KASAN is not on"
dmesg | grep -q 'Lock dependency validator' || fail "lockdep is not on"
[ -e $KL ] || fail "no $KL: not the debug kernel (CONFIG_DEBUG_KMEMLEAK)"
grep -q '^bmgen ' /proc/modules && rmmod bmgen
echo scan > $KL || fail "kmemleak does not scan (disabled?)"
sleep 6
echo scan > $KL || fail "kmemleak does not scan"
cat $KL > /tmp/kmemleak
all=$(grep -c 'unreferenced object' /tmp/kmemleak)
ours=$(awk '/unreferenced object/ { if (o) n++; o = 0 } /bmgen/ { o = 1 } END { if (o) n++; print n + 0 }' /tmp/kmemleak)
note "kmemleak: $all suspected leaks in all, $ours with bmgen in the backtrace"
[ "$ours" -eq 0 ] || { cat /tmp/kmemleak; fail "kmemleak: $ours leaks of bmgen"; }
echo "ok: no leak of bmgen.ko (kmemleak)"
