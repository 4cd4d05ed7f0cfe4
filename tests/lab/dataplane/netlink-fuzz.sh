# Robustness: the netlink sequence fuzzer.  bmgen-nlfuzz sends
# 50,000 random and mutated generic netlink messages from 4 threads (any
# command number, do/dump/random flags, bad genl headers, 0-8 attributes
# of any type with boundary lengths and values, truncated headers,
# several messages in a datagram, dumps closed halfway, well-formed stream
# adds, deletes and dumps) while a fifth thread runs short trials over
# and over, so that most messages meet a trial armed or running.
#
# Truth: the module survives it: no WARN, oops or panic (the runner fails
# the boot on any), it still runs a trial of 1000 frames and counts all
# 1000 sent and received (the fuzzer's own final check), and it unloads.
# No leak: slab objects (SLUB's active objects, as dataplane/leaks) around the
# fuzzing, measured with the module unloaded both times after a warm-up
# run: a stream's duplicate window is one kmalloc-8k object, every frame
# an skbuff_head_cache object, so a leak per stream add (thousands) or
# per frame stands far above the guest's noise; all kmalloc caches
# together are bounded too (a leak per message would be 50,000).
# 50,000, not the 100,000 of before 2026-12: make check buys back its
# time (45 min on CI's 2 cores); tools/lab-rate and the debug guest run
# it over and over, and any seed with --messages N by hand.
NLF=/usr/sbin/bmgen-nlfuzz
topo_bridge 2
slab() {	# CACHE: active objects
	awk -v c="$1" '$1 == c { print $2 }' /proc/slabinfo
}
kmalloc_all() {
	awk '$1 ~ /^kmalloc-/ { s += $2 } END { print s + 0 }' /proc/slabinfo
}
fuzz() {	# OUT ARGS...
	out=$1
	shift
	$NLF --tx t1 --rx t2 "$@" > "$out" 2>&1
	rc=$?
	cat "$out"
	[ $rc -eq 0 ] || fail "bmgen-nlfuzz $*: rc=$rc"
}
bm_load
fuzz /tmp/nlf-warm --messages 2000 --threads 2 --seed 7
rmmod bmgen || fail "rmmod after the warm-up"
sleep 1
k0=$(slab kmalloc-8k); s0=$(slab skbuff_head_cache); a0=$(kmalloc_all)
bm_load
# the debug guest (KASAN, lockdep) ran 100,000 in 777 s, 30 times
# slower than the lab guest: a fifth there
MSGS=50000
[ -z "$DEBUG_KERNEL" ] || MSGS=20000
fuzz /tmp/nlf --messages $MSGS --threads 4 --seed 16
# the threads claim the budget without a lock: a few more may go out
check_range "messages sent" "$(sed -n 's/^messages \([0-9]*\) .*/\1/p' /tmp/nlf)" $MSGS $((MSGS + 100))
rmmod bmgen || fail "rmmod after the fuzzer"
sleep 1
k1=$(slab kmalloc-8k); s1=$(slab skbuff_head_cache); a1=$(kmalloc_all)
note "kmalloc-8k $k0 -> $k1, skbuff_head_cache $s0 -> $s1, all kmalloc $a0 -> $a1"
if [ -n "$DEBUG_KERNEL" ]; then
	note "debug kernel: KASAN's quarantine holds freed objects; kmemleak judges leaks (debug/kmemleak.sh)"
else
	check_range "kmalloc-8k growth" $((k1 - k0)) -100000 8
	check_range "skbuff_head_cache growth" $((s1 - s0)) -1000000 200
	check_range "all kmalloc caches' growth" $((a1 - a0)) -10000000 2000
fi
