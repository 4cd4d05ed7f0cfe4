# The XDP transmit path (BMGEN_TXP_XDP) on a NIC driver: QEMU 10's 82576
# (igb) eth0 -> hub -> eth1.  igb's ndo_xdp_xmit takes frames only while
# an XDP program is attached to the port (it sets up its XDP tx rings
# then), and returns each page with xdp_return_frame() from its tx
# completion, as on a real 82576.
#
# Model.  The hub is a wire: no queue, no loss; at 2000 fps the guest
# keeps up (hw/tx-recycle).  Truth:
#   - without a program, eth0 allows alloc,recycle, and xdp asked for
#     falls back to recycle (the next cheaper path), and says so;
#   - with an XDP_PASS program on eth0 (xdp-attach; igb resets the port,
#     so the test waits for carrier), eth0 allows alloc,recycle,xdp; auto
#     keeps recycle (it never takes XDP, dataplane/tx-xdp says why), xdp asked
#     for gets xdp; every trial is exact: tx_frames = N = rx_unique, 0
#     lost, 0 duplicated, 0 reordered, 0 bad lengths, a latency for every
#     frame, the largest below 100 ms, for IMIX sizes with 4 UDP flows
#     and for IPv6;
#   - hardware tx stamps (--hwts) with xdp asked for get alloc (an XDP
#     frame carries no stamp request, nor does a recycled skb);
#   - a ring of 8 pages with bursts of 32 (one batch each): >= 24 misses
#     a burst, every sequence number once: the driver holds a page until
#     its completion, and a page in a batch is never handed out again;
#   - the program detached, xdp is gone from the port's paths.
bm_load
nic_up eth0 eth1

N=4000
RATE=2000

# 1. no program: no XDP tx ring
$BMT dev eth0 > /tmp/dev.eth0 || fail "dev eth0"
check_eq "igb without XDP program: paths" "$(kv tx_paths /tmp/dev.eth0)" alloc,recycle
$BMT --tx eth0 --rx eth1 --size 64 --rate $RATE --count $N --tx-path xdp > /tmp/noprog ||
	fail "igb trial without program"
check_tx_exact "xdp asked, no program" /tmp/noprog recycle $N

# 2. XDP_PASS on eth0: XDP frames, IMIX and flows
xdp-attach eth0 pass || fail "xdp-attach eth0 pass"
nic_carrier eth0 eth1
$BMT dev eth0 > /tmp/dev.eth0 || fail "dev eth0"
check_eq "igb with XDP program: paths" "$(kv tx_paths /tmp/dev.eth0)" alloc,recycle,xdp
$BMT --tx eth0 --rx eth1 --imix 64,1518,594 --flows 4 --rate $RATE --count $N \
	--tx-path xdp > /tmp/xdp || fail "igb xdp trial"
check_tx_exact "igb xdp" /tmp/xdp xdp $N
$BMT port eth0 > /tmp/port.eth0 || fail "port eth0"
check_eq "igb: paths the attached port allows" "$(kv tx_paths /tmp/port.eth0)" alloc,recycle,xdp

# 3. IPv6
$BMT --tx eth0 --rx eth1 --size 128 --ipv6 --rate $RATE --count $N --tx-path xdp > /tmp/xdp6 ||
	fail "igb xdp IPv6 trial"
check_tx_exact "igb IPv6" /tmp/xdp6 xdp $N

# 4. auto; hardware stamps
$BMT --tx eth0 --rx eth1 --size 64 --rate $RATE --count $N > /tmp/rec ||
	fail "igb auto trial"
check_tx_exact "igb auto" /tmp/rec recycle $N
$BMT --tx eth0 --rx eth1 --size 128 --rate 200 --count 400 --hwts --tx-path xdp > /tmp/hw ||
	fail "igb hwts trial"
check_eq "igb hwts: tx_path" "$(kv tx_path /tmp/hw)" alloc
check_eq "igb hwts: lost" "$(kv lost /tmp/hw)" 0

# 5. a ring smaller than a batch
rmmod bmgen || fail "rmmod bmgen"
insmod /lib/modules/bmgen.ko tx_ring=8 || fail "insmod bmgen tx_ring=8"
$BMT --tx eth0 --rx eth1 --imix 64,1518,594 --flows 4 --burst 32 --gap 5000000 \
	--bursts $((N / 32)) --tx-path xdp > /tmp/small || fail "igb small ring trial"
N=$((N / 32 * 32))
check_tx_exact "igb ring of 8" /tmp/small xdp $N
check_eq "igb ring of 8: largest batch" "$(kv tx_max_batch /tmp/small)" 32
check_range "igb ring of 8: misses" "$(kv tx_ring_misses /tmp/small)" $((N / 32 * 24)) $N
rmmod bmgen || fail "rmmod bmgen"
bm_load

# 6. detached
xdp-attach eth0 off || fail "xdp-attach eth0 off"
nic_carrier eth0 eth1
$BMT dev eth0 > /tmp/dev.eth0 || fail "dev eth0"
check_eq "igb, program detached: paths" "$(kv tx_paths /tmp/dev.eth0)" alloc,recycle
echo "ok: XDP transmit path on igb"
