# No leaks.  The Debian guest kernel has no kmemleak, so
# this counts slab objects (SLUB's active objects, /proc/slabinfo) around
# 10 load / trial / unload cycles with 8 streams and 20000 frames each:
# a stream's duplicate window is one kmalloc-8k object and every frame an
# skbuff_head_cache object, so a leak of either per stream or per frame
# (80 streams, 200000 frames) stands far above the idle guest's noise.
# Window: <= 8 kmalloc-8k objects and <= 200 sk_buffs of growth (the
# guest's own churn between two readings; measured 0 and 0); a leak of
# one object per stream or per frame is 80 or 200000.
topo_bridge 2
slab() {	# CACHE: active objects
	awk -v c="$1" '$1 == c { print $2 }' /proc/slabinfo
}
cycle() {
	bm_load
	$BMT --tx t1 --rx t2 --size 64 --rate 20000 --count 2500 --streams 8 \
		--drain 0.2 > /tmp/leak || fail "trial"
	rmmod bmgen || fail "rmmod"
}
cycle	# warm the caches once
sleep 1
k0=$(slab kmalloc-8k); s0=$(slab skbuff_head_cache)
i=0
while [ $i -lt 10 ]; do
	cycle
	i=$((i + 1))
done
sleep 1
k1=$(slab kmalloc-8k); s1=$(slab skbuff_head_cache)
note "kmalloc-8k $k0 -> $k1, skbuff_head_cache $s0 -> $s1"
# the bounds: a tenth of one leaked object per stream / per 100 frames
check_range "kmalloc-8k growth" $((k1 - k0)) -1000 8
check_range "skbuff_head_cache growth" $((s1 - s0)) -100000 200
