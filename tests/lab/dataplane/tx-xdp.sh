# The XDP transmit path (BMGEN_TXP_XDP) on veth: frames in a ring of pages
# handed to the driver's ndo_xdp_xmit, no skb built by the sender.
#
# Model.  x0 -> x1 is a veth pair, no DUT: nothing drops a frame while the
# guest keeps up (2000 fps here; the lab carries some 70 kfps on one CPU,
# dataplane/rate).  veth takes XDP frames only while its peer has NAPI, i.e.
# GRO or an XDP program on x1; the peer then builds its skb around the
# sender's page, so the frame reaches bmgen's rx_handler on x1 as any
# other.  Truth:
#   - without GRO on x1, x0 allows alloc only; xdp asked for falls back to
#     alloc and the record says so;
#   - with GRO on x1, x0 allows alloc,xdp (DEV_GET and PORT_GET); auto
#     still picks alloc (XDP frames are received in x1's NAPI, which a
#     busy sender leaves to ksoftirqd: milliseconds of latency), xdp is
#     used when asked for, and every trial is exact: tx_frames = N = rx_unique, 0
#     lost, 0 duplicated, 0 reordered, 0 bad lengths, a latency for every
#     frame, the largest below 100 ms (no queue; a TCG timer tick at
#     worst), for IMIX sizes with 4 UDP flows and for IPv6 (the UDP
#     checksum computed for every frame);
#   - a receiver in this kernel may rewrite a frame in place (a router's
#     TTL, a NAT): here tc on x1's ingress sets every frame's TTL to 1 and
#     a filter before it drops frames that arrive with TTL 1.  The page
#     goes back to the sender's ring with TTL 1 in it; a sender that did
#     not write the headers again would send TTL 1 from the second frame
#     on and lose nearly all of them.  Truth: 0 lost, the rewrite counted
#     N times; and, the filter's positive control, the same TTL set on
#     x0's egress (alloc, through the qdisc) loses all N;
#   - a ring of 8 pages (tx_ring=8) with bursts of 32, one batch each: the
#     batch holds its pages until the driver has them, so at least 24 of
#     each burst's frames need a new page (tx_ring_misses >= 24 a burst),
#     and still every sequence number arrives once;
#   - an XDP_DROP program on x1 (the benchmark's sink): xdp, tx_frames N,
#     nothing reaches the stack (rx 0).
bm_load
$IP link add x0 type veth peer name x1 || fail "veth"
ns_quiet x0
ns_quiet x1
$IP link set x0 up
$IP link set x1 up
ethtool -K x1 gro off > /dev/null 2>&1

N=4000
RATE=2000

# 1. no NAPI on the peer: no XDP, the fallback says so
$BMT dev x0 > /tmp/dev.x0 || fail "dev x0"
check_eq "veth, peer without GRO: paths" "$(kv tx_paths /tmp/dev.x0)" alloc
$BMT --tx x0 --rx x1 --size 64 --rate $RATE --count $N --tx-path xdp > /tmp/nonapi ||
	fail "veth trial without NAPI"
check_tx_exact "xdp asked, peer without NAPI" /tmp/nonapi alloc $N

# 2. GRO on the peer: XDP frames, IMIX and flows
ethtool -K x1 gro on || fail "gro on x1"
$BMT dev x0 > /tmp/dev.x0 || fail "dev x0"
check_eq "veth, peer with GRO: paths" "$(kv tx_paths /tmp/dev.x0)" alloc,xdp
$BMT --tx x0 --rx x1 --imix 64,1518,594 --flows 4 --rate $RATE --count $N > /tmp/auto ||
	fail "veth auto trial"
check_tx_exact "veth auto" /tmp/auto alloc $N
$BMT --tx x0 --rx x1 --imix 64,1518,594 --flows 4 --rate $RATE --count $N \
	--tx-path xdp > /tmp/xdp || fail "veth xdp trial"
check_tx_exact "veth xdp" /tmp/xdp xdp $N
$BMT port x0 > /tmp/port.x0 || fail "port x0"
check_eq "veth: paths the attached port allows" "$(kv tx_paths /tmp/port.x0)" alloc,xdp

# 3. IPv6
$BMT --tx x0 --rx x1 --size 128 --ipv6 --rate $RATE --count $N --tx-path xdp > /tmp/xdp6 ||
	fail "veth xdp IPv6 trial"
check_tx_exact "veth IPv6" /tmp/xdp6 xdp $N

# 4. a receiver that rewrites the frame in its page
$TC qdisc add dev x1 clsact || fail "clsact x1"
$TC filter add dev x1 ingress prio 1 protocol ip u32 match u8 1 0xff at 8 \
	action drop || fail "ttl 1 drop filter"
$TC filter add dev x1 ingress prio 2 protocol ip matchall \
	action pedit ex munge ip ttl set 1 pipe action csum ip || fail "pedit ttl"
$BMT --tx x0 --rx x1 --size 64 --rate $RATE --count $N --tx-path xdp > /tmp/rw ||
	fail "veth xdp trial through pedit"
check_tx_exact "veth, TTL rewritten by the receiver" /tmp/rw xdp $N
pedited=$($TC -s filter show dev x1 ingress prio 2 |
	awk '/pedit/ { p = 1 } p && /Sent/ { print $4; exit }')
check_eq "pedit rewrote every frame" "$pedited" $N
$TC qdisc add dev x0 clsact || fail "clsact x0"
$TC filter add dev x0 egress prio 1 protocol ip matchall \
	action pedit ex munge ip ttl set 1 pipe action csum ip || fail "pedit ttl x0"
$BMT --tx x0 --rx x1 --size 64 --rate $RATE --count $N --qdisc > /tmp/ctl ||
	fail "control trial"
check_eq "control: tx_path (qdisc)" "$(kv tx_path /tmp/ctl)" alloc
check_eq "control: TTL 1 frames all dropped" "$(kv lost /tmp/ctl)" $N
$TC qdisc del dev x0 clsact
$TC qdisc del dev x1 clsact

# 5. a ring smaller than a batch: misses, still exact
rmmod bmgen || fail "rmmod bmgen"
insmod /lib/modules/bmgen.ko tx_ring=8 || fail "insmod bmgen tx_ring=8"
$BMT --tx x0 --rx x1 --imix 64,1518,594 --flows 4 --burst 32 --gap 5000000 \
	--bursts $((N / 32)) --tx-path xdp > /tmp/small || fail "veth small ring trial"
N0=$N
N=$((N / 32 * 32))
check_tx_exact "veth ring of 8" /tmp/small xdp $N
check_eq "veth ring of 8: largest batch" "$(kv tx_max_batch /tmp/small)" 32
check_range "veth ring of 8: misses" "$(kv tx_ring_misses /tmp/small)" $((N / 32 * 24)) $N
N=$N0
rmmod bmgen || fail "rmmod bmgen"
bm_load

# 6. the benchmark's sink: an XDP_DROP program on the peer
ethtool -K x1 gro off > /dev/null 2>&1
xdp-attach x1 drop || fail "xdp-attach x1 drop"
$BMT dev x0 > /tmp/dev.x0 || fail "dev x0"
check_eq "veth, peer with XDP_DROP: paths" "$(kv tx_paths /tmp/dev.x0)" alloc,xdp
$BMT --tx x0 --rx x1 --size 64 --count $N --tx-path xdp > /tmp/drop ||
	fail "veth xdp drop trial"
check_eq "XDP_DROP sink: tx_path" "$(kv tx_path /tmp/drop)" xdp
check_eq "XDP_DROP sink: tx_frames" "$(kv tx_frames /tmp/drop)" $N
check_eq "XDP_DROP sink: nothing reached the stack" "$(kv rx_frames /tmp/drop)" 0
xdp-attach x1 off || fail "xdp-attach x1 off"
$IP link del x0
echo "ok: XDP transmit path"
