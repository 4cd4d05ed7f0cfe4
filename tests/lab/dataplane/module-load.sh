# bmgen.ko loads, starts one tx kthread per online CPU, unloads cleanly and
# loads again (the walking skeleton, at the module level).
# Truth: the guest's online CPUs (nproc), one bmgen/N kthread each,
# before and after the reload; exact, no timing.
bm_load
cpus=$(nproc)
kt=$(ps | grep -c '\[bmgen/[0-9]*\]')
check_eq "tx kthreads" "$kt" "$cpus"
dmesg | grep -q "bmgen 0.1.0 loaded, $cpus tx kthreads" || fail "no load message"
rmmod bmgen || fail "rmmod"
[ "$(ps | grep -c '\[bmgen/[0-9]*\]')" = 0 ] || fail "kthreads left after rmmod"
bm_load
check_eq "tx kthreads after reload" "$(ps | grep -c '\[bmgen/[0-9]*\]')" "$cpus"
