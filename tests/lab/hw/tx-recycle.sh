# The recycling transmit path (BMGEN_TXP_RECYCLE) on a real driver's
# transmit path: QEMU 10's 82576 (igb) eth0 -> hub -> eth1, whose driver
# keeps each skb until its tx completion interrupt, as a NIC's does.
#
# Model.  The hub is a wire: no queue, no loss; at 2000 fps the receiving
# guest keeps up (two virtio/igb NICs on a hub carry ~60 kfps here), so
# every frame the driver accepted arrives once.  A frame of the ring is
# only filled again when the driver has let go of it, so every sequence
# number arrives exactly once and carries its own length and flow:
#   - tx_path = recycle on igb (the driver allows shared skbs, direct xmit,
#     no hardware stamps); alloc when asked for, and when the port stamps
#     in hardware (a stamped skb cannot go back to the ring);
#   - veth forbids shared skbs (it hands the skb to its peer): recycle is
#     asked for and the trial falls back to alloc, and says so;
#   - per trial: tx_frames = N, rx_unique = N, lost 0, duplicates 0,
#     reordered 0, bad lengths 0 (IMIX sizes, 4 UDP flows, IPv6: every
#     field a recycled skb must have rewritten), latency of every frame
#     below 100 ms (a wire; the guest's receive can lag by a timer tick
#     under TCG, never by 100 ms);
#   - a ring of 8 skbs (module parameter tx_ring=8) and bursts of 32
#     frames, which go to the driver as one batch: a batch holds its skbs
#     until the driver has them, so at least 24 of each burst's frames
#     need a new skb that replaces a held one (tx_ring_misses >= 24 per
#     burst), and still every sequence number arrives once.
bm_load
nic_up eth0 eth1
$IP link add v0 type veth peer name v1 || fail "veth"
ns_quiet v0
ns_quiet v1
$IP link set v0 up
$IP link set v1 up

N=4000
RATE=2000

exact() {	# NAME FILE PATH: the trial's exactness and the path it used
	check_eq "$1: tx_path" "$(kv tx_path "$2")" "$3"
	check_eq "$1: tx_frames" "$(kv tx_frames "$2")" $N
	check_eq "$1: rx_unique" "$(kv rx_unique "$2")" $N
	check_eq "$1: lost" "$(kv lost "$2")" 0
	check_eq "$1: duplicates" "$(kv rx_dup "$2")" 0
	check_eq "$1: reordered" "$(kv rx_reordered "$2")" 0
	check_eq "$1: bad lengths" "$(kv rx_bad_len "$2")" 0
	check_eq "$1: tx errors" "$(kv tx_errors "$2")" 0
	check_eq "$1: latency of every frame" "$(kv lat_count "$2")" $N
	check_range "$1: latency max (ns)" "$(kv lat_max_ns "$2")" 1 100000000
	note "$1: tx_path $(kv tx_path "$2"), latency mean $(kv lat_mean_ns "$2") ns, max $(kv lat_max_ns "$2") ns, ring misses $(kv tx_ring_misses "$2")"
}

# 1. igb, auto: recycled, IMIX and flows
$BMT --tx eth0 --rx eth1 --imix 64,1518,594 --flows 4 --rate $RATE --count $N > /tmp/rec ||
	fail "igb recycle trial"
exact "igb auto" /tmp/rec recycle
$BMT port eth0 > /tmp/port.eth0 || fail "port eth0"
check_eq "igb: paths the port allows" "$(kv tx_paths /tmp/port.eth0)" alloc,recycle

# 2. igb, IPv6 (the UDP checksum is computed again for every frame)
$BMT --tx eth0 --rx eth1 --size 128 --ipv6 --rate $RATE --count $N > /tmp/rec6 ||
	fail "igb recycle IPv6 trial"
exact "igb IPv6" /tmp/rec6 recycle

# 3. igb, the allocating path asked for
$BMT --tx eth0 --rx eth1 --imix 64,1518,594 --flows 4 --rate $RATE --count $N \
	--tx-path alloc > /tmp/alloc || fail "igb alloc trial"
exact "igb alloc" /tmp/alloc alloc

# 4. veth: recycle asked, alloc used
$BMT --tx v0 --rx v1 --size 64 --rate $RATE --count $N --tx-path recycle > /tmp/veth ||
	fail "veth trial"
exact "veth fallback" /tmp/veth alloc
$BMT port v0 > /tmp/port.v0 || fail "port v0"
check_eq "veth: paths the port allows" "$(kv tx_paths /tmp/port.v0)" alloc

# 5. igb with hardware tx stamps: alloc
$BMT --tx eth0 --rx eth1 --size 128 --rate 200 --count 400 --hwts > /tmp/hw ||
	fail "igb hwts trial"
check_eq "igb hwts: tx_path" "$(kv tx_path /tmp/hw)" alloc
check_eq "igb hwts: lost" "$(kv lost /tmp/hw)" 0

# 6. what a port allows, attached or not (DEV_GET), and through bmd:
#    e1000e eth2 was never attached here; bmctl port list shows each
#    port's paths as bmd's host sees them
nic_up eth2 eth3
$BMT dev eth2 > /tmp/dev.eth2 || fail "dev eth2"
check_eq "e1000e, not attached: paths" "$(kv tx_paths /tmp/dev.eth2)" alloc,recycle
$BMT dev v1 > /tmp/dev.v1 || fail "dev v1"
check_eq "veth: paths" "$(kv tx_paths /tmp/dev.v1)" alloc
if $BMT dev nosuch0 > /dev/null 2> /tmp/dev.err; then
	fail "dev of no device answered"
fi
grep -q "no such device" /tmp/dev.err || fail "dev nosuch0: $(cat /tmp/dev.err)"
bmd_start
$BMCTL port list > /tmp/ports.txt || fail "bmctl port list"
cat /tmp/ports.txt
grep -q "TXPATHS" /tmp/ports.txt || fail "bmctl port list has no TXPATHS column"
grep -E "(^| )eth0 .* alloc,recycle( |$)" /tmp/ports.txt > /dev/null ||
	fail "bmctl port list: eth0 is not alloc,recycle"
grep -E "(^| )v0 .* alloc( |$)" /tmp/ports.txt > /dev/null ||
	fail "bmctl port list: v0 is not alloc"
echo "ok: bmctl port list shows each port's transmit paths"
bmd_stop

# 7. a ring smaller than what the driver holds: misses, still exact
rmmod bmgen || fail "rmmod bmgen"
insmod /lib/modules/bmgen.ko tx_ring=8 || fail "insmod bmgen tx_ring=8"
$BMT --tx eth0 --rx eth1 --imix 64,1518,594 --flows 4 --burst 32 --gap 5000000 \
	--bursts $((N / 32)) > /tmp/small || fail "igb small ring trial"
N=$((N / 32 * 32))
exact "igb ring of 8" /tmp/small recycle
check_eq "igb ring of 8: largest batch" "$(kv tx_max_batch /tmp/small)" 32
check_range "igb ring of 8: misses" "$(kv tx_ring_misses /tmp/small)" $((N / 32 * 24)) $N
rmmod bmgen || fail "rmmod bmgen"
bm_load
